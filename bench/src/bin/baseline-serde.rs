//! `baseline-serde`: the floor. The least an MCP server can do for the `echo`
//! tool.
//!
//! ```text
//! baseline-serde                        # stdio
//! baseline-serde --http 127.0.0.1:PORT  # Streamable HTTP at /mcp
//! ```
//!
//! Over stdio, a serde_json read-parse-answer loop; over HTTP (`--http
//! ADDR`), hyper and serde_json: what [`mcp_wit_bench::floor`] does, with the
//! tool answered by serde_json alone, its argument borrowed from the request.
//! The gap between it and `mcp-wit serve` is what the protocol core and the
//! WebAssembly guest cost (`baseline-wasm-router` is the same floor with the
//! tool answered by a WebAssembly router).

use std::borrow::Cow;

use clap::Parser;
use mcp_wit_bench::floor::{self, Tools};
use serde::Deserialize;

/// The floor: the least an MCP server can do for the `echo` tool, a bare
/// serde_json loop over stdio or a bare hyper + serde_json server.
#[derive(Parser, Debug)]
#[command(
    // A flag given twice counts once, the last value, as scripts may append.
    args_override_self = true,
    after_help = "Examples:\n  baseline-serde\n  baseline-serde --http 127.0.0.1:8080"
)]
struct Cli {
    /// Serve Streamable HTTP at /mcp on ADDR instead of stdio.
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,
}

const TOOLS: &str = r#"{"tools":[{"name":"echo","description":"Echoes its text argument","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]}"#;

/// The `echo` tool in serde_json alone: its argument parsed with the
/// request, borrowed from it, and written back.
struct Echo;

#[derive(Deserialize)]
struct EchoArguments<'a> {
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
}

impl Tools for Echo {
    type Arguments<'a> = EchoArguments<'a>;

    fn list(&self) -> &str {
        TOOLS
    }

    fn call<'a>(&self, name: &str, arguments: Option<Self::Arguments<'a>>) -> Option<(Cow<'a, str>, bool)> {
        (name == "echo").then(|| match arguments.and_then(|a| a.text) {
            Some(text) => (text, false),
            None => (Cow::Borrowed("`text` must be a string"), true),
        })
    }
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().http {
        Some(addr) => floor::serve_http(&addr, "baseline-serde", || Echo)?,
        None => floor::serve_stdio(&Echo, "baseline-serde")?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use mcp_wit_bench::cli::parse;

    use super::*;

    #[test]
    fn stdio_or_http() {
        assert_eq!(parse::<Cli>("baseline-serde").unwrap().http, None);
        assert_eq!(
            parse::<Cli>("baseline-serde --http=127.0.0.1:4000").unwrap().http.as_deref(),
            Some("127.0.0.1:4000")
        );
        assert!(parse::<Cli>("baseline-serde --blocking-stdio").is_err());
    }
}
