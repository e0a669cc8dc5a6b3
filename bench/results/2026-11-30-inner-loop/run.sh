#!/usr/bin/env bash
# The measurements of bench/results/2026-11-30-inner-loop/: each template's inner loop (build,
# first start from an empty cache, start from the cache, each with and without --max-memory, and
# an edit until `serve --watch` serves it), with two release builds of mcp-wit, alternating.
#
#   BINS=/path REPS=3 SDK_VENV=~/.cache/mcp-wit-tools/sdk-venv bench/results/2026-11-30-inner-loop/run.sh
#
# BINS holds mcp-wit-before and mcp-wit-after; SDK_VENV a venv with componentize-py
# (sdk/python/requirements-build.txt); cargo with wasm32-wasip2 and npm on PATH.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-11-30-inner-loop
work=$(mktemp -d)
: > "$out/runs.jsonl"
for lang in typescript python rust; do
  for label in before after; do
    mkdir -p "$work/$label"
    python3 "$out/measure.py" --bin "$BINS/mcp-wit-$label" --lang "$lang" --work "$work/$label" \
      --reps "${REPS:-3}" --label "$label" --out "$out/runs.jsonl"
  done
done
python3 "$out/summarize.py" "$out/runs.jsonl" > "$out/summary.md"
rm -rf "$work"
