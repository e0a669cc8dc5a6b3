//! HTTP details shared by the handlers: header names, content negotiation,
//! body reading and error responses.

use std::error::Error as StdError;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use futures_util::FutureExt;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde_json::value::RawValue;

use mcp_wit_protocol::ProtocolVersion;
use mcp_wit_protocol::http::rejection;
use mcp_wit_protocol::jsonrpc::{self, RpcError};

use mcp_wit_protocol::http::{self as rules, EVENT_STREAM, JSON};
pub use mcp_wit_protocol::http::{
    LAST_EVENT_ID, PROTOCOL_VERSION, PostedMessage, Refusal, SESSION_ID, SESSION_NOT_FOUND, TRANSPORT_ERROR, accepts,
    classify,
};

/// A response whose body is a JSON-RPC error object (no `id` unless given).
pub fn error(status: StatusCode, code: i32, message: impl Into<String>, id: Option<&RawValue>) -> Response {
    let mut body = Vec::new();
    jsonrpc::write_error(&mut body, id, &RpcError::new(code, message));
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(JSON));
    response
}

/// A bare status with an empty body (202, 204).
pub fn status(status: StatusCode) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    response
}

/// 405 naming the methods that are allowed.
pub fn method_not_allowed(allow: &'static str, why: &str) -> Response {
    let mut response =
        error(StatusCode::METHOD_NOT_ALLOWED, TRANSPORT_ERROR, format!("Method not allowed: {why}"), None);
    response.headers_mut().insert(axum::http::header::ALLOW, HeaderValue::from_static(allow));
    response
}

/// A complete JSON-RPC message as an `application/json` response.
pub fn json(message: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(message));
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(JSON));
    response
}

/// An SSE response around `body`.
pub fn event_stream(body: Body) -> Response {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(EVENT_STREAM));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // Tell buffering proxies (nginx) to pass events through as they come.
    headers.insert(HeaderName::from_static("x-accel-buffering"), HeaderValue::from_static("no"));
    response
}

/// A transport refusal as a response.
pub fn refused(refusal: Refusal) -> Response {
    error(refusal.status, refusal.error.code, refusal.error.message, None)
}

/// 415 unless the body is declared `application/json`.
pub fn require_json(headers: &HeaderMap) -> Result<(), Response> {
    rules::require_json(headers).map_err(refused)
}

/// The `MCP-Protocol-Version` header of legacy traffic (see
/// [`rules::protocol_version`]).
pub fn protocol_version(headers: &HeaderMap) -> Result<ProtocolVersion, Response> {
    rules::protocol_version(headers).map_err(refused)
}

/// The `Mcp-Session-Id` header, if any (400 when it is not visible ASCII).
pub fn session_id(headers: &HeaderMap) -> Result<Option<&str>, Response> {
    rules::session_id(headers).map_err(refused)
}

/// 404 for a session that does not exist (or no longer does).
pub fn unknown_session(id: Option<&RawValue>) -> Response {
    error(StatusCode::NOT_FOUND, SESSION_NOT_FOUND, "Session not found: start a new one with `initialize`", id)
}

/// Reads a whole body: 413 beyond `limit` bytes, 408 when it takes longer
/// than `timeout`. Any body type: hyper's own, read as it comes (no boxing
/// into axum's `Body` on the front door's path), or axum's.
pub async fn read_body<B>(body: B, limit: usize, timeout: Duration) -> Result<Bytes, Response>
where
    B: axum::body::HttpBody<Data = Bytes> + Unpin,
    B::Error: Into<axum::BoxError>,
{
    // A `Content-Length` over the limit is refused before any of it is read.
    if body.size_hint().lower() > limit as u64 {
        return Err(too_large(limit));
    }
    let mut collecting = Limited::new(body, limit).collect();
    // A small body has usually arrived with its headers: read then, it needs
    // no timer.
    let collected = match (&mut collecting).now_or_never() {
        Some(collected) => Ok(collected),
        None => tokio::time::timeout(timeout, collecting).await,
    };
    match collected {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if is_length_limit(&*e) => Err(too_large(limit)),
        Ok(Err(e)) => Err(error(
            StatusCode::BAD_REQUEST,
            TRANSPORT_ERROR,
            format!("Bad Request: cannot read the body: {e}"),
            None,
        )),
        Err(_) => Err(error(
            StatusCode::REQUEST_TIMEOUT,
            TRANSPORT_ERROR,
            format!("Request Timeout: the body did not arrive within {timeout:?}"),
            None,
        )),
    }
}

fn too_large(limit: usize) -> Response {
    refused(Refusal::too_large(limit))
}

fn is_length_limit(e: &(dyn StdError + 'static)) -> bool {
    let mut current = Some(e);
    while let Some(e) = current {
        if e.is::<LengthLimitError>() {
            return true;
        }
        current = e.source();
    }
    false
}

/// A 400 answer carrying the JSON-RPC error `body`.
pub fn bad_request(body: Vec<u8>) -> Response {
    let mut response = json(body);
    *response.status_mut() = StatusCode::BAD_REQUEST;
    response
}

/// 500 for what should not happen (a task that panicked), logged.
pub(super) fn internal(e: impl std::fmt::Display) -> Response {
    tracing::error!("internal error: {e}");
    error(StatusCode::INTERNAL_SERVER_ERROR, jsonrpc::code::INTERNAL_ERROR, format!("Internal error: {e}"), None)
}

/// The answer to a request refused at the edge, echoing its id.
pub(super) fn rejected(id: &RawValue, error: RpcError) -> Response {
    let (status, body) = rejection(id, &error);
    let mut response = json(body);
    *response.status_mut() = status;
    response
}
