//! Streamable HTTP (MCP 2025-03-26, 2025-06-18, 2025-11-25) at `/mcp`, and
//! the door to the stateless 2026-07-28 requests (`modern.rs`): each POST is
//! classified by its body, so both eras share the endpoint.
//!
//! - `POST` carries one JSON-RPC message. A request is answered with an SSE
//!   stream (the notifications it produces, then its response) or, with
//!   `--json-response` or a client that only takes JSON, one JSON body. A
//!   notification or response gets 202 with no body.
//! - `GET` opens the session's server-to-client SSE stream (405 when stateless).
//! - `DELETE` ends the session (405 when stateless).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use futures_util::FutureExt;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use super::ServerState;
use super::auth::{self, RequestCaller};
use super::modern::{self, CancelOnDrop};
use super::resume::LoggedEvents;
use super::sessions::{Activity, Full, HttpSession, ServerStream, Transport};
use super::sse::{self, EventSender};
use super::talk_back::{RequestPeer, RequestStream};
use super::wire::{self, Kind, SESSION_ID, TRANSPORT_ERROR};
use mcp_wit_protocol::http::outcome_status;
use mcp_wit_protocol::jsonrpc::{self, Message};
use mcp_wit_protocol::{Admitted, Peer, ProtocolVersion};

use crate::Session;

/// How long an SSE answer waits for its request to finish before its
/// headers go out: a request done by then is answered in one piece. Longer
/// ones stream; what a router that talks back sends before its result
/// (progress, logs, questions) goes out at the latest this much later.
const WHOLE_ANSWER_WAIT: Duration = Duration::from_millis(10);

/// `POST /mcp`.
pub async fn post(
    State(server): State<Arc<ServerState>>,
    caller: RequestCaller,
    headers: HeaderMap,
    body: Body,
) -> Response {
    match post_inner(&server, &caller, &headers, body).await {
        Ok(response) | Err(response) => response,
    }
}

