#!/usr/bin/env bash
# The measurements of bench/results/2026-11-30-request-id/: the one-door study's rows
# (../2026-11-29-one-door/run.sh says what each row runs and what BINS holds), before and after
# the request's id reached guest output and the request line, and a component was named by its
# router's name; its runs.jsonl and summary.md written here.
#
#   BINS=/path REPS=11 bench/results/2026-11-30-request-id/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=bench/results/2026-11-30-request-id exec bench/results/2026-11-29-one-door/run.sh
