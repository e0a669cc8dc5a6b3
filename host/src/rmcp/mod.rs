//! The rmcp integration: routers served as an [`rmcp::ServerHandler`], to
//! mount in an rmcp server of one's own (feature `rmcp`).
//!
//! A [`RouterHandler`] is one MCP session with one component (or several as
//! one server, see [`Routers`](crate::Routers)). It does not map anything itself: each request
//! is handed to the same protocol core every transport uses ([`Session`](crate::Session)), so
//! tools, results and errors are exactly what `mcp-wit serve` sends, and a
//! guest fault replaces the instance just as it does there.
//!
//! ```no_run
//! use mcp_wit::rmcp::RouterHandler;
//! use mcp_wit::{LoadedRouter, SandboxPolicy};
//! use rmcp::ServiceExt;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let engine = mcp_wit::EngineOptions::default().build()?;
//! let policy = SandboxPolicy::builder("hello").build();
//! let component = LoadedRouter::from_file(&engine, "hello.wasm".as_ref(), policy)?;
//! let (stdin, stdout) = (tokio::io::stdin(), tokio::io::stdout());
//! RouterHandler::new(component).serve((stdin, stdout)).await?.waiting().await?;
//! # Ok(())
//! # }
//! ```
//!
//! To put native rmcp tools beside the guest's, write a handler of your own
//! that answers its tools and passes every other request to a
//! `RouterHandler` (see `host/examples/rmcp_server.rs`).

mod peer_link;
mod router_handler;

pub use router_handler::RouterHandler;
