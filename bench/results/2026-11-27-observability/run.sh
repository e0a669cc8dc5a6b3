#!/usr/bin/env bash
# The measurements of bench/results/2026-11-27-observability/: the cost of
# what an operator sees, on the fastest paths there are (an echo over stdio
# at 32 in flight, and 2026-07-28 HTTP requests on reused instances), where
# any per-request cost shows most. Each server runs with nothing watched
# (metrics off, no request log, no traces), then with each of metrics, the
# request log and traces at 100% sampling (to an OTLP sink that keeps
# nothing), then all three; interleaved, REPS repetitions. Needs
# `cargo build --release -p mcp-wit-cli -p mcp-wit-bench --bins` first.
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=target/release
E=$(cargo run -q -p mcp-wit-tests --no-default-features --bin fixture-path -- echo)
REPS=${REPS:-5}
OUT=${OUT:-bench/results/2026-11-27-observability}
mkdir -p "$OUT"
: > "$OUT/runs.jsonl"
record() { # label, then loadgen's JSON on stdin
  python3 -c 'import json,sys; d=json.load(sys.stdin); d["label"]=sys.argv[1]; print(json.dumps(d))' "$1" >> "$OUT/runs.jsonl"
}
# The sink for traces, for the whole run.
coproc SINK { exec "$R/otlp-sink"; }
read -r _ SINK_ADDR <&"${SINK[0]}"
trap 'kill $SINK_PID 2>/dev/null || true' EXIT
OTLP="http://$SINK_ADDR"
watched() { # what is watched → the flags that say so (metrics on their own listener on stdio)
  local transport=$1 what=$2 metrics
  if [[ $transport == stdio ]]; then metrics=(--metrics 127.0.0.1:0); else metrics=(--metrics on); fi
  case $what in
    off) echo --metrics off --log-requests=false ;;
    metrics) echo "${metrics[@]}" --log-requests=false ;;
    logs) echo --metrics off --log-requests=true ;;
    traces) echo --metrics off --log-requests=false --otlp-endpoint "$OTLP" ;;
    all) echo "${metrics[@]}" --log-requests=true --otlp-endpoint "$OTLP" ;;
  esac
}
for rep in $(seq "$REPS"); do
  for what in off metrics logs traces all; do
    # shellcheck disable=SC2046
    "$R/loadgen" --inflight 32 --calls 20000 -- "$R/mcp-wit" serve "$E" --guest-output discard $(watched stdio $what) \
      2>/dev/null | record "stdio legacy 32 $what"
    # shellcheck disable=SC2046
    "$R/loadgen" http --era modern --sessions 64 --calls-per-session 250 -- \
      "$R/mcp-wit" serve "$E" --http '{addr}' --guest-output discard --max-instance-reuse-count 1000000 \
      $(watched http $what) 2>/dev/null | record "http modern 64 $what"
  done
done
python3 - "$OUT/runs.jsonl" > "$OUT/summary.md" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in runs:
    by.setdefault(r["label"], []).append(r)
med = lambda label, key: statistics.median(r[key] for r in by[label])
print("| run | calls/s | server CPU µs/call | p50 µs | calls/s ÷ off | CPU ÷ off | reps |")
print("|---|---:|---:|---:|---:|---:|---:|")
for label in by:
    base = label.rsplit(" ", 1)[0] + " off"
    print(f"| {label} | {med(label,'calls_per_sec'):,.0f} | {med(label,'cpu_us_per_call'):.2f} | {med(label,'p50_us'):.0f} | "
          f"{med(label,'calls_per_sec')/med(base,'calls_per_sec'):.3f} | {med(label,'cpu_us_per_call')/med(base,'cpu_us_per_call'):.3f} | {len(by[label])} |")
PY
cat "$OUT/summary.md"
