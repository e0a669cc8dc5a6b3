#!/usr/bin/env bash
# The measurements of bench/results/2026-11-29-tasks/: what the tasks extension costs a short
# call, and how many polls a server answers. Repetitions interleaved; runs.jsonl holds one
# loadgen result a line, tagged with its row, variant and repetition; summarize.py turns it
# into summary.md.
#
#   BIN=target/release REPS=5 bench/results/2026-11-29-tasks/run.sh
#
# BIN holds mcp-wit and loadgen (`cargo build --release -p mcp-wit-cli -p mcp-wit-bench`);
# the fixtures are the test fixtures (`cargo build -p mcp-wit-tests`); redis-server is
# Debian's.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-11-29-tasks
BIN=${BIN:-target/release}
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
fixtures=$target/guests/wasm32-wasip2/fixture
cache=$(mktemp -d)
redis_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no >/dev/null &
redis=$!
trap 'kill $redis 2>/dev/null; rm -rf "$cache"' EXIT
runs=$out/runs.jsonl
: > "$runs"

measure() { # ROW VARIANT POINT REP, then loadgen's arguments
  local row=$1 variant=$2 point=$3 rep=$4 result; shift 4
  result=$("$BIN/loadgen" "$@" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
  printf '{"row":"%s","variant":"%s","point":%s,"rep":%s,"result":%s}\n' "$row" "$variant" "$point" "$rep" "$result" >> "$runs"
}

serve() { # FIXTURE, then serve's own arguments
  local fixture=$1; shift
  echo "$BIN/mcp-wit" serve "$fixtures/$fixture.wasm" --http '{addr}' --guest-output discard --log-requests=false \
    --cache-dir "$cache" "$@"
}

# Compiled into the cache once.
for fixture in echo conformance; do "$BIN/mcp-wit" serve "$fixtures/$fixture.wasm" --cache-dir "$cache" </dev/null; done

for rep in $(seq "$REPS"); do
  for instances in reused fresh; do
    reuse=()
    [[ $instances == reused ]] && reuse=(--max-instance-reuse-count 1000000)
    http=(http --sessions 8 --calls-per-session 1250 --warmup-per-session 20)
    # A short echo call: tasks off; tasks on, the client not declaring them; tasks on, the
    # client declaring them (the call may become one after 5 s, the default policy, and never does).
    measure "short-call-$instances" tasks-off 8 "$rep" "${http[@]}" --era modern -- $(serve echo "${reuse[@]}" --no-tasks)
    measure "short-call-$instances" not-declared 8 "$rep" "${http[@]}" --era modern -- $(serve echo "${reuse[@]}")
    measure "short-call-$instances" declared 8 "$rep" "${http[@]}" --era modern-tasks -- $(serve echo "${reuse[@]}")
  done
  # Polls of one task (the conformance router's slow_compute, made a task at once), kept in
  # this process or in redis-server.
  for connections in 1 8; do
    polls=(polls --connections "$connections" --seconds 3)
    measure polls in-process "$connections" "$rep" "${polls[@]}" -- $(serve conformance --task-policy slow_compute=always)
    measure polls redis "$connections" "$rep" "${polls[@]}" -- \
      $(serve conformance --task-policy slow_compute=always --task-store "redis://127.0.0.1:$redis_port")
  done
done
python3 "$out/summarize.py" "$runs" > "$out/summary.md"
cat "$out/summary.md"
