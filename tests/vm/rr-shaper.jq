# The truths test-scenarios/rr-shaper.scn asserts on its `bondcheck run
# --quick` document (issue 14, item 11 d): a tbf on one slave of balance-rr
# is named as that link's ceiling, and Drivers blames no driver for it.
(.ceilings.client.slaves | map({(.name): .}) | add) as $s
| .verdicts.drivers as $d
| [
  (if .kind == "run-suite" and .schema_version == 2 and .incomplete == false then empty
   else "a complete suite document, schema 2" end),
  (if $s.eth1.rate_source == "tbf" and $s.eth1.rate_bps == 2000000 then empty
   else "eth1's ceiling comes from its 2 Mbit/s tbf" end),
  (if ((.capacity.tcp.levels.potential_bps / 3 - $s.eth1.tcp_ceiling_bps) | fabs) < 1000
   then empty else "potential = 3 x eth1's ceiling" end),
  (if $d.status == "fail" and $d.cause.mechanism == "shaper" and $d.cause.where == "eth1"
      and $d.cause.evidence.qdisc == "tbf" and $d.cause.evidence.driver == "veth"
   then empty else "Drivers names the tbf shaper on eth1" end),
  (if ($d.answer | test("a shaper sets eth1's ceiling: qdisc tbf")) and
      ($d.answer | test("not the veth driver's")) and (($d.text // "") | test("holds the bond back") | not)
   then empty else "the Drivers answer says a shaper sets it, not the driver" end),
  (if [.verdicts[] | select(.status == "pass" and .headline != null and .headline < 0.8)] == []
   then empty else "no PASS more than 20 % below potential" end)
] | if length == 0 then true else error("failed: " + join("; ")) end
