//! The MCP protocol core: JSON-RPC messages in, JSON-RPC messages out.
//!
//! Transport-agnostic: a [`Session`] is fed one message at a time by
//! whichever transport owns the connection, and maps each request onto typed
//! calls into the guest ([`crate::runtime`]) and each WIT value back onto MCP
//! ([`mapping`]).

pub mod cancel;
pub mod jsonrpc;
pub mod mapping;
pub mod params;
pub mod routers;
pub mod session;
pub mod version;

pub use cancel::Canceller;
pub use jsonrpc::RpcError;
pub use routers::Routers;
pub use session::{Outbox, Session, SessionOptions};
pub use version::ProtocolVersion;
