# The derived members of an analysed `bondcheck run` suite document (what
# bc_suite_analyze() adds: ceilings, links, flows, ledger, reordering,
# findings, verdicts, summary, the search summary, capacity, schema_version) reduced to keys and JSON
# types; the measured tests and both ends' documents are left out (the run
# results' own shape is pinned by tests/golden/run/).  Used by
# golden/run-suite-*-shape: bondcheck run --from-json F -j | jq -S -f shape.jq
def shape:
  if type == "object" then with_entries(.value |= shape)
  elif type == "array" then (if length == 0 then [] else [.[0] | shape] end)
  else type end;
(if .reordering.udp then .reordering.udp.reorder_density = {"*": 0} else . end)
| {schema_version, capacity, ceilings, links, flows, ledger, ledger_test, ledger_direction, reordering,
 verdicts: (.verdicts | with_entries(.value |= del(.links))),
 summary, udp_search: (.udp_search | del(.trials)), placement,
 findings: [.findings[] | {id, severity, subject, source, sources, "end": .end, expected}]}
| shape
