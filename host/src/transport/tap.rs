//! A tap on a transport: it sees every message received and sent, whole, as
//! it crosses the wire (what `mcp-wit serve --record` records).

use std::fmt;
use std::sync::Arc;

/// Sees every JSON-RPC message a transport receives and sends, with the
/// session it belongs to. Called on the request path: it must not block
/// (a recorder queues the message and returns).
pub trait MessageTap: Send + Sync + 'static {
    /// `message` arrived from the client of `session`.
    fn received(&self, session: &str, message: &[u8]);
    /// `message` went to the client of `session`.
    fn sent(&self, session: &str, message: &[u8]);
}

/// A shared [`MessageTap`], as transports' options hold it.
#[derive(Clone)]
pub struct Tap(Arc<dyn MessageTap>);

impl Tap {
    /// A tap on `tap`.
    pub fn new(tap: impl MessageTap) -> Self {
        Tap(Arc::new(tap))
    }

    /// See [`MessageTap::received`].
    pub fn received(&self, session: &str, message: &[u8]) {
        self.0.received(session, message);
    }

    /// See [`MessageTap::sent`].
    pub fn sent(&self, session: &str, message: &[u8]) {
        self.0.sent(session, message);
    }
}

impl fmt::Debug for Tap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Tap")
    }
}
