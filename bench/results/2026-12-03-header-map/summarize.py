#!/usr/bin/env python3
"""summary.md of run.sh's results: medians over the repetitions, before and after as ratios of
medians to the floor, and the instructions callgrind counted.

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
reps = max((len(v) for v in runs.values()), default=0)


def median(point, server, field):
    return statistics.median(r[field] for r in runs[(point, server)])


def spread(point, server, field):
    """The lowest and highest ratio of a repetition's value to the floor's in the same one."""
    ratios = [a[field] / b[field] for a, b in zip(runs[(point, server)], runs[(point, "serde-floor")])]
    return f"{min(ratios):.2f}–{max(ratios):.2f}"


out = [f"Medians of {reps} repetitions, interleaved; a ratio is a ratio of medians (in brackets, the",
       "lowest and highest of the repetitions' own ratios). `before` is `e03b1ac`, `after` this commit,",
       "the floor `baseline-serde` (hyper + serde_json).", "",
       "| connections | measure | before | after | floor | before ÷ floor | after ÷ floor | after ÷ before |",
       "|---:|---|---:|---:|---:|---:|---:|---:|"]
for point in (8, 64):
    for field, label, fmt in (("cpu_us_per_call", "server CPU per call", "{:.1f} µs"),
                              ("calls_per_sec", "throughput", "{:,.0f}/s")):
        b, a, f = (median(point, server, field) for server in ("before", "after", "serde-floor"))
        out.append(f"| {point} | {label} | {fmt.format(b)} | {fmt.format(a)} | {fmt.format(f)} "
                   f"| {b / f:.2f}× ({spread(point, 'before', field)}) | {a / f:.2f}× ({spread(point, 'after', field)}) "
                   f"| {a / b:.2f}× |")

counted = os.path.join(folder, "instructions.jsonl")
if os.path.exists(counted):
    per_call = {}
    for text in open(counted, encoding="utf-8"):
        if text.strip():
            c = json.loads(text)
            per_call[c["server"]] = c["instructions_per_call"]
    floor = per_call["serde-floor"]
    out += ["", "User-space instructions a call (callgrind, 4 connections):", "",
            "| server | instructions a call | ÷ floor |", "|---|---:|---:|"]
    for server in ("serde-floor", "before", "after"):
        out.append(f"| {server} | {per_call[server]:,} | {per_call[server] / floor:.2f}× |")
print("\n".join(out))
