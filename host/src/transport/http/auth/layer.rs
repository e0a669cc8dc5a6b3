//! Authorization on the routes: the middleware that authenticates each
//! request, the caller handlers read, the scopes a named operation needs,
//! and the metadata route.

use std::sync::Arc;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::Response;

use mcp_wit_protocol::http::RequestSubject;
use serde_json::value::RawValue;

use super::caller::{RequestCaller, client_addr};
use crate::telemetry::metrics::Refusal;
use crate::transport::http::state::ServerState;
use crate::transport::http::wire;

/// Handlers read the caller [`require`] left; on a server that
/// authenticates, a request that did not pass it is refused, whatever route
/// it took.
impl FromRequestParts<Arc<ServerState>> for RequestCaller {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, server: &Arc<ServerState>) -> Result<Self, Response> {
        match (parts.extensions.get::<RequestCaller>(), &server.auth) {
            (Some(caller), _) => Ok(caller.clone()),
            (None, None) => Ok(RequestCaller(None, client_addr(&parts.extensions))),
            (None, Some(auth)) => Err(auth.unauthenticated("the request did not pass authentication")),
        }
    }
}

/// Middleware: authenticates every request to the MCP endpoints when the
/// server is a resource server, leaving its [`RequestCaller`].
pub(in crate::transport::http) async fn require(
    State(server): State<Arc<ServerState>>,
    mut request: Request,
    next: Next,
) -> Response {
    let Some(auth) = &server.auth else { return next.run(request).await };
    let span = tracing::debug_span!(target: crate::telemetry::TRACE_TARGET, "authorize");
    let authenticated =
        tracing::Instrument::instrument(auth.authenticate(request.headers(), request.uri()), span).await;
    match authenticated {
        Ok(caller) => {
            let addr = client_addr(request.extensions());
            request.extensions_mut().insert(RequestCaller(Some(caller), addr));
            next.run(request).await
        }
        Err(refusal) => {
            let why = match refusal.status() {
                axum::http::StatusCode::FORBIDDEN => Refusal::Forbidden,
                _ => Refusal::Unauthorized,
            };
            crate::telemetry::metrics::refused(why);
            refusal
        }
    }
}

/// `Ok` unless authorization is on and `caller` lacks the scopes the tool,
/// prompt or resource a request of `method` names needs: then the 403 that
/// asks for them. Checked before the guest sees the request. What it names
/// is `named` when read already, else read from `params`, only when some
/// operation has rules of its own.
pub(in crate::transport::http) fn allow_operation(
    server: &ServerState,
    caller: &RequestCaller,
    method: &str,
    params: Option<&RawValue>,
    named: Option<&RequestSubject<'_>>,
) -> Result<(), Response> {
    let (Some(auth), Some(caller)) = (&server.auth, caller.get()) else { return Ok(()) };
    if !auth.has_operation_rules() {
        return Ok(());
    }
    let read;
    let named = match named {
        Some(named) => named,
        None => {
            read = RequestSubject::of(method, params);
            &read
        }
    };
    auth.allow(caller, named.operation(method)).inspect_err(|_| crate::telemetry::metrics::refused(Refusal::Forbidden))
}

/// `GET /.well-known/oauth-protected-resource[/<path>]`.
pub(in crate::transport::http) async fn metadata(State(server): State<Arc<ServerState>>) -> Response {
    match &server.auth {
        Some(auth) => auth.metadata(),
        None => wire::status(StatusCode::NOT_FOUND),
    }
}
