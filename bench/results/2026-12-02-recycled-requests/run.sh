#!/usr/bin/env bash
# The one-door issue's HTTP row with instances reused, before and after this study's changes:
# 2026-07-28 `tools/call` over HTTP at 8 and 64 connections against `baseline-serde` in the same
# run, repetitions interleaved with the order of the servers rotating; with CALLGRIND=1, the
# user-space instructions a call of both builds (HTTP on 4 connections, and stdio one call at a
# time, which the changes do not touch). Writes runs.jsonl and instructions.jsonl; summarize.py
# turns them into summary.md.
#
#   BINS=/path REPS=11 CALLGRIND=1 bench/results/2026-12-02-recycled-requests/run.sh
#
# BINS holds before/mcp-wit and after/mcp-wit (`cargo build --release -p mcp-wit-cli` of each
# commit), loadgen and baseline-serde (`-p mcp-wit-bench --bin ...`). The fixture is the test
# fixtures' echo.wasm (`cargo build -p mcp-wit-tests`).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-12-02-recycled-requests
: "${BINS:?name the folder holding the binaries}"
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
echo_wasm=$target/guests/wasm32-wasip2/fixture/echo.wasm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Each build's cache filled, and settled (a file's facts are noted once unchanged for 5 s).
for build in before after; do
  "$BINS/$build/mcp-wit" serve "$echo_wasm" --cache-dir "$work/$build" < /dev/null 2> /dev/null
done
sleep 6

command_of() { # SERVER
  case $1 in
    before | after)
      echo "$BINS/$1/mcp-wit serve $echo_wasm --guest-output discard --cache-dir $work/$1 --http {addr}" \
        "--log-requests=false --max-instance-reuse-count 1000000" ;;
    serde-floor) echo "$BINS/baseline-serde --http {addr}" ;;
  esac
}

runs=$out/runs.jsonl
if (( REPS > 0 )); then : > "$runs"; fi
servers=(before after serde-floor)
for rep in $(seq "$REPS"); do
  for sessions in 8 64; do
    by=$((rep % ${#servers[@]}))
    for server in "${servers[@]:by}" "${servers[@]:0:by}"; do
      # shellcheck disable=SC2046 # a command line, split on purpose
      result=$("$BINS/loadgen" http --era modern --sessions "$sessions" --calls-per-session $((20000 / sessions)) \
        --warmup-per-session 20 -- $(command_of "$server") | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
      printf '{"row":"http-reused","server":"%s","point":%s,"rep":%s,"result":%s}\n' \
        "$server" "$sessions" "$rep" "$result" >> "$runs"
    done
  done
  echo "repetition $rep of $REPS done" >&2
done

if [[ ${CALLGRIND:-0} == 1 ]]; then
  # Instructions a call: two runs under callgrind, one with five times the calls of the other;
  # the difference over the calls between them leaves out start-up and warm-up. Code compiled on
  # the real CPU does not load under valgrind: each build fills a cache of its own there.
  instructions=$out/instructions.jsonl
  : > "$instructions"
  counted() { grep -m1 '^summary:' "$1" | cut -d' ' -f2; }
  for server in before after; do
    vg="$BINS/$server/mcp-wit serve $echo_wasm --guest-output discard --cache-dir $work/vg-$server --pool-instances 2"
    # shellcheck disable=SC2086
    valgrind --tool=none -q $vg < /dev/null 2> /dev/null
    for row in stdio http; do
      for calls in 1000 5000; do
        file=$work/cg.$server.$row.$calls
        if [[ $row == stdio ]]; then
          load=(--inflight 1 --calls "$calls" --warmup 10 --warmup-ms 0)
          extra=""
        else
          load=(http --era modern --sessions 4 --calls-per-session $((calls / 4)) --warmup-per-session 5)
          extra="--http {addr} --log-requests=false --max-instance-reuse-count 1000000"
        fi
        # shellcheck disable=SC2086
        "$BINS/loadgen" "${load[@]}" --timeout 900 -- \
          valgrind --tool=callgrind --callgrind-out-file="$file" $vg $extra > /dev/null
      done
      per_call=$(( ($(counted "$work/cg.$server.$row.5000") - $(counted "$work/cg.$server.$row.1000")) / 4000 ))
      printf '{"row":"%s","server":"%s","instructions_per_call":%s}\n' "$row" "$server" "$per_call" >> "$instructions"
    done
  done
fi
python3 "$out/summarize.py" "$out" > "$out/summary.md"
cat "$out/summary.md"
