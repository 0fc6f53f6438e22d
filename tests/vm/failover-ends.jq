# jq -e --arg check NAME -f failover-ends.jq /tmp/bc-out/fo-CASE.json: the per-end checks of
# test-scenarios/failover.scn (cases 4b, 4c, 4d and 7), one NAME each so that a failure names
# what failed.  Tolerances as in the scenario: the tool's limit plus the run's host_stall_ms.
.host_stall_ms as $s |
if $check == "asym-expect" then
  .expected | .ends_differ == "lacp_rate client fast, agent slow"
  and ([.directions[] | [.detected_by, .min_ms, .worst_ms]]
       == [[["client"], 1900, 3100], [["agent"], 59900, 90100]])
elif $check == "lacp-gaps" then
  # 4a: the flows on the cut slave, interrupted for the LACP timeout: 1900 ms less cut_took_ms
  # (the two-way cut is two qdisc replaces, not one moment) .. 4075 ms plus the host's stall
  .cut_took_ms as $c
  | [.streams[] | select(.used_cut_slave)
     | .interrupted and .down.gap_ms >= 1900 - $c and .down.gap_ms <= 4075 + $s] == [true, true]
elif $check == "asym-verdict" then
  # the lower bound less cut_took_ms: the two-way cut is two qdisc replaces, not one moment (failover.scn 4a)
  .cut_took_ms as $c
  | .directions | .[0].verdict == "within" and .[0].gap_ms >= 1900 - $c and .[0].gap_ms <= 4075 + $s
  and .[1].verdict == "inconclusive"
  and (.[1].why | test("agent's detection \\(up to 90100 ms") and test("agent kept sending on agent/a3"))
elif $check == "asym-findings" then
  ([.findings[] | [.id, .severity, .evidence.direction]]
   | any(.[]; . == ["failover-ends-differ", "warning", null])
     and map(select(.[0] == "failover-black-hole")) == [["failover-black-hole", "error", "agent-to-client"]])
  and .restore.ok
elif $check == "carrier-expect" then
  .expected | .per_end.client.sees == "carrier" and .per_end.agent.sees == "far-carrier"
  and .directions[0].worst_ms == 0 and .directions[1].far_carrier and .directions[1].worst_ms == 3100
elif $check == "carrier-gaps" then
  # the client drops a3 at once: its flow moves within 300 ms, with or without loss
  [.streams[] | select(.used_cut_slave)
   | [.direction, (if .direction == "client-to-agent" then .moved and .down.gap_ms <= 300 + $s
                   else .interrupted and .down.gap_ms >= 1900 and .down.gap_ms <= 4075 + $s end)]]
  | sort == [["agent-to-client", true], ["client-to-agent", true]]
elif $check == "carrier-verdict" then
  (.directions[0].verdict | IN("within", "not-interrupted")) and .directions[1].verdict == "within"
  and [.findings[].id] == [] and .restore.ok
  and (.links[] | select(.name == "agent/a3") | .lacp_timeout_ms != null)
elif $check == "oneway-verdict" then
  [.directions[].verdict] == ["black-hole", "not-interrupted"]
  and (.directions[0].why | test("client kept sending on client/a3"))
elif $check == "oneway-findings" then
  [.findings[] | select(.id == "failover-black-hole")
   | [.evidence.direction, (.advice | test("one-way cut")), (.advice | test("arp_ip_target|relearn") | not)]]
  == [["client-to-agent", true, true]]
elif $check == "oneway-lacp" then
  (.links[] | select(.name == "client/a3") | .lacp_partner_heard_late)
  and (.links[] | select(.name == "agent/a3")
       | .lacp_timeout_ms != null and .lacp_partner_last_ms != null and .lacp_timeout_expected_ms == 3000)
  and .restore.ok
elif $check == "validate-findings" then
  [.findings[] | select(.id == "failover-no-takeover") | [.evidence.end, (.evidence.why | test("b1 is (going )?down"))]]
  == [["client", true], ["agent", true]]
  and (.findings[] | select(.id == "failover-no-takeover" and .evidence.end == "client") | .evidence.why
       | test("arp_validate all"))
  and [.directions[].verdict] == ["inconclusive", "inconclusive"]
elif $check == "validate-restore" then
  .restore.ok and .restore.report.stable and .restore.report.waited_ms < 20000
else
  error("unknown check \($check)")
end
