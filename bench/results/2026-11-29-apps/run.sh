#!/usr/bin/env bash
# The measurements of bench/results/2026-11-29-apps/: the one-door study's rows
# (../2026-11-29-one-door/run.sh says what each row runs and what BINS holds), before and after
# MCP Apps and icons reached the request path; its runs.jsonl and summary.md written here.
#
#   BINS=/path REPS=5 bench/results/2026-11-29-apps/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=bench/results/2026-11-29-apps exec bench/results/2026-11-29-one-door/run.sh
