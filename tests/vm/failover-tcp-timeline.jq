# The TCP segments of failover.scn case 6 (`failover --tcp`, active-backup a1 -> b1) in the
# timeline: agent/a1 carried the flow before the cut, agent/b1 not before it and from the bin
# where the stall ended at the latest; the agent's slaves count no more segments than arrived.
# Prints true, or fails naming every check that did not hold.
.timeline as $t | .tcp as $c | ($t.bin_ns / 1e6) as $w |
def first($n): [$t.links[] | select(.name == $n) | .tcp_frames // [] | to_entries
                | map(select(.value > 0)) | .[0].key // null | if . == null then null
                  else . * $w + $t.start_ms end][0];
[
  (if first("agent/a1") != null and first("agent/a1") < 0
   then empty else "agent/a1 carried TCP before the cut (first bin \(first("agent/a1")) ms)" end),
  (if first("agent/b1") != null and first("agent/b1") >= -$w and first("agent/b1") <= $c.first_after_ms
   then empty else "agent/b1 carried TCP from the cut to the stall's end \($c.first_after_ms) ms at the latest (first bin \(first("agent/b1")) ms)" end),
  (if ([$t.links[] | select(.name | startswith("agent/")) | .tcp_frames // [] | add // 0] | add) <= $c.segments_arrived
   then empty else "the agent's slaves count no more TCP segments than arrived (\($c.segments_arrived))" end)
] | if length == 0 then true else error("failed: " + join("; ")) end
