//! How an answer goes back over HTTP: the status of a 2026-07-28 error and
//! the SSE event that carries a message.

use http::StatusCode;

use crate::jsonrpc::{RpcError, code};

/// The HTTP status of a modern request's error found before the handler ran
/// (handler errors are answered in-band with 200).
pub fn status_of(error: &RpcError) -> StatusCode {
    match error.code {
        code::METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        code::INTERNAL_ERROR => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    }
}

/// The status of a 2026-07-28 request's answer when it is an error HTTP
/// reports with a status of its own (found while the guest ran: -32021, a
/// capability the client did not declare, is 400); `None`: 200.
pub fn outcome_status(outcome: crate::Outcome) -> Option<StatusCode> {
    match outcome {
        crate::Outcome::Failed(code::MISSING_REQUIRED_CLIENT_CAPABILITY) => Some(StatusCode::BAD_REQUEST),
        _ => None,
    }
}

/// Writes `data` (one JSON-RPC message) to `out` as an SSE event named
/// `event`, with `id` when given.
pub fn write_event(out: &mut Vec<u8>, event: &str, id: Option<&str>, data: &[u8]) {
    out.reserve(data.len() + event.len() + id.map_or(0, str::len) + 24);
    out.extend_from_slice(b"event: ");
    out.extend_from_slice(event.as_bytes());
    out.push(b'\n');
    if let Some(id) = id {
        out.extend_from_slice(b"id: ");
        out.extend_from_slice(id.as_bytes());
        out.push(b'\n');
    }
    // The core writes each message on one line; split anyway so that a line
    // break can never end the event early.
    for line in data.split(|&b| b == b'\n') {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(line.strip_suffix(b"\r").unwrap_or(line));
        out.push(b'\n');
    }
    out.push(b'\n');
}
