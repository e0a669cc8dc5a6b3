//! Streamable HTTP (MCP 2025-03-26, 2025-06-18, 2025-11-25) at `/mcp`:
//! the 2025 messages, on sessions (`mcp.rs` routes them here; 2026-07-28
//! requests share the endpoint and go to `stateless.rs`).
//!
//! - `POST` carries one JSON-RPC message. A request is answered with an SSE
//!   stream (the notifications it produces, then its response) or, with
//!   `--json-response` or a client that only takes JSON, one JSON body. A
//!   notification or response gets 202 with no body.
//! - `GET` opens the session's server-to-client SSE stream (405 when stateless).
//! - `DELETE` ends the session (405 when stateless).

use std::sync::Arc;

use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::value::RawValue;

use super::answer::{Handled, Target, answer, delivered, run, whole_answer};
use super::auth::{self, RequestCaller};
use super::sessions::{Full, HttpSession, ServerStream, Transport};
use super::sse;
use super::state::ServerState;
use super::wire::{self, SESSION_ID, TRANSPORT_ERROR, internal};
use crate::telemetry::metrics::Refusal;
use mcp_wit_protocol::http::{Framing, SessionPost};
use mcp_wit_protocol::jsonrpc::{self, Message};

/// `POST /mcp` of a 2025 message (`body`, read as `posted`): its answer,
/// or the answer that refuses it.
pub(super) async fn post(
    server: &Arc<ServerState>,
    caller: &RequestCaller,
    headers: &HeaderMap,
    posted: SessionPost<'_>,
    body: &[u8],
    framing: Framing,
) -> Result<Response, Response> {
    let request = posted.request();
    if let Some(request) = request {
        auth::allow_operation(server, caller, &request.method, request.params, None)?;
    }
    let version = wire::protocol_version(headers)?;
    let id = request.map(|request| request.id);

    if server.options.stateless {
        let Some(request) = request else { return Ok(wire::status(StatusCode::ACCEPTED)) };
        let session = server.session(caller);
        // Every request stands alone: initialized from the header unless it is
        // `initialize` itself.
        let assume = (!matches!(posted, SessionPost::Initialize(_))).then_some(version);
        let target = Target::PerRequestSession { session: Box::new(session), assume, message: request.to_message() };
        return Ok(answer(server, target, framing, None, None).await);
    }

    let Some(session_id) = wire::session_id(headers)? else {
        if let SessionPost::Initialize(request) = &posted {
            return Ok(start_session(server, caller, request.to_message(), framing).await);
        }
        return Err(wire::error(
            StatusCode::BAD_REQUEST,
            TRANSPORT_ERROR,
            "Bad Request: Mcp-Session-Id header is required (send `initialize` first)",
            id,
        ));
    };
    let Some(session) = server.sessions.get(session_id, Transport::Streamable, caller.get()) else {
        return Err(wire::unknown_session(id));
    };
    let message = match posted {
        SessionPost::Response => {
            // An answer to a router's question: its request holds the
            // session, so it goes straight to the question.
            hand_over_answer(&session, body);
            return Ok(wire::status(StatusCode::ACCEPTED));
        }
        SessionPost::Notification { cancels, message } => {
            if let Some(request) = cancels {
                session.canceller.cancel(&request);
            }
            message.to_message()
        }
        SessionPost::Initialize(request) | SessionPost::Request(request) => request.to_message(),
    };
    let core = session.core.clone();
    let Some(id) = id else {
        // Notifications: 202 at once (a cancellation took effect above);
        // the core takes them in turn with the session's requests. Queued
        // as requests are: on a saturated session one is dropped, and no
        // one would hear of a refusal.
        match session.request(server.options.max_queued_requests) {
            Some(activity) => {
                let handling = run(Target::LiveSession { core, caller: caller.clone(), message }, None);
                tokio::spawn(async move {
                    handling.await;
                    drop(activity);
                });
            }
            None => tracing::warn!(session = %session.id, "a notification was dropped: the session's queue is full"),
        }
        return Ok(wire::status(StatusCode::ACCEPTED));
    };
    let Some(activity) = session.request(server.options.max_queued_requests) else {
        return Ok(wire::json(server_busy(server.options.max_queued_requests, Some(id))));
    };
    let target = Target::LiveSession { core, caller: caller.clone(), message };
    Ok(answer(server, target, framing, Some((session, activity)), None).await)
}

/// `initialize` without a session: creates one when the core accepts it.
async fn start_session(
    server: &Arc<ServerState>,
    caller: &RequestCaller,
    message: Message,
    framing: Framing,
) -> Response {
    let client = caller.client_key();
    if let Err(full) = server.sessions.room_for(client.as_deref()) {
        return too_many_sessions(full);
    }
    let mut session = server.session(caller);
    let stream = Arc::new(ServerStream::default());
    session.set_sink(Some(stream.clone()));
    let handled = tokio::spawn(async move {
        let mut out: Vec<Vec<u8>> = Vec::new();
        session.handle_parsed_async(message.as_incoming(), &mut out).await;
        (session, out)
    })
    .await;
    let (session, out) = match handled {
        Ok(handled) => handled,
        Err(e) => return internal(e),
    };
    let mut session_id = None;
    if session.protocol_version().is_some() {
        match server.sessions.insert(Transport::Streamable, session, stream, client) {
            Ok(entry) => session_id = Some(entry.id.clone()),
            Err(full) => return too_many_sessions(full),
        }
    }
    if out.is_empty() {
        return internal("the core wrote no answer to `initialize`");
    }
    let mut response = whole_answer(Handled { messages: out, refused: None }, framing, None);
    if let Some(id) = session_id {
        let value = HeaderValue::from_str(&id).expect("session ids are visible ASCII");
        response.headers_mut().insert(SESSION_ID, value);
    }
    response
}

