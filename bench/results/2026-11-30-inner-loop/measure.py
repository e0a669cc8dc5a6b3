#!/usr/bin/env python3
"""The inner loop of one template, with one mcp-wit binary: `mcp-wit build`,
a first start from an empty cache and a start from the cache (each with and
without a `--max-memory`), and an edit until `serve --watch` serves it.
Appends one JSON object per repetition to --out.

    measure.py --bin mcp-wit --lang python --work DIR --reps 3 --label after --out runs.jsonl

Times are wall clock, spawn (or edit) to answer, in seconds.
"""

import argparse
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "inner-loop", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
SOURCE = {"python": "app.py", "typescript": "router.ts", "rust": "src/lib.rs"}
# The reverse tool's description in each template, and how an edit marks it.
DESCRIPTION = {"python": "Reverses a string.", "typescript": "Reverses a string", "rust": "Reverses a string"}


def send(process, message):
    process.stdin.write((json.dumps(message) + "\n").encode())
    process.stdin.flush()


def serve(command):
    """The server, its output lines read into a queue by a thread of their own."""
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    process.lines = queue.Queue()

    def read():
        for line in process.stdout:
            process.lines.put(line)
        process.lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return process


def answer(process, id, deadline=120.0):
    """The response with `id` (notifications skipped)."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            line = process.lines.get(timeout=max(0.0, end - time.monotonic()))
        except queue.Empty:
            break
        if line is None:
            raise RuntimeError("the server closed its output")
        message = json.loads(line)
        if message.get("id") == id:
            return message
    raise RuntimeError(f"no answer to {id} within {deadline} s")


def start(binary, wasm, cache, extra=()):
    """Seconds from spawn to `initialize` answered, then the server closed (and waited for)."""
    started = time.monotonic()
    process = serve([binary, "serve", str(wasm), "--cache-dir", str(cache), "--guest-output", "discard", *extra])
    send(process, INITIALIZE)
    answer(process, 1)
    took = time.monotonic() - started
    process.stdin.close()
    process.wait()
    return took


def edit(project, lang, marker):
    path = project / SOURCE[lang]
    text = path.read_text()
    text = re.sub(re.escape(DESCRIPTION[lang]) + r"( \(edit [^)]*\))?", f"{DESCRIPTION[lang]} (edit {marker})", text, count=1)
    path.write_text(text)


def build(binary, project, cache):
    """Seconds of `mcp-wit build`, and the compile it reported."""
    started = time.monotonic()
    done = subprocess.run([binary, "build", str(project), "--cache-dir", str(cache)], capture_output=True, text=True)
    took = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"mcp-wit build failed:\n{done.stderr}")
    compiled = re.search(r"compiled in ([0-9.]+) s", done.stderr)
    return took, float(compiled.group(1)) if compiled else None, Path(done.stdout.strip())


def edit_to_serving(binary, project, lang, wasm, cache, marker):
    """Seconds from an edit (and `mcp-wit build` run at once) until `serve --watch` lists the edited tool."""
    process = serve([binary, "serve", "--watch", str(wasm), "--cache-dir", str(cache), "--guest-output", "discard"])
    send(process, INITIALIZE)
    answer(process, 1)
    send(process, INITIALIZED)
    edit(project, lang, marker)
    started = time.monotonic()
    builder = subprocess.Popen([binary, "build", str(project), "--cache-dir", str(cache)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # As a client would: it hears that the tools changed, then lists them.
    id = 100
    took = None
    while took is None and time.monotonic() - started < 180:
        try:
            line = process.lines.get(timeout=max(0.0, 180 - (time.monotonic() - started)))
        except queue.Empty:
            break
        if line is None:
            break
        if json.loads(line).get("method") != "notifications/tools/list_changed":
            continue
        id += 1
        send(process, {"jsonrpc": "2.0", "id": id, "method": "tools/list"})
        tools = answer(process, id)["result"]["tools"]
        if any(f"(edit {marker})" in (tool.get("description") or "") for tool in tools):
            took = time.monotonic() - started
    builder.wait()
    process.stdin.close()
    process.wait()
    if took is None:
        raise RuntimeError("the edit was never served")
    return took


def setup(binary, lang, work):
    project = work / f"loop-{lang}"
    if not project.exists():
        subprocess.run([binary, "new", str(project), "--lang", lang], check=True, stdout=subprocess.DEVNULL)
        if lang == "python":
            venv = os.environ.get("SDK_VENV") or sys.exit("SDK_VENV: a venv with componentize-py (sdk/python/requirements-build.txt)")
            (project / ".venv").symlink_to(venv)
        if lang == "typescript":
            subprocess.run(["npm", "install", "--prefer-offline", "--no-audit", "--no-fund"], cwd=project, check=True, stdout=subprocess.DEVNULL)
    # Untimed: fills cargo's and the toolchains' own caches.
    build(binary, project, Path(tempfile.mkdtemp()))
    return project


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--lang", required=True, choices=sorted(SOURCE))
    parser.add_argument("--work", required=True, type=Path)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--label", required=True)
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args()
    binary = str(Path(args.bin).resolve())
    project = setup(binary, args.lang, args.work)
    for rep in range(args.reps):
        marker = f"{args.label}-{rep}-{time.time_ns()}"
        edit(project, args.lang, marker)
        cache = Path(tempfile.mkdtemp())
        build_s, compile_s, wasm = build(binary, project, cache)
        row = {"label": args.label, "lang": args.lang, "rep": rep, "build_s": build_s, "build_compile_s": compile_s}
        row["cached_start_s"] = start(binary, wasm, cache)
        row["cached_start_max_memory_s"] = start(binary, wasm, cache, ["--max-memory", "64MiB"])
        row["first_start_s"] = start(binary, wasm, Path(tempfile.mkdtemp()))
        row["first_start_max_memory_s"] = start(binary, wasm, Path(tempfile.mkdtemp()), ["--max-memory", "64MiB"])
        row["edit_to_serving_s"] = edit_to_serving(binary, project, args.lang, wasm, cache, marker + "-w")
        with args.out.open("a") as out:
            out.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
