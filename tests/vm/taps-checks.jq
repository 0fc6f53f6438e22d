# The truths test-scenarios/run-capture-taps.scn asserts on its `bondcheck run
# --capture both` document (balance-rr over three wires, a tbf dropping on
# the client's eth1): prints true, or fails naming every check that did not
# hold.
def abs: if . < 0 then -. else . end;
.capture as $c | $c.analysis as $t | $c.analysis_pcap as $p |
($c.tap_vs_pcap[] | select(.link == "tx:client/eth1") | .qdisc_drops) as $qd |
[
  (if $c.source == "both" and $c.client.taps.attach == "clsact" and $c.agent.taps.attach == "clsact"
   then empty else "both sources on both ends, the taps in clsact mode" end),
  (if [$c.client, $c.agent | .taps.counters.ring_drop] | add == 0
   then empty else "no ring record lost" end),
  # the qdisc dropped on eth1, and exactly those frames differ
  (if $qd > 0 and ($c.tap_vs_pcap[] | select(.link == "tx:client/eth1") | .differ_frames == $qd)
   then empty else "tx:client/eth1: taps - pcap frames = the qdisc's drops (\($qd))" end),
  (if [$c.tap_vs_pcap[] | select(.link != "tx:client/eth1") | .differ_frames] | all(. == 0)
   then empty else "every other link: the same frames from taps and pcap" end),
  # the same attribution for the frames both saw
  (if [$t, $p | [.links[] | select(.name | startswith("rx:")) | [.name, .units_arrived]]] | .[0] == .[1]
   then empty else "the same arrivals per receiving link" end),
  (if [$t, $p | [.links[] | [.name, .lost]]] | .[0] == .[1]
   then empty else "the same loss per link" end),
  # paths: a datagram the qdisc refused (ENOBUFS) is offered again, by
  # balance-rr on the next slave; the taps' attribution puts it on the link
  # of its first offer (eth1), pcap on the one it left by: at most the
  # qdisc's drops move between paths
  ([$t, $p | [.paths[] | {key: (.left_on + ">" + .arrived_on), value: .packets}] | from_entries]
   as [$tp, $pp] | ([$tp, $pp] | add | keys) as $k
   | (([$k[] | (($tp[.] // 0) - ($pp[.] // 0)) | abs] | add) / 2)
   | if . <= $qd then empty else "paths: \(.) datagrams moved, more than the qdisc's \($qd) drops" end),
  # reordering at the receiver: the taps stamp an arrival at tc ingress, pcap
  # at its tap before it, so two arrivals on different slaves a few us apart
  # may swap: the total within 1 %, the pairs of >= 50 within 5 %
  (if $p.reordering.reordered > 0
      and (($t.reordering.reordered - $p.reordering.reordered) | abs) <= 0.01 * $p.reordering.reordered
   then empty else "reordered: taps \($t.reordering.reordered), pcap \($p.reordering.reordered)" end),
  ($p.reordering.pairs[] | select(.count >= 50) | . as $x
   | ([$t.reordering.pairs[] | select(.early_link == $x.early_link and .late_link == $x.late_link)
       | .count] | add // 0) as $n
   | if (($n - $x.count) | abs) <= 0.05 * $x.count then empty
     else "pair \($x.early_link) -> \($x.late_link): taps \($n), pcap \($x.count)" end)
] | if length == 0 then true else error(join("; ")) end
