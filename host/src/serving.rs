//! The protocol core's serving types, over this host's [`LoadedRouter`].

use crate::runtime::LoadedRouter;

/// One client's session with the components it is served.
pub type Session = mcp_wit_protocol::Session<LoadedRouter>;

/// One 2026-07-28 request served on its own, without a session.
pub type StatelessRequest = mcp_wit_protocol::StatelessRequest<LoadedRouter>;

/// What a server serves now, replaceable while it serves (see
/// [`Session::following`](mcp_wit_protocol::Session::following)).
pub type Deployment = mcp_wit_protocol::Deployment<LoadedRouter>;

/// Several components served as one MCP server, under prefixes.
pub type Routers = mcp_wit_protocol::Routers<LoadedRouter>;
