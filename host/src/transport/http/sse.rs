//! Server-sent events: framing, streaming bodies and the outbox that feeds
//! them from the protocol core.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use tokio::sync::{mpsc, watch};

use mcp_wit_protocol::http::write_event;

/// Capacity of the channel between a session and its stream: when the client
/// reads more slowly than the guest answers, the guest call waits.
pub const CHANNEL_CAPACITY: usize = 32;

/// One SSE event of type `event` carrying `data`.
pub fn event(event: &str, data: &[u8]) -> Bytes {
    let mut out = Vec::new();
    write_event(&mut out, event, None, data);
    out.into()
}

/// A JSON-RPC message as a `message` event.
pub fn message(json: &[u8]) -> Bytes {
    event("message", json)
}

/// Appends `json` (a JSON-RPC message) to `out` as a `message` event, with
/// `id` if given.
pub fn write_message(out: &mut Vec<u8>, id: Option<&str>, json: &[u8]) {
    write_event(out, "message", id, json);
}

/// A JSON-RPC message as a `message` event with an id.
pub fn message_with_id(id: &str, json: &[u8]) -> Bytes {
    let mut out = Vec::new();
    write_message(&mut out, Some(id), json);
    out.into()
}

/// Called when a stream was delivered to its end (not when the client left).
pub type OnComplete = Box<dyn FnOnce() + Send>;

/// When a stream ends before its senders are done: once `signal` turns
/// `true`, after `last` if given.
pub struct Ending {
    pub signal: watch::Receiver<bool>,
    pub last: Option<Bytes>,
}

impl From<watch::Receiver<bool>> for Ending {
    fn from(signal: watch::Receiver<bool>) -> Self {
        Ending { signal, last: None }
    }
}

/// A body streaming `first`, then what arrives on `rx`, with a keep-alive
/// comment every `keep_alive` of silence (it also reveals clients that went
/// away). Ends when every sender is gone (then `on_complete` runs), or as
/// `ending` says. `guard` lives as long as the stream: it is dropped when the
/// stream ends or the client disconnects.
pub fn body<G: Send + 'static>(
    first: Vec<Bytes>,
    rx: Option<mpsc::Receiver<Bytes>>,
    keep_alive: Duration,
    ending: Option<Ending>,
    guard: G,
    on_complete: Option<OnComplete>,
) -> Body {
    let (shutdown, last) = match ending {
        Some(Ending { signal, last }) => (Some(signal), last),
        None => (None, None),
    };
    let start = tokio::time::Instant::now() + keep_alive;
    let mut ticker = tokio::time::interval_at(start, keep_alive);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let state = State { first: first.into_iter(), rx, ticker, shutdown, last, on_complete, _guard: guard };
    let stream = futures_util::stream::unfold(state, |mut state| async move {
        if let Some(bytes) = state.first.next() {
            return Some((Ok::<_, Infallible>(bytes), state));
        }
        let next = match &mut state.rx {
            None => None,
            Some(rx) => tokio::select! {
                biased;
                message = rx.recv() => message,
                () = shutting_down(&mut state.shutdown) => {
                    // Said once; then the stream ends, not delivered.
                    state.shutdown = None;
                    state.rx = None;
                    state.on_complete = None;
                    return state.last.take().map(|last| (Ok(last), state));
                }
                _ = state.ticker.tick() => Some(Bytes::from_static(b": keep-alive\n\n")),
            },
        };
        match next {
            Some(bytes) => {
                state.ticker.reset();
                Some((Ok(bytes), state))
            }
            None => {
                if let Some(on_complete) = state.on_complete.take() {
                    on_complete();
                }
                None
            }
        }
    });
    Body::from_stream(stream)
}

struct State<G> {
    first: std::vec::IntoIter<Bytes>,
    rx: Option<mpsc::Receiver<Bytes>>,
    ticker: tokio::time::Interval,
    shutdown: Option<watch::Receiver<bool>>,
    last: Option<Bytes>,
    on_complete: Option<OnComplete>,
    _guard: G,
}

/// Completes once `shutdown` is `true`; never without a receiver.
async fn shutting_down(shutdown: &mut Option<watch::Receiver<bool>>) {
    match shutdown {
        Some(rx) => {
            if rx.wait_for(|&down| down).await.is_err() {
                std::future::pending::<()>().await;
            }
        }
        None => std::future::pending::<()>().await,
    }
}

/// Sends a request's messages as `message` events; once the client is gone,
/// they are dropped.
pub struct EventSender {
    tx: mpsc::Sender<Bytes>,
}

impl EventSender {
    /// A sender writing to `tx`.
    pub fn new(tx: mpsc::Sender<Bytes>) -> Self {
        EventSender { tx }
    }

    /// Sends `messages` in order, waiting for room in the channel.
    pub async fn deliver(self, messages: Vec<Vec<u8>>) {
        for json in messages {
            if self.tx.send(message(&json)).await.is_err() {
                tracing::debug!("the client left before its answer was sent");
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_events() {
        assert_eq!(&message(br#"{"a":1}"#)[..], b"event: message\ndata: {\"a\":1}\n\n");
        assert_eq!(
            &event("endpoint", b"/messages?sessionId=ab")[..],
            b"event: endpoint\ndata: /messages?sessionId=ab\n\n"
        );
        assert_eq!(&event("x", b"one\ntwo")[..], b"event: x\ndata: one\ndata: two\n\n");
        assert_eq!(&message_with_id("3-1", b"{}")[..], b"event: message\nid: 3-1\ndata: {}\n\n");
    }
}
