#!/usr/bin/env bash
# Outgoing HTTP linked only for a component that imports it, and a request's boxed futures built
# in blocks the thread keeps: before and after, with the floors in the same run, repetitions
# interleaved with the order of the servers rotating.
# - HTTP 2026-07-28 with instances reused, 8 and 64 connections, against `baseline-serde`;
# - stdio ready (spawn to the answer of `initialize`, the component in the cache) of `mcp-wit
#   serve`, against rmcp's stdio server. (`mcp-wit-serve` links no outgoing HTTP, and serves no
#   HTTP: neither change reaches it.)
# With CALLGRIND=1, user-space instructions: a call over HTTP (4 connections) and a whole cached
# start (spawn, `initialize`, end of input, exit, and the linker's part of it), for each build.
# Writes runs.jsonl and instructions.jsonl; summarize.py turns them into summary.md.
#
#   BINS=/path REPS=9 CALLGRIND=1 bench/results/2026-12-02-kept-futures/run.sh
#
# BINS holds before/mcp-wit (`cargo build --release -p mcp-wit-cli` of the commit before),
# linked/mcp-wit (the linker's change alone, for the instructions) and, built from this commit:
# mcp-wit (`-p mcp-wit-cli`), loadgen, baseline-serde and baseline-rmcp (`-p mcp-wit-bench --bin
# ...`). The fixture is the test
# fixtures' echo.wasm (`cargo build -p mcp-wit-tests`), which imports no `wasi:http` interface.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-12-02-kept-futures
: "${BINS:?name the folder holding the binaries}"
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
echo_wasm=$target/guests/wasm32-wasip2/fixture/echo.wasm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

binary_of() { # BUILD
  case $1 in
    before | linked) echo "$BINS/$1/mcp-wit" ;;
    *) echo "$BINS/mcp-wit" ;;
  esac
}

# Each build's cache filled and settled (a file's facts are noted once unchanged for 5 s): every
# start below is a cached start.
for build in before after; do
  "$(binary_of $build)" serve "$echo_wasm" --cache-dir "$work/$build" < /dev/null 2> /dev/null
done
sleep 6

command_of() { # SERVER, then serve's own arguments (for the hosts)
  local server=$1; shift
  case $server in
    before | after) echo "$(binary_of "$server") serve $echo_wasm --guest-output discard --cache-dir $work/$server $*" ;;
    serde-floor) echo "$BINS/baseline-serde $*" ;;
    rmcp) echo "$BINS/baseline-rmcp" ;;
  esac
}
reused="--log-requests=false --max-instance-reuse-count 1000000"

runs=$out/runs.jsonl
if (( REPS > 0 )); then : > "$runs"; fi
measure() { # ROW SERVER POINT REP, then loadgen's arguments
  local row=$1 server=$2 point=$3 rep=$4; shift 4
  local result
  result=$("$BINS/loadgen" "$@" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
  printf '{"row":"%s","server":"%s","point":%s,"rep":%s,"result":%s}\n' "$row" "$server" "$point" "$rep" "$result" >> "$runs"
}
rotated() { # REP, then the servers: the servers, rotated by REP
  local rep=$1; shift
  local names=("$@")
  local by=$((rep % ${#names[@]}))
  echo "${names[@]:by}" "${names[@]:0:by}"
}
for rep in $(seq "$REPS"); do
  for sessions in 8 64; do
    for server in $(rotated "$rep" before after serde-floor); do
      args="--http {addr}"
      [[ $server == serde-floor ]] || args="$args $reused"
      # shellcheck disable=SC2046 # a command line, split on purpose
      measure http-reused "$server" "$sessions" "$rep" http --era modern --sessions "$sessions" \
        --calls-per-session $((20000 / sessions)) --warmup-per-session 20 -- $(command_of "$server" "$args")
    done
  done
  for server in $(rotated "$rep" before after rmcp); do
    # shellcheck disable=SC2046
    measure ready "$server" 0 "$rep" cold-start --runs 20 -- $(command_of "$server")
  done
  echo "repetition $rep of $REPS done" >&2
done

if [[ ${CALLGRIND:-0} == 1 ]]; then
  # Code compiled on the real CPU does not load under valgrind: each build fills a cache of its
  # own there first.
  instructions=$out/instructions.jsonl
  : > "$instructions"
  counted() { grep -m1 '^summary:' "$1" | cut -d' ' -f2; }
  initialize='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}'
  for build in before linked after; do
    vg="$(binary_of $build) serve $echo_wasm --guest-output discard --cache-dir $work/vg-$build --pool-instances 2"
    # shellcheck disable=SC2086
    valgrind --tool=none -q $vg < /dev/null 2> /dev/null
    sleep 6
    # A whole cached start.
    # shellcheck disable=SC2086
    echo "$initialize" | valgrind --tool=callgrind --callgrind-out-file="$work/cg.$build.start" $vg > /dev/null 2> /dev/null
    # (awk reads the whole listing: a reader that stops early fails the pipeline.)
    linker=$(callgrind_annotate --inclusive=yes --threshold=100 "$work/cg.$build.start" 2> /dev/null \
      | awk '/mcp_wit::runtime::load::linker / && !found { gsub(",", "", $1); print $1; found = 1 }')
    # A call over HTTP: the difference between two runs, one with five times the calls of the
    # other, over the calls between them, leaves out start-up and warm-up.
    for calls in 1000 5000; do
      # shellcheck disable=SC2086
      "$BINS/loadgen" http --era modern --sessions 4 --calls-per-session $((calls / 4)) --warmup-per-session 5 \
        --timeout 900 -- valgrind --tool=callgrind --callgrind-out-file="$work/cg.$build.$calls" $vg \
        --http '{addr}' $reused > /dev/null
    done
    per_call=$(( ($(counted "$work/cg.$build.5000") - $(counted "$work/cg.$build.1000")) / 4000 ))
    printf '{"server":"%s","start":%s,"linker":%s,"http_per_call":%s}\n' \
      "$build" "$(counted "$work/cg.$build.start")" "${linker:-0}" "$per_call" >> "$instructions"
  done
fi
python3 "$out/summarize.py" "$out" > "$out/summary.md"
cat "$out/summary.md"
