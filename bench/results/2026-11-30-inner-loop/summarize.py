#!/usr/bin/env python3
"""runs.jsonl as a table: the median of each measure, per template and build."""
import json
import statistics
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
measures = [
    ("build_s", "`mcp-wit build` (s)"),
    ("build_compile_s", "of which the compile into the cache (s)"),
    ("edit_to_serving_s", "edit → `serve --watch` serving it (s)"),
    ("first_start_s", "first start, empty cache (s)"),
    ("first_start_max_memory_s", "first start, empty cache, `--max-memory 64MiB` (s)"),
    ("cached_start_s", "start from the cache (ms)"),
    ("cached_start_max_memory_s", "start from the cache, `--max-memory 64MiB` (ms)"),
]
langs = [lang for lang in ("rust", "python", "typescript") if any(r["lang"] == lang for r in rows)]
print("| measure | " + " | ".join(f"{lang} before | {lang} after" for lang in langs) + " |")
print("|---|" + "---:|" * (2 * len(langs)))
for key, title in measures:
    cells = []
    for lang in langs:
        for label in ("before", "after"):
            values = [r[key] for r in rows if r["lang"] == lang and r["label"] == label and r.get(key) is not None]
            if not values:
                cells.append("–")
                continue
            median = statistics.median(values)
            cells.append(f"{median * 1000:.0f}" if title.endswith("(ms)") else f"{median:.2f}")
    print(f"| {title} | " + " | ".join(cells) + " |")
print(f"\nMedians of {max(r['rep'] for r in rows) + 1} repetitions.")
