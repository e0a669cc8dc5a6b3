//! Answering a request on `/mcp`, in either era: where it is handled
//! ([`Target`]), running it through the core ([`run`]), and its answer,
//! whole (JSON, or SSE events in one body) or streamed from a task of its
//! own while the request runs; a client who leaves cancels a 2026-07-28
//! request ([`CancelOnDrop`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::StatusCode;
use axum::response::Response;
use futures_util::FutureExt;
use mcp_wit_protocol::observe::{CLIENT_TEXT_BYTES, clipped};
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use super::auth::RequestCaller;
use super::kept_future::KeptFuture;
use super::recycled::ServedRequest;
use super::resume::LoggedEvents;
use super::session_talk_back::{RequestPeer, RequestStream};
use super::sessions::{Activity, HttpSession};
use super::sse::{self, EventSender};
use super::state::ServerState;
use super::wire::{self, internal};
use mcp_wit_protocol::http::{Framing, outcome_status};
use mcp_wit_protocol::jsonrpc::{self, Message};
use mcp_wit_protocol::{Admitted, Canceller, Peer, ProtocolVersion};

use crate::Session;

/// How long an SSE answer waits for its request to finish before its
/// headers go out: a request done by then is answered in one piece. Longer
/// ones stream; what a router that talks back sends before its result
/// (progress, logs, questions) goes out at the latest this much later.
const WHOLE_ANSWER_WAIT: Duration = Duration::from_millis(10);

/// A message and where it is handled.
pub enum Target {
    /// On a live session, after the requests before it, made by the caller.
    LiveSession { core: Arc<tokio::sync::Mutex<Session>>, caller: RequestCaller, message: Message },
    /// On a session made for it alone (2025 traffic on a server run with
    /// `--stateless`), first marked initialized at `assume` when given.
    PerRequestSession { session: Box<Session>, assume: Option<ProtocolVersion>, message: Message },
    /// As a 2026-07-28 request (`stateless.rs`), admitted, then answered
    /// without a session: its id and params are all it needs of the body.
    Stateless { request: ServedRequest, admitted: Admitted, id: Box<RawValue>, params: Option<Box<RawValue>> },
}

impl Target {
    /// The id of the request handled, if the message is one.
    fn request_id(&self) -> Option<&RawValue> {
        match self {
            Target::LiveSession { message, .. } | Target::PerRequestSession { message, .. } => message.request_id(),
            Target::Stateless { id, .. } => Some(id),
        }
    }
}

/// The messages the core wrote for a request, and the HTTP status its
/// answer needs when it is not 200 (a 2026-07-28 refusal found while the
/// guest ran), as the core said: never read back from the bytes.
pub struct Handled {
    pub messages: Vec<Vec<u8>>,
    pub refused: Option<StatusCode>,
}

/// Runs the target's message through the core, returning the messages it
/// writes. Guest calls are async: they run on this task's thread and give
/// it back while they wait and at every epoch tick. Routers that talk back
/// reach the client through `peer` meanwhile, if given.
pub async fn run(target: Target, peer: Option<Arc<dyn Peer>>) -> Handled {
    run_keeping(target, peer).await.0
}

