# The truths test-scenarios/lacp-mixed-speed.scn asserts on its `bondcheck
# run --quick` document (issue 14, item 11 a): prints true, or fails naming
# every check that did not hold.
def near(a; b): ((a - b) | fabs) <= 0.01 * b;
(.ceilings.client.slaves | map({(.name): .}) | add) as $s
| .verdicts.aggregation as $a | .verdicts.drivers as $d
| [
  (if .kind == "run-suite" and .schema_version == 2 and .incomplete == false then empty
   else "a complete suite document, schema 2" end),
  (if ($s.eth0.driver == "8139cp" and $s.eth0.speed_mbps == 100
       and $s.eth1.driver == "e1000" and $s.eth1.speed_mbps == 1000) then empty
   else "eth0 is the 8139cp at 100 Mb/s, eth1 the e1000 at 1000" end),
  # the kernel put the ports in two aggregators and selected the 8139cp's
  (if .capacity.tcp.best_aggregator_ports == ["eth1"] and .capacity.tcp.selected_ports == ["eth0"]
   then empty else "best aggregator [eth1], selected [eth0]" end),
  (if near(.capacity.tcp.levels.potential_bps; $s.eth1.tcp_ceiling_bps)
      and near(.capacity.tcp.levels.selected_bps; $s.eth0.tcp_ceiling_bps)
   then empty else "potential = eth1's ceiling, selected = eth0's" end),
  (if $a.status == "fail" and $a.cause.mechanism == "aggregator-selection" and $a.cause.where == "eth1"
      and $a.cause.evidence.active_key == "7" and $a.cause.evidence.best_key == "9"
      and $a.cause.evidence.ad_select == "stable"
      and ($a.levels.compared == ["carried", "potential"]) and $a.headline < 0.5
   then empty else "Aggregation fails on selection, naming eth1, keys 7/9 and ad_select" end),
  (if ($a.next_step | test("ad_select bandwidth")) and ($a.next_step | test("never aggregate"))
   then empty else "the next step is ad_select bandwidth, and mixed speeds never aggregate" end),
  (if $d.status == "fail" and $d.cause.mechanism == "lacp-key"
      and ($d.cause.evidence.keys | test("eth0=7 .*eth1=9 "))
      and $d.levels.compared == ["selected", "installed"]
   then empty else "Drivers fails on the speed keys with the capacity they keep out" end),
  (if [.verdicts[] | select(.status == "pass" and .headline != null and .headline < 0.8)] == []
   then empty else "no PASS more than 20 % below potential" end)
] | if length == 0 then true else error("failed: " + join("; ")) end
