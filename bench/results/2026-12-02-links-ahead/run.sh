#!/usr/bin/env bash
# WASI's links made on a thread of their own while a cached start reads its component, and every
# row of the one-door issue's table in the same run: the host before (`34985f1`) and after, both
# executables (`mcp-wit serve`, and `mcp-wit-serve` where stdio decides), with the floors and rmcp:
# `baseline-serde` (the issue's floor), `baseline-wasm-router` (the least WebAssembly host: hyper
# or a stdio loop around the same echo router, no protocol work), `wasmtime serve` on its own
# fresh `http-floor` fixture, rmcp's stdio server. Repetitions interleaved, the order of the
# servers rotating. Writes runs.jsonl and, with CALLGRIND=1, instructions.jsonl (user-space
# instructions: a cached start of `mcp-wit-serve`, its main thread apart; a call over HTTP and
# over stdio; the floors' HTTP call; CALLGRIND=floors counts the floors alone, appending);
# summarize.py turns both into summary.md.
#
#   BINS=/path REPS=9 CALLGRIND=1 bench/results/2026-12-02-links-ahead/run.sh
#   BINS=/path REPS=30 ROWS=ready RUNS=ready.jsonl bench/results/2026-12-02-links-ahead/run.sh
#
# ROWS picks rows (http, stdio, ready; all by default), RUNS the file the results go to.
#
# BINS holds before/mcp-wit and before/mcp-wit-serve (`cargo build --release -p mcp-wit-cli`, and
# `-p mcp-wit-serve` alone, of 34985f1) and, from this commit: mcp-wit and mcp-wit-serve (built
# the same way), loadgen, baseline-serde and baseline-rmcp (`-p mcp-wit-bench --bin ...`), and
# baseline-wasm-router (`-p mcp-wit-bench --bin baseline-wasm-router --features baseline-compiler`
# alone: it precompiles the router it serves, and serves only what a build of its own features
# compiled). The fixtures are the test fixtures (`cargo build -p mcp-wit-tests`), the wasmtime CLI
# the one `.ci/setup` installs.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-12-02-links-ahead
: "${BINS:?name the folder holding the binaries}"
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
fixtures=$target/guests/wasm32-wasip2/fixture
echo_wasm=$fixtures/echo.wasm
wasmtime=${WASMTIME:-${MCP_WIT_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-wit-tools}/peers/venv/bin/wasmtime}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The echo router precompiled for the Wasm floor, and in each build's cache (`mcp-wit-serve` reads
# the cache `mcp-wit serve` fills); each executable started once more, so that its first start's
# checks are noted (a check passed is noted for the build that made it) and a file's facts
# settle (5 s): every start below is a cached start.
"$BINS/baseline-wasm-router" --precompile "$echo_wasm" "$work/echo.cwasm"
for build in before after; do
  prefix=$BINS; [[ $build == before ]] && prefix=$BINS/before
  "$prefix/mcp-wit" serve "$echo_wasm" --cache-dir "$work/$build" < /dev/null 2> /dev/null
  "$prefix/mcp-wit-serve" "$echo_wasm" --cache-dir "$work/$build" < /dev/null 2> /dev/null
done
sleep 6

command_of() { # SERVER, then serve's own arguments (for the hosts)
  local server=$1; shift
  case $server in
    before) echo "$BINS/before/mcp-wit serve $echo_wasm --guest-output discard --cache-dir $work/before $*" ;;
    after) echo "$BINS/mcp-wit serve $echo_wasm --guest-output discard --cache-dir $work/after $*" ;;
    serving-before) echo "$BINS/before/mcp-wit-serve $echo_wasm --guest-output discard --cache-dir $work/before $*" ;;
    serving) echo "$BINS/mcp-wit-serve $echo_wasm --guest-output discard --cache-dir $work/after $*" ;;
    serde-floor) echo "$BINS/baseline-serde $*" ;;
    wasm-floor) echo "$BINS/baseline-wasm-router $work/echo.cwasm $*" ;;
    wasmtime-floor) echo "$wasmtime serve -Scli --addr {addr} $fixtures/http_floor.wasm" ;;
    rmcp) echo "$BINS/baseline-rmcp" ;;
  esac
}
reused="--log-requests=false --max-instance-reuse-count 1000000"

