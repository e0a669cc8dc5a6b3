#!/usr/bin/env python3
"""summary.md of run.sh's results: medians over the repetitions of each server, each row of the
one-door issue's table before and after as a ratio of medians to its baseline, and the
instructions a call when callgrind counted them.

    python3 summarize.py FOLDER > summary.md
"""
import json
import math
import os
import statistics
import sys
from collections import defaultdict

folder = sys.argv[1]
runs = defaultdict(list)
for text in open(os.path.join(folder, "runs.jsonl"), encoding="utf-8"):
    if text.strip():
        run = json.loads(text)
        runs[(run["row"], run["point"], run["server"])].append(run["result"])


def median(row, point, server, field):
    values = [r[field] for r in runs.get((row, point, server), [])]
    return statistics.median(values) if values else math.nan


def ratio(a, b):
    return "" if math.isnan(a) or math.isnan(b) else f"{a / b:.2f}×"


us = lambda v: "" if math.isnan(v) else f"{v:.1f} µs"
per_s = lambda v: "" if math.isnan(v) else f"{v:,.0f}/s"
ms = lambda v: "" if math.isnan(v) else f"{v:.2f} ms"

reps = max((len(v) for v in runs.values()), default=0)
out = [f"Medians of {reps} repetitions, interleaved; a ratio is a ratio of medians. `serving` is",
       "`mcp-wit-serve`; the other floor, where a row has one, is `baseline-wasm-router`; `unchecked` is",
       "`after` with `--log-requests=false --no-validate-input`.", "",
       "| row | point | measure | baseline | before | after | serving | unchecked | baseline's | other floor "
       "| before ÷ baseline | after ÷ baseline | serving ÷ baseline | unchecked ÷ baseline | other floor ÷ baseline |",
       "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]


def line(row, point, baseline, field, label, fmt, other=None):
    b, a, s, u, f = (median(row, point, server, field) for server in ("before", "after", "serving", "unchecked", baseline))
    o = median(row, point, other, field) if other else math.nan
    out.append(f"| {row} | {point} | {label} | {baseline} | {fmt(b)} | {fmt(a)} | {fmt(s)} | {fmt(u)} | {fmt(f)} | {fmt(o)} "
               f"| {ratio(b, f)} | {ratio(a, f)} | {ratio(s, f)} | {ratio(u, f)} | {ratio(o, f)} |")


for point in (8, 64):
    line("http-reused", point, "serde-floor", "cpu_us_per_call", "server CPU per call", us, "wasm-floor")
    line("http-reused", point, "serde-floor", "calls_per_sec", "throughput", per_s, "wasm-floor")
for point in (8, 64):
    line("http-fresh", point, "wasmtime-floor", "cpu_us_per_call", "server CPU per call", us)
    line("http-fresh", point, "wasmtime-floor", "calls_per_sec", "throughput", per_s)
line("stdio-1-one-cpu", 1, "serde-floor", "p50_us", "p50", us, "wasm-floor")
line("stdio-1-one-cpu", 1, "serde-floor", "cpu_us_per_call", "server CPU per call", us, "wasm-floor")
line("stdio-32", 32, "rmcp", "calls_per_sec", "throughput", per_s)
line("stdio-32", 32, "rmcp", "cpu_us_per_call", "server CPU per call", us)
line("ready", 0, "rmcp", "median_ms", "spawn to first answer", ms)

counted = os.path.join(folder, "instructions.jsonl")
if os.path.exists(counted):
    per_call = {}
    for text in open(counted, encoding="utf-8"):
        if text.strip():
            c = json.loads(text)
            per_call[(c["row"], c["server"])] = c["instructions_per_call"]
    out += ["", "User-space instructions a call (callgrind; stdio one call at a time with the request line,",
            "HTTP 2026-07-28 on 4 connections, instances reused, without it):", "",
            "| row | before | after | after ÷ before |", "|---|---:|---:|---:|"]
    for row in ("stdio", "http"):
        b, a = (per_call.get((row, server), math.nan) for server in ("before", "after"))
        out.append(f"| {row} | {b:,} | {a:,} | {ratio(a, b)} |")
print("\n".join(out))
