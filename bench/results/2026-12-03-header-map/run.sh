#!/usr/bin/env bash
# The response's headers carried in the request's map (hyper hands it to the connection's next
# request, which then fits without growing it): the HTTP row of the one-door issue's table, a
# 2026-07-28 `tools/call` with instances reused, before (`e03b1ac`) and after, against the hyper
# + serde_json floor in the same run, repetitions interleaved and the servers' order rotating.
# Writes runs.jsonl and, with CALLGRIND=1, instructions.jsonl (user-space instructions a call,
# 4 connections: the difference between runs of 1,000 and 5,000 calls, over the 4,000 between);
# summarize.py turns both into summary.md.
#
#   BINS=/path REPS=9 CALLGRIND=1 bench/results/2026-12-03-header-map/run.sh
#
# BINS holds before/mcp-wit (`cargo build --release -p mcp-wit-cli` of e03b1ac) and, from this
# commit, mcp-wit, loadgen and baseline-serde (`-p mcp-wit-bench --bin ...`); the echo router is
# the test fixture (`cargo build -p mcp-wit-tests`).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-12-03-header-map
: "${BINS:?name the folder holding the binaries}"
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
echo_wasm=$target/guests/wasm32-wasip2/fixture/echo.wasm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

binary_of() { case $1 in before) echo "$BINS/before/mcp-wit" ;; after) echo "$BINS/mcp-wit" ;; esac; }
# Each build fills a cache of its own (code compiled under valgrind apart: valgrind reports other
# CPU features), then its facts settle (5 s): every start below is a cached start.
for build in before after; do
  "$(binary_of $build)" serve "$echo_wasm" --cache-dir "$work/$build" --pool-instances 2 < /dev/null 2> /dev/null
  if [[ ${CALLGRIND:-0} == 1 ]]; then
    valgrind --tool=none -q "$(binary_of $build)" serve "$echo_wasm" --cache-dir "$work/vg-$build" --pool-instances 2 \
      < /dev/null 2> /dev/null
  fi
done
sleep 6
command_of() { # SERVER [CACHE-PREFIX]: its command line, serving HTTP on {addr}
  case $1 in
    before | after) echo "$(binary_of "$1") serve $echo_wasm --guest-output discard --cache-dir $work/${2:-}$1 \
      --pool-instances 2 --http {addr} --log-requests=false --max-instance-reuse-count 1000000" ;;
    serde-floor) echo "$BINS/baseline-serde --http {addr}" ;;
  esac
}

: > "$out/runs.jsonl"
for rep in $(seq "$REPS"); do
  servers=(before after serde-floor)
  by=$((rep % 3))
  for sessions in 8 64; do
    for server in "${servers[@]:by}" "${servers[@]:0:by}"; do
      # shellcheck disable=SC2046 # a command line, split on purpose
      result=$("$BINS/loadgen" http --era modern --sessions "$sessions" --calls-per-session $((20000 / sessions)) \
        --warmup-per-session 20 -- $(command_of "$server") | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
      printf '{"server":"%s","point":%s,"rep":%s,"result":%s}\n' "$server" "$sessions" "$rep" "$result" >> "$out/runs.jsonl"
    done
  done
  echo "repetition $rep of $REPS done" >&2
done

if [[ ${CALLGRIND:-0} == 1 ]]; then
  : > "$out/instructions.jsonl"
  counted() { grep -m1 '^summary:' "$work/cg.$server.$1" | cut -d' ' -f2; } # CALLS: what callgrind counted
  for server in before after serde-floor; do
    for calls in 1000 5000; do
      # shellcheck disable=SC2046
      "$BINS/loadgen" http --era modern --sessions 4 --calls-per-session $((calls / 4)) --warmup-per-session 5 \
        --timeout 900 -- valgrind --tool=callgrind --callgrind-out-file="$work/cg.$server.$calls" \
        $(command_of "$server" vg-) > /dev/null
    done
    printf '{"server":"%s","instructions_per_call":%s}\n' "$server" \
      $(( ($(counted 5000) - $(counted 1000)) / 4000 )) >> "$out/instructions.jsonl"
  done
fi
python3 "$out/summarize.py" "$out" > "$out/summary.md"
cat "$out/summary.md"
