#!/usr/bin/env bash
# A fresh instance per call for routers built with the SDKs of two trees,
# served by one host (release `mcp-wit` of the working tree): the weather
# examples of the TypeScript SDK (QuickJS) and the Python SDK
# (componentize-py), and the Rust echo fixture for scale, each called on its
# `echo` tool over stdio, one instance per call (--instances per-request),
# 1 in flight, as ../2026-11-27-start-and-instance/run.sh measures them.
#
#   run.sh BEFORE_REV    the working tree's SDKs against those of BEFORE_REV
#
# The variants take turns, REPS rounds (5 by default), 2,000 calls each
# after 100 of warm-up; the summary gives the median of the rounds' p50
# latency and server CPU per call. Writes runs.jsonl and summary.md beside
# this script. Needs what the SDK tests install (target/sdk-venv,
# target/sdk-node/pkg): run those tests once first.
set -euo pipefail
cd "$(dirname "$0")/../../.."
root=$PWD
out=bench/results/2026-11-27-warm-snapshot
before_rev=${1:?usage: run.sh BEFORE_REV}
reps=${REPS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p mcp-wit-cli -p mcp-wit-bench --bins
mcp=$work/mcp-wit
cp target/release/mcp-wit "$mcp"
loadgen=$work/loadgen
cp target/release/loadgen "$loadgen"
rust=$(cargo run -q --release -p mcp-wit-tests --no-default-features --bin fixture-path -- echo)

mkdir -p "$work/before/tree"
git archive "$before_rev" sdk | tar -x -C "$work/before/tree"
mkdir -p "$work/after"
ln -s "$root" "$work/after/tree"
for variant in before after; do
  dir=$work/$variant
  tree=$dir/tree
  cp "$rust" "$dir/rust.wasm"
  PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$tree/sdk/python target/sdk-venv/bin/python -m mcp_wit build \
    "$tree/sdk/python/examples/weather/app.py" -o "$dir/python.wasm" --build-dir "$dir/python-build" >/dev/null
  mkdir -p "$dir/ts"
  cp -r "$tree/sdk/typescript/." "$dir/ts/"
  rm -rf "$dir/ts/node_modules" "$dir/ts/dist"
  ln -s "$root/target/sdk-node/pkg/node_modules" "$dir/ts/node_modules"
  (cd "$dir/ts" && node_modules/.bin/tsc -p tsconfig.json \
    && node bin/mcp-wit-build.mjs examples/weather/router.ts -o "$dir/typescript.wasm" >/dev/null 2>&1)
  for language in rust python typescript; do
    # Compiled into the cache before any measurement.
    "$mcp" serve "$dir/$language.wasm" --cache-dir "$work/cache" --guest-output discard </dev/null >/dev/null 2>&1 || true
  done
done

: > "$out/runs.jsonl"
for rep in $(seq 1 "$reps"); do
  for language in rust python typescript; do
    for variant in before after; do
      wasm=$work/$variant/$language.wasm
      fresh=$($loadgen --calls 2000 --warmup 100 --inflight 1 -- \
        "$mcp" serve --cache-dir "$work/cache" "$wasm" --guest-output discard --instances per-request)
      python3 -c 'import json, sys; v, r, l, b, f = sys.argv[1:]
print(json.dumps({"variant": v, "rep": int(r), "language": l, "bytes": int(b), "fresh": json.loads(f)}))' \
        "$variant" "$rep" "$language" "$(stat -c %s "$wasm")" "$fresh" >> "$out/runs.jsonl"
    done
  done
done

python3 - "$out" "$before_rev" <<'PY'
import json, statistics, sys
out, before_rev = sys.argv[1], sys.argv[2]
rows = [json.loads(line) for line in open(f"{out}/runs.jsonl")]
med = statistics.median
lines = [
    f"Fresh instance per call, `echo` over stdio, 1 in flight; median of {max(r['rep'] for r in rows)} rounds "
    f"(before: the SDKs of {before_rev}).",
    "",
    "| router | variant | .wasm | p50 latency | server CPU per call |",
    "|---|---|---:|---:|---:|",
]
for language in ["rust", "python", "typescript"]:
    for variant in ["before", "after"]:
        sel = [r for r in rows if r["language"] == language and r["variant"] == variant]
        p50 = med(r["fresh"]["p50_us"] for r in sel)
        cpu = med(r["fresh"]["cpu_us_per_call"] for r in sel)
        lines.append(f"| {language} | {variant} | {sel[0]['bytes'] / 1e6:.2f} MB | {p50:.0f} µs | {cpu:.0f} µs |")
open(f"{out}/summary.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