ROWS=${ROWS:-http stdio ready}
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
  wants http && for sessions in 8 64; do
    http=(http --era modern --sessions "$sessions" --calls-per-session $((20000 / sessions)) --warmup-per-session 20 --)
    # 2026-07-28 over HTTP, instances reused, against the hyper + serde_json floor.
    for server in $(rotated "$rep" before after serde-floor wasm-floor); do
      case $server in before | after) args="--http {addr} $reused" ;; *) args="--http {addr}" ;; esac
      # shellcheck disable=SC2046 # a command line, split on purpose
      measure http-reused "$server" "$sessions" "$rep" "${http[@]}" $(command_of "$server" "$args")
    done
    # A fresh instance per request (the default), against `wasmtime serve`'s own fresh floor.
    for server in $(rotated "$rep" before after wasmtime-floor); do
      # shellcheck disable=SC2046
      measure http-fresh "$server" "$sessions" "$rep" "${http[@]}" $(command_of "$server" --http '{addr}' --log-requests=false)
    done
  done
  # stdio, one call at a time, client and server on one CPU, against the floors; the request line
  # on (the default).
  wants stdio && for server in $(rotated "$rep" before after serving-before serving serde-floor wasm-floor); do
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

counted() { grep -m1 '^summary:' "$1" | cut -d' ' -f2; }
# Instructions a call of SERVER on ROW (stdio one at a time, or HTTP 2026-07-28 on 4 connections),
# noted in instructions.jsonl: the difference between two runs under callgrind, one with five
# times the calls of the other, over the calls between them, leaves out start-up and warm-up.
per_call() { # ROW SERVER, then the server's command line (HTTP: with `--http {addr}`)
  local row=$1 server=$2; shift 2
  local calls load
  for calls in 1000 5000; do
    case $row in
      stdio) load=(--inflight 1 --calls "$calls" --warmup 10 --warmup-ms 0) ;;
      http) load=(http --era modern --sessions 4 --calls-per-session $((calls / 4)) --warmup-per-session 5) ;;
    esac
    "$BINS/loadgen" "${load[@]}" --timeout 900 -- \
      valgrind --tool=callgrind --callgrind-out-file="$work/cg.$server.$row.$calls" "$@" > /dev/null
  done
  printf '{"row":"%s","server":"%s","instructions_per_call":%s}\n' "$row" "$server" \
    $(( ($(counted "$work/cg.$server.$row.5000") - $(counted "$work/cg.$server.$row.1000")) / 4000 )) >> "$out/instructions.jsonl"
}
if [[ ${CALLGRIND:-0} == 1 ]]; then
  # Code compiled on the real CPU does not load under valgrind (which reports other CPU
  # features): each build fills a cache of its own there, and each executable starts there once
  # before it is counted.
  : > "$out/instructions.jsonl"
  initialize='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}'
  for build in before after; do
    prefix=$BINS; [[ $build == before ]] && prefix=$BINS/before
    cache="--guest-output discard --cache-dir $work/vg-$build --pool-instances 2"
    # shellcheck disable=SC2086
    valgrind --tool=none -q "$prefix/mcp-wit" serve "$echo_wasm" $cache < /dev/null 2> /dev/null
    # shellcheck disable=SC2086
    valgrind --tool=none -q "$prefix/mcp-wit-serve" "$echo_wasm" $cache < /dev/null 2> /dev/null
    sleep 6
    # A whole cached start of `mcp-wit-serve`, every thread, and its main thread alone (the one
    # the answer waits for: the links are made on another).
    # shellcheck disable=SC2086
    echo "$initialize" | valgrind --tool=callgrind --separate-threads=yes \
      --callgrind-out-file="$work/cg.$build.start" "$prefix/mcp-wit-serve" "$echo_wasm" $cache > /dev/null 2> /dev/null
    start=0
    for part in "$work/cg.$build.start"-*; do start=$((start + $(counted "$part"))); done
    main_thread=$(counted "$work/cg.$build.start-01")
    # shellcheck disable=SC2086
    per_call stdio "$build" "$prefix/mcp-wit" serve "$echo_wasm" $cache
    # shellcheck disable=SC2086
    per_call http "$build" "$prefix/mcp-wit" serve "$echo_wasm" $cache --http '{addr}' $reused
    printf '{"row":"start","server":"%s","instructions":%s,"main_thread":%s}\n' "$build" "$start" "$main_thread" >> "$out/instructions.jsonl"
  done
fi
if [[ ${CALLGRIND:-0} == 1 || ${CALLGRIND:-0} == floors ]]; then
  # The floors' HTTP call, counted as the hosts' is: the hyper + serde_json floor, and the least
  # WebAssembly host on the echo router precompiled under valgrind.
  valgrind --tool=none -q "$BINS/baseline-wasm-router" --precompile "$echo_wasm" "$work/echo-vg.cwasm" 2> /dev/null
  per_call http serde-floor "$BINS/baseline-serde" --http '{addr}'
  per_call http wasm-floor "$BINS/baseline-wasm-router" "$work/echo-vg.cwasm" --http '{addr}'
fi
python3 "$out/summarize.py" "$out" > "$out/summary.md"
cat "$out/summary.md"