/// [`run`], giving back a 2026-07-28 request once answered, for the server
/// to keep for a later one ([`ServerState::recycle`]).
async fn run_keeping(target: Target, peer: Option<Arc<dyn Peer>>) -> (Handled, Option<ServedRequest>) {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut refused = None;
    match target {
        Target::LiveSession { core, caller, message } => {
            let mut session = core.lock_owned().await;
            // The same principal as ever (the session is bound to it), whose
            // token may have been refreshed or stepped up since.
            session.set_caller(caller.0);
            session.set_peer(peer);
            session.handle_parsed_async(message.as_incoming(), &mut out).await;
            session.set_peer(None);
        }
        Target::PerRequestSession { mut session, assume, message } => {
            if let Some(version) = assume
                && let Err(error) = session.assume_initialized_async(version).await
            {
                let mut buf = Vec::new();
                jsonrpc::write_error(&mut buf, message.request_id(), &error);
                out.push(buf);
                return (Handled { messages: out, refused }, None);
            }
            session.handle_parsed_async(message.as_incoming(), &mut out).await;
        }
        Target::Stateless { mut request, admitted, id, params } => {
            let outcome = request.answer(&id, admitted, params.as_deref(), &mut out).await;
            refused = outcome_status(outcome);
            return (Handled { messages: out, refused }, Some(request));
        }
    }
    (Handled { messages: out, refused }, None)
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
pub(super) fn delivered(session: &Arc<HttpSession>, stream: u64) -> sse::OnComplete {
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
    framing: Framing,
    session: Option<(Arc<HttpSession>, Activity)>,
    cancel: Option<Canceller>,
) -> Response {
    let (session, activity) = session.unzip();
    // What the client gets if the server shuts down before the answer.
    let id = target.request_id().map(ToOwned::to_owned);
    // A router that talks back sends on the request's stream while it works:
    // the stream is there from the start.
    if framing.streams()
        && let Some(session) = session.as_ref().filter(|s| s.talks_back)
    {
        let handling = |peer| run(target, peer);
        let (finished, cancel) = guarded(cancel, id.as_deref());
        let ending = (finished, cancel, id);
        return stream_from_task(server, handling, Some(session.clone()), activity, ending).await;
    }
    // Run in place: most requests are done within this first poll, and are
    // then answered whole, without a task, a channel or a timer.
    // (A future polled here once and then moved to a task of its own is
    // polled there again at once, with that task's waker.)
    let logged = session.filter(|s| framing.streams() && s.resumable);
    let mut handling = KeptFuture::new(|| run_keeping(target, None));
    let handled = match (&mut handling).now_or_never() {
        Some((handled, served)) => {
            // Answered within the poll: no handle to its cancellation was
            // given out, and the one held here goes first.
            drop(cancel);
            if let Some(served) = served {
                server.recycle(served);
            }
            handled
        }
        // JSON has nothing to send before the answer: wait for it, or for
        // the end of the shutdown's grace.
        None if !framing.streams() => {
            let (finished, cancel) = guarded(cancel, id.as_deref());
            let mut cut = server.cut.subscribe();
            let handled = tokio::select! {
                handled = tokio::spawn(handling) => match handled {
                    Ok((handled, _)) => handled,
                    Err(e) => return internal(e),
                },
                _ = cut.wait_for(|&cut| cut) => return wire::json(cut_off(id.as_deref())),
            };
            if let Some(finished) = finished {
                finished.store(true, Ordering::Release);
            }
            drop(cancel);
            handled
        }
        None => {
            let (finished, cancel) = guarded(cancel, id.as_deref());
            let ending = (finished, cancel, id);
            let handling = async move { handling.await.0 };
            return stream_from_task(server, |_| handling, logged, activity, ending).await;
        }
    };
    drop(activity);
    whole_answer(handled, framing, logged.as_deref())
}

/// The guard that cancels request `id` through `canceller` if its client
/// leaves, and the flag that says it was answered: made only for a request
/// still running after its first poll (one done by then has no client to
/// lose, and costs no allocation for it).
fn guarded(canceller: Option<Canceller>, id: Option<&RawValue>) -> (Option<Arc<AtomicBool>>, Option<CancelOnDrop>) {
    let guard = canceller.map(|canceller| CancelOnDrop::new(canceller, id.map_or("null", RawValue::get)));
    (guard.as_ref().map(CancelOnDrop::finished), guard)
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
            let log = Delivery::Logged(LoggedEvents::new(session.events.clone(), stream));
            let peer = talker.map(|talker| {
                RequestPeer::shared(talker.events.clone(), talker.answers.clone(), RequestStream::Logged(stream))
            });
            let handling = spawn_run(handling(peer), log, activity, finished);
            let on_complete = Some(delivered(&session, stream));
            stream_answer(server, vec![priming], rx, handling, (on_complete, cancel, cut)).await
        }
        None => {
            let peer = talker.map(|talker| {
                RequestPeer::shared(talker.events.clone(), talker.answers.clone(), RequestStream::Events(tx.clone()))
            });
            let events = Delivery::Events(EventSender::new(tx));
            let handling = spawn_run(handling(peer), events, activity, finished);
            stream_answer(server, Vec::new(), rx, handling, (None, cancel, cut)).await
        }
    }
}

/// A request's whole answer, done: its one message as JSON when the client
/// takes it (see [`Framing::whole_as_json`]), else SSE events in one body
/// (with ids on a resumable stream of `logged`, which keeps them for a
/// resumption), or with a client that takes only JSON its last message
/// (JSON carries one message: notifications before it are dropped). A
/// 2026-07-28 answer that HTTP reports with a status of its own goes out as
/// JSON with that status.
pub(super) fn whole_answer(handled: Handled, framing: Framing, logged: Option<&HttpSession>) -> Response {
    let Handled { messages, refused } = handled;
    if let Some(status) = refused {
        // The refusal is the last message the core wrote.
        return json_with_status(messages.into_iter().last().unwrap_or_default(), status);
    }
    if logged.is_some() || !framing.whole_as_json(messages.len()) {
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

/// Cancels a request when dropped before [`CancelOnDrop::finished`]: held by
/// whatever lives as long as the client waits (the answer's stream, or the
/// handler awaiting a JSON answer), so that a client who leaves cancels.
pub struct CancelOnDrop {
    canceller: Canceller,
    id: String,
    finished: Arc<AtomicBool>,
}

impl CancelOnDrop {
    pub(super) fn new(canceller: Canceller, id: &str) -> Self {
        CancelOnDrop { canceller, id: id.to_string(), finished: Arc::new(AtomicBool::new(false)) }
    }

    /// A flag to set once the request is answered.
    pub fn finished(&self) -> Arc<AtomicBool> {
        self.finished.clone()
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.finished.load(Ordering::Acquire) {
            tracing::debug!(id = %clipped(&self.id, CLIENT_TEXT_BYTES), "the client closed the stream: cancelling its request");
            self.canceller.cancel(&self.id);
        }
    }
}
