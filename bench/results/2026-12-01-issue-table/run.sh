#!/usr/bin/env bash
# Every row of the one-door issue's table in one run: the host as the issue found it (`b48ea43`)
# and as it is now, `mcp-wit-serve` beside `mcp-wit serve` where stdio decides (one call at a
# time, 32 in flight, ready), with the floors and rmcp in the same run: `baseline-serde` (the
# issue's floor), `baseline-wasm-router` (the least WebAssembly host), `wasmtime serve` on its
# own fresh `http-floor` fixture, rmcp's stdio server; and, where a call's own work decides (HTTP
# reused, stdio one at a time), the host told not to log the request nor check its arguments
# (`unchecked`). Repetitions interleaved, the order of the
# servers rotating. Writes runs.jsonl (loadgen's results, tagged) and, with CALLGRIND=1,
# instructions.jsonl (user-space instructions a call, before and after); summarize.py turns both
# into summary.md.
#
#   BINS=/path REPS=7 CALLGRIND=1 bench/results/2026-12-01-issue-table/run.sh
#
# BINS holds before/mcp-wit (`cargo build --release -p mcp-wit-cli` of b48ea43) and, built from
# this commit: mcp-wit (`-p mcp-wit-cli`), mcp-wit-serve (`-p mcp-wit-serve`, built alone: in one
# build the features of the two unite), loadgen, baseline-serde and baseline-rmcp (`-p
# mcp-wit-bench --bin ...`), baseline-wasm-router (`--bin baseline-wasm-router` alone) and
# baseline-wasm-router-compiler (the same with `--features baseline-compiler`, for its
# `--precompile`). The fixtures are the test fixtures (`cargo build -p mcp-wit-tests`), the
# wasmtime CLI the one the engine tests install.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-12-01-issue-table
: "${BINS:?name the folder holding the binaries}"
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
fixtures=$target/guests/wasm32-wasip2/fixture
echo_wasm=$fixtures/echo.wasm
wasmtime=${WASMTIME:-${MCP_WIT_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-wit-tools}/peers/venv/bin/wasmtime}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The echo router precompiled for the Wasm floor, and in each build's cache (`mcp-wit-serve` reads
# the cache `mcp-wit serve` fills): every start below is a cached start. A file's facts are noted
# once it has been unchanged for 5 s: waiting that long makes every start the settled one.
"$BINS/baseline-wasm-router-compiler" --precompile "$echo_wasm" "$work/echo.cwasm"
"$BINS/before/mcp-wit" serve "$echo_wasm" --cache-dir "$work/before" < /dev/null 2> /dev/null
"$BINS/mcp-wit" serve "$echo_wasm" --cache-dir "$work/after" < /dev/null 2> /dev/null
sleep 6

command_of() { # SERVER, then serve's own arguments (for the hosts)
  local server=$1; shift
  case $server in
    before) echo "$BINS/before/mcp-wit serve $echo_wasm --guest-output discard --cache-dir $work/before $*" ;;
    after) echo "$BINS/mcp-wit serve $echo_wasm --guest-output discard --cache-dir $work/after $*" ;;
    serving) echo "$BINS/mcp-wit-serve $echo_wasm --guest-output discard --cache-dir $work/after $*" ;;
    # The host with what it does on every call by default and can be told not to: no request
    # line, no check of the arguments against the tool's input schema.
    # (Over HTTP, every host runs without the request line: `$reused`.)
    unchecked) echo "$BINS/mcp-wit serve $echo_wasm --guest-output discard --cache-dir $work/after --no-validate-input $*" ;;
    serde-floor) echo "$BINS/baseline-serde $*" ;;
    wasm-floor) echo "$BINS/baseline-wasm-router $work/echo.cwasm $*" ;;
    wasmtime-floor) echo "$wasmtime serve -Scli --addr {addr} $fixtures/http_floor.wasm" ;;
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
    http=(http --era modern --sessions "$sessions" --calls-per-session $((20000 / sessions)) --warmup-per-session 20 --)
    # 2026-07-28 over HTTP, instances reused, against the hyper + serde_json floor.
    for server in $(rotated "$rep" before after unchecked serde-floor wasm-floor); do
      case $server in before | after | unchecked) args="--http {addr} $reused" ;; *) args="--http {addr}" ;; esac
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
  for server in $(rotated "$rep" before after serving unchecked serde-floor wasm-floor); do
    args=""
    [[ $server == unchecked ]] && args="--log-requests=false"
    # shellcheck disable=SC2046
    measure stdio-1-one-cpu "$server" 1 "$rep" --inflight 1 --cpus 0 -- $(command_of "$server" "$args")
  done
  # stdio, 32 in flight, against rmcp.
  for server in $(rotated "$rep" before after serving rmcp); do
    # shellcheck disable=SC2046
    measure stdio-32 "$server" 32 "$rep" --inflight 32 -- $(command_of "$server")
  done
  # Ready: spawn to the answer of `initialize`, the component in the cache.
  for server in $(rotated "$rep" before after serving rmcp); do
    # shellcheck disable=SC2046
    measure ready "$server" 0 "$rep" cold-start --runs 20 -- $(command_of "$server")
  done
  echo "repetition $rep of $REPS done" >&2
done

if [[ ${CALLGRIND:-0} == 1 ]]; then
  # Instructions a call, before and after: two runs under callgrind, one with five times the calls
  # of the other; the difference over the calls between them leaves out start-up and warm-up.
  # Code compiled on the real CPU does not load under valgrind (which reports other CPU
  # features): each build fills a cache of its own there.
  instructions=$out/instructions.jsonl
  : > "$instructions"
  counted() { grep -m1 '^summary:' "$1" | cut -d' ' -f2; }
  for server in before after; do
    binary=$BINS/mcp-wit
    [[ $server == before ]] && binary=$BINS/before/mcp-wit
    vg="$binary serve $echo_wasm --guest-output discard --cache-dir $work/vg-$server --pool-instances 2"
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
          extra="--http {addr} $reused"
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
