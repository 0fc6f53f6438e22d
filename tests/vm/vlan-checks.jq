# The truths test-scenarios/run-capture-vlan.scn asserts on its `bondcheck run
# --capture` document (a run over bond0.100 on both ends): prints true, or
# fails naming every check that did not hold.
def ls(p): [.capture.analysis.links[] | select(.name | startswith(p))];
.streams[0] as $s |
[
  (if [.ends.client.metadata.egress, .ends.agent.metadata.egress | .name + "/" + .via]
      == ["bond0/bond0.100", "bond0/bond0.100"]
   then empty else "egress: the bond below the VLAN on both ends" end),
  (if [.capture.client, .capture.agent | .bond + ":" + ([.interfaces[].name] | join(","))]
      == ["bond0:eth0,eth1,eth2", "bond0:eth0,eth1,eth2"]
   then empty else "captured the bond's three slaves on both ends, never bond0 or bond0.100" end),
  (if [.capture.client, .capture.agent | .interfaces[].pcap_stats.ps_drop] | add == 0
   then empty else "ps_drop 0 on all six" end),
  (if [ls("tx:client/")[] | .units_left > 300] | length == 3 and all
   then empty else "> 300 datagrams left on every client slave" end),
  (if [ls("rx:agent/")[] | .units_arrived > 300] | length == 3 and all
   then empty else "> 300 datagrams arrived on every agent slave" end),
  (if [ls("tx:")[] | (.name | sub("tx:client/"; "")) == (.peer // "" | sub("rx:agent/"; ""))] | all
   then empty else "each TX slave feeds the same-named RX slave" end),
  (if [ls("tx:")[] | .units_left] | add == $s.sent_packets
   then empty else "what left on the slaves = what the app sent" end),
  (if [.capture.analysis.links[] | .lost + .unbracketed] | add == 0
   then empty else "nothing lost or unbracketed" end),
  (if .capture.analysis.ledger | ([.[].drop] | add == 0)
      and [.[0].count, .[-1].count] == [$s.sent_packets, $s.received_packets]
      and $s.sent_packets == $s.received_packets
   then empty else "ledger balanced: every stage drops 0, first = sent = last = received" end),
  (if [.findings[] | select(.id | test("^(wire-loss|tx-loss|rx-loss|capture-incomplete)"))] | length == 0
   then empty else "no loss or capture-incomplete finding" end)
] | if length == 0 then true else error("failed: " + join("; ")) end
