#!/usr/bin/env bash
# Routers in three languages, measured in one run: the Rust echo fixture, and
# the weather examples of the Python SDK (componentize-py) and the TypeScript
# SDK (QuickJS), each of which has an `echo` tool like the fixture's.
# For each: component size, the first start (compiling: --no-cache), a
# cached start, a warm call at 1 in flight over stdio (the session keeps its
# instance), and a call on a fresh instance each time (--instances
# per-request). Writes runs.jsonl and summary.md beside this script.
#
# Needs what the SDK tests install: componentize-py in <target>/sdk-venv
# (tests/it/python_sdk.rs) and the npm packages in <target>/sdk-node/pkg
# (tests/it/typescript_sdk.rs); run those tests once first.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-11-26-languages
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p mcp-wit-cli -p mcp-wit-bench --bins
mcp=target/release/mcp-wit
loadgen=target/release/loadgen

rust=$(cargo run -q -p mcp-wit-tests --no-default-features --bin fixture-path -- echo)
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=sdk/python target/sdk-venv/bin/python -m mcp_wit build \
  sdk/python/examples/weather/app.py -o "$work/python.wasm" --build-dir "$work/python-build" >/dev/null
(cd target/sdk-node/pkg && cp -r ../../../sdk/typescript/examples/weather/. examples/weather/ \
  && node bin/mcp-wit-build.mjs examples/weather/router.ts -o "$work/typescript.wasm" >/dev/null)

: > "$out/runs.jsonl"
for language in rust python typescript; do
  case $language in
    rust) wasm=$rust ;;
    *) wasm=$work/$language.wasm ;;
  esac
  cache=$work/cache-$language
  size=$(stat -c %s "$wasm")
  first=$($loadgen cold-start --runs 3 -- $mcp serve --no-cache "$wasm" --guest-output discard)
  $mcp serve "$wasm" --cache-dir "$cache" --guest-output discard </dev/null >/dev/null 2>&1 || true
  cached=$($loadgen cold-start --runs 10 -- $mcp serve --cache-dir "$cache" "$wasm" --guest-output discard)
  warm=$($loadgen --calls 5000 --warmup 500 --inflight 1 -- $mcp serve --cache-dir "$cache" "$wasm" --guest-output discard)
  fresh=$($loadgen --calls 1000 --warmup 100 --inflight 1 -- \
    $mcp serve --cache-dir "$cache" "$wasm" --guest-output discard --instances per-request)
  # One line per router: loadgen prints its JSON over several lines.
  python3 -c 'import json, sys; l, b, *m = sys.argv[1:]; print(json.dumps({"language": l, "bytes": int(b),
    **dict(zip(["first", "cached", "warm", "fresh"], map(json.loads, m)))}))' \
    "$language" "$size" "$first" "$cached" "$warm" "$fresh" >> "$out/runs.jsonl"
done

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
rows = [json.loads(line) for line in open(f"{out}/runs.jsonl")]
def ms(d):
    for key in ("median_ms", "p50_ms"):
        if key in d:
            return d[key]
    return d.get("median_us", 0) / 1000
rust = next(r for r in rows if r["language"] == "rust")
lines = [
    "| router | .wasm | first start (compiling) | cached start | warm call p50 (× Rust) | fresh instance per call p50 (× Rust) |",
    "|---|---:|---:|---:|---:|---:|",
]
for r in rows:
    lines.append(
        f"| {r['language']} | {r['bytes'] / 1e6:.2f} MB | {ms(r['first']):.0f} ms | {ms(r['cached']):.1f} ms "
        f"| {r['warm']['p50_us']:.1f} µs ({r['warm']['p50_us'] / rust['warm']['p50_us']:.1f}×) "
        f"| {r['fresh']['p50_us']:.0f} µs ({r['fresh']['p50_us'] / rust['fresh']['p50_us']:.1f}×) |"
    )
open(f"{out}/summary.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
