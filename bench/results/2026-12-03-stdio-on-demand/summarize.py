#!/usr/bin/env python3
"""summary.md of run.sh's results: medians over the repetitions of each server, the stdio rows of
the one-door issue's table before and after as a ratio of medians to their baseline, a cached
start's page faults and CPU, and the instructions callgrind counted.

    python3 summarize.py FOLDER > summary.md
"""
import json
import math
import os
import statistics
import sys
from collections import defaultdict

folder = sys.argv[1]


def lines(name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return []
    return [json.loads(text) for text in open(path, encoding="utf-8") if text.strip()]


def load(name):
    """A file of run.sh's results, by row, point and server."""
    loaded = defaultdict(list)
    for run in lines(name):
        loaded[(run["row"], run["point"], run["server"])].append(run["result"])
    return loaded


us = lambda v: "" if math.isnan(v) else f"{v:.1f} µs"
per_s = lambda v: "" if math.isnan(v) else f"{v:,.0f}/s"
ms = lambda v: "" if math.isnan(v) else f"{v:.2f} ms"


def ratio(a, b):
    return "" if math.isnan(a) or math.isnan(b) else f"{a / b:.2f}×"


SERVERS = ("before", "after", "serving-before", "serving")
HEADER = ["| row | point | measure | baseline | before | after | serving before | serving | baseline's "
          "| before ÷ baseline | after ÷ baseline | serving before ÷ baseline | serving ÷ baseline |",
          "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]


def table(runs, rows):
    def median(row, point, server, field):
        values = [r[field] for r in runs.get((row, point, server), [])]
        return statistics.median(values) if values else math.nan

    def spread(row, point, server, field, baseline):
        """The lowest and highest ratio of a repetition's value to the baseline's in the same one."""
        mine, theirs = runs.get((row, point, server), []), runs.get((row, point, baseline), [])
        ratios = [a[field] / b[field] for a, b in zip(mine, theirs)]
        return f"{min(ratios):.2f}–{max(ratios):.2f}" if ratios else ""

    out = list(HEADER)
    for row, point, baseline, field, label, fmt in rows:
        values = [median(row, point, server, field) for server in SERVERS]
        f = median(row, point, baseline, field)
        ratios = [f"{ratio(v, f)} ({spread(row, point, s, field, baseline)})" if ratio(v, f) else ""
                  for s, v in zip(SERVERS, values)]
        cells = " | ".join(fmt(v) for v in values)
        out.append(f"| {row} | {point} | {label} | {baseline} | {cells} | {fmt(f)} | " + " | ".join(ratios) + " |")
    return out


runs = load("runs.jsonl")
reps = max((len(v) for v in runs.values()), default=0)
out = [f"Medians of {reps} repetitions, interleaved; a ratio is a ratio of medians (in brackets, the",
       "lowest and highest of the repetitions' own ratios). `before` is `de65c7b`, `after` this commit;",
       "`serving` is `mcp-wit-serve`.", ""]
out += table(runs, [
    ("stdio-1-one-cpu", 1, "serde-floor", "p50_us", "p50", us),
    ("stdio-1-one-cpu", 1, "serde-floor", "cpu_us_per_call", "server CPU per call", us),
    ("stdio-32", 32, "rmcp", "calls_per_sec", "throughput", per_s),
    ("stdio-32", 32, "rmcp", "cpu_us_per_call", "server CPU per call", us),
    ("ready", 0, "rmcp", "median_ms", "spawn to first answer", ms),
])

ready = load("ready.jsonl")
if ready:
    reps = max(len(v) for v in ready.values())
    out += ["", f"The ready row alone, {reps} repetitions (ready.jsonl):", ""]
    out += table(ready, [("ready", 0, "rmcp", "median_ms", "spawn to first answer", ms)])

starts = lines("starts.jsonl")
if starts:
    out += ["", "A whole cached start (spawn, `initialize`, end of input, exit; `sh -c exec` around it),",
            "means of 40 under `perf stat`:", "", "| server | page faults | CPU (task clock) |", "|---|---:|---:|"]
    for s in starts:
        out.append(f"| {s['server']} | {s['page_faults']:,.0f} | {s['task_clock_ms']:.2f} ms |")

counted = {c["server"]: c for c in lines("instructions.jsonl")}
if counted:
    out += ["", "User-space instructions (callgrind) of `mcp-wit-serve`: a cached start (spawn, `initialize`,",
            "end of input, exit), every thread; a stdio call, one at a time, the request line on.", "",
            "| measure | before | after | after ÷ before |", "|---|---:|---:|---:|"]
    for label, key in (("a cached start", "start"), ("a stdio call", "stdio_call")):
        b, a = (counted.get(server, {}).get(key, math.nan) for server in ("before", "after"))
        out.append(f"| {label} | {b:,} | {a:,} | {ratio(a, b)} |")
print("\n".join(out))
