//! `caller-cell`: the caller of the request being served, set by the adapter
//! (which authenticates it) and read by the router (see
//! `mcp-wit:adapter/caller-cell`).

wit_bindgen::generate!({
    path: "../../wit",
    world: "mcp-wit:adapter/caller-cell",
    generate_all,
});

use std::cell::RefCell;

use exports::mcp_wit::adapter::request_caller;
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

export!(CallerCell);
