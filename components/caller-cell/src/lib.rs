//! `caller-cell`: the caller of the request being served, set by the adapter
//! (which authenticates it) and read by the router; and, for a router that
//! does not import the client, the adapter's relay with nothing to relay
//! (see `mcp-wit:adapter/caller-cell`).

wit_bindgen::generate!({
    path: "../../wit",
    world: "mcp-wit:adapter/caller-cell",
    generate_all,
});

use std::cell::RefCell;

use exports::mcp_wit::adapter::{client_relay, request_caller};
use exports::mcp_wit::extension::caller::{self, Identity};

struct CallerCell;

thread_local! {
    /// A component instance runs on one thread at a time.
    static CURRENT: RefCell<Option<Identity>> = const { RefCell::new(None) };
}

impl caller::Guest for CallerCell {
    fn current() -> Option<Identity> {
        CURRENT.with_borrow(Clone::clone)
    }
}

impl request_caller::Guest for CallerCell {
    fn set(caller: Option<Identity>) {
        CURRENT.set(caller);
    }
}

// Plugged as the relay only for a router that does not import the client:
// the adapter asks `connected` once and relays nothing after.
impl client_relay::Guest for CallerCell {
    fn connected() -> bool {
        false
    }

    fn begin(_: String) {}

    /// The empty report: nothing was sent or asked.
    fn finish() -> String {
        "{}".into()
    }
}

export!(CallerCell);
