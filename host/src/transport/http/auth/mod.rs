//! MCP authorization on the HTTP transports: the server as an OAuth 2.1
//! resource server (MCP's Authorization section; RFC 9728, RFC 6750,
//! RFC 8707). Off unless [`HttpOptions::auth`](super::HttpOptions::auth) is
//! set; stdio is never authenticated (the spec leaves it to the
//! environment).
//!
//! When on, every request to an MCP endpoint (`/mcp`, `/sse`, `/messages`)
//! carries `Authorization: Bearer <token>`, a JWT that one of the accepted
//! issuers signed for this server ([`AuthOptions::resource`] in its `aud`),
//! still valid. Otherwise:
//!
//! | what | answer |
//! |---|---|
//! | no token, or another scheme | 401, `WWW-Authenticate: Bearer resource_metadata="…", scope="…"` |
//! | a token that does not check out | 401, the same with `error="invalid_token"` |
//! | a token in the query string | 400, `error="invalid_request"` |
//! | a token without the scopes the request needs | 403, `error="insufficient_scope"`, `scope` = what it needs |
//! | the issuer's keys cannot be fetched and none are held | 503 with `Retry-After` |
//!
//! The Protected Resource Metadata is served at
//! `/.well-known/oauth-protected-resource` and at the same path followed by
//! the resource's own path (`…/oauth-protected-resource/mcp`). Every refusal
//! is logged once, with its reason and never the token.
//!
//! What the served routers describe of the authorization they expect
//! ([`AuthOptions::described`]) is advice: their default scopes are
//! advertised in the metadata, and an issuer or a resource identifier that
//! differs from the server's is logged at start, never taken.

mod caller;
mod fetch;
mod keys;
mod layer;
mod options;
mod resource_server;
mod token_cache;

pub(crate) use caller::{ClientAddr, RequestCaller};
pub use keys::{KeyOptions, KeySource};
pub(super) use layer::{allow_operation, metadata, require};
pub use mcp_wit_protocol::auth::{DEFAULT_ALGORITHMS, METADATA_PATH};
pub use options::AuthOptions;
pub(crate) use resource_server::ResourceServer;
