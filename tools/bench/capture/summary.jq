# One line per `bondcheck run --capture -j` document for the capture keep-up
# benchmark (keep-up.scn): offered and achieved rates, datagrams sent and
# received, per slave and end the frames written, ps_recv and ps_drop, the
# CPU-bound flags and busiest CPU, capture-incomplete findings and the bounds.
{
  run: $run,
  offered_bps: ([.streams[] | .offered_bps // 0] | add),
  sent: ([.streams[] | .sent_packets // 0] | add),
  received: ([.streams[] | .received_packets // 0] | add),
  lost: ([.streams[] | .lost_packets // 0] | add),
  send_rate_bps: ([.streams[] | .send_rate_bps // 0] | add | floor),
  goodput_bps: ([.streams[] | .goodput_bps // 0] | add | floor),
  capture: [.capture.client, .capture.agent | .host as $h
    | .interfaces[] | "\($h)/\(.name) \(.frames)/\(.pcap_stats.ps_recv)/\(.pcap_stats.ps_drop)"],
  ps_drop: ([.capture.client, .capture.agent | .interfaces[].pcap_stats.ps_drop] | add),
  cpu_bound: [.ends.client.counters.cpu_bound, .ends.agent.counters.cpu_bound],
  cpu_busy_pct: [.ends.client.counters.cpu[]? | .busy_pct // 0 | floor],
  capture_complete: .capture.analysis.capture_complete,
  loss_bound: .capture.analysis.loss_bound,
  reorder_bound: .capture.analysis.reordering.bound,
  incomplete: [.findings[] | select(.id == "capture-incomplete") | .subject],
  findings: [.findings[].id]
}
