//! The 2024-11-05 HTTP+SSE transport, kept for older clients.
//!
//! `GET /sse` opens a session and its stream; the first event, `endpoint`,
//! names the URL to POST to (`/messages?sessionId=…`). Each POST there
//! carries one client message and gets 202; everything the session writes
//! arrives on the stream as `message` events. The session ends with its
//! stream.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;

use super::answer::{Target, run};
use super::auth::RequestCaller;
use super::session_talk_back::{RequestPeer, RequestStream};
use super::sessions::{ServerStream, Transport};
use super::sse::{self, EventSender};
use super::state::ServerState;
use super::wire::{self, TRANSPORT_ERROR};
use mcp_wit_protocol::jsonrpc::Message;

/// `GET /sse`.
pub async fn stream(State(server): State<Arc<ServerState>>, caller: RequestCaller, headers: HeaderMap) -> Response {
    if !wire::accepts(&headers, "text/event-stream") {
        return wire::error(
            StatusCode::NOT_ACCEPTABLE,
            TRANSPORT_ERROR,
            "Not Acceptable: the client must accept text/event-stream",
            None,
        );
    }
    let mut session = server.session(&caller);
    let stream = Arc::new(ServerStream::default());
    session.set_sink(Some(stream.clone()));
    let session = match server.sessions.insert(Transport::HttpSse, session, stream, caller.client_key()) {
        Ok(session) => session,
        // With `Retry-After`, as on `/mcp`.
        Err(full) => return super::streamable::too_many_sessions(full),
    };
    let (tx, rx) = session.open_stream(sse::CHANNEL_CAPACITY);
    let endpoint = format!("/messages?sessionId={}", session.id);
    tx.try_send(sse::event("endpoint", endpoint.as_bytes())).expect("a fresh channel has room");
    drop(tx);
    let end = EndOnDrop { server: server.clone(), id: session.id.clone(), owner: caller };
    let guard = (session.activity(), end);
    let shutdown = server.shutdown.subscribe();
    wire::event_stream(sse::body(Vec::new(), Some(rx), server.options.keep_alive, Some(shutdown.into()), guard, None))
}

/// Ends the HTTP+SSE session when its stream goes away.
struct EndOnDrop {
    server: Arc<ServerState>,
    id: Arc<str>,
    owner: RequestCaller,
}

impl Drop for EndOnDrop {
    fn drop(&mut self) {
        self.server.sessions.remove(&self.id, Transport::HttpSse, self.owner.get());
    }
}

#[derive(Deserialize)]
pub struct MessageQuery {
    #[serde(rename = "sessionId")]
    session_id: Option<String>,
}

/// `POST /messages?sessionId=…`: 202 once the message is handled; its
/// answers went to the stream.
pub async fn message(
    State(server): State<Arc<ServerState>>,
    caller: RequestCaller,
    Query(query): Query<MessageQuery>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    if let Err(response) = wire::require_json(&headers) {
        return response;
    }
    let Some(id) = query.session_id else {
        return wire::error(
            StatusCode::BAD_REQUEST,
            TRANSPORT_ERROR,
            "Bad Request: the sessionId parameter is missing",
            None,
        );
    };
    let session = server.sessions.get(&id, Transport::HttpSse, caller.get());
    let Some((session, stream)) = session.and_then(|s| s.stream().map(|tx| (s, tx))) else {
        return wire::unknown_session(None);
    };
    let bytes = match wire::read_body(body, server.options.max_body_size, server.options.body_timeout).await {
        Ok(bytes) => bytes,
        Err(response) => return response,
    };
    let message = match wire::classify(&bytes) {
        wire::PostedMessage::Request { message, .. } => message,
        wire::PostedMessage::Accepted { cancels, message } => {
            if let Some(request) = cancels {
                session.canceller.cancel(&request);
            }
            message
        }
        // The transport's answers all go to the stream, errors too.
        wire::PostedMessage::Invalid(error) => {
            EventSender::new(stream).deliver(vec![error]).await;
            return wire::status(StatusCode::ACCEPTED);
        }
    };
    if let Message::Request { method, params, .. } = &message
        && let Err(refusal) = super::auth::allow_operation(&server, &caller, method, params.as_deref(), None)
    {
        return refusal;
    }
    if let Message::Response { .. } = message {
        // An answer to a router's question: its request holds the session.
        super::streamable::hand_over_answer(&session, &bytes);
        return wire::status(StatusCode::ACCEPTED);
    }
    let admitted = match message.request_id() {
        Some(id) => session.request(server.options.max_queued_requests).ok_or_else(|| {
            // Its answer goes where all of them go: to the stream.
            super::streamable::server_busy(server.options.max_queued_requests, Some(id))
        }),
        None => Ok(session.activity()),
    };
    let _activity = match admitted {
        Ok(activity) => activity,
        Err(busy) => {
            EventSender::new(stream).deliver(vec![busy]).await;
            return wire::status(StatusCode::ACCEPTED);
        }
    };
    let peer = session.talks_back.then(|| {
        RequestPeer::shared(session.events.clone(), session.answers.clone(), RequestStream::Events(stream.clone()))
    });
    let handling = tokio::spawn(async move {
        let handled = run(Target::LiveSession { core: session.core.clone(), caller, message }, peer).await;
        EventSender::new(stream).deliver(handled.messages).await;
    });
    match handling.await {
        Ok(()) => wire::status(StatusCode::ACCEPTED),
        Err(e) => {
            tracing::error!("request handling failed: {e}");
            wire::error(StatusCode::INTERNAL_SERVER_ERROR, TRANSPORT_ERROR, format!("Internal error: {e}"), None)
        }
    }
}
