# `bondcheck watch -j` summary line (test-scenarios/watch-xor.scn), with
# --argjson streams N: the iperf3 streams that ran, --arg src predicted|taps:
# where the flows' slaves come from.  Prints the checks that failed; true
# when none did.
def fail($c; $why): if $c then empty else $why end;
. as $s
| ([.slaves[].tx_bps] | add) as $bond
| [
    fail(.type == "summary" and .flow_source == $src; "not a summary of flows from \($src)"),
    fail([.flows[] | select(.tx_bps > 0.05 * $bond)] | length >= $streams;
         "fewer busy flows than the \($streams) streams"),
    fail([.flows[] | select(.tx_bps > 0.05 * $bond) | .tx_slave != null and
          .tx_source == (if $src == "taps" then "observed" else "predicted" end)]
         | all; "a busy flow without a \($src) slave"),
    # with the taps, the truth for each connection: the hash's prediction is the slave it left by
    fail($src != "taps" or ([.flows[] | select(.socket and .tx_bps > 0.05 * $bond) |
          .tx_slave == .tx_slave_predicted and .rx_slave != null] | all);
         "a connection whose observed TX slave is not the predicted one, or without an RX slave"),
    # the truth: each slave's TX counter against the flows predicted onto it
    (.slaves[] | fail((.tx_bps - .flows_tx_bps | if . < 0 then -. else . end) <= 0.15 * $bond;
         "\(.name): counter \(.tx_bps) bit/s, flows predicted onto it \(.flows_tx_bps) bit/s")),
    fail(([.flows[].tx_bps] | add) >= 0.85 * $bond and ([.flows[].tx_bps] | add) <= 1.02 * $bond;
         "the flows' TX is not the bond's"),
    fail(.verdicts.ports.status == "pass"; "ports: \(.verdicts.ports.status)"),
    # a few dozen flows in a table of thousands: the LRU evicted none (inserted - present)
    fail($src != "taps" or .tap_flow_table.evicted == 0;
         "the taps' flow table evicted \(.tap_flow_table.evicted) with room to spare")
  ] as $f
| if ($f | length) == 0 then true else error("failed: " + ($f | join("; "))) end
