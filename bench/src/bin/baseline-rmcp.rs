//! `baseline-rmcp`: the native baseline. The `echo` tool of
//! `components/echo`, served by rmcp's own server over stdio or Streamable
//! HTTP.
//!
//! ```text
//! baseline-rmcp [--blocking-stdio]
//! baseline-rmcp --http 127.0.0.1:PORT
//! ```
//!
//! Written the way rmcp's documentation writes a server (`#[tool_router]`,
//! `#[tool_handler]`, a multi-threaded Tokio runtime), over
//! `transport::stdio_pipes`, rmcp's faster stdio transport for piped
//! streams. `--blocking-stdio` uses `transport::stdio` (Tokio's blocking
//! stdin/stdout) instead.
//!
//! `--http ADDR` serves rmcp's `StreamableHttpService` with its default
//! configuration: stateful sessions (`Mcp-Session-Id`, one `Echo` per
//! session, kept by the `LocalSessionManager`) and every request answered
//! with an SSE stream, as `mcp-wit serve --http` answers by default (rmcp's
//! `json_response` applies only without sessions). The service is mounted on
//! hyper's HTTP/1.1 server directly, one task per connection, as
//! `mcp-wit` serves it; it answers on any path, so `/mcp` too. A request that
//! names 2026-07-28 in its `_meta` is served statelessly (rmcp's stateless
//! mode: no session, a fresh `Echo` per request), whatever the session
//! setting, as rmcp serves every 2026-07-28 request.

use std::sync::Arc;

use clap::Parser;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};

/// The native baseline: the `echo` tool of `components/echo`, served by
/// rmcp's own server over stdio (`transport::stdio_pipes`) or Streamable HTTP.
#[derive(Parser, Debug)]
#[command(
    // A flag given twice counts once, the last value, as scripts may append.
    args_override_self = true,
    after_help = "Examples:\n  baseline-rmcp\n  baseline-rmcp --http 127.0.0.1:8080"
)]
struct Cli {
    /// Serve Streamable HTTP on ADDR (rmcp's `StreamableHttpService`, its defaults) instead of stdio.
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,
    /// Over stdio, use `transport::stdio` (Tokio's blocking stdin and stdout).
    #[arg(long)]
    blocking_stdio: bool,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct EchoRequest {
    /// The text to return.
    text: String,
}

#[derive(Debug, Clone)]
struct Echo {
    // Read by the code `#[tool_handler]` generates.
    #[allow(dead_code)]
    tool_router: ToolRouter<Self>,
}

impl Echo {
    fn new() -> Self {
        Echo { tool_router: Self::tool_router() }
    }
}

#[tool_router]
impl Echo {
    /// One text content holding the `text` argument, as `components/echo` answers.
    #[tool(description = "Echoes its text argument")]
    fn echo(&self, Parameters(EchoRequest { text }): Parameters<EchoRequest>) -> String {
        text
    }
}

#[tool_handler]
impl ServerHandler for Echo {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_instructions("Call the `echo` tool to get its `text` argument back.")
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if let Some(addr) = &cli.http {
        return serve_http(addr).await;
    }
    let server = if cli.blocking_stdio {
        Echo::new().serve(rmcp::transport::stdio()).await?
    } else {
        Echo::new().serve(rmcp::transport::stdio_pipes()).await?
    };
    server.waiting().await?;
    Ok(())
}

/// Serves Streamable HTTP on `addr` until killed.
async fn serve_http(addr: &str) -> anyhow::Result<()> {
    let service = StreamableHttpService::new(
        || Ok(Echo::new()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind(addr).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        stream.set_nodelay(true)?;
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
        });
    }
}

#[cfg(test)]
mod tests {
    use mcp_wit_bench::cli::parse;

    use super::*;

    #[test]
    fn stdio_or_http() {
        let cli: Cli = parse("baseline-rmcp --blocking-stdio").unwrap();
        assert_eq!((cli.http, cli.blocking_stdio), (None, true));
        let cli: Cli = parse("baseline-rmcp --http 127.0.0.1:4000").unwrap();
        assert_eq!((cli.http.as_deref(), cli.blocking_stdio), (Some("127.0.0.1:4000"), false));
        assert!(parse::<Cli>("baseline-rmcp --http").is_err() && parse::<Cli>("baseline-rmcp serve").is_err());
    }
}
