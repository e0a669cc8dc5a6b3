//! # mcp-wit
//!
//! Serves Model Context Protocol routers written as WebAssembly components
//! (the `wasix:mcp/router@25.3.26` contract) to MCP clients.
//!
//! A request flows transport → protocol → runtime → guest and back:
//!
//! - [`transport`]: how messages arrive (stdio; Streamable HTTP with the
//!   `http` feature).
//! - the protocol core (the `mcp-wit-protocol` crate): a [`Session`] takes one
//!   JSON-RPC message and produces the messages to send back, calling the
//!   guest on the caller's thread ([`Session::handle`]) or as a future
//!   ([`Session::handle_async`]).
//! - [`runtime`]: the engine, compiled components, their instances and which
//!   instance serves a call ([`InstanceMode`]), limits.
//! - [`sandbox`]: what a guest may reach (nothing, by default).
//!
//! With the `rmcp` feature, `mcp_wit::rmcp` serves a router as an rmcp
//! `ServerHandler`, to mount in an rmcp server beside native tools.
//!
//! ```no_run
//! use mcp_wit::{Engine, EngineOptions, LoadedComponent, Method, SandboxPolicy, Session, SessionOptions};
//! use serde_json::value::RawValue;
//!
//! let engine: Engine = EngineOptions::default().build()?;
//! let policy = SandboxPolicy::builder("hello").build();
//! let component = LoadedComponent::from_file(&engine, "hello.wasm".as_ref(), policy)?;
//! let mut session = Session::new(component, SessionOptions::default());
//! let mut out: Vec<Vec<u8>> = Vec::new();
//! session.handle(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, &mut out);
//! assert_eq!(out[0], br#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
//! // In process, without JSON-RPC envelopes:
//! let pong = session.call(&RawValue::from_string("2".into())?, Method::Ping, None, &mut out)?;
//! assert_eq!(pong.get(), "{}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod error;
#[cfg(feature = "rmcp")]
pub mod rmcp;

/// The book's embedding guide (`docs/users/embedding.md`), here so that its
/// example is compiled with the crate's tests.
#[cfg(all(feature = "http", feature = "rmcp"))]
pub mod guide {
    #![doc = include_str!("../../docs/users/embedding.md")]
}
pub mod runtime;
pub mod sandbox;
pub mod stderr;
mod sync;
pub mod transport;

pub use error::{EngineError, LoadError};
pub use mcp_wit_protocol::{
    CacheHint, CacheScope, CallMode, Canceller, CollisionCheckError, DEFAULT_MAX_OUTPUT, Envelope, FaultKind,
    GuestFault, Method, MountError, Outbox, ProtocolVersion, RpcError, SessionOptions, block_on, contract,
};
pub use mcp_wit_protocol::{Listeners, Sink, auth, client, listeners, rounds::StateKey};
pub use runtime::budget::MemoryBudget;
pub use runtime::cache::CompileCache;
pub use runtime::engine::{DEFAULT_POOL_CAP, EngineOptions};
pub use runtime::limits::Limits;
pub use runtime::{InstanceMode, InstanceReuse, LoadedComponent, RouterInstance};
pub use sandbox::SandboxPolicy;
#[cfg(feature = "http")]
pub use transport::http::HttpOptions;
pub use transport::stdio::StdioOptions;
pub use wasmtime::Engine;

/// One client's session with the components it is served.
pub type Session = mcp_wit_protocol::Session<LoadedComponent>;

/// One 2026-07-28 request served on its own, without a session.
pub type StatelessRequest = mcp_wit_protocol::StatelessRequest<LoadedComponent>;

/// What a server serves now, replaceable while it serves (see
/// [`Session::following`](mcp_wit_protocol::Session::following)).
pub type Deployment = mcp_wit_protocol::Deployment<LoadedComponent>;

/// Several components served as one MCP server, under prefixes.
pub type Routers = mcp_wit_protocol::Routers<LoadedComponent>;
