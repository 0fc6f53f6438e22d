# The truths test-scenarios/run-flap-bond.scn asserts on its slave-down run
# (balance-rr over eth0 and eth1, eth1's far end set down ~2.5 s after the
# run is launched and left down, a 5 s UDP run): prints true, or fails naming
# every check that did not hold.
([.findings[] | select(.id == "slave-down")]) as $sd
| ([$sd[] | select(.subject == "client/eth1") | .evidence.time_ms] | first) as $t
| (.test.duration_ms // 5000) as $dur
| [
  (if [$sd[] | .subject] == ["client/eth1", "agent/eth1"] then empty
   else "slave-down for client/eth1 and agent/eth1, nothing else" end),
  (if [$sd[] | .evidence.time_ms | numbers | select(. > 0 and . < $dur)] | length == 2 then empty
   else "both slave-down times within the run window (0, \($dur)) ms" end),
  (if [$sd[] | .evidence.mii_status] == ["down", "down"] then empty
   else "bonding's MII status of eth1 is down at the end on both ends" end),
  (if [.findings[] | select(.id == "link-flap")] == [] then empty
   else "a link that went down and stayed down is no link-flap" end),
  (if [.ends[].counters.link_events[] | select(.interface == "eth0")] == [] then empty
   else "eth0 never changed state" end),
  # the run went on over eth0: every interval that starts 0.5 s after the down carried data
  ([.intervals[] | select(.start_s * 1000 >= $t + 500)] as $after
   | if ($after | length) >= 1 and ([$after[] | .streams[0].received_bytes > 0] | all) then empty
     else "goodput after the down (intervals from \($t + 500) ms)" end),
  (.ends.agent.counters.interfaces as $i
   | if $i.eth0.rx_bytes > 2 * $i.eth1.rx_bytes then empty
     else "the agent's eth0 received > 2 x eth1's bytes (eth0 alone after the down)" end),
  (if .streams[0].received_packets > 0.5 * .streams[0].sent_packets then empty
   else "most datagrams arrived" end)
] | if length == 0 then true else error("failed: " + join("; ")) end
