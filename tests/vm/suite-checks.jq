# The truths test-scenarios/mixed-drivers.scn asserts on its `bondcheck run
# --quick` document: prints true, or fails naming every check that did not hold.
def links(t): [.links[] | select(.test == t and .end == "client") | {(.name): .}] | add;
[
  (if .kind == "run-suite" and .incomplete == false and .summary.fail >= 1 then empty
   else "complete, with a failing verdict" end),
  (if ([.findings[] | select(.id == "driver-mismatch") | .end] | sort) == ["agent", "client"] then empty
   else "driver-mismatch on both ends" end),
  (if (.ceilings.client.slaves[1] | .name == "eth1" and .rate_source == "tbf" and .rate_bps == 1500000)
   then empty else "eth1's ceiling is its 1.5 Mbit/s tbf" end),
  # Aggregation compares carried with potential, balance-rr's 3 x the slowest:
  # it passes when the bond carries what its equal shares allow (>= 80 %)
  (if (.verdicts.aggregation | .levels.compared == ["carried", "potential"]
       and ((.levels.potential_bps / 3 - 1434610) | fabs) < 1000
       and ((.rr_cap_bps / 3 - 1434610) | fabs) < 1000
       and ((.status == "pass") == (.headline >= 0.8)))
   then empty else "aggregation: carried against potential 3 x 1.43 Mbit/s, pass iff >= 80 %" end),
  (links("udp-over") as $l
   | if $l.eth1.efficiency >= 0.85 and $l.eth0.efficiency <= 0.7 and $l.eth2.efficiency <= 0.7
     then empty else "probe: eth1 >= 85 % of its ceiling, eth0/eth2 <= 70 %" end),
  (if (.verdicts.drivers | .cause_link == "eth1" and .cause.mechanism == "shaper"
       and .cause.where == "eth1" and .cause.evidence.qdisc == "tbf"
       and (.status == "fail" or (.status == "inconclusive" and .cpu_bound)))
   then empty else "Drivers names the tbf shaper on eth1 as what holds balance-rr back" end),
  (if (.verdicts.drivers.answer | test("a shaper sets eth1's ceiling: qdisc tbf at 1.50 Mbit/s")
       and test("not the 8139cp driver's")) then empty
   else "Drivers says a shaper sets eth1's ceiling, not the 8139cp driver" end),
  (if [.verdicts[] | select(.status == "pass" and .headline != null and .headline < 0.8)] == []
   then empty else "no PASS more than 20 % below potential" end)
] | if length == 0 then true else error("failed: " + join("; ")) end
