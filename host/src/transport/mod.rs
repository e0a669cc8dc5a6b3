//! Transports: how messages reach a [`Session`](crate::Session).

#[cfg(feature = "http")]
pub mod http;
pub mod stdio;
mod tap;

pub use tap::{MessageTap, Tap};

use std::time::Duration;

use mcp_wit_protocol::client::{AskError, WaitBound};

/// How often a waiting question looks at its request's cancellation flag.
const CANCEL_CHECK: Duration = Duration::from_millis(10);

/// Waits for `answer` (the client's response to a router's question) within
/// `bound`: until the guest call's deadline, or until its request is
/// cancelled, whichever comes first.
#[cfg_attr(not(any(feature = "http", feature = "rmcp")), allow(dead_code))]
pub(crate) async fn answer_within<T>(answer: impl Future<Output = T>, bound: &WaitBound) -> Result<T, AskError> {
    let deadline = tokio::time::Instant::from_std(bound.deadline);
    tokio::pin!(answer);
    loop {
        if bound.cancel.is_cancelled() {
            return Err(AskError::Cancelled);
        }
        let now = tokio::time::Instant::now();
        if now >= deadline {
            return Err(AskError::TimedOut);
        }
        tokio::select! {
            answered = &mut answer => return Ok(answered),
            () = tokio::time::sleep_until(deadline.min(now + CANCEL_CHECK)) => {}
        }
    }
}
