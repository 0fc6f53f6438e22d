# The structure of a `bondcheck run --json` document, without its values:
# every scalar becomes its JSON type name, an array the merged shape of its
# elements (so optional members of any element show), and maps whose keys
# come from the host or the traffic (counter names, sysctls, interfaces, bond
# options, driver counters, RFC 5236 displacements) one "*" entry.  Used by
# the golden test golden/run-json-shape
# (tests/golden/CMakeLists.txt) and the testbed check tests/vm/place-check.sh:
# jq -S -f shape.jq RUN.json.  merge() takes its arguments as values ($a, $b):
# as filters they would be evaluated against reduce's accumulator, and the
# merged shape of a map's entries would depend on their order.
# When the document changes on purpose, regenerate both files from a testbed
# run (tools/testbed/testbed ... run test-scenarios/run-placement.scn):
#   cp OUT/place-check/eth0-eth1-eth2-eth3.json tests/data/run/802.3ad-place-4-slaves.json
#   jq -S -f tests/golden/run/shape.jq tests/data/run/802.3ad-place-4-slaves.json \
#     >tests/golden/run/802.3ad-place-4-slaves.shape.json
def merge($a; $b):
  if ($a | type) == "object" and ($b | type) == "object" then
    reduce (($a + $b) | keys_unsorted[]) as $k ({};
      .[$k] = (if ($a | has($k)) and ($b | has($k)) then merge($a[$k]; $b[$k])
               elif ($a | has($k)) then $a[$k] else $b[$k] end))
  elif ($a | type) == "array" and ($b | type) == "array" then
    (if ($a | length) == 0 then $b elif ($b | length) == 0 then $a else [merge($a[0]; $b[0])] end)
  elif $a == $b then $a
  elif $a == "null" then $b
  elif $b == "null" then $a
  else "\($a)|\($b)" end;
def shape:
  if type == "object" then with_entries(.value |= shape)
  elif type == "array" then
    (if length == 0 then [] else [reduce (.[] | shape) as $s (null; if . == null then $s else merge(.; $s) end)] end)
  else type end;
def keyless: if type == "object" and length > 0 then {"*": (reduce .[] as $v (null; if . == null then $v else merge(.; $v) end))} else . end;
shape
| (.. | objects | select(has("snmp")) | .snmp, .netstat) |= keyless
| (.. | objects | select(has("interfaces") and has("softnet")) | .interfaces) |= keyless
| (.. | objects | select(has("sysctls")) | .sysctls) |= keyless
| (.. | objects | select(has("options") and has("slaves")) | .options) |= keyless
| (.. | objects | select(has("driver_counters")) | .driver_counters, .standard_counters) |= keyless
| (.. | objects | select(has("reorder_density")) | .reorder_density) |= keyless
