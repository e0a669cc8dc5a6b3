#!/usr/bin/env bash
# The measurements of bench/results/2026-11-30-in-place/: the one-door study's rows
# (../2026-11-29-one-door/run.sh says what each row runs and what BINS holds), before and after
# a request's large futures were built where they live instead of copied; its runs.jsonl and
# summary.md written here.
#
#   BINS=/path REPS=9 bench/results/2026-11-30-in-place/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=bench/results/2026-11-30-in-place exec bench/results/2026-11-29-one-door/run.sh
