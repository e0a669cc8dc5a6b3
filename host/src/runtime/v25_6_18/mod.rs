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

/// How many times one call may ask the user before it is stopped: a router
/// that asks again whatever the answer would otherwise never finish.
pub const MAX_ELICITATIONS: usize = 8;

/// The key under which a router gets the answers to its elicitations when
/// `call-tool` is called again: a JSON array of the client's `ElicitResult`s,
/// in the order asked. The WIT does not say how an answer gets back; this is
/// mcp-wit's convention, documented with the contract.
pub const ELICITATIONS_KEY: &str = "_elicitations";
