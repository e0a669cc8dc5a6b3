//! The transport's side of talking back ([`Peer`]), and why a question
//! gets no answer.

use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use crate::cancel::CancelFlag;
use crate::jsonrpc::{ClientRpcError, Response};

/// A boxed future, as [`Peer`] returns them.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// Why a question got no answer. The guest sees each as
/// `mcp-wit:extension/client.client-error`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// The client did not declare the capability the question needs.
    #[error("the client does not support {0}")]
    Unsupported(String),
    /// The client answered with an error.
    #[error("the client answered with error {}: {}", .0.code, .0.message)]
    Rejected(ClientRpcError),
    /// The guest's params are not what MCP requires.
    #[error("invalid params: {0}")]
    InvalidParams(String),
    /// The client's answer is not what MCP requires.
    #[error("invalid response from the client: {0}")]
    InvalidResponse(String),
    /// No client can be asked now.
    #[error("{0}")]
    Unavailable(String),
}

/// Why waiting for the client ended without an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskError {
    /// The question failed; the guest gets the error and goes on.
    Client(ClientError),
    /// The call's deadline passed while it waited: the call is interrupted.
    TimedOut,
    /// The request was cancelled while it waited: the call is interrupted.
    Cancelled,
    /// A 2026-07-28 question has no answer yet: the call ends, and the
    /// round with an `input_required` result.
    InputRequired,
    /// A 2026-07-28 question the request's client did not declare: the call
    /// ends, and the request with -32021.
    CapabilityRequired,
}

impl From<ClientError> for AskError {
    fn from(error: ClientError) -> Self {
        AskError::Client(error)
    }
}

/// How long a question may wait: until the call's deadline, or until the
/// request is cancelled.
#[derive(Clone)]
pub struct WaitBound {
    /// When the guest call's time runs out.
    pub deadline: Instant,
    /// Set when the request is cancelled.
    pub cancel: CancelFlag,
}

impl WaitBound {
    /// A bound for questions answered from what the request brought (a
    /// 2026-07-28 round, a relayed link): nothing waits on the client, so
    /// nothing cancels it either.
    pub fn answered_at_hand() -> Self {
        WaitBound { deadline: Instant::now() + std::time::Duration::from_secs(60), cancel: CancelFlag::default() }
    }
}

/// The transport's side of talking back: how messages reach the client now,
/// outside of a request's answer, and how its responses come back.
pub trait Peer: Send + Sync {
    /// Sends a notification on the stream of the request being served, at
    /// once. A transport may drop one its stream has no room for: a client
    /// that does not read must not hold up the guest.
    fn notify(&self, message: &[u8]);

    /// Sends `request` (whose id is `id`) to the client on the stream of the
    /// request being served, and waits within `bound` for its response.
    fn ask(&self, id: u64, request: Vec<u8>, bound: WaitBound) -> BoxFuture<Result<Response, AskError>>;
}
