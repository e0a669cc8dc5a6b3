//! `baseline-rmcp`: the native baseline. The `echo` tool of
//! `components/echo`, served by rmcp's own server over stdio.
//!
//! Written the way rmcp's documentation writes a server (`#[tool_router]`,
//! `#[tool_handler]`, a multi-threaded Tokio runtime), over
//! `transport::stdio_pipes`, rmcp's faster stdio transport for piped
//! streams. `--blocking-stdio` uses `transport::stdio` (Tokio's blocking
//! stdin/stdout) instead.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};

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
    let blocking = std::env::args().skip(1).any(|arg| arg == "--blocking-stdio");
    let server = if blocking {
        Echo::new().serve(rmcp::transport::stdio()).await?
    } else {
        Echo::new().serve(rmcp::transport::stdio_pipes()).await?
    };
    server.waiting().await?;
    Ok(())
}
