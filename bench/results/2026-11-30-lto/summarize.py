#!/usr/bin/env python3
"""summary.md of run.sh's results: medians over the repetitions, each build's host against the floor
built the same way, and the instructions a call.

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
        runs[(run["row"], run["point"], run["build"], run["server"])].append(run["result"])


def median(row, point, build, server, field):
    values = [r[field] for r in runs.get((row, point, build, server), [])]
    return statistics.median(values) if values else float("nan")


reps = max((len(v) for v in runs.values()), default=0)
out = [f"Medians of {reps} repetitions, the two builds alternating; a ratio is a ratio of medians.", "",
       "| row | measure | floor | plain: host | plain: floor | LTO: host | LTO: floor | plain ÷ its floor | LTO ÷ its floor | LTO host ÷ plain host |",
       "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]


def line(row, point, field, label, floor, fmt):
    hp, fp, hl, fl = (median(row, point, build, server, field)
                      for build in ("plain", "lto") for server in ("host", floor))
    out.append(f"| {row} {point if row == 'http-reused' else ''} | {label} | {floor} | {fmt(hp)} | {fmt(fp)} "
               f"| {fmt(hl)} | {fmt(fl)} | {hp / fp:.2f}× | {hl / fl:.2f}× | {hl / hp:.2f}× |")


us = lambda v: f"{v:.2f} µs"
ms = lambda v: f"{v:.2f} ms"
per_s = lambda v: f"{v:,.0f}/s"
line("stdio-1-one-cpu", 1, "p50_us", "p50", "serde-floor", us)
for point in (8, 64):
    line("http-reused", point, "cpu_us_per_call", "server CPU a call", "serde-floor", us)
    line("http-reused", point, "calls_per_sec", "throughput", "serde-floor", per_s)
line("ready", 1, "median_ms", "spawn to `initialize` answered", "rmcp", ms)

counts = os.path.join(folder, "instructions.jsonl")
if os.path.exists(counts):
    got = {}
    for l in open(counts, encoding="utf-8"):
        if l.strip():
            c = json.loads(l)
            got[(c["row"], c["build"])] = c["instructions_per_call"]
    out += ["", "User-space instructions a call (callgrind):", "",
            "| row | plain | LTO | LTO ÷ plain |", "|---|---:|---:|---:|"]
    for row in ("stdio", "http"):
        p, l = got.get((row, "plain")), got.get((row, "lto"))
        if p and l:
            out.append(f"| {row} | {p:,} | {l:,} | {l / p:.3f} |")
print("\n".join(out))
