#!/usr/bin/env python3
"""summary.md of run.sh's runs.jsonl: medians over the repetitions, and ratios of medians.

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
        runs[(run["row"], run["variant"], run["point"])].append(run["result"])


def median(row, variant, point, field):
    values = [r[field] for r in runs.get((row, variant, point), [])]
    return statistics.median(values) if values else float("nan")


reps = max((len(v) for v in runs.values()), default=0)
out = [f"Medians of {reps} repetitions, interleaved; a ratio is a ratio of medians.", ""]
out += ["## A short call (echo, 2026-07-28 over HTTP, 8 connections)", "",
        "| instances | variant | server CPU µs/call | ÷ tasks off | calls/s | ÷ tasks off | p50 µs |",
        "|---|---|---:|---:|---:|---:|---:|"]
for instances in ("reused", "fresh"):
    row = f"short-call-{instances}"
    cpu0 = median(row, "tasks-off", 8, "cpu_us_per_call")
    rate0 = median(row, "tasks-off", 8, "calls_per_sec")
    for variant in ("tasks-off", "not-declared", "declared"):
        cpu = median(row, variant, 8, "cpu_us_per_call")
        rate = median(row, variant, 8, "calls_per_sec")
        p50 = median(row, variant, 8, "p50_us")
        out.append(f"| {instances} | {variant} | {cpu:.1f} | {cpu / cpu0:.2f}× | {rate:,.0f} | {rate / rate0:.2f}× | {p50:.0f} |")
out += ["", "## Polls of one task (`tasks/get`)", "",
        "| connections | store | polls/s | p50 µs | p99 µs | server CPU µs/poll |", "|---:|---|---:|---:|---:|---:|"]
for connections in (1, 8):
    for store in ("in-process", "redis"):
        f = lambda field: median("polls", store, connections, field)
        out.append(f"| {connections} | {store} | {f('polls_per_sec'):,.0f} | {f('p50_us'):.0f} | {f('p99_us'):.0f} | {f('cpu_us_per_poll'):.1f} |")
print("\n".join(out))
