#!/usr/bin/env python3
"""summary.md of run.sh's results: each executable's size, relocations and page faults, the
median ready time of each server over the repetitions against rmcp's, and the hand-over's cost.

    python3 summarize.py FOLDER > summary.md
"""
import json
import os
import statistics
import sys
from collections import defaultdict

folder = sys.argv[1]
sizes, ready, handed = {}, defaultdict(list), None
for line in open(os.path.join(folder, "runs.jsonl"), encoding="utf-8"):
    if not line.strip():
        continue
    run = json.loads(line)
    if run["row"] == "size":
        sizes[run["server"]] = run
    elif run["row"] == "hand-over":
        handed = run
    else:
        ready[run["server"]].append(run["result"]["median_ms"])

names = {
    "rmcp": "rmcp's stdio server (`baseline-rmcp`)",
    "mcp-wit": "`mcp-wit serve`",
    "serve-only": "`mcp-wit-serve`",
}
reps = max((len(v) for v in ready.values()), default=0)
rmcp = statistics.median(ready["rmcp"])
out = [f"Ready: spawn to the answer of `initialize`, the echo router's code cached; the median of 40 starts,",
       f"then the median of {reps} repetitions (servers in rotating order).", "",
       "| server | size | relative relocations | page faults a start | ready | ÷ rmcp | repetitions |",
       "|---|---:|---:|---:|---:|---:|---|"]
for server in ("rmcp", "mcp-wit", "serve-only"):
    s, values = sizes[server], ready[server]
    m = statistics.median(values)
    spread = f"{min(values):.2f}–{max(values):.2f} ms"
    out.append(f"| {names[server]} | {s['bytes'] / 1e6:.1f} MB | {s['relocations']:,} | {s['page_faults']} "
               f"| {m:.2f} ms | {m / rmcp:.2f}× | {spread} |")
if handed:
    out += ["", f"The hand-over (`--help`, median of 41 runs): `mcp-wit serve --help` {handed['direct_ms']:.2f} ms, "
            f"`mcp-wit-serve --help` handing it over {handed['handed_ms']:.2f} ms "
            f"(+{handed['handed_ms'] - handed['direct_ms']:.2f} ms)."]
print("\n".join(out))
