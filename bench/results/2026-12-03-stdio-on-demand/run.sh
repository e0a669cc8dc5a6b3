#!/usr/bin/env bash
# Instances allocated on demand over stdio (no pool set up unless `--pool-instances` asks): the
# stdio rows of the one-door issue's table before (`de65c7b`, a pool sized sessions × components
# + 8) and after, both executables (`mcp-wit serve` and `mcp-wit-serve`), against rmcp's stdio
# server and the serde_json floor in the same run, repetitions interleaved, the servers' order
# rotating. Writes runs.jsonl, starts.jsonl (a cached start's page faults and CPU, `perf stat`)
# and, with CALLGRIND=1, instructions.jsonl (user-space instructions of a cached start of
# `mcp-wit-serve`, every thread, and of a stdio call); summarize.py turns them into summary.md.
#
#   BINS=/path REPS=9 CALLGRIND=1 bench/results/2026-12-03-stdio-on-demand/run.sh
#   BINS=/path REPS=30 ROWS=ready RUNS=ready.jsonl bench/results/2026-12-03-stdio-on-demand/run.sh
#
# ROWS picks rows (stdio, ready, starts; all by default), RUNS the file the results go to.
# BINS holds before/mcp-wit and before/mcp-wit-serve (`cargo build --release -p mcp-wit-cli`, and
# `-p mcp-wit-serve` alone, of de65c7b) and, from this commit, mcp-wit and mcp-wit-serve (built
# the same way), loadgen, baseline-serde and baseline-rmcp (`-p mcp-wit-bench --bin ...`); the
# echo router is the test fixture (`cargo build -p mcp-wit-tests`).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-12-03-stdio-on-demand
: "${BINS:?name the folder holding the binaries}"
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
echo_wasm=$target/guests/wasm32-wasip2/fixture/echo.wasm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

executable_of() { # SERVER: its executable and subcommand
  case $1 in
    before) echo "$BINS/before/mcp-wit serve" ;;
    after) echo "$BINS/mcp-wit serve" ;;
    serving-before) echo "$BINS/before/mcp-wit-serve" ;;
    serving) echo "$BINS/mcp-wit-serve" ;;
  esac
}
cache_of() { case $1 in before | serving-before) echo "$work/before" ;; *) echo "$work/after" ;; esac; }
# Each build fills its cache (`mcp-wit-serve` reads the one `mcp-wit serve` fills), each
# executable starts once more so that its first start's checks are noted, and a file's facts
# settle (5 s): every start below is a cached start.
for server in before serving-before after serving; do
  # shellcheck disable=SC2046 # a command line, split on purpose
  $(executable_of $server) "$echo_wasm" --cache-dir "$(cache_of $server)" < /dev/null 2> /dev/null
done
sleep 6
command_of() { # SERVER: its command line
  case $1 in
    serde-floor) echo "$BINS/baseline-serde" ;;
    rmcp) echo "$BINS/baseline-rmcp" ;;
    *) echo "$(executable_of "$1") $echo_wasm --guest-output discard --cache-dir $(cache_of "$1")" ;;
  esac
}

ROWS=${ROWS:-stdio ready starts}
wants() { [[ " $ROWS " == *" $1 "* ]]; }
runs=$out/${RUNS:-runs.jsonl}
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
  # stdio, one call at a time, client and server on one CPU, against the floor (the request line
  # on, the default).
  wants stdio && for server in $(rotated "$rep" before after serving-before serving serde-floor); do
    # shellcheck disable=SC2046
    measure stdio-1-one-cpu "$server" 1 "$rep" --inflight 1 --cpus 0 -- $(command_of "$server")
  done
  # stdio, 32 in flight, against rmcp.
  wants stdio && for server in $(rotated "$rep" before after serving-before serving rmcp); do
    # shellcheck disable=SC2046
    measure stdio-32 "$server" 32 "$rep" --inflight 32 -- $(command_of "$server")
  done
  # Ready: spawn to the answer of `initialize`, the component in the cache.
  wants ready && for server in $(rotated "$rep" before after serving-before serving rmcp); do
    # shellcheck disable=SC2046
    measure ready "$server" 0 "$rep" cold-start --runs 20 -- $(command_of "$server")
  done
  echo "repetition $rep of $REPS done" >&2
done

initialize='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}'
echo "$initialize" > "$work/initialize.json"
if wants starts; then
  # A whole cached start (spawn, `initialize`, end of input, exit), 40 of them under `perf stat`:
  # page faults and CPU.
  : > "$out/starts.jsonl"
  for server in before after serving-before serving rmcp; do
    # Through a shell, so that each start reads the message from the file's beginning.
    perf stat -x, -r 40 -e page-faults,task-clock -o "$work/stat.$server" \
      sh -c "exec $(command_of "$server") < $work/initialize.json > /dev/null 2> /dev/null"
    python3 - "$server" "$work/stat.$server" >> "$out/starts.jsonl" <<'PY'
import json, sys
fields = {}
for line in open(sys.argv[2]):
    parts = line.strip().split(",")
    if len(parts) > 2 and parts[0] and not line.startswith("#"):
        fields[parts[2]] = float(parts[0])
print(json.dumps({"server": sys.argv[1], "page_faults": fields["page-faults"], "task_clock_ms": fields["task-clock"]}))
PY
  done
fi

counted() { grep -m1 '^summary:' "$1" | cut -d' ' -f2; }
if [[ ${CALLGRIND:-0} == 1 ]]; then
  # Code compiled on the real CPU does not load under valgrind (which reports other CPU features):
  # each build fills a cache of its own there, and each executable starts there once before it
  # is counted. Valgrind refuses the address space of `before`'s default pool (17 slots, 136 GiB):
  # it is counted with a pool of 2 slots, the least of what it set up.
  : > "$out/instructions.jsonl"
  for build in before after; do
    prefix=$BINS; pool=""
    [[ $build == before ]] && prefix=$BINS/before && pool="--pool-instances 2"
    cache="--guest-output discard --cache-dir $work/vg-$build $pool"
    # shellcheck disable=SC2086
    valgrind --tool=none -q "$prefix/mcp-wit" serve "$echo_wasm" $cache < /dev/null 2> /dev/null
    # shellcheck disable=SC2086
    valgrind --tool=none -q "$prefix/mcp-wit-serve" "$echo_wasm" $cache < /dev/null 2> /dev/null
    sleep 6
    # shellcheck disable=SC2086
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/cg.$build.start" \
      "$prefix/mcp-wit-serve" "$echo_wasm" $cache < "$work/initialize.json" > /dev/null 2> /dev/null
    start=0
    for part in "$work/cg.$build.start"-*; do start=$((start + $(counted "$part"))); done
    # A stdio call: the difference between runs of 1,000 and 5,000 calls, over the 4,000 between.
    for calls in 1000 5000; do
      # shellcheck disable=SC2086
      "$BINS/loadgen" --inflight 1 --calls "$calls" --warmup 10 --warmup-ms 0 --timeout 900 -- \
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.$build.stdio.$calls" \
        "$prefix/mcp-wit-serve" "$echo_wasm" $cache > /dev/null
    done
    per_call=$(( ($(counted "$work/cg.$build.stdio.5000") - $(counted "$work/cg.$build.stdio.1000")) / 4000 ))
    printf '{"server":"%s","start":%s,"stdio_call":%s}\n' "$build" "$start" "$per_call" >> "$out/instructions.jsonl"
  done
fi
python3 "$out/summarize.py" "$out" > "$out/summary.md"
cat "$out/summary.md"
