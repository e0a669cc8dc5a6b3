#!/usr/bin/env bash
# The measurements of bench/results/2026-11-26-hardening/: the engine run
# again (bench/results/2026-11-26-engine/run.sh: the request path now tracks
# each connection's idleness, each session's client and each instance's
# memory), then the memory-budget repro (memory.py): sessions that each keep
# an instance grown by a 7 MiB argument, without a budget (256 of them), with
# a 2 GiB budget and a 20 s idle timeout, and with the defaults (1,024 each).
# Needs `cargo build --release -p mcp-wit-cli -p mcp-wit-bench --bins` first.
set -euo pipefail
cd "$(dirname "$0")/../../.."
D=bench/results/2026-11-26-hardening
OUT=$D REPS=${REPS:-3} bash bench/results/2026-11-26-engine/run.sh
E=$(cargo run -q -p mcp-wit-tests --no-default-features --bin fixture-path -- echo)
: > "$D/memory.jsonl"
SESSIONS=256 IDLE_S=5 python3 "$D/memory.py" "$E" -- --max-total-memory 1024GiB --instance-idle-timeout 1h >> "$D/memory.jsonl"
IDLE_S=30 python3 "$D/memory.py" "$E" -- --max-total-memory 2GiB --instance-idle-timeout 20s >> "$D/memory.jsonl"
IDLE_S=5 python3 "$D/memory.py" "$E" >> "$D/memory.jsonl"
cat "$D/memory.jsonl"
