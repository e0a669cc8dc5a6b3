//! # mcp-wit
//!
//! Serves Model Context Protocol routers written as WebAssembly (components
//! of the `wasix:mcp/router@25.3.26` contract, and Extism plugins) to MCP
//! clients.
//!
//! A request flows transport → protocol → runtime → guest and back. What an
//! embedder uses:
//!
//! | To | Use |
//! |---|---|
//! | compile guests | [`Engine`], made by [`EngineOptions`]; a [`CompileCache`] to keep the work (feature `compiler`; without it, code compiled ahead of time runs) |
//! | load one | [`LoadedRouter`] (a component or a plugin) under a [`SandboxPolicy`], with [`Limits`], an [`InstanceMode`] and a server-wide [`MemoryBudget`] |
//! | serve several as one | [`Routers`] (under prefixes), [`Deployment`] (replaceable while serving) |
//! | answer messages | [`Session`] (one client, both eras) with [`SessionOptions`]; [`StatelessRequest`] (one 2026-07-28 request) |
//! | call a guest directly | [`RouterInstance`], whose values are the [`contract`]'s |
//! | serve a transport | [`transport::stdio`] ([`StdioOptions`]); [`transport::http`] ([`HttpOptions`], feature `http`) |
//! | mount in rmcp | `rmcp::RouterHandler` (feature `rmcp`) |
//! | carry talk-back yourself | [`client::Peer`] and [`Listeners`] |
//!
//! The rest is public for the crates of this workspace (the protocol core,
//! `mcp-wit-protocol`, is its own crate so that it also runs inside the
//! adapter component) and may change between minor versions.
//!
//! ```no_run
//! use mcp_wit::{Engine, EngineOptions, LoadedRouter, Method, SandboxPolicy, Session, SessionOptions};
//! use serde_json::value::RawValue;
//!
//! let engine: Engine = EngineOptions::default().build()?;
//! let policy = SandboxPolicy::builder("hello").build();
//! let component = LoadedRouter::from_file(&engine, "hello.wasm".as_ref(), policy)?;
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

pub mod auth;
pub mod client;
mod error;
mod offload;
#[cfg(feature = "rmcp")]
pub mod rmcp;

/// The book's embedding guide (`docs/users/embedding.md`), here so that its
/// example is compiled with the crate's tests.
#[cfg(all(feature = "http", feature = "rmcp"))]
pub mod guide {
    #![doc = include_str!("../../docs/users/embedding.md")]
}
pub mod redact;
pub mod runtime;
pub mod sandbox;
mod serving;
pub mod stderr;
mod sync;
pub mod tasks;
pub mod telemetry;
pub mod transport;

pub use error::{EngineError, LoadError};
/// Runs a future on the calling thread (for the blocking calls of a guest
/// whose host functions are async).
#[doc(hidden)]
pub use mcp_wit_protocol::block_on;
pub use mcp_wit_protocol::{
    CacheHint, CacheScope, CallMode, Canceller, CollisionCheckError, DEFAULT_MAX_OUTPUT, DEFAULT_VALIDATION_BUDGET,
    Envelope, FaultKind, GuestFault, Listeners, Method, MountError, Observer, Outbox, ProtocolVersion, RpcError,
    SessionOptions, Sink, contract, observe,
    rounds::{StateKey, StateKeySharing},
    tool_ui_error,
    validation::{SchemaError, ToolSchemas},
};
pub use offload::OffloadPool;

pub use runtime::budget::MemoryBudget;
pub use runtime::cache::CompileCache;
pub use runtime::engine::{DEFAULT_POOL_CAP, EngineOptions};
pub use runtime::limits::Limits;
pub use runtime::{InstanceMode, InstanceReuse, LoadedRouter, RouterInstance};
pub use sandbox::SandboxPolicy;
pub use serving::{Deployment, Routers, Session, StatelessRequest};
#[cfg(feature = "http")]
pub use transport::http::HttpOptions;
pub use transport::stdio::StdioOptions;
pub use wasmtime::Engine;
