#!/usr/bin/env bash
# The measurements of bench/results/2026-11-29-one-door-second-pass/: the first pass's
# (../2026-11-29-one-door/run.sh says what each row runs and what BINS holds), its runs.jsonl
# and summary.md written here.
#
#   BINS=/path REPS=5 bench/results/2026-11-29-one-door-second-pass/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=bench/results/2026-11-29-one-door-second-pass exec bench/results/2026-11-29-one-door/run.sh
