#!/usr/bin/env bash
# The measurements of bench/results/2026-11-26-stateless/: the engine run
# (bench/results/2026-11-26-engine/run.sh) again, now that a 2026-07-28 POST
# is served by a StatelessRequest instead of a throwaway Session. Needs
# `cargo build --release -p mcp-wit-cli -p mcp-wit-bench --bins` first.
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=bench/results/2026-11-26-stateless REPS=${REPS:-3} bash bench/results/2026-11-26-engine/run.sh
