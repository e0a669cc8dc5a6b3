//! Who made a request: the caller authentication found, and the address of
//! the client.

use std::net::IpAddr;
use std::sync::Arc;

use mcp_wit_protocol::auth::{Caller, SharedCaller};

/// Who made a request, as the authentication layer found it (`None` when
/// the server does not authenticate), and the address it came from.
#[derive(Clone, Default)]
pub(crate) struct RequestCaller(pub Option<SharedCaller>, pub Option<IpAddr>);

/// The address of the client at the other end of a connection, which
/// every request on it carries (an extension the front inserts).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientAddr(pub Option<IpAddr>);

impl RequestCaller {
    /// The caller, when authenticated.
    pub fn get(&self) -> Option<&Caller> {
        self.0.as_deref()
    }

    /// Who holds sessions, for the cap per client: the principal when
    /// authenticated, else the address.
    pub fn client_key(&self) -> Option<Arc<str>> {
        match (&self.0, self.1) {
            (Some(caller), _) => Some(caller.principal_key().into()),
            (None, Some(addr)) => Some(addr.to_string().into()),
            (None, None) => None,
        }
    }
}

pub(super) fn client_addr(extensions: &axum::http::Extensions) -> Option<IpAddr> {
    extensions.get::<ClientAddr>().and_then(|addr| addr.0)
}
