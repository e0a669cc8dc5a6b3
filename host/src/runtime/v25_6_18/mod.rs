//! `wasix:mcp/router@25.6.18`, the contract's successor
//! (`wit/wasix-mcp@25.6.18`): its bindings, its functions, and its values
//! as the protocol core's ([`convert`]). A component exporting it is served
//! as one exporting 25.3.26 is; what differs is said where it is mapped.

pub(super) mod convert;

wasmtime::component::bindgen!({
    path: "../wit/wasix-mcp@25.6.18",
    world: "wasix:mcp/mcp-router@25.6.18",
});

pub(super) use exports::wasix::mcp::router as wit;

/// The interface's fully qualified name.
pub const ROUTER_INTERFACE_25_6_18: &str = "wasix:mcp/router@25.6.18";

/// Its functions by their WIT names, in the order instances hold them.
pub(super) const ROUTER_FUNCTIONS_25_6_18: [&str; 11] = [
    "name",
    "title",
    "instructions",
    "describe-server",
    "list-tools",
    "call-tool",
    "list-resources",
    "read-resource",
    "list-prompts",
    "get-prompt",
    "complete",
];

// Where the answers to a router's elicitations go, and how many it may ask:
// the protocol core's, shared with the adapter.
pub use mcp_wit_protocol::contract_25_6_18::{ELICITATIONS_KEY, MAX_ELICITATIONS};
