#!/usr/bin/env python3
"""summary.md of run.sh's results: the HTTP row with instances reused, medians over the
repetitions of each server, before and after as ratios of medians to `baseline-serde`, and the
instructions a call when callgrind counted them.

    python3 summarize.py FOLDER > summary.md
"""
import json
import os
import statistics
import sys
from collections import defaultdict

folder = sys.argv[1]
runs = defaultdict(list)
for text in open(os.path.join(folder, "runs.jsonl"), encoding="utf-8"):
    if text.strip():
        run = json.loads(text)
        runs[(run["point"], run["server"])].append(run["result"])


def median(point, server, field):
    return statistics.median(r[field] for r in runs[(point, server)])


reps = max((len(v) for v in runs.values()), default=0)
out = [f"Medians of {reps} repetitions, interleaved; a ratio is a ratio of medians.", "",
       "| connections | measure | before | after | serde-floor | before ÷ floor | after ÷ floor | after ÷ before |",
       "|---:|---|---:|---:|---:|---:|---:|---:|"]
for point in sorted({p for p, _ in runs}):
    for field, label, fmt in (("cpu_us_per_call", "server CPU per call", lambda v: f"{v:.1f} µs"),
                              ("calls_per_sec", "throughput", lambda v: f"{v:,.0f}/s")):
        b, a, f = (median(point, server, field) for server in ("before", "after", "serde-floor"))
        out.append(f"| {point} | {label} | {fmt(b)} | {fmt(a)} | {fmt(f)} | {b / f:.2f}× | {a / f:.2f}× | {a / b:.2f}× |")

path = os.path.join(folder, "instructions.jsonl")
if os.path.exists(path):
    counts = {}
    for text in open(path, encoding="utf-8"):
        if text.strip():
            c = json.loads(text)
            counts[(c["row"], c["server"])] = c["instructions_per_call"]
    out += ["", "User-space instructions a call (callgrind; HTTP 2026-07-28 on 4 connections, instances",
            "reused, without the request line; stdio one call at a time with it):", "",
            "| row | before | after | after ÷ before |", "|---|---:|---:|---:|"]
    for row in ("http", "stdio"):
        b, a = counts.get((row, "before")), counts.get((row, "after"))
        if b and a:
            out.append(f"| {row} | {b:,} | {a:,} | {a / b:.2f}× |")
print("\n".join(out))
