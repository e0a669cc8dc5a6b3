#!/bin/bash
# Validation's cost per call before/after it moved off the async workers:
# loadgen http (2025 sessions, the echo fixture), interleaved repetitions.
ECHO=${ECHO:-target/guests/wasm32-wasip2/release/echo.wasm}
OUT=$(dirname "$0")/validation.jsonl; : > $OUT
for rep in 1 2 3 4 5; do
  for sessions in 1 8 64; do
    for variant in before before-novalidate after after-novalidate; do
      bin="${BINS:?BINS: a folder with before/ and after/ builds of mcp-wit and loadgen}"/${variant%-novalidate}/mcp-wit
      extra=""; [[ $variant == *novalidate ]] && extra="--no-validate-input"
      calls=$((10000 / sessions)); warm=$((1000 / sessions)); [[ $warm -lt 2 ]] && warm=2
      r=$("${BINS:?BINS: a folder with before/ and after/ builds of mcp-wit and loadgen}"/after/loadgen http --sessions $sessions --calls-per-session $calls --warmup-per-session $warm -- \
          $bin serve $ECHO --http {addr} --guest-output discard $extra 2>/dev/null | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
      echo "{\"rep\":$rep,\"variant\":\"$variant\",\"result\":$r}" >> $OUT
    done
  done
done
python3 - "$OUT" <<'PY'
import json, statistics as st
rows=[json.loads(l) for l in open(__import__('sys').argv[1])]
for s in (1,8,64):
    print(f"sessions {s}")
    med={}
    for v in ("before","before-novalidate","after","after-novalidate"):
        rs=[r["result"] for r in rows if r["variant"]==v and r["result"]["sessions"]==s]
        med[v]={k: st.median(x[k] for x in rs) for k in ("cpu_us_per_call","calls_per_sec","p50_us","p99_us")}
        print(f"  {v:17} n={len(rs)} cpu/call {med[v]['cpu_us_per_call']:.1f} us  {med[v]['calls_per_sec']:.0f}/s  p50 {med[v]['p50_us']:.0f} us  p99 {med[v]['p99_us']:.0f} us")
    b,bn,a,n=med["before"],med["before-novalidate"],med["after"],med["after-novalidate"]
    print(f"  after/before: cpu {a['cpu_us_per_call']/b['cpu_us_per_call']:.3f}  thr {a['calls_per_sec']/b['calls_per_sec']:.3f}  p50 {a['p50_us']/b['p50_us']:.3f}")
    print(f"  validation's cost: before {b['cpu_us_per_call']-bn['cpu_us_per_call']:+.1f} us cpu, {b['p50_us']-bn['p50_us']:+.0f} us p50; after {a['cpu_us_per_call']-n['cpu_us_per_call']:+.1f} us cpu, {a['p50_us']-n['p50_us']:+.0f} us p50")
PY
