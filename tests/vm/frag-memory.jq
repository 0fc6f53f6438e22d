# The truths test-scenarios/run-frag-memory.scn asserts on its `bondcheck run
# -u -P 2 -l 10240 --capture` document (balance-rr over two veth links, no
# loss on them, the receiver's ipfrag_high_thresh 20480): prints true, or
# fails naming every check that did not hold.
.capture.analysis as $a
| $a.ledger as $g
| ([.streams[].lost_packets] | add) as $lost
| ([.intervals[].streams[].lost_packets] | add) as $ivl_lost
| [
  (if $lost >= 0.5 * ([.streams[].sent_packets] | add) then empty
   else "most messages are lost (\($lost))" end),
  (if [$g[1].drop, $g[2].drop] == [0, 0] then empty
   else "every message left and reached the receiver's taps (left/arrived drop 0)" end),
  (if $g[3].drop >= 0.9 * $lost and $g[3].explained == $g[3].drop then empty
   else "the reassembled stage holds >= 90 % of the loss, all explained" end),
  (if $g[4].drop == 0 and $g[5].drop == 0 then empty
   else "nothing lost after reassembly" end),
  (if $a.reassembly.reason == "memory" and $a.reassembly.ipfrag_high_thresh == 20480
      and ($a.reassembly.other_traffic | not) then empty
   else "reassembly reason memory, ipfrag_high_thresh 20480, no other traffic" end),
  (if .ends.agent.counters.snmp["Ip.ReasmFails"] > $g[3].drop
      and .ends.agent.counters.snmp["Ip.ReasmReqds"] == $a.fragments.fragments_arrived then empty
   else "ReasmFails (per fragment) exceeds the messages lost; ReasmReqds = the fragments captured" end),
  (if [.findings[] | select(.id == "rx-loss-reassembly") | [.subject, .evidence.count]]
      == [["agent/bond0", "\($g[3].drop)"]] then empty
   else "one rx-loss-reassembly on agent/bond0 with the stage's count" end),
  (if [.findings[] | select(.id == "rx-loss-reassembly")
       | (.evidence.counter | test("ipfrag_high_thresh \\(20480 bytes\\)"))
         and (.advice | test("raise net.ipv4.ipfrag_high_thresh"))
         and (.advice | test("at most 1472 bytes"))] == [true] then empty
   else "its counter names ipfrag_high_thresh (20480 bytes), its advice the sysctl and 1472 bytes" end),
  (if [.findings[] | select(.id == "wire-loss" or .id == "capture-incomplete")] == [] then empty
   else "no wire-loss, no capture-incomplete" end),
  (if $ivl_lost >= 0.5 * $lost then empty
   else "the interval lines count the loss as it happens (\($ivl_lost) of \($lost))" end)
] | if length == 0 then true else error("failed: " + join("; ")) end
