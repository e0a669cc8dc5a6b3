#!/usr/bin/env python3
"""summary.md of run.sh's results: each executable's size, relocations and page faults, and the
median ready time of each server over the repetitions, against rmcp's.

    python3 summarize.py FOLDER > summary.md
"""
import json
import os
import statistics
import sys
from collections import defaultdict

folder = sys.argv[1]
sizes, ready = {}, defaultdict(list)
for line in open(os.path.join(folder, "runs.jsonl"), encoding="utf-8"):
    if not line.strip():
        continue
    run = json.loads(line)
    if run["row"] == "size":
        sizes[run["server"]] = run
    else:
        ready[run["server"]].append(run["result"]["median_ms"])

names = {
    "rmcp": "rmcp's stdio server (`baseline-rmcp`)",
    "mcp-wit": "`mcp-wit serve`",
    "compiler": "`stdio_server` example, with the compiler",
    "no-compiler": "`stdio_server` example, without it",
}
reps = max((len(v) for v in ready.values()), default=0)
rmcp = statistics.median(ready["rmcp"])
out = [f"Ready: spawn to the answer of `initialize`, the echo router's code cached; the median of 40 starts,",
       f"then the median of {reps} repetitions (servers in rotating order).", "",
       "| server | size | relative relocations | page faults a start | ready | ÷ rmcp | repetitions |",
       "|---|---:|---:|---:|---:|---:|---|"]
for server in ("rmcp", "mcp-wit", "compiler", "no-compiler"):
    s, values = sizes[server], ready[server]
    m = statistics.median(values)
    spread = f"{min(values):.2f}–{max(values):.2f} ms"
    out.append(f"| {names[server]} | {s['bytes'] / 1e6:.1f} MB | {s['relocations']:,} | {s['page_faults']} "
               f"| {m:.2f} ms | {m / rmcp:.2f}× | {spread} |")
print("\n".join(out))
