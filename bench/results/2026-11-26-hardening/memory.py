#!/usr/bin/env python3
"""The memory-budget repro: SESSIONS 2025 sessions over HTTP, each calling the
echo router once with an ARG_MIB MiB argument and then left idle, against
`mcp-wit serve` with the flags given after `--`. Prints the server's RSS at
start, its peak while the sessions come, and after IDLE_S seconds idle, as one
JSON line. Needs `cargo build --release -p mcp-wit-cli` and the echo fixture
(`cargo run -q -p mcp-wit-tests --no-default-features --bin fixture-path -- echo`).

    memory.py ECHO.wasm -- --max-total-memory 2GiB --instance-idle-timeout 20s
"""
import json, os, socket, subprocess, sys, time, urllib.request

SESSIONS = int(os.environ.get("SESSIONS", "1024"))
ARG_MIB = int(os.environ.get("ARG_MIB", "7"))
IDLE_S = float(os.environ.get("IDLE_S", "30"))

echo, flags = sys.argv[1], sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
url = f"http://127.0.0.1:{port}/mcp"
server = subprocess.Popen(
    ["target/release/mcp-wit", "serve", echo, "--http", f"127.0.0.1:{port}", "--guest-output", "discard",
     "--max-sessions", str(SESSIONS), "--max-sessions-per-client", str(SESSIONS)] + flags,
    stderr=subprocess.DEVNULL)

def rss_mib():
    with open(f"/proc/{server.pid}/status") as status:
        return next(int(l.split()[1]) for l in status if l.startswith("VmRSS")) / 1024

def post(body, session=None):
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": "2025-11-25"}
    if session:
        headers["Mcp-Session-Id"] = session
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request) as reply:
        return reply.headers.get("Mcp-Session-Id"), reply.read()

for _ in range(200):
    if server.poll() is not None:
        sys.exit(f"the server exited ({server.returncode}) before listening: check the flags {flags}")
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz")
        break
    except OSError:
        time.sleep(0.05)
start = peak = rss_mib()
text = "x" * (ARG_MIB << 20)
failed = 0
began = time.time()
for _ in range(SESSIONS):
    session, _ = post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "memory", "version": "1"}}})
    post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    _, body = post({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "echo", "arguments": {"text": text}}}, session)
    failed += b'"error"' in body[:300]
    peak = max(peak, rss_mib())
elapsed = time.time() - began
time.sleep(IDLE_S)
idle = rss_mib()
server.terminate()
server.wait()
print(json.dumps({"sessions": SESSIONS, "arg_mib": ARG_MIB, "flags": " ".join(flags), "failed": failed,
                  "seconds": round(elapsed, 1), "rss_start_mib": round(start), "rss_peak_mib": round(peak),
                  "rss_after_idle_mib": round(idle), "idle_s": IDLE_S}))
