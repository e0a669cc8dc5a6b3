#!/usr/bin/env bash
# The measurements of bench/results/2026-11-29-reservation/: the one-door study's rows
# (../2026-11-29-one-door/run.sh says what each row runs and what BINS holds), before and after
# every memory reserved WebAssembly's whole 4 GiB range; its runs.jsonl and summary.md written here.
#
#   BINS=/path REPS=5 bench/results/2026-11-29-reservation/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=bench/results/2026-11-29-reservation exec bench/results/2026-11-29-one-door/run.sh