async fn post_inner(
    server: &Arc<ServerState>,
    caller: &RequestCaller,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, Response> {
    wire::require_json(headers)?;
    let streaming = wire::wants_event_stream(headers, server.options.json_response)?;
    let bytes = wire::read_body(body, server.options.max_body_size, server.options.body_timeout).await?;
    let (id, initialize, cancels, message) = match wire::classify(&bytes) {
        Kind::Invalid(body) => return Ok(wire::bad_request(body)),
        Kind::Request { initialize, message } => {
            (message.request_id().map(ToOwned::to_owned), initialize, None, message)
        }
        Kind::Accepted { message, .. } if modern::is_modern_message(headers, &message) => {
            return Ok(wire::status(StatusCode::ACCEPTED));
        }
        Kind::Accepted { cancels, message } => (None, false, cancels, message),
    };
    auth::allow_operation(server, caller, &message)?;
    let message = match id {
        Some(_) => match modern::serve(server, caller, headers, message, streaming).await {
            Ok(response) => return Ok(response),
            Err(legacy) => legacy,
        },
        None => message,
    };
    let version = wire::protocol_version(headers)?;

    if server.options.stateless {
        let Some(id) = id else { return Ok(wire::status(StatusCode::ACCEPTED)) };
        let session = server.session(caller);
        // Every request stands alone: initialized from the header unless it is
        // `initialize` itself.
        let assume = (!initialize).then_some(version);
        let target = Target::Fresh { session: Box::new(session), assume, id };
        return Ok(answer(server, target, message, streaming, None, None).await);
    }

    let Some(session_id) = wire::session_id(headers)? else {
        if initialize {
            return Ok(start_session(server, caller, message, streaming).await);
        }
        return Err(wire::error(
            StatusCode::BAD_REQUEST,
            TRANSPORT_ERROR,
            "Bad Request: Mcp-Session-Id header is required (send `initialize` first)",
            id.as_deref(),
        ));
    };
    let Some(session) = server.sessions.get(session_id, Transport::Streamable, caller.get()) else {
        return Err(wire::unknown_session(id.as_deref()));
    };
    if let Message::Response { .. } = message {
        // An answer to a router's question: its request holds the session,
        // so it goes straight to the question.
        hand_over_answer(&session, &bytes);
        return Ok(wire::status(StatusCode::ACCEPTED));
    }
    if let Some(request) = cancels {
        session.canceller.cancel(&request);
    }
    let core = session.core.clone();
    if id.is_none() {
        // Notifications: 202 at once (a cancellation took effect above);
        // the core takes them in turn with the session's requests. Queued
        // as requests are: on a saturated session one is dropped, and no
        // one would hear of a refusal.
        match session.request(server.options.max_queued_requests) {
            Some(activity) => {
                let handling = run(Target::Stored(core, caller.clone()), message, None);
                tokio::spawn(async move {
                    handling.await;
                    drop(activity);
                });
            }
            None => tracing::warn!(session = %session.id, "a notification was dropped: the session's queue is full"),
        }
        return Ok(wire::status(StatusCode::ACCEPTED));
    }
    let Some(activity) = session.request(server.options.max_queued_requests) else {
        return Ok(wire::json(server_busy(server.options.max_queued_requests, id.as_deref())));
    };
    let target = Target::Stored(core, caller.clone());
    Ok(answer(server, target, message, streaming, Some((session, activity)), None).await)
}

/// `initialize` without a session: creates one when the core accepts it.
async fn start_session(
    server: &Arc<ServerState>,
    caller: &RequestCaller,
    message: Message,
    streaming: bool,
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
    let mut response = if streaming {
        let events: Vec<u8> = out.iter().flat_map(|m| sse::message(m)).collect();
        wire::event_stream(Body::from(events))
    } else {
        match out.into_iter().last() {
            Some(message) => wire::json(message),
            None => return internal("the core wrote no answer to `initialize`"),
        }
    };
    if let Some(id) = session_id {
        let value = HeaderValue::from_str(&id).expect("session ids are visible ASCII");
        response.headers_mut().insert(SESSION_ID, value);
    }
    response
}

/// `GET /mcp`: the session's server-to-client stream. The host sends nothing
/// on it yet (no server-initiated messages), but keeps it open with
/// keep-alive comments until the session ends or the server shuts down.
pub async fn get(State(server): State<Arc<ServerState>>, caller: RequestCaller, headers: HeaderMap) -> Response {
    if server.options.stateless {
        return wire::method_not_allowed("POST", "a stateless server has no stream to open");
    }
    if modern::header_is_modern(&headers) {
        return wire::method_not_allowed("POST", "2026-07-28 has no GET stream; use subscriptions/listen");
    }
    let result = (|| {
        wire::protocol_version(&headers)?;
        if !wire::accepts(&headers, "text/event-stream") {
            return Err(wire::error(
                StatusCode::NOT_ACCEPTABLE,
                TRANSPORT_ERROR,
                "Not Acceptable: the client must accept text/event-stream",
                None,
            ));
        }
        let Some(id) = wire::session_id(&headers)? else {
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
pub async fn delete(State(server): State<Arc<ServerState>>, caller: RequestCaller, headers: HeaderMap) -> Response {
    if server.options.stateless {
        return wire::method_not_allowed("POST", "a stateless server has no sessions to end");
    }
    if modern::header_is_modern(&headers) {
        return wire::method_not_allowed("POST", "2026-07-28 has no sessions to end");
    }
    if let Err(response) = wire::protocol_version(&headers) {
        return response;
    }
    match wire::session_id(&headers) {
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

/// Where a message is handled.
pub enum Target {
    /// On a live session, after the requests before it, made by the caller.
    Stored(Arc<tokio::sync::Mutex<Session>>, RequestCaller),
    /// On a session of its own (stateless), first marked initialized at
    /// `assume` when given.
    Fresh { session: Box<Session>, assume: Option<ProtocolVersion>, id: Box<RawValue> },
    /// On a session of its own, as a 2026-07-28 request it admitted
    /// (`modern.rs`).
    Admitted { session: Box<Session>, admitted: Admitted },
}

/// Hands a client's answer (the body `bytes`) to the question of
/// `session` it answers.
pub(super) fn hand_over_answer(session: &HttpSession, bytes: &[u8]) {
    let answered = jsonrpc::read_response(bytes).is_some_and(|response| session.answers.answer(response));
    if !answered {
        tracing::debug!(session = %session.id, "ignoring a response to no waiting question");
    }
}

/// The messages the core wrote for a request, and the HTTP status its
/// answer needs when it is not 200 (a 2026-07-28 refusal found while the
/// guest ran), as the core said: never read back from the bytes.
pub struct Handled {
    pub messages: Vec<Vec<u8>>,
    pub refused: Option<StatusCode>,
}

/// Runs `message` through the core, returning the messages it writes. Guest
/// calls are async: they run on this task's thread and give it back while
/// they wait and at every epoch tick. Routers that talk back reach the
/// client through `peer` meanwhile, if given.
pub async fn run(target: Target, message: Message, peer: Option<Arc<dyn Peer>>) -> Handled {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut refused = None;
    match target {
        Target::Stored(core, caller) => {
            let mut session = core.lock_owned().await;
            // The same principal as ever (the session is bound to it), whose
            // token may have been refreshed or stepped up since.
            session.set_caller(caller.0);
            session.set_peer(peer);
            session.handle_parsed_async(message.as_incoming(), &mut out).await;
            session.set_peer(None);
        }
        Target::Fresh { mut session, assume, id } => {
            if let Some(version) = assume
                && let Err(error) = session.assume_initialized_async(version).await
            {
                let mut buf = Vec::new();
                jsonrpc::write_error(&mut buf, Some(&id), &error);
                out.push(buf);
                return Handled { messages: out, refused };
            }
            session.handle_parsed_async(message.as_incoming(), &mut out).await;
        }
        Target::Admitted { mut session, admitted } => {
            if let Message::Request { id, params, .. } = &message {
                let outcome = session.handle_admitted_async(id, admitted, params.as_deref(), &mut out).await;
                refused = outcome_status(outcome);
            }
        }
    }
    Handled { messages: out, refused }
}

/// Where a request's messages go once it is handled.
enum Delivery {
    Events(EventSender),
    Logged(LoggedEvents),
}

/// Finishes `handling` (a request's [`run`]) in a task of its own, so that
/// the request goes on if its client leaves; `activity` ends with it. For a
/// 2026-07-28 request (`finished` given) whose answer is an error HTTP gives
/// a status of its own, the task also returns that answer, for a response
/// that has not begun.
fn spawn_run(
    handling: impl Future<Output = Handled> + Send + 'static,
    delivery: Delivery,
    activity: Option<Activity>,
    finished: Option<Arc<AtomicBool>>,
) -> tokio::task::JoinHandle<Option<(StatusCode, Vec<u8>)>> {
    tokio::spawn(async move {
        let Handled { messages, refused } = handling.await;
        if let Some(finished) = finished {
            finished.store(true, Ordering::Release);
        }
        // Delivered all the same: if the stream has begun, that is where the
        // error goes.
        let refused = refused.zip(messages.last().cloned());
        match delivery {
            Delivery::Events(events) => events.deliver(messages).await,
            Delivery::Logged(log) => log.deliver(messages).await,
        }
        drop(activity);
        refused
    })
}

/// `message` as a JSON body with status `status`.
fn json_with_status(message: Vec<u8>, status: StatusCode) -> Response {
    let mut response = wire::json(message);
    *response.status_mut() = status;
    response
}

/// Marks stream `stream` of `session` delivered.
fn delivered(session: &Arc<HttpSession>, stream: u64) -> sse::OnComplete {
    let session = session.clone();
    Box::new(move || session.events.delivered(stream))
}

/// Answers a request: as an SSE stream that carries each message as soon as
/// the core writes it (resumable on sessions at 2025-11-25 and later), or as
/// one JSON body. With `cancel`, a client who leaves before the answer
/// cancels the request (2026-07-28, where that is the way to cancel).
pub(super) async fn answer(
    server: &Arc<ServerState>,
    target: Target,
    message: Message,
    streaming: bool,
    session: Option<(Arc<HttpSession>, Activity)>,
    cancel: Option<CancelOnDrop>,
) -> Response {
    let finished = cancel.as_ref().map(CancelOnDrop::finished);
    let (session, activity) = session.unzip();
    // What the client gets if the server shuts down before the answer.
    let id = message.request_id().map(ToOwned::to_owned);
    // A router that talks back sends on the request's stream while it works:
    // the stream is there from the start.
    if streaming && let Some(session) = session.as_ref().filter(|s| s.talks_back) {
        let handling = |peer| run(target, message, peer);
        let ending = (finished, cancel, id);
        return stream_from_task(server, handling, Some(session.clone()), activity, ending).await;
    }
    // Run in place: most requests are done within this first poll, and are
    // then answered whole, without a task, a channel or a timer.
    // (A future polled here once and then moved to a task of its own is
    // polled there again at once, with that task's waker.)
    let logged = session.filter(|s| streaming && s.resumable);
    let mut handling = Box::pin(run(target, message, None));
    let handled = match (&mut handling).now_or_never() {
        Some(handled) => handled,
        // JSON has nothing to send before the answer: wait for it, or for
        // the end of the shutdown's grace.
        None if !streaming => {
            let mut cut = server.cut.subscribe();
            tokio::select! {
                handled = tokio::spawn(handling) => match handled {
                    Ok(handled) => handled,
                    Err(e) => return internal(e),
                },
                _ = cut.wait_for(|&cut| cut) => return wire::json(cut_off(id.as_deref())),
            }
        }
        None => {
            let ending = (finished, cancel, id);
            return stream_from_task(server, |_| handling, logged, activity, ending).await;
        }
    };
    if let Some(finished) = finished {
        finished.store(true, Ordering::Release);
    }
    drop((cancel, activity));
    whole_answer(handled, streaming, logged.as_deref())
}

/// Streams a request's answer from a task of its own, which runs what
/// `handling` makes of the way back to the client it is given (for a
/// session whose routers talk back). On a resumable `session` the events
/// carry ids and are logged for a resumption.
async fn stream_from_task<F: Future<Output = Handled> + Send + 'static>(
    server: &Arc<ServerState>,
    handling: impl FnOnce(Option<Arc<dyn Peer>>) -> F,
    session: Option<Arc<HttpSession>>,
    activity: Option<Activity>,
    (finished, cancel, id): (Option<Arc<AtomicBool>>, Option<CancelOnDrop>, Option<Box<RawValue>>),
) -> Response {
    let cut = sse::message(&cut_off(id.as_deref()));
    let (tx, rx) = mpsc::channel(sse::CHANNEL_CAPACITY);
    let talker = session.as_ref().filter(|s| s.talks_back).cloned();
    match session.filter(|s| s.resumable) {
        Some(session) => {
            let (stream, priming) = session.events.open(tx);
            let log = Delivery::Logged(LoggedEvents::new(session.clone(), stream));
            let peer = talker.map(|talker| RequestPeer::shared(talker, RequestStream::Logged(stream)));
            let handling = spawn_run(handling(peer), log, activity, finished);
            let on_complete = Some(delivered(&session, stream));
            stream_answer(server, vec![priming], rx, handling, (on_complete, cancel, cut)).await
        }
        None => {
            let peer = talker.map(|talker| RequestPeer::shared(talker, RequestStream::Events(tx.clone())));
            let events = Delivery::Events(EventSender::new(tx));
            let handling = spawn_run(handling(peer), events, activity, finished);
            stream_answer(server, Vec::new(), rx, handling, (None, cancel, cut)).await
        }
    }
}

/// A request's whole answer, done: SSE events in one body (`streaming`;
/// with ids on a resumable stream of `logged`), or its last message as JSON
/// (JSON carries one message: notifications before it are dropped). A
/// 2026-07-28 answer that HTTP reports with a status of its own goes out as
/// JSON with that status.
fn whole_answer(handled: Handled, streaming: bool, logged: Option<&HttpSession>) -> Response {
    let Handled { messages, refused } = handled;
    if let Some(status) = refused {
        // The refusal is the last message the core wrote.
        return json_with_status(messages.into_iter().last().unwrap_or_default(), status);
    }
    if streaming {
        let body = match logged {
            Some(session) => session.events.whole(&messages),
            None => {
                let mut body = Vec::with_capacity(messages.iter().map(|m| m.len() + 24).sum());
                for message in &messages {
                    sse::write_message(&mut body, None, message);
                }
                body
            }
        };
        return wire::event_stream(Body::from(body));
    }
    let count = messages.len();
    match messages.into_iter().last() {
        Some(response) => {
            if count > 1 {
                tracing::debug!(dropped = count - 1, "notifications not delivered: JSON responses carry one message");
            }
            wire::json(response)
        }
        // Cancelled: a cancelled request gets no response.
        None => wire::status(StatusCode::ACCEPTED),
    }
}

/// Streams a request's answer: `first`, then what `handling` sends on `rx`.
/// Most calls end within moments: their events then go out as one body,
/// written with the headers at once, rather than as a stream written piece
/// by piece as it fills (about 2.3 writes per call).
async fn stream_answer(
    server: &Arc<ServerState>,
    mut first: Vec<Bytes>,
    mut rx: mpsc::Receiver<Bytes>,
    mut handling: tokio::task::JoinHandle<Option<(StatusCode, Vec<u8>)>>,
    (on_complete, cancel, cut): (Option<sse::OnComplete>, Option<CancelOnDrop>, Bytes),
) -> Response {
    if let Ok(handled) = tokio::time::timeout(WHOLE_ANSWER_WAIT, &mut handling).await {
        if let Ok(Some((status, refused))) = handled {
            return json_with_status(refused, status);
        }
        while let Ok(event) = rx.try_recv() {
            first.push(event);
        }
        if let Some(on_complete) = on_complete {
            on_complete();
        }
        return wire::event_stream(Body::from(first.concat()));
    }
    let keep_alive = server.options.keep_alive;
    // At the end of a shutdown's grace, the stream ends with an error for
    // the request rather than being cut without one.
    let ending = sse::Ending { signal: server.cut.subscribe(), last: Some(cut) };
    wire::event_stream(sse::body(first, Some(rx), keep_alive, Some(ending), cancel, on_complete))
}

/// The answer to request `id` when the server shuts down before it is done.
fn cut_off(id: Option<&RawValue>) -> Vec<u8> {
    let mut body = Vec::new();
    let error = mcp_wit_protocol::RpcError::new(
        jsonrpc::code::INTERNAL_ERROR,
        "the server shut down before the request was done (its --shutdown-timeout ran out); retry it",
    );
    jsonrpc::write_error(&mut body, id, &error);
    body
}

/// The JSON-RPC answer to a request on a saturated session: -32603 at
/// once, rather than a wait behind the session's queue.
pub(super) fn server_busy(queued: usize, id: Option<&RawValue>) -> Vec<u8> {
    let mut body = Vec::new();
    let message = format!(
        "server busy: {queued} requests of this session are already running or waiting; retry once some are answered"
    );
    jsonrpc::write_error(&mut body, id, &mcp_wit_protocol::RpcError::new(jsonrpc::code::INTERNAL_ERROR, message));
    body
}

/// 503 for a session that finds no room, saying why and when to retry.
pub(super) fn too_many_sessions(full: Full) -> Response {
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

pub(super) fn internal(e: impl std::fmt::Display) -> Response {
    tracing::error!("internal error: {e}");
    wire::error(StatusCode::INTERNAL_SERVER_ERROR, jsonrpc::code::INTERNAL_ERROR, format!("Internal error: {e}"), None)
}
