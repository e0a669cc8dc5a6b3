#!/usr/bin/env bash
# The cached start and a fresh instance per call, before and after a change,
# in one run: the Rust echo fixture and the weather examples of the Python
# SDK (componentize-py) and the TypeScript SDK (QuickJS), each called on its
# `echo` tool over stdio, as in ../2026-11-26-languages/run.sh.
#
#   run.sh BEFORE_REV    the working tree against git revision BEFORE_REV
#   run.sh               the working tree alone
#
# Each variant is the host (release `mcp-wit`) and the SDKs of its tree: the
# routers are built with each tree's SDK sources. BEFORE_REV is taken out
# with `git archive` (nothing in the checkout changes) and built in a target
# directory of its own (a full release build: a few GB for a while).
# The variants take turns, REPS rounds (3 by default); the summary gives the
# median of the rounds' figures. Per router and variant:
#   - first start: spawn to `initialize` answered, compiling (--no-cache), 3 runs, first round only;
#   - cached start: the same from the compile cache, 10 runs; and of it, the
#     time to the loaded component (the `component ready` debug line), 5 runs;
#   - warm call: 5,000 calls on the session's instance, 1 in flight;
#   - fresh instance: 1,000 calls, one instance each (--instances per-request),
#     1 in flight: latency p50, and the server's CPU time per call.
# Writes runs.jsonl (every measurement) and summary.md beside this script.
#
# Needs what the SDK tests install: componentize-py in target/sdk-venv
# (tests/it/python_sdk.rs) and the npm packages in target/sdk-node/pkg
# (tests/it/typescript_sdk.rs); run those tests once first.
set -euo pipefail
cd "$(dirname "$0")/../../.."
root=$PWD
out=bench/results/2026-11-27-start-and-instance
before_rev=${1:-}
reps=${REPS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build=(cargo build -q --release -p mcp-wit-cli -p mcp-wit-bench --bins)

variants=(after)
if [ -n "$before_rev" ]; then
  variants=(before after)
  mkdir -p "$work/before/tree"
  git archive "$before_rev" | tar -x -C "$work/before/tree"
  # A target directory of its own (removed on exit): cargo names the
  # workspace crates' artifacts alike for both trees, so in a shared one the
  # two builds would take each other's.
  (cd "$work/before/tree" && CARGO_TARGET_DIR="$work/before/target" "${build[@]}")
  cp "$work/before/target/release/mcp-wit" "$work/before/mcp-wit"
  rm -rf "$work/before/target"
fi
"${build[@]}"
if [ -n "$before_rev" ] && cmp -s target/release/mcp-wit "$work/before/mcp-wit"; then
  echo "the working tree's mcp-wit is the same binary as $before_rev's" >&2
  exit 1
fi
mkdir -p "$work/after"
ln -s "$root" "$work/after/tree"
cp target/release/mcp-wit "$work/after/mcp-wit"
loadgen=$work/loadgen
cp target/release/loadgen "$loadgen"
rust=$(cargo run -q --release -p mcp-wit-tests --no-default-features --bin fixture-path -- echo)

# The routers, built with each variant's SDKs.
for variant in "${variants[@]}"; do
  dir=$work/$variant
  tree=$dir/tree
  cp "$rust" "$dir/rust.wasm"
  PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$tree/sdk/python target/sdk-venv/bin/python -m mcp_wit build \
    "$tree/sdk/python/examples/weather/app.py" -o "$dir/python.wasm" --build-dir "$dir/python-build" >/dev/null
  # The TypeScript SDK compiled from this tree's sources, against the
  # installed packages.
  mkdir -p "$dir/ts"
  cp -r "$tree/sdk/typescript/." "$dir/ts/"
  rm -rf "$dir/ts/node_modules" "$dir/ts/dist"
  ln -s "$root/target/sdk-node/pkg/node_modules" "$dir/ts/node_modules"
  (cd "$dir/ts" && node_modules/.bin/tsc -p tsconfig.json \
    && node bin/mcp-wit-build.mjs examples/weather/router.ts -o "$dir/typescript.wasm" >/dev/null)
done

init='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"run.sh","version":"1"}}}'
: > "$out/runs.jsonl"
for rep in $(seq 1 "$reps"); do
  for variant in "${variants[@]}"; do
    dir=$work/$variant
    mcp=$dir/mcp-wit
    for language in rust python typescript; do
      wasm=$dir/$language.wasm
      cache=$dir/cache-$language
      size=$(stat -c %s "$wasm")
      first=null
      if [ "$rep" = 1 ]; then
        first=$($loadgen cold-start --runs 3 -- "$mcp" serve --no-cache "$wasm" --guest-output discard)
      fi
      "$mcp" serve "$wasm" --cache-dir "$cache" --guest-output discard </dev/null >/dev/null 2>&1 || true
      cached=$($loadgen cold-start --runs 10 -- "$mcp" serve --cache-dir "$cache" "$wasm" --guest-output discard)
      ready=$(for _ in 1 2 3 4 5; do
        echo "$init" | "$mcp" -v serve --cache-dir "$cache" "$wasm" --guest-output discard 2>&1 >/dev/null \
          | sed -n 's/.*component ready outcome=Hit elapsed=\([^ ]*\).*/\1/p'
      done | tr '\n' ' ')
      warm=$($loadgen --calls 5000 --warmup 500 --inflight 1 -- "$mcp" serve --cache-dir "$cache" "$wasm" --guest-output discard)
      fresh=$($loadgen --calls 1000 --warmup 100 --inflight 1 -- \
        "$mcp" serve --cache-dir "$cache" "$wasm" --guest-output discard --instances per-request)
      # One line per measurement round: loadgen prints its JSON over several lines.
      python3 -c 'import json, sys; v, r, l, b, rd, *m = sys.argv[1:]
def secs(t):
    for unit, f in (("ns", 1e-9), ("µs", 1e-6), ("us", 1e-6), ("ms", 1e-3), ("s", 1.0)):
        if t.endswith(unit):
            return float(t[: -len(unit)]) * f
print(json.dumps({"variant": v, "rep": int(r), "language": l, "bytes": int(b),
    "ready_ms": [secs(t) * 1e3 for t in rd.split()],
    **dict(zip(["first", "cached", "warm", "fresh"], map(json.loads, m)))}))' \
        "$variant" "$rep" "$language" "$size" "$ready" "$first" "$cached" "$warm" "$fresh" >> "$out/runs.jsonl"
    done
  done
done

python3 - "$out" "${before_rev:-}" <<'PY'
import json, statistics, sys
out, before_rev = sys.argv[1], sys.argv[2]
rows = [json.loads(line) for line in open(f"{out}/runs.jsonl")]
med = statistics.median

def pick(variant, language):
    return [r for r in rows if r["variant"] == variant and r["language"] == language]

lines = [
    "| router | variant | .wasm | first start (compiling) | cached start | of which the component loaded "
    "| warm call p50 | fresh instance per call p50 | fresh instance: server CPU per call |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
]
for language in ("rust", "python", "typescript"):
    for variant in ("before", "after"):
        rs = pick(variant, language)
        if not rs:
            continue
        first = [r["first"]["median_ms"] for r in rs if r["first"]]
        name = f"{variant} ({before_rev})" if variant == "before" and before_rev else variant
        lines.append(
            f"| {language} | {name} | {rs[0]['bytes'] / 1e6:.2f} MB "
            f"| {med(first):.0f} ms | {med(r['cached']['median_ms'] for r in rs):.1f} ms "
            f"| {med(med(r['ready_ms']) for r in rs if r['ready_ms']):.1f} ms "
            f"| {med(r['warm']['p50_us'] for r in rs):.1f} µs "
            f"| {med(r['fresh']['p50_us'] for r in rs):.0f} µs "
            f"| {med(r['fresh']['cpu_us_per_call'] for r in rs):.0f} µs |"
        )
open(f"{out}/summary.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
