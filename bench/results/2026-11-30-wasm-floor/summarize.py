#!/usr/bin/env python3
"""summary.md of run.sh's results: medians over the repetitions of each server, each host build as
a ratio of medians to the two floors, and the instructions a call when callgrind counted them.

    python3 summarize.py FOLDER > summary.md
"""
import json
import os
import statistics
import sys
from collections import defaultdict

folder = sys.argv[1]
runs = defaultdict(list)
for line in open(os.path.join(folder, "runs.jsonl"), encoding="utf-8"):
    if line.strip():
        run = json.loads(line)
        runs[(run["row"], run["point"], run["server"])].append(run["result"])


def median(row, point, server, field):
    values = [r[field] for r in runs.get((row, point, server), [])]
    return statistics.median(values) if values else float("nan")


reps = max((len(v) for v in runs.values()), default=0)
out = [f"Medians of {reps} repetitions, interleaved; a ratio is a ratio of medians.", ""]
out += ["| row | point | measure | before | after | serde floor | wasm floor | before ÷ serde | after ÷ serde | after ÷ wasm floor | wasm floor ÷ serde |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]


def line(row, point, field, label, fmt):
    b, a, s, w = (median(row, point, server, field) for server in ("before", "after", "serde-floor", "wasm-floor"))
    out.append(f"| {row} | {point} | {label} | {fmt(b)} | {fmt(a)} | {fmt(s)} | {fmt(w)} "
               f"| {b / s:.2f}× | {a / s:.2f}× | {a / w:.2f}× | {w / s:.2f}× |")


us = lambda v: f"{v:.1f} µs"
per_s = lambda v: f"{v:,.0f}/s"
for point in (8, 64):
    line("http-reused", point, "cpu_us_per_call", "server CPU per call", us)
    line("http-reused", point, "calls_per_sec", "throughput", per_s)
line("stdio-1-one-cpu", 1, "p50_us", "p50", us)
line("stdio-1-one-cpu", 1, "cpu_us_per_call", "server CPU per call", us)

counted = os.path.join(folder, "instructions.jsonl")
if os.path.exists(counted):
    per_call = {}
    for line_ in open(counted, encoding="utf-8"):
        if line_.strip():
            c = json.loads(line_)
            per_call[(c["row"], c["server"])] = c["instructions_per_call"]
    out += ["", "User-space instructions a call (callgrind; stdio one call at a time, HTTP 2026-07-28 on 4 connections):", "",
            "| row | before | after | serde floor | wasm floor | after ÷ serde | after ÷ wasm floor |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for row in ("stdio", "http"):
        b, a, s, w = (per_call.get((row, server), float("nan")) for server in ("before", "after", "serde-floor", "wasm-floor"))
        out.append(f"| {row} | {b:,} | {a:,} | {s:,} | {w:,} | {a / s:.2f}× | {a / w:.2f}× |")
print("\n".join(out))
