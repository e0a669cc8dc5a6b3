//! `/mcp`, routed in one place: the front door's direct path and the axum
//! router both come here. Each method goes to its handler; each POST is
//! read once ([`Post::read`]: its era and kind, from its body and headers)
//! and handed to the module that serves that kind, 2026-07-28 requests to
//! `stateless.rs`, 2025 messages to `streamable.rs`. Nothing hands a
//! request back.

use std::sync::Arc;

use axum::BoxError;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::Response;

use mcp_wit_protocol::http::{Post, header_is_modern, negotiate};

use super::auth::RequestCaller;
use super::state::ServerState;
use super::{stateless, streamable, wire};

/// `/mcp` as the axum router's route.
pub(super) async fn route(
    State(server): State<Arc<ServerState>>,
    caller: RequestCaller,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Response {
    serve(&server, &caller, method, &headers, body).await
}

/// A request on `/mcp`, by its method: `POST`, `GET` (and `HEAD`) or
/// `DELETE`, the ones its route takes.
pub(super) async fn serve<B>(
    server: &Arc<ServerState>,
    caller: &RequestCaller,
    method: Method,
    headers: &HeaderMap,
    body: B,
) -> Response
where
    B: HttpBody<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    match method {
        Method::POST => post(server, caller, headers, body).await,
        Method::DELETE if server.options.stateless => {
            wire::method_not_allowed("POST", "a stateless server has no sessions to end")
        }
        Method::DELETE if header_is_modern(headers) => {
            wire::method_not_allowed("POST", "2026-07-28 has no sessions to end")
        }
        Method::DELETE => streamable::delete(server, caller, headers),
        _ if server.options.stateless => wire::method_not_allowed("POST", "a stateless server has no stream to open"),
        _ if header_is_modern(headers) => {
            wire::method_not_allowed("POST", "2026-07-28 has no GET stream; use subscriptions/listen")
        }
        _ => streamable::get(server, caller, headers),
    }
}

/// `POST /mcp`: one JSON-RPC message, read and classified once.
async fn post<B>(server: &Arc<ServerState>, caller: &RequestCaller, headers: &HeaderMap, body: B) -> Response
where
    B: HttpBody<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    let framing = match negotiate(headers, server.options.json_response) {
        Ok(framing) => framing,
        Err(refusal) => return wire::refused(refusal),
    };
    let bytes = match wire::read_body(body, server.options.max_body_size, server.options.body_timeout).await {
        Ok(bytes) => bytes,
        Err(refused) => return refused,
    };
    match Post::read(headers, &bytes) {
        Post::Stateless(request) => stateless::serve(server, caller, headers, request, framing).await,
        Post::Session(message) => {
            streamable::post(server, caller, headers, message, &bytes, framing).await.unwrap_or_else(|refused| refused)
        }
        Post::StatelessNotice => wire::status(StatusCode::ACCEPTED),
        Post::Invalid(error) => wire::bad_request(error),
    }
}
