#!/usr/bin/env python3
"""summary.md of run.sh's results: medians over the repetitions of each server, each row of the
one-door issue's table before and after as a ratio of medians to its baseline, and the
instructions callgrind counted.

    python3 summarize.py FOLDER > summary.md
"""
import json
import math
import os
import statistics
import sys
from collections import defaultdict

folder = sys.argv[1]


def load(name):
    """A file of run.sh's results, by row, point and server."""
    loaded = defaultdict(list)
    for text in open(os.path.join(folder, name), encoding="utf-8"):
        if text.strip():
            run = json.loads(text)
            loaded[(run["row"], run["point"], run["server"])].append(run["result"])
    return loaded


runs = load("runs.jsonl")


def median(row, point, server, field):
    values = [r[field] for r in runs.get((row, point, server), [])]
    return statistics.median(values) if values else math.nan


def spread(row, point, server, field, baseline):
    """The lowest and highest ratio of a repetition's value to the baseline's in the same one."""
    mine, theirs = runs.get((row, point, server), []), runs.get((row, point, baseline), [])
    ratios = [a[field] / b[field] for a, b in zip(mine, theirs)]
    return f"{min(ratios):.2f}–{max(ratios):.2f}" if ratios else ""


def ratio(a, b):
    return "" if math.isnan(a) or math.isnan(b) else f"{a / b:.2f}×"


us = lambda v: "" if math.isnan(v) else f"{v:.1f} µs"
per_s = lambda v: "" if math.isnan(v) else f"{v:,.0f}/s"
ms = lambda v: "" if math.isnan(v) else f"{v:.2f} ms"

SERVERS = ("before", "after", "serving-before", "serving")
reps = max((len(v) for v in runs.values()), default=0)
HEADER = ["| row | point | measure | baseline | before | after | serving before | serving | baseline's | other floor "
          "| before ÷ baseline | after ÷ baseline | serving before ÷ baseline | serving ÷ baseline | other floor ÷ baseline |",
          "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
out = [f"Medians of {reps} repetitions, interleaved; a ratio is a ratio of medians (in brackets, the",
       "lowest and highest of the repetitions' own ratios). `before` is `34985f1`, `after` this commit;",
       "`serving` is `mcp-wit-serve`. The other floor, where a row has one, is `baseline-wasm-router`.", ""] + HEADER


def line(row, point, baseline, field, label, fmt, other=None):
    values = [median(row, point, server, field) for server in SERVERS]
    f = median(row, point, baseline, field)
    o = median(row, point, other, field) if other else math.nan

    def against_baseline(server, v):
        r = ratio(v, f)
        return f"{r} ({spread(row, point, server, field, baseline)})" if r else ""

    ratios = [against_baseline(server, v) for server, v in zip(SERVERS + (other,), values + [o])]
    cells = " | ".join(fmt(v) for v in values)
    out.append(f"| {row} | {point} | {label} | {baseline} | {cells} | {fmt(f)} | {fmt(o)} | " + " | ".join(ratios) + " |")


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

ready_runs = os.path.join(folder, "ready.jsonl")
if os.path.exists(ready_runs):
    runs = load("ready.jsonl")
    reps = max((len(v) for v in runs.values()), default=0)
    out += ["", f"The ready row alone, {reps} repetitions (ready.jsonl):", ""] + HEADER
    line("ready", 0, "rmcp", "median_ms", "spawn to first answer", ms)

counted = os.path.join(folder, "instructions.jsonl")
if os.path.exists(counted):
    per_call, start = {}, {}
    for text in open(counted, encoding="utf-8"):
        if text.strip():
            c = json.loads(text)
            if c["row"] == "start":
                start[c["server"]] = c
            else:
                per_call[(c["row"], c["server"])] = c["instructions_per_call"]
    out += ["", "User-space instructions (callgrind): a cached start of `mcp-wit-serve` (spawn, `initialize`,",
            "end of input, exit), every thread and its main thread alone; a call (stdio one at a time with",
            "the request line; HTTP 2026-07-28 on 4 connections, instances reused, without it).", "",
            "| measure | before | after | after ÷ before |", "|---|---:|---:|---:|"]
    for label, key in (("a cached start, every thread", "instructions"), ("its main thread", "main_thread")):
        b, a = (start.get(server, {}).get(key, math.nan) for server in ("before", "after"))
        out.append(f"| {label} | {b:,} | {a:,} | {ratio(a, b)} |")
    for row in ("stdio", "http"):
        b, a = (per_call.get((row, server), math.nan) for server in ("before", "after"))
        out.append(f"| a call, {row} | {b:,} | {a:,} | {ratio(a, b)} |")
    floors = [(f, per_call[("http", f)]) for f in ("serde-floor", "wasm-floor") if ("http", f) in per_call]
    if floors:
        serde = per_call.get(("http", "serde-floor"), math.nan)
        out += ["", "An HTTP call (as above) against the floors:", "",
                "| server | instructions a call | ÷ serde-floor |", "|---|---:|---:|"]
        for server in ("serde-floor", "wasm-floor", "before", "after"):
            n = per_call.get(("http", server), math.nan)
            out.append(f"| {server} | {n:,} | {ratio(n, serde)} |")
print("\n".join(out))
