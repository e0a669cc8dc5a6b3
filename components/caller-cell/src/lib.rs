//! `caller-cell`: the caller of the request being served, set by the adapter
//! (which authenticates it) and read by the router; for a router that does
//! not import the client, the adapter's relay with nothing to relay (see
//! `mcp-wit:adapter/caller-cell`); and the router's environment, the
//! engine's less the adapter's secrets.

wit_bindgen::generate!({
    // The contract and adapter packages first: `wit/world.wit` uses them.
    path: ["../../wit", "wit"],
    world: "mcp-wit:caller-cell/caller-cell",
    generate_all,
});

use std::cell::RefCell;

use exports::mcp_wit::adapter::{client_relay, request_caller};
use exports::mcp_wit::extension::caller::{self, Identity};
use exports::wasi::cli::environment;

/// The variables the adapter reads and the router must not: the key that
/// signs `requestState` (`MCP_WIT_STATE_KEY`), and where it is
/// (`MCP_WIT_STATE_KEY_FILE`). With the key, a router could forge the
/// answers of rounds it asks.
fn is_adapter_secret(name: &str) -> bool {
    name.starts_with("MCP_WIT_STATE_KEY")
}

impl environment::Guest for CallerCell {
    fn get_environment() -> Vec<(String, String)> {
        let mut variables = wasip2::cli::environment::get_environment();
        variables.retain(|(name, _)| !is_adapter_secret(name));
        variables
    }

    fn get_arguments() -> Vec<String> {
        wasip2::cli::environment::get_arguments()
    }

    fn initial_cwd() -> Option<String> {
        wasip2::cli::environment::initial_cwd()
    }
}

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
