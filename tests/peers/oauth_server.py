"""An OAuth 2.1 authorization server for the authorization tests.

Built on the official MCP Python SDK's authorization-server routes
(`mcp.server.auth`: RFC 8414 metadata, dynamic client registration (RFC 7591),
the authorization code grant with PKCE (S256), refresh tokens, revocation),
served by uvicorn on 127.0.0.1. It issues JWT access tokens (RFC 9068) signed
with an ES256 key it makes at start, for the resource the client names
(RFC 8707), and publishes that key as its JWKS (`jwks_uri` in its metadata).

There is no one to log in: every authorization is granted at once to the user
`alice`, with the scopes asked for among --scopes (each client registered may
ask for all of them). Each registration, authorization and token
grant is appended to --events as a JSON line, for the tests to check.

Usage: oauth_server.py --url-file FILE --events FILE --scopes "A B" [--token-lifetime SECONDS]
Writes the issuer URL to --url-file once listening.
"""

import argparse
import asyncio
import base64
import json
import secrets
import socket
import time
from typing import Any

import jwt
import uvicorn
from cryptography.hazmat.primitives.asymmetric import ec
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.routes import build_metadata, create_auth_routes
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

SUBJECT = "alice"
KEY_ID = "test-es256"


def b64url(number: int) -> str:
    return base64.urlsafe_b64encode(number.to_bytes(32, "big")).rstrip(b"=").decode()


class Provider:
    """Clients, codes and tokens in memory; JWT access tokens."""

    def __init__(self, issuer: str, lifetime: int, events: str, scopes: list[str]) -> None:
        self.issuer = issuer
        self.scopes = scopes
        self.lifetime = lifetime
        self.events = events
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.refresh_tokens: dict[str, RefreshToken] = {}

    def jwks(self) -> dict[str, Any]:
        numbers = self.key.public_key().public_numbers()
        return {
            "keys": [
                {
                    "kty": "EC",
                    "crv": "P-256",
                    "x": b64url(numbers.x),
                    "y": b64url(numbers.y),
                    "kid": KEY_ID,
                    "alg": "ES256",
                    "use": "sig",
                }
            ]
        }

    def record(self, event: str, **fields: Any) -> None:
        with open(self.events, "a") as out:
            out.write(json.dumps({"event": event, **fields}) + "\n")

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        # This server's policy: a client may ask for any scope it knows.
        client_info.scope = " ".join(self.scopes)
        self.clients[client_info.client_id] = client_info
        self.record("register", client_id=client_info.client_id)

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        code = secrets.token_urlsafe(32)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [],
            expires_at=time.time() + 300,
            client_id=client.client_id or "",
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
            subject=SUBJECT,
        )
        self.record("authorize", scopes=params.scopes or [], resource=params.resource)
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state, iss=self.issuer)

    async def load_authorization_code(self, client: OAuthClientInformationFull, code: str) -> AuthorizationCode | None:
        found = self.codes.get(code)
        return found if found and found.client_id == client.client_id else None

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        self.record("token", grant="authorization_code", scopes=authorization_code.scopes)
        return self.issue(client, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> RefreshToken | None:
        found = self.refresh_tokens.get(refresh_token)
        return found if found and found.client_id == client.client_id else None

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        self.refresh_tokens.pop(refresh_token.token, None)
        granted = scopes or refresh_token.scopes
        self.record("token", grant="refresh_token", scopes=granted)
        return self.issue(client, granted, refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        return None

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        self.refresh_tokens.pop(token.token, None)

    def issue(self, client: OAuthClientInformationFull, scopes: list[str], resource: str | None) -> OAuthToken:
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "sub": SUBJECT,
            "aud": resource,
            "client_id": client.client_id,
            "scope": " ".join(scopes),
            "iat": now,
            "exp": now + self.lifetime,
            "jti": secrets.token_urlsafe(16),
        }
        access = jwt.encode(claims, self.key, algorithm="ES256", headers={"kid": KEY_ID, "typ": "at+jwt"})
        refresh = secrets.token_urlsafe(32)
        self.refresh_tokens[refresh] = RefreshToken(
            token=refresh,
            client_id=client.client_id or "",
            scopes=scopes,
            resource=resource,
            subject=SUBJECT,
        )
        return OAuthToken(
            access_token=access,
            token_type="Bearer",
            expires_in=self.lifetime,
            refresh_token=refresh,
            scope=" ".join(scopes),
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url-file", required=True)
    p.add_argument("--events", required=True)
    p.add_argument("--token-lifetime", type=int, default=300)
    p.add_argument("--scopes", default="", help="the scopes this server grants, space-separated")
    args = p.parse_args()

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    issuer = f"http://127.0.0.1:{sock.getsockname()[1]}"
    provider = Provider(issuer, args.token_lifetime, args.events, args.scopes.split())
    registration = ClientRegistrationOptions(enabled=True)
    revocation = RevocationOptions(enabled=True)
    routes = create_auth_routes(provider, AnyHttpUrl(issuer), None, registration, revocation)

    # The SDK's metadata, naming the JWKS and the RFC 9207 `iss` parameter too.
    metadata = build_metadata(AnyHttpUrl(issuer), None, registration, revocation).model_dump(
        mode="json", exclude_none=True
    )
    metadata["issuer"] = issuer
    metadata["jwks_uri"] = f"{issuer}/jwks"
    metadata["authorization_response_iss_parameter_supported"] = True

    async def metadata_endpoint(_: Any) -> JSONResponse:
        return JSONResponse(metadata)

    async def jwks_endpoint(_: Any) -> JSONResponse:
        return JSONResponse(provider.jwks())

    # First match wins: these replace the SDK's metadata route.
    app = Starlette(
        routes=[
            Route("/.well-known/oauth-authorization-server", metadata_endpoint),
            Route("/jwks", jwks_endpoint),
            *routes,
        ]
    )
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))

    async def serve() -> None:
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            await asyncio.sleep(0.01)
        with open(args.url_file, "w") as out:
            out.write(issuer)
        await serving

    asyncio.run(serve())


if __name__ == "__main__":
    main()
