#!/usr/bin/env bash
# The measurements of bench/results/2026-11-29-request-line/: the one-door study's rows
# (../2026-11-29-one-door/run.sh says what each row runs and what BINS holds), before and after
# the request line was written by the host; its runs.jsonl and summary.md written here.
#
#   BINS=/path REPS=5 bench/results/2026-11-29-request-line/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=bench/results/2026-11-29-request-line exec bench/results/2026-11-29-one-door/run.sh
