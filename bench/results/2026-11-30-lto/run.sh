#!/usr/bin/env bash
# The release profile with whole-program LTO against the profile before it: the host, and the
# floors each built both ways, so that every ratio compares builds made alike. Rows: stdio one call
# at a time on one CPU, HTTP 2026-07-28 with instances reused (8 and 64 connections), ready (spawn
# to the answer of `initialize`, cached component), and user-space instructions a call (callgrind).
#
# $BINS/plain/ and $BINS/lto/ each hold mcp-wit, baseline-serde and baseline-rmcp, built by
#   cargo build --profile P -p mcp-wit-cli && cargo build --profile P -p mcp-wit-bench \
#     --bin baseline-serde --bin baseline-rmcp
# with P = quick-release (plain/) and P = release (lto/); $BINS/loadgen is any build of loadgen.
#   BINS=/path REPS=7 bench/results/2026-11-30-lto/run.sh   # writes runs.jsonl, summary.md
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-11-30-lto
: "${BINS:?name the folder holding the binaries}"
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
echo_wasm=$target/guests/wasm32-wasip2/fixture/echo.wasm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every start below is a cached start: each build fills its own cache first.
for build in plain lto; do
  "$BINS/$build/mcp-wit" serve "$echo_wasm" --cache-dir "$work/$build" < /dev/null 2> /dev/null
done
host() { # BUILD, then serve's own arguments
  local build=$1; shift
  echo "$BINS/$build/mcp-wit" serve "$echo_wasm" --guest-output discard --cache-dir "$work/$build" "$@"
}
reused="--log-requests=false --max-instance-reuse-count 1000000"
names=(plain lto)

runs=$out/runs.jsonl
: > "$runs"
record() { # ROW BUILD SERVER POINT REP RESULT
  printf '{"row":"%s","build":"%s","server":"%s","point":%s,"rep":%s,"result":%s}\n' "$@" >> "$runs"
}
load() { "$BINS/loadgen" "$@" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))'; }
for rep in $(seq "$REPS"); do
  # Rotate the order, so that drift hits every build alike.
  if (( rep % 2 )); then order=(plain lto); else order=(lto plain); fi
  for build in "${order[@]}"; do
    # shellcheck disable=SC2046 # command lines, split on purpose
    record stdio-1-one-cpu "$build" host 1 "$rep" "$(load --inflight 1 --cpus 0 -- $(host "$build"))"
    record stdio-1-one-cpu "$build" serde-floor 1 "$rep" "$(load --inflight 1 --cpus 0 -- "$BINS/$build/baseline-serde")"
    for sessions in 8 64; do
      http=(http --era modern --sessions "$sessions" --calls-per-session $((16000 / sessions)) --warmup-per-session 20)
      # shellcheck disable=SC2046
      record http-reused "$build" host "$sessions" "$rep" "$(load "${http[@]}" -- $(host "$build" --http '{addr}' $reused))"
      record http-reused "$build" serde-floor "$sessions" "$rep" "$(load "${http[@]}" -- "$BINS/$build/baseline-serde" --http '{addr}')"
    done
    # shellcheck disable=SC2046
    record ready "$build" host 1 "$rep" "$(load cold-start --runs 40 -- $(host "$build"))"
    record ready "$build" rmcp 1 "$rep" "$(load cold-start --runs 40 -- "$BINS/$build/baseline-rmcp")"
  done
  echo "repetition $rep of $REPS done" >&2
done

# Instructions a call: two runs under callgrind, one with five times the calls of the other; the
# difference over the calls between them leaves out start-up and warm-up. Code compiled on the
# real CPU does not load under valgrind, which reports other CPU features: each build fills a
# cache of its own there.
instructions=$out/instructions.jsonl
: > "$instructions"
counted() { grep -m1 '^summary:' "$1" | cut -d' ' -f2; }
for build in "${names[@]}"; do
  vg="$BINS/$build/mcp-wit serve $echo_wasm --guest-output discard --cache-dir $work/vg-$build --pool-instances 2"
  # shellcheck disable=SC2086
  valgrind --tool=none -q $vg < /dev/null 2> /dev/null
  for row in stdio http; do
    for calls in 1000 5000; do
      file=$work/cg.$build.$row.$calls
      if [[ $row == stdio ]]; then
        args=(--inflight 1 --calls "$calls" --warmup 10 --warmup-ms 0)
        extra=""
      else
        args=(http --era modern --sessions 4 --calls-per-session $((calls / 4)) --warmup-per-session 5)
        extra="--http {addr} $reused"
      fi
      # shellcheck disable=SC2086
      "$BINS/loadgen" "${args[@]}" --timeout 900 -- \
        valgrind --tool=callgrind --callgrind-out-file="$file" $vg $extra > /dev/null
    done
    per_call=$(( ($(counted "$work/cg.$build.$row.5000") - $(counted "$work/cg.$build.$row.1000")) / 4000 ))
    printf '{"row":"%s","build":"%s","instructions_per_call":%s}\n' "$row" "$build" "$per_call" >> "$instructions"
  done
done
python3 "$out/summarize.py" "$out" > "$out/summary.md"
cat "$out/summary.md"
