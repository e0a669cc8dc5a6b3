#!/usr/bin/env bash
# The measurements of bench/results/2026-11-26-engine/: 2026-07-28 requests
# over Streamable HTTP (the hyper + serde_json floor, rmcp, mcp-wit with a
# fresh instance per request, with instances reused), stdio in both eras,
# and stdio on one CPU; interleaved, REPS repetitions. Needs
# `cargo build --release -p mcp-wit-cli -p mcp-wit-bench --bins` first.
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=target/release
E=$(cargo run -q -p mcp-wit-tests --no-default-features --bin fixture-path -- echo)
REPS=${REPS:-3}
OUT=${OUT:-bench/results/2026-11-26-engine}
mkdir -p "$OUT"
: > "$OUT/runs.jsonl"
record() { # label, then loadgen's JSON on stdin
  python3 -c 'import json,sys; d=json.load(sys.stdin); d["label"]=sys.argv[1]; print(json.dumps(d))' "$1" >> "$OUT/runs.jsonl"
}
for rep in $(seq "$REPS"); do
  for sessions in 8 64 256; do
    calls=$((16000 / sessions))
    for server in floor rmcp fresh reuse; do
      case $server in
        floor) cmd=("$R/baseline-serde" --http '{addr}') ;;
        rmcp) cmd=("$R/baseline-rmcp" --http '{addr}') ;;
        fresh) cmd=("$R/mcp-wit" serve "$E" --http '{addr}' --guest-output discard) ;;
        reuse) cmd=("$R/mcp-wit" serve "$E" --http '{addr}' --guest-output discard --max-instance-reuse-count 1000000) ;;
      esac
      "$R/loadgen" http --era modern --sessions "$sessions" --calls-per-session "$calls" -- "${cmd[@]}" 2>/dev/null \
        | record "http modern $server $sessions"
    done
  done
  for era in legacy modern; do
    for inflight in 1 32; do
      "$R/loadgen" --era "$era" --inflight "$inflight" --calls 20000 -- "$R/mcp-wit" serve "$E" --guest-output discard \
        2>/dev/null | record "stdio $era mcp-wit $inflight"
    done
    "$R/loadgen" --era "$era" --inflight 1 --calls 20000 --cpus 0 -- "$R/mcp-wit" serve "$E" --guest-output discard \
      2>/dev/null | record "stdio-1cpu $era mcp-wit 1"
  done
  "$R/loadgen" --inflight 1 --calls 20000 --cpus 0 -- "$R/baseline-serde" 2>/dev/null | record "stdio-1cpu legacy floor 1"
done
python3 - "$OUT/runs.jsonl" > "$OUT/summary.md" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in runs:
    by.setdefault(r["label"], []).append(r)
med = lambda label, key: statistics.median(r[key] for r in by[label])
print("| run | calls/s | server CPU µs/call | p50 µs | reps |")
print("|---|---:|---:|---:|---:|")
for label in by:
    print(f"| {label} | {med(label,'calls_per_sec'):,.0f} | {med(label,'cpu_us_per_call'):.1f} | {med(label,'p50_us'):.1f} | {len(by[label])} |")
print()
print("| sessions | fresh CPU ÷ floor | reuse CPU ÷ floor | fresh calls/s ÷ floor | reuse calls/s ÷ floor | reuse ÷ rmcp calls/s |")
print("|---:|---:|---:|---:|---:|---:|")
for s in (8, 64, 256):
    f = lambda server, key: med(f"http modern {server} {s}", key)
    print(f"| {s} | {f('fresh','cpu_us_per_call')/f('floor','cpu_us_per_call'):.2f}× | {f('reuse','cpu_us_per_call')/f('floor','cpu_us_per_call'):.2f}× | "
          f"{f('fresh','calls_per_sec')/f('floor','calls_per_sec'):.2f}× | {f('reuse','calls_per_sec')/f('floor','calls_per_sec'):.2f}× | {f('reuse','calls_per_sec')/f('rmcp','calls_per_sec'):.2f}× |")
PY
cat "$OUT/summary.md"
