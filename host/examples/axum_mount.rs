//! Serves a router at `/mcp` (Streamable HTTP) inside an axum app, next to
//! routes of the app's own.
//!
//! ```sh
//! cargo run -p mcp-wit --example axum_mount -- router.wasm 127.0.0.1:9000
//! curl http://127.0.0.1:8080/health
//! curl http://127.0.0.1:8080/mcp -H 'Content-Type: application/json' \
//!   -H 'Accept: application/json, text/event-stream' \
//!   -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'
//! ```

use std::net::SocketAddr;

use axum::Router;
use axum::routing::get;
use mcp_wit::transport::http::{HttpOptions, axum_router};
use mcp_wit::{LoadedRouter, SandboxPolicy, SessionOptions};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: cargo run -p mcp-wit --example axum_mount -- ROUTER.wasm")?;
    let addr: SocketAddr = args.next().as_deref().unwrap_or("127.0.0.1:8080").parse()?;

    let engine = mcp_wit::EngineOptions::default().build()?;
    let component = LoadedRouter::load(&engine, path.as_ref(), SandboxPolicy::builder("router").build(), None)?;

    // The MCP routes keep their own body limit and Origin/Host checks; the
    // app's other routes are untouched by them.
    let mcp = axum_router(component, SessionOptions::default(), HttpOptions::new(addr), ctrl_c())?;
    let app = Router::new().route("/health", get(|| async { "ok\n" })).merge(mcp);

    let listener = tokio::net::TcpListener::bind(addr).await?;
    println!("listening on http://{addr}: MCP at /mcp, and /health");
    axum::serve(listener, app).with_graceful_shutdown(ctrl_c()).await?;
    Ok(())
}

/// Completes on Ctrl-C (each call listens on its own).
async fn ctrl_c() {
    let _ = tokio::signal::ctrl_c().await;
}
