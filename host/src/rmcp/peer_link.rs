//! Routers that talk back, through rmcp: their notifications go out on the
//! rmcp peer while they work, their questions (sampling, elicitation, roots)
//! are rmcp requests to the client, and the changes they report reach the
//! client's 2025 session and its `subscriptions/listen` streams.

use std::sync::Arc;

use ::rmcp::model::{ClientResult, ServerNotification, ServerRequest};
use ::rmcp::service::{Peer as RmcpPeer, RoleServer, ServiceError};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::{mpsc, oneshot};

use mcp_wit_protocol::client::{AskError, BoxFuture, ClientError, ClientRpcError, Response, WaitBound};
use mcp_wit_protocol::{Peer, Sink};

/// How many messages may wait for the rmcp peer before new ones are dropped.
const CAPACITY: usize = 256;

enum Outgoing {
    /// A notification the session wrote.
    Message(Vec<u8>),
    /// Answered once everything before it was handed to rmcp.
    Flushed(oneshot::Sender<()>),
}

/// The way to one rmcp client: messages are handed to its peer in order by a
/// task of their own, so that a router is never held up by the client.
pub(super) struct PeerChannel {
    tx: mpsc::Sender<Outgoing>,
    peer: RmcpPeer<RoleServer>,
}

impl PeerChannel {
    /// Starts handing messages to `peer`; the task ends with the channel.
    pub(super) fn start(peer: RmcpPeer<RoleServer>) -> Arc<Self> {
        let (tx, mut rx) = mpsc::channel(CAPACITY);
        let sender = peer.clone();
        tokio::spawn(async move {
            while let Some(outgoing) = rx.recv().await {
                match outgoing {
                    Outgoing::Message(message) => send(&sender, &message).await,
                    Outgoing::Flushed(done) => drop(done.send(())),
                }
            }
        });
        Arc::new(PeerChannel { tx, peer })
    }

    /// Waits until every message offered so far went to rmcp: a request's
    /// notifications before its result.
    pub(super) async fn flush(&self) {
        let (done, flushed) = oneshot::channel();
        if self.tx.send(Outgoing::Flushed(done)).await.is_ok() {
            let _ = flushed.await;
        }
    }

    /// The session's way to the client while it serves a request.
    pub(super) fn peer(self: &Arc<Self>) -> Arc<dyn Peer> {
        Arc::new(RequestPeer(self.clone()))
    }
}

/// Changes a 2025 session listens for go out like its notifications.
impl Sink for PeerChannel {
    fn offer(&self, message: &[u8]) {
        if self.tx.try_send(Outgoing::Message(message.to_vec())).is_err() {
            tracing::debug!("a notification was dropped: the rmcp client does not keep up");
        }
    }
}

/// A `subscriptions/listen` stream's share of the changes: a sink for the
/// listeners, and where the changes come out.
pub(super) fn listen_stream() -> (Arc<dyn Sink>, mpsc::Receiver<Vec<u8>>) {
    let (tx, rx) = mpsc::channel(CAPACITY);
    (Arc::new(ListenStream(tx)), rx)
}

struct ListenStream(mpsc::Sender<Vec<u8>>);

impl Sink for ListenStream {
    fn offer(&self, message: &[u8]) {
        if self.0.try_send(message.to_vec()).is_err() {
            tracing::debug!("a change was dropped: the rmcp subscription does not keep up");
        }
    }
}

/// A notification as the session wrote it.
#[derive(Deserialize)]
struct Written<'a> {
    #[serde(borrow)]
    method: &'a str,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
}

/// `message` (JSON-RPC) as rmcp's notification.
pub(super) fn notification(message: &[u8]) -> Option<ServerNotification> {
    let written: Written<'_> = match serde_json::from_slice(message) {
        Ok(written) => written,
        Err(e) => {
            tracing::warn!("cannot read a notification the session wrote: {e}");
            return None;
        }
    };
    let notification = serde_json::json!({ "method": written.method, "params": written.params });
    match serde_json::from_value(notification) {
        Ok(notification) => Some(notification),
        Err(e) => {
            tracing::warn!("cannot pass on a {} notification: {e}", written.method);
            None
        }
    }
}

async fn send(peer: &RmcpPeer<RoleServer>, message: &[u8]) {
    let Some(notification) = notification(message) else { return };
    if let Err(e) = peer.send_notification(notification).await {
        tracing::debug!("cannot send a notification: {e}");
    }
}

/// The rmcp client, as the session reaches it during one request.
struct RequestPeer(Arc<PeerChannel>);

impl Peer for RequestPeer {
    fn notify(&self, message: &[u8]) {
        self.0.offer(message);
    }

    fn ask(&self, _id: u64, request: Vec<u8>, bound: WaitBound) -> BoxFuture<Result<Response, AskError>> {
        // rmcp numbers its own requests: only the method and params are kept.
        let peer = self.0.peer.clone();
        Box::pin(async move {
            #[derive(Deserialize)]
            struct Asked {
                method: String,
                #[serde(default)]
                params: Option<Value>,
            }
            let unavailable = |why: String| AskError::Client(ClientError::Unavailable(why));
            let asked: Asked = serde_json::from_slice(&request)
                .map_err(|e| unavailable(format!("cannot read the question the session wrote: {e}")))?;
            let request: ServerRequest =
                serde_json::from_value(serde_json::json!({ "method": asked.method, "params": asked.params }))
                    .map_err(|e| unavailable(format!("rmcp cannot send {}: {e}", asked.method)))?;
            match crate::runtime::waits::answer_within(peer.send_request(request), &bound).await? {
                Ok(result) => answer(&result),
                Err(ServiceError::McpError(error)) => Ok(Err(ClientRpcError {
                    code: error.code.0,
                    message: error.message.into_owned(),
                    data: error.data.map(|data| data.to_string()),
                })),
                Err(e) => Err(unavailable(format!("the rmcp client cannot be asked: {e}"))),
            }
        })
    }
}

fn answer(result: &ClientResult) -> Result<Response, AskError> {
    serde_json::value::to_raw_value(result)
        .map(Ok)
        .map_err(|e| AskError::Client(ClientError::InvalidResponse(format!("cannot write rmcp's result: {e}"))))
}
