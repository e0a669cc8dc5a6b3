"""summary.md of runs.jsonl: per row and server, the median over repetitions, and its ratio to
the row's reference (rmcp for `ready`, the serde floor for stdio)."""
import json
import statistics
import sys

REFERENCE = {"ready": "rmcp", "stdio-1-one-cpu": "floor"}
MEASURES = {
    "ready": [("spawn to the answer of `initialize`", "median_ms", "ms")],
    "stdio-1-one-cpu": [("p50", "p50_us", "µs"), ("server CPU per call", "cpu_us_per_call", "µs")],
}

runs = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
print(f"Medians of {max(r['rep'] for r in runs)} repetitions; a ratio is a ratio of medians.\n")
print("| row | server | measure | median | spread | ÷ reference |")
print("|---|---|---|---:|---:|---:|")
for row, measures in MEASURES.items():
    servers = sorted({r["server"] for r in runs if r["row"] == row})
    for label, key, unit in measures:
        medians = {}
        spread = {}
        for server in servers:
            values = [r["result"][key] for r in runs if r["row"] == row and r["server"] == server]
            medians[server] = statistics.median(values)
            spread[server] = (min(values), max(values))
        reference = medians[REFERENCE[row]]
        for server in sorted(servers, key=medians.get):
            low, high = spread[server]
            print(
                f"| {row} | {server} | {label} | {medians[server]:.2f} {unit} "
                f"| {low:.2f}–{high:.2f} | {medians[server] / reference:.2f}× |"
            )
