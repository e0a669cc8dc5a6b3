//! Routers that talk back, on Streamable HTTP (2025 sessions): their
//! notifications and questions go out on the SSE stream of the POST they
//! serve; the client POSTs its answers, which reach the waiting question by
//! id without waiting for the session (whose request is the one waiting).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use tokio::sync::{mpsc, oneshot};

use mcp_wit_protocol::Peer;
use mcp_wit_protocol::client::{AskError, BoxFuture, ClientError, Response, WaitBound};
use mcp_wit_protocol::jsonrpc::ClientResponse;

use super::resume::EventLog;
use super::sse;

/// A session's questions waiting for the client's answer, by id.
#[derive(Default)]
pub struct PendingAnswers {
    waiting: Mutex<HashMap<u64, oneshot::Sender<Response>>>,
}

impl PendingAnswers {
    fn waiting(&self) -> std::sync::MutexGuard<'_, HashMap<u64, oneshot::Sender<Response>>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hands the client's `response` to the question it answers; `false`
    /// when no question waits for it (unknown id, or already given up).
    pub fn answer(&self, response: ClientResponse) -> bool {
        let waiter = response.id.and_then(|id| self.waiting().remove(&id));
        match waiter {
            Some(waiter) => waiter.send(response.answer).is_ok(),
            None => false,
        }
    }

    fn expect(&self, id: u64) -> oneshot::Receiver<Response> {
        let (tx, rx) = oneshot::channel();
        self.waiting().insert(id, tx);
        rx
    }

    fn forget(&self, id: u64) {
        self.waiting().remove(&id);
    }
}

/// Where a request's messages go: its SSE stream, recorded for resumption
/// on sessions that resume.
#[derive(Clone)]
pub(super) enum RequestStream {
    /// Sent as they come.
    Events(mpsc::Sender<Bytes>),
    /// Recorded in the session's event log as this stream, and sent.
    Logged(u64),
}

/// The peer of one request of a session: its stream, and the session's
/// questions waiting for answers.
#[derive(Clone)]
pub(super) struct RequestPeer {
    /// The session's event log (for logged streams).
    events: Arc<EventLog>,
    /// The session's questions waiting for answers.
    answers: Arc<PendingAnswers>,
    stream: RequestStream,
}

impl RequestPeer {
    /// The way back to the client for a request of a session (its `events`
    /// and its waiting `answers`) streamed to `stream`.
    pub(super) fn shared(events: Arc<EventLog>, answers: Arc<PendingAnswers>, stream: RequestStream) -> Arc<dyn Peer> {
        Arc::new(RequestPeer { events, answers, stream })
    }

    /// The event for `message`, and the channel that sends it now (none once
    /// the client left a logged stream: it can resume).
    fn event(&self, message: &[u8]) -> (Bytes, Option<mpsc::Sender<Bytes>>) {
        match &self.stream {
            RequestStream::Events(tx) => (sse::message(message), Some(tx.clone())),
            RequestStream::Logged(stream) => self.events.record(*stream, message),
        }
    }

    fn left(&self, tx: &mpsc::Sender<Bytes>) {
        if let RequestStream::Logged(stream) = &self.stream {
            self.events.lost(*stream, tx);
        }
    }

    /// Sends `request` and waits within `bound` for `answer`.
    async fn wait(
        &self,
        request: &[u8],
        answer: oneshot::Receiver<Response>,
        bound: &WaitBound,
    ) -> Result<Response, AskError> {
        let gone = || AskError::Client(ClientError::Unavailable("the client left the request's stream".into()));
        let (event, live) = self.event(request);
        let Some(tx) = live else { return Err(gone()) };
        if tx.send(event).await.is_err() {
            self.left(&tx);
            return Err(gone());
        }
        crate::runtime::waits::answer_within(answer, bound).await?.map_err(|_| gone())
    }
}

impl Peer for RequestPeer {
    fn notify(&self, message: &[u8]) {
        let (event, live) = self.event(message);
        if let Some(tx) = live {
            match tx.try_send(event) {
                Ok(()) => {}
                Err(mpsc::error::TrySendError::Full(_)) => {
                    tracing::debug!("a notification was dropped: the client reads its stream too slowly");
                }
                Err(mpsc::error::TrySendError::Closed(_)) => self.left(&tx),
            }
        }
    }

    fn ask(&self, id: u64, request: Vec<u8>, bound: WaitBound) -> BoxFuture<Result<Response, AskError>> {
        let answer = self.answers.expect(id);
        let peer = self.clone();
        Box::pin(async move {
            let asked = peer.wait(&request, answer, &bound).await;
            peer.answers.forget(id);
            asked
        })
    }
}
