#!/usr/bin/env bash
# The measurements of bench/results/2026-11-30-wasm-floor/: the rows of the one-door table that
# a request's own work decides (HTTP with instances reused, stdio one call at a time), for the
# host before and after, against the two floors in the same run: `baseline-serde` (the issue's)
# and `baseline-wasm-router` (the same loop with the tool answered by the echo router on a
# reused instance). Writes runs.jsonl (loadgen's results, tagged) and, with CALLGRIND=1,
# instructions.jsonl (user-space instructions a call, counted by callgrind: the same on a busy
# machine as on a quiet one); summarize.py turns both into summary.md.
#
#   BINS=/path REPS=7 CALLGRIND=1 bench/results/2026-11-30-wasm-floor/run.sh
#   BINS=/path REPS=0 CALLGRIND=1 bench/results/2026-11-30-wasm-floor/run.sh   # instructions alone
#
# BINS holds before/mcp-wit and after/mcp-wit (`cargo build --release -p mcp-wit-cli` of each
# commit), loadgen and baseline-serde (`cargo build --release -p mcp-wit-bench --bins`),
# baseline-wasm-router (built alone: `cargo build --release -p mcp-wit-bench --bin
# baseline-wasm-router`) and baseline-wasm-router-compiler (the same with `--features
# baseline-compiler`, for its `--precompile`). The fixtures are the test fixtures
# (`cargo build -p mcp-wit-tests`).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-11-30-wasm-floor
: "${BINS:?name the folder holding the binaries}"
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
echo_wasm=$target/guests/wasm32-wasip2/fixture/echo.wasm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The echo router precompiled for the Wasm floor, and in each build's cache: every start below
# is a cached start.
"$BINS/baseline-wasm-router-compiler" --precompile "$echo_wasm" "$work/echo.cwasm"
for build in before after; do
  "$BINS/$build/mcp-wit" serve "$echo_wasm" --cache-dir "$work/$build" < /dev/null 2> /dev/null
done

host() { # BUILD, then serve's own arguments
  local build=$1; shift
  echo "$BINS/$build/mcp-wit" serve "$echo_wasm" --guest-output discard --cache-dir "$work/$build" "$@"
}
reused="--log-requests=false --max-instance-reuse-count 1000000"
declare -A http=(
  [before]="$(host before --http {addr} $reused)"
  [after]="$(host after --http {addr} $reused)"
  [serde-floor]="$BINS/baseline-serde --http {addr}"
  [wasm-floor]="$BINS/baseline-wasm-router $work/echo.cwasm --http {addr}"
)
declare -A stdio=(
  [before]="$(host before)"
  [after]="$(host after)"
  [serde-floor]="$BINS/baseline-serde"
  [wasm-floor]="$BINS/baseline-wasm-router $work/echo.cwasm"
)
names=(before after serde-floor wasm-floor)

# REPS=0 keeps the runs.jsonl there (to count instructions again alone).
runs=$out/runs.jsonl
if (( REPS > 0 )); then : > "$runs"; fi
measure() { # ROW SERVER POINT REP, then loadgen's arguments
  local row=$1 server=$2 point=$3 rep=$4; shift 4
  local result
  result=$("$BINS/loadgen" "$@" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
  printf '{"row":"%s","server":"%s","point":%s,"rep":%s,"result":%s}\n' "$row" "$server" "$point" "$rep" "$result" >> "$runs"
}
for rep in $(seq "$REPS"); do
  # Rotate the order, so that drift hits every server alike.
  shift_by=$(( rep % ${#names[@]} ))
  order=("${names[@]:shift_by}" "${names[@]:0:shift_by}")
  for sessions in 8 64; do
    for server in "${order[@]}"; do
      # shellcheck disable=SC2086 # a command line, split on purpose
      measure http-reused "$server" "$sessions" "$rep" http --era modern --sessions "$sessions" \
        --calls-per-session $((10000 / sessions)) --warmup-per-session 20 -- ${http[$server]}
    done
  done
  for server in "${order[@]}"; do
    # shellcheck disable=SC2086
    measure stdio-1-one-cpu "$server" 1 "$rep" --inflight 1 --cpus 0 -- ${stdio[$server]}
  done
  echo "repetition $rep of $REPS done" >&2
done

if [[ ${CALLGRIND:-0} == 1 ]]; then
  # Instructions a call: two runs of each server under callgrind, one with five times the calls
  # of the other; the difference, divided by the calls between them, leaves out start-up and
  # warm-up. Code precompiled on the real CPU does not load under valgrind (which reports other
  # CPU features): the Wasm floor's component is precompiled under valgrind too, and each build
  # fills its own cache there.
  valgrind --tool=none -q "$BINS/baseline-wasm-router-compiler" --precompile "$echo_wasm" "$work/echo-vg.cwasm"
  for build in before after; do
    valgrind --tool=none -q "$BINS/$build/mcp-wit" serve "$echo_wasm" --cache-dir "$work/vg-$build" --pool-instances 2 < /dev/null 2> /dev/null
  done
  instructions=$out/instructions.jsonl
  : > "$instructions"
  counted() { # FILE: the instructions callgrind counted
    grep -m1 '^summary:' "$1" | cut -d' ' -f2
  }
  vg_http() { local build=$1; echo "$BINS/$build/mcp-wit" serve "$echo_wasm" --guest-output discard --cache-dir "$work/vg-$build" --pool-instances 2; }
  declare -A vg=(
    [before]="$(vg_http before)" [after]="$(vg_http after)"
    [serde-floor]="$BINS/baseline-serde" [wasm-floor]="$BINS/baseline-wasm-router $work/echo-vg.cwasm"
  )
  for server in "${names[@]}"; do
    for row in stdio http; do
      extra=""
      if [[ $row == http ]]; then
        extra="--http {addr}"
        [[ $server == before || $server == after ]] && extra="$extra $reused"
      fi
      for calls in 1000 5000; do
        file=$work/cg.$server.$row.$calls
        if [[ $row == stdio ]]; then
          load=(--inflight 1 --calls "$calls" --warmup 10 --warmup-ms 0)
        else
          load=(http --era modern --sessions 4 --calls-per-session $((calls / 4)) --warmup-per-session 5)
        fi
        # shellcheck disable=SC2086
        "$BINS/loadgen" "${load[@]}" --timeout 900 -- \
          valgrind --tool=callgrind --callgrind-out-file="$file" ${vg[$server]} $extra > /dev/null
      done
      per_call=$(( ($(counted "$work/cg.$server.$row.5000") - $(counted "$work/cg.$server.$row.1000")) / 4000 ))
      printf '{"row":"%s","server":"%s","instructions_per_call":%s}\n' "$row" "$server" "$per_call" >> "$instructions"
    done
  done
fi
python3 "$out/summarize.py" "$out" > "$out/summary.md"
cat "$out/summary.md"
