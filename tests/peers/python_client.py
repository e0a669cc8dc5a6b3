"""MCP client peer built on the official Python SDK (mcp 2.3.x).

Usage:
  python_client.py [--mode auto|legacy|2026-07-28] [options] --url URL
  python_client.py [--mode auto|legacy|2026-07-28] [options] -- CMD ARGS...

Connects, runs the standard operation sequence and prints one JSON object.
"""

import argparse
import asyncio
import json
import os
import sys
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
import mcp_types as types
from mcp_types import PromptReference


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    command: list[str] = []
    if "--" in argv:
        split = argv.index("--")
        argv, command = argv[:split], argv[split + 1 :]
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mode", default="auto", help="auto | legacy | 2026-07-28")
    p.add_argument("--url", help="Streamable HTTP endpoint (otherwise spawn the command after --)")
    p.add_argument("--tool", help="tool to call")
    p.add_argument("--args", default="{}", help="tool arguments as a JSON object")
    p.add_argument("--repeat", type=int, default=1, help="call the tool this many times (every result in `calls`)")
    p.add_argument(
        "--list-tools-again",
        action="store_true",
        help="list the tools again after the calls (in `toolsAfter`), as a client that reuses what it may",
    )
    p.add_argument("--resource", help="resource URI to read")
    p.add_argument("--prompt", help="prompt to get")
    p.add_argument("--prompt-args", default="{}", help="prompt arguments as a JSON object")
    p.add_argument("--complete-prompt", help="prompt whose argument to complete")
    p.add_argument("--complete-arg", help="NAME=VALUE of the argument to complete")
    p.add_argument("--timeout", type=float, default=30.0, help="per-request read timeout, seconds")
    p.add_argument("--trace", help="write every JSON-RPC message received from the server to FILE, one per line")
    p.add_argument(
        "--talk-back",
        choices=["accept", "decline"],
        help="answer the server's sampling, elicitation and roots requests (elicitation with this action), "
        "and record them, its log messages and the call's progress",
    )
    p.add_argument(
        "--elicit-content",
        default='{"username": "testuser", "email": "test@example.com"}',
        help="the content of an accepted elicitation, as a JSON object",
    )
    p.add_argument("--log-level", help="ask for log messages from this level (logging/setLevel)")
    args = p.parse_args(argv)
    if bool(args.url) == bool(command):
        p.error("give exactly one of --url URL or -- CMD ARGS...")
    return args, command


class TracingReadStream:
    """Read stream proxy that appends each received JSON-RPC message to a file."""

    def __init__(self, inner: Any, out: Any) -> None:
        self._inner = inner
        self._out = out

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def receive(self) -> Any:
        item = await self._inner.receive()
        if isinstance(item, SessionMessage):
            self._out.write(item.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n")
            self._out.flush()
        return item

    def __aiter__(self) -> "TracingReadStream":
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration

    async def __aenter__(self) -> "TracingReadStream":
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)


class TracingTransport:
    def __init__(self, inner: Any, path: str) -> None:
        self._inner = inner
        self._path = path
        self._out: Any = None

    async def __aenter__(self) -> Any:
        self._out = open(self._path, "w", encoding="utf-8")
        read_stream, write_stream = await self._inner.__aenter__()
        return TracingReadStream(read_stream, self._out), write_stream

    async def __aexit__(self, *exc: Any) -> Any:
        try:
            return await self._inner.__aexit__(*exc)
        finally:
            self._out.close()


