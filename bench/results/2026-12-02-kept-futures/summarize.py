#!/usr/bin/env python3
"""summary.md of run.sh's results: medians over the repetitions of each server, as ratios of
medians to the floor of each row (`baseline-serde` over HTTP, rmcp's stdio server for ready),
and the instructions callgrind counted, when it did.

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
        runs[(run["row"], run["point"], run["server"])].append(run["result"])


def median(row, point, server, field):
    return statistics.median(r[field] for r in runs[(row, point, server)])


reps = max((len(v) for v in runs.values()), default=0)
out = [f"Medians of {reps} repetitions, interleaved; a ratio is a ratio of medians.", "",
       "HTTP 2026-07-28, instances reused:", "",
       "| connections | measure | before | after | serde-floor | before ÷ floor | after ÷ floor | after ÷ before |",
       "|---:|---|---:|---:|---:|---:|---:|---:|"]
for point in sorted({p for r, p, _ in runs if r == "http-reused"}):
    for field, label, fmt in (("cpu_us_per_call", "server CPU per call", lambda v: f"{v:.1f} µs"),
                              ("calls_per_sec", "throughput", lambda v: f"{v:,.0f}/s")):
        b, a, f = (median("http-reused", point, server, field) for server in ("before", "after", "serde-floor"))
        out.append(f"| {point} | {label} | {fmt(b)} | {fmt(a)} | {fmt(f)} | {b / f:.2f}× | {a / f:.2f}× | {a / b:.2f}× |")

if runs[("ready", 0, "rmcp")]:
    rmcp = median("ready", 0, "rmcp", "median_ms")
    out += ["", "stdio ready (spawn to the answer of `initialize`, cached; 20 starts a repetition):", "",
            "| server | ready | repetitions' medians | ÷ rmcp |", "|---|---:|---:|---:|"]
    for server in ("before", "after", "rmcp"):
        values = [r["median_ms"] for r in runs[("ready", 0, server)]]
        if values:
            m = statistics.median(values)
            out.append(f"| {server} | {m:.2f} ms | {min(values):.2f}–{max(values):.2f} ms | {m / rmcp:.2f}× |")

path = os.path.join(folder, "instructions.jsonl")
if os.path.exists(path):
    counts = {}
    for text in open(path, encoding="utf-8"):
        if text.strip():
            c = json.loads(text)
            counts[c["server"]] = c
    builds = [b for b in ("before", "linked", "after") if b in counts]
    out += ["", "User-space instructions (callgrind): a whole cached start (spawn, `initialize`, end of",
            "input, exit) and the linker's part of it; a call over HTTP (2026-07-28, 4 connections, instances",
            "reused, no request line). `linked` is the linker's change alone.", "",
            "| | " + " | ".join(builds) + " |", "|---|" + "---:|" * len(builds)]
    for field, label in (("start", "a cached start"), ("linker", "the linker"), ("http_per_call", "an HTTP call")):
        out.append(f"| {label} | " + " | ".join(f"{counts[b][field]:,}" for b in builds) + " |")
print("\n".join(out))
