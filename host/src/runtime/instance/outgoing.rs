//! What the host sends a component that serves MCP itself.

/// One JSON-RPC message the host sends: its text, with what an HTTP link
/// names in headers (its method, and the tool, prompt or resource it is
/// about), known where it was written and not read back from the text.
pub(super) struct Outgoing<'a> {
    pub(super) text: Vec<u8>,
    pub(super) method: &'a str,
    pub(super) target: Option<&'a str>,
}