class TalkBack:
    """Answers and records what the server asks and sends while it serves a call."""

    def __init__(self, action: str, content: dict[str, Any]) -> None:
        self.action = action
        self.content = content
        self.sampled: list[Any] = []
        self.elicited: list[Any] = []
        self.roots_asked = 0
        self.logs: list[Any] = []
        self.progress: list[Any] = []

    async def sampling(self, context: Any, params: types.CreateMessageRequestParams) -> Any:
        self.sampled.append(dump(params))
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="This is a test response from the client"),
            model="test-model",
            stop_reason="endTurn",
        )

    async def elicitation(self, context: Any, params: types.ElicitRequestParams) -> Any:
        self.elicited.append(dump(params))
        if self.action == "decline":
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content=self.content)

    async def list_roots(self, context: Any) -> Any:
        self.roots_asked += 1
        return types.ListRootsResult(roots=[types.Root(uri="file:///work/project", name="project")])

    async def logging(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(dump(params))

    async def on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        self.progress.append({"progress": progress, "total": total, "message": message})

    def callbacks(self) -> dict[str, Any]:
        return {
            "sampling_callback": self.sampling,
            "elicitation_callback": self.elicitation,
            "list_roots_callback": self.list_roots,
            "logging_callback": self.logging,
        }

    def record(self) -> dict[str, Any]:
        return {
            "sampled": self.sampled,
            "elicited": self.elicited,
            "rootsAsked": self.roots_asked,
            "logs": self.logs,
            "progress": self.progress,
        }


def dump(model: Any) -> Any:
    return model.model_dump(mode="json", by_alias=True, exclude_unset=True)


def failure(exc: BaseException) -> dict[str, Any]:
    while getattr(exc, "exceptions", None):
        exc = exc.exceptions[0]
    if isinstance(exc, MCPError):
        return {"error": exc.message, "code": exc.code}
    return {"error": f"{type(exc).__name__}: {exc}", "code": None}


async def step(fn: Any) -> Any:
    try:
        return await fn()
    except Exception as exc:
        return failure(exc)


async def run(args: argparse.Namespace, command: list[str]) -> dict[str, Any]:
    if args.url:
        transport: Any = streamable_http_client(args.url)
    else:
        params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
        transport = stdio_client(params)
    if args.trace:
        transport = TracingTransport(transport, args.trace)

    talk_back = TalkBack(args.talk_back, json.loads(args.elicit_content)) if args.talk_back else None
    try:
        callbacks = talk_back.callbacks() if talk_back else {}
        client = Client(transport, mode=args.mode, read_timeout_seconds=args.timeout, **callbacks)
        await client.__aenter__()
    except Exception as exc:
        print(f"connect failed: {failure(exc)['error']}", file=sys.stderr)
        sys.exit(1)

    out: dict[str, Any] = {
        "protocolVersion": client.protocol_version,
        "serverInfo": dump(client.server_info) if client.server_info else None,
        "serverCapabilities": dump(client.server_capabilities),
    }
    try:

        async def list_tools() -> Any:
            return [dump(t) for t in (await client.list_tools()).tools]

        async def call() -> Any:
            progress = talk_back.on_progress if talk_back else None
            return dump(await client.call_tool(args.tool, json.loads(args.args), progress_callback=progress))

        if args.log_level:
            await client.set_logging_level(args.log_level)

        async def list_resources() -> Any:
            return [dump(r) for r in (await client.list_resources()).resources]

        async def read() -> Any:
            return dump(await client.read_resource(args.resource))

        async def list_prompts() -> Any:
            return [dump(p) for p in (await client.list_prompts()).prompts]

        async def get_prompt() -> Any:
            return dump(await client.get_prompt(args.prompt, json.loads(args.prompt_args)))

        async def list_templates() -> Any:
            return [dump(t) for t in (await client.list_resource_templates()).resource_templates]

        async def complete() -> Any:
            name, _, value = (args.complete_arg or "").partition("=")
            ref = PromptReference(type="ref/prompt", name=args.complete_prompt)
            return dump(await client.complete(ref, {"name": name, "value": value}))

        out["tools"] = await step(list_tools)
        out["calls"] = [await step(call) for _ in range(args.repeat)] if args.tool else []
        out["call"] = out["calls"][0] if args.tool else None
        if args.list_tools_again:
            out["toolsAfter"] = await step(list_tools)
        out["resources"] = await step(list_resources)
        out["read"] = await step(read) if args.resource else None
        out["prompts"] = await step(list_prompts)
        out["prompt"] = await step(get_prompt) if args.prompt else None
        out["templates"] = await step(list_templates)
        out["complete"] = await step(complete) if args.complete_prompt else None
        if talk_back:
            out["talkBack"] = talk_back.record()
    finally:
        try:
            await client.__aexit__(None, None, None)
        except Exception as exc:
            print(f"close failed: {failure(exc)['error']}", file=sys.stderr)
    return out


def main() -> None:
    args, command = parse_args(sys.argv[1:])
    out = asyncio.run(run(args, command))
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
