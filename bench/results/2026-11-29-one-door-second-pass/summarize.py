#!/usr/bin/env python3
"""summary.md of run.sh's runs.jsonl: medians over the repetitions, and each row of the issue's
table as a ratio of medians, before and after.

    python3 summarize.py runs.jsonl > summary.md
"""
import json
import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)
for line in open(sys.argv[1], encoding="utf-8"):
    if line.strip():
        run = json.loads(line)
        runs[(run["row"], run["point"], run["server"])].append(run["result"])


def median(row, point, server, field):
    values = [r[field] for r in runs.get((row, point, server), [])]
    return statistics.median(values) if values else float("nan")


reps = max((len(v) for v in runs.values()), default=0)
out = [f"Medians of {reps} repetitions, interleaved; a ratio is a ratio of medians.", ""]

out += ["| row | point | measure | before | after | baseline | before ÷ baseline | after ÷ baseline |",
        "|---|---:|---|---:|---:|---:|---:|---:|"]


def line(row, point, baseline, field, label, fmt):
    b, a, f = (median(row, point, s, field) for s in ("before", "after", baseline))
    out.append(f"| {row} | {point} | {label} ({baseline}) | {fmt(b)} | {fmt(a)} | {fmt(f)} | {b / f:.2f}× | {a / f:.2f}× |")


us = lambda v: f"{v:.1f} µs"
per_s = lambda v: f"{v:,.0f}/s"
ms = lambda v: f"{v:.2f} ms"
for point in (8, 64):
    line("http-reused", point, "floor", "cpu_us_per_call", "server CPU per call", us)
    line("http-reused", point, "floor", "calls_per_sec", "throughput", per_s)
for point in (8, 64):
    line("http-fresh", point, "wasmtime-floor", "cpu_us_per_call", "server CPU per call", us)
    line("http-fresh", point, "wasmtime-floor", "calls_per_sec", "throughput", per_s)
line("stdio-1-one-cpu", 1, "floor", "p50_us", "p50", us)
line("stdio-1-one-cpu", 1, "floor", "cpu_us_per_call", "server CPU per call", us)
line("stdio-32", 32, "rmcp", "calls_per_sec", "throughput", per_s)
line("stdio-32", 32, "rmcp", "cpu_us_per_call", "server CPU per call", us)
line("ready", 0, "rmcp", "median_ms", "spawn to first answer", ms)
print("\n".join(out))