/// `GET /mcp`: the session's server-to-client stream. The host sends nothing
/// on it yet (no server-initiated messages), but keeps it open with
/// keep-alive comments until the session ends or the server shuts down.
pub(super) fn get(server: &Arc<ServerState>, caller: &RequestCaller, headers: &HeaderMap) -> Response {
    let result = (|| {
        wire::protocol_version(headers)?;
        if !wire::accepts(headers, "text/event-stream") {
            return Err(wire::error(
                StatusCode::NOT_ACCEPTABLE,
                TRANSPORT_ERROR,
                "Not Acceptable: the client must accept text/event-stream",
                None,
            ));
        }
        let Some(id) = wire::session_id(headers)? else {
            return Err(wire::error(
                StatusCode::BAD_REQUEST,
                TRANSPORT_ERROR,
                "Bad Request: Mcp-Session-Id header is required",
                None,
            ));
        };
        let caller = caller.get();
        server.sessions.get(id, Transport::Streamable, caller).ok_or_else(|| wire::unknown_session(None))
    })();
    let session = match result {
        Ok(session) => session,
        Err(response) => return response,
    };
    let shutdown = server.shutdown.subscribe();
    if let Some(last) = headers.get(wire::LAST_EVENT_ID).and_then(|v| v.to_str().ok()) {
        // A request stream to pick up where the client lost it.
        if let Some((stream, missed, rest)) = session.events.resume(last) {
            tracing::debug!(session = %session.id, stream, missed = missed.len(), "resuming a request stream");
            let guard = session.activity();
            let on_complete = delivered(&session, stream);
            let body =
                sse::body(missed, rest, server.options.keep_alive, Some(shutdown.into()), guard, Some(on_complete));
            return wire::event_stream(body);
        }
        tracing::debug!(session = %session.id, last, "nothing to resume: opening the session's stream");
    }
    let (tx, rx) = session.open_stream(sse::CHANNEL_CAPACITY);
    // The stream's own sender stays in the session; this one is not kept.
    drop(tx);
    let guard = session.activity();
    wire::event_stream(sse::body(Vec::new(), Some(rx), server.options.keep_alive, Some(shutdown.into()), guard, None))
}

/// `DELETE /mcp`: ends the session; its instance is freed once requests
/// still running on it are done.
pub(super) fn delete(server: &Arc<ServerState>, caller: &RequestCaller, headers: &HeaderMap) -> Response {
    if let Err(response) = wire::protocol_version(headers) {
        return response;
    }
    match wire::session_id(headers) {
        Err(response) => response,
        Ok(None) => wire::error(
            StatusCode::BAD_REQUEST,
            TRANSPORT_ERROR,
            "Bad Request: Mcp-Session-Id header is required",
            None,
        ),
        Ok(Some(id)) if server.sessions.remove(id, Transport::Streamable, caller.get()) => {
            wire::status(StatusCode::NO_CONTENT)
        }
        Ok(Some(_)) => wire::unknown_session(None),
    }
}

/// Hands a client's answer (the body `bytes`) to the question of
/// `session` it answers.
pub(super) fn hand_over_answer(session: &HttpSession, bytes: &[u8]) {
    let answered = jsonrpc::read_response(bytes).is_some_and(|response| session.answers.answer(response));
    if !answered {
        tracing::debug!(session = %session.id, "ignoring a response to no waiting question");
    }
}

/// The JSON-RPC answer to a request on a saturated session: -32603 at
/// once, rather than a wait behind the session's queue.
pub(super) fn server_busy(queued: usize, id: Option<&RawValue>) -> Vec<u8> {
    crate::telemetry::metrics::refused(Refusal::Overload);
    let mut body = Vec::new();
    let message = format!(
        "server busy: {queued} requests of this session are already running or waiting; retry once some are answered"
    );
    jsonrpc::write_error(&mut body, id, &mcp_wit_protocol::RpcError::new(jsonrpc::code::INTERNAL_ERROR, message));
    body
}

/// 503 for a session that finds no room, saying why and when to retry.
pub(super) fn too_many_sessions(full: Full) -> Response {
    crate::telemetry::metrics::refused(Refusal::Sessions);
    let message = match full {
        Full::Table => "Service Unavailable: every session slot is taken by sessions in use (--max-sessions); retry \
                        later"
            .to_string(),
        Full::Client(max) => format!(
            "Service Unavailable: this client already holds {max} sessions, as many as one client may \
             (--max-sessions-per-client); end one (DELETE) or retry later"
        ),
    };
    let mut response = wire::error(StatusCode::SERVICE_UNAVAILABLE, TRANSPORT_ERROR, message, None);
    response.headers_mut().insert(axum::http::header::RETRY_AFTER, HeaderValue::from_static("5"));
    response
}
