//! The calculator both rmcp fixtures serve: `echo` (text), `add`
//! (structured content), `fail` (a tool error).

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Clone)]
pub struct Calculator;

#[derive(Debug, Deserialize, JsonSchema)]
struct EchoParams {
    /// What to say back.
    text: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct AddParams {
    /// Left operand.
    a: f64,
    /// Right operand.
    b: f64,
}

#[tool_router]
impl Calculator {
    #[tool(description = "Says the message back")]
    async fn echo(&self, Parameters(params): Parameters<EchoParams>) -> Result<CallToolResult, ErrorData> {
        Ok(CallToolResult::success(vec![ContentBlock::text(params.text)]))
    }

    #[tool(description = "Adds two numbers")]
    async fn add(&self, Parameters(params): Parameters<AddParams>) -> Result<CallToolResult, ErrorData> {
        Ok(CallToolResult::structured(serde_json::json!({ "sum": params.a + params.b })))
    }

    #[tool(description = "Always fails, as a tool")]
    async fn fail(&self) -> Result<CallToolResult, ErrorData> {
        Ok(CallToolResult::error(vec![ContentBlock::text("it failed, as asked")]))
    }
}

#[tool_handler]
impl ServerHandler for Calculator {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("rmcp-calculator", "1.0.0"))
            .with_instructions("A calculator written with rmcp")
    }
}
