//! # mcp-wit
//!
//! Serves Model Context Protocol routers written as WebAssembly components
//! (the `wasix:mcp/router@25.3.26` contract) to MCP clients.
//!
//! A request flows transport → protocol → runtime → guest and back:
//!
//! - [`transport`]: how messages arrive (stdio, Streamable HTTP).
//! - [`protocol`]: the transport-agnostic MCP core: a [`Session`] takes one
//!   JSON-RPC message and produces the messages to send back, calling the
//!   guest on the caller's thread ([`Session::handle`]) or as a future
//!   ([`Session::handle_async`]).
//! - [`runtime`]: the engine, compiled components and their instances.
//! - [`sandbox`]: what a guest may reach (nothing, by default).
//!
//! With the `rmcp` feature, `mcp_wit::rmcp` serves a router as an rmcp
//! `ServerHandler`, to mount in an rmcp server beside native tools.
//!
//! ```no_run
//! use mcp_wit::{LoadedComponent, Session, SessionOptions, SandboxPolicy};
//!
//! let engine = mcp_wit::runtime::engine::build_engine()?;
//! let policy = SandboxPolicy::builder("hello").build();
//! let component = LoadedComponent::from_file(&engine, "hello.wasm".as_ref(), policy)?;
//! let mut session = Session::new(component, SessionOptions::default());
//! let mut out: Vec<Vec<u8>> = Vec::new();
//! session.handle(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, &mut out);
//! assert_eq!(out[0], br#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod error;
pub mod protocol;
#[cfg(feature = "rmcp")]
pub mod rmcp;
pub mod runtime;
pub mod sandbox;
pub mod transport;

pub use error::{EngineError, LoadError};
pub use protocol::{Outbox, ProtocolVersion, RpcError, Session, SessionOptions};
pub use runtime::LoadedComponent;
pub use sandbox::SandboxPolicy;
