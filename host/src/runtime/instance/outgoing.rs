//! What the host sends a component that serves MCP itself.

/// One JSON-RPC message the host sends: its text, with what an HTTP link
/// names in headers (its method, and the tool, prompt or resource it is
/// about), known where it was written and not read back from the text.
pub(super) struct Outgoing<'a> {
    pub(super) text: Vec<u8>,
    // Read by the HTTP link only (components that serve over `wasi:http`).
    #[cfg_attr(not(feature = "outgoing-http"), allow(dead_code))]
    pub(super) method: &'a str,
    #[cfg_attr(not(feature = "outgoing-http"), allow(dead_code))]
    pub(super) target: Option<&'a str>,
}
