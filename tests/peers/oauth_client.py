"""An MCP client that signs in with OAuth, on the official Python SDK (mcp 2.3).

The SDK's OAuthClientProvider does the whole flow: it reads the server's 401
challenge, fetches the Protected Resource Metadata and the authorization
server's metadata, registers itself (dynamic client registration), runs the
authorization code grant with PKCE and the resource indicator, refreshes an
expired token, and steps up on a 403 `insufficient_scope`. Only the browser
is played here: the authorization URL is fetched and its redirect read.

Usage: oauth_client.py --url URL --tool NAME [--args JSON] [--mode MODE] [--wait SECONDS]
Calls the tool, waits (past the token's expiry), calls it again, and prints one
JSON object with both results and what the flow did.
"""

import argparse
import asyncio
import json
import sys
import traceback
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken


class Memory:
    """Token storage for one run."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None
        self.token_sets = 0

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens
        self.token_sets += 1

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class Browser:
    """Follows the authorization URL as a browser would, up to the redirect."""

    def __init__(self) -> None:
        self.pending: list[AuthorizationCodeResult] = []
        self.visits: list[dict[str, Any]] = []

    async def redirect(self, url: str) -> None:
        query = parse_qs(urlparse(url).query)
        self.visits.append({"scope": query.get("scope", [None])[0], "resource": query.get("resource", [None])[0]})
        async with httpx2.AsyncClient(follow_redirects=False) as http:
            answer = await http.get(url)
        location = answer.headers.get("location")
        if answer.status_code not in (302, 303, 307) or not location:
            raise RuntimeError(f"the authorization endpoint answered {answer.status_code}: {answer.text}")
        back = parse_qs(urlparse(location).query)
        if "error" in back:
            raise RuntimeError(f"authorization refused: {back['error'][0]}: {back.get('error_description', [''])[0]}")
        self.pending.append(
            AuthorizationCodeResult(
                code=back["code"][0], state=back.get("state", [None])[0], iss=back.get("iss", [None])[0]
            )
        )

    async def callback(self) -> AuthorizationCodeResult:
        return self.pending.pop(0)


def text_of(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    storage = Memory()
    browser = Browser()
    provider = OAuthClientProvider(
        server_url=args.url,
        client_metadata=OAuthClientMetadata(
            client_name="mcp-wit authorization test",
            redirect_uris=["http://127.0.0.1:9/callback"],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
        ),
        storage=storage,
        redirect_handler=browser.redirect,
        callback_handler=browser.callback,
    )
    http = httpx2.AsyncClient(auth=provider, timeout=30.0)
    out: dict[str, Any] = {}
    async with Client(streamable_http_client(args.url, http_client=http), mode=args.mode) as client:
        out["protocolVersion"] = client.protocol_version
        out["tools"] = [t.name for t in (await client.list_tools()).tools]
        first = await client.call_tool(args.tool, json.loads(args.args))
        out["first"] = {"text": text_of(first), "isError": bool(first.is_error)}
        await asyncio.sleep(args.wait)
        second = await client.call_tool(args.tool, json.loads(args.args))
        out["second"] = {"text": text_of(second), "isError": bool(second.is_error)}
    out["authorizations"] = browser.visits
    out["tokenSets"] = storage.token_sets
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", required=True)
    p.add_argument("--tool", required=True)
    p.add_argument("--args", default="{}")
    p.add_argument("--mode", default="legacy", help="legacy | 2026-07-28 | auto")
    p.add_argument("--wait", type=float, default=0.0, help="seconds between the two calls")
    args = p.parse_args()
    try:
        print(json.dumps(asyncio.run(run(args))))
    except Exception as exc:  # the test reads the reason
        while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
            exc = exc.exceptions[0]
        traceback.print_exception(exc, file=sys.stderr)
        print(f"failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
