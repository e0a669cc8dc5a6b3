//! The calculator both rmcp fixtures serve: `echo` (text), `add`
//! (structured content), `fail` (a tool error), and `show_sum`, an MCP App:
//! its `_meta.ui` names the view `ui://calculator/sum.html`, a
//! `text/html;profile=mcp-app` resource with `_meta.ui` of its own (on the
//! listed resource and on its contents); icons on the server, the tool, the
//! resource and the `explain_sum` prompt.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, GetPromptRequestParams, GetPromptResponse, GetPromptResult, Icon, Implementation,
    ListPromptsResult, ListResourcesResult, MetaObject, PaginatedRequestParams, Prompt, PromptMessage,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, Role, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Clone)]
pub struct Calculator;

/// The app's view.
const VIEW_URI: &str = "ui://calculator/sum.html";

/// MCP Apps' MIME type for an HTML view.
const APP_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// A `_meta` object holding `value`.
fn meta(value: serde_json::Value) -> MetaObject {
    match value {
        serde_json::Value::Object(object) => MetaObject::from(object),
        _ => unreachable!("written as an object"),
    }
}

/// The tool's and the view's icon: an SVG, as a data URI.
fn icons() -> Vec<Icon> {
    let mut icon = Icon::new("data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=");
    icon.mime_type = Some("image/svg+xml".into());
    icon.sizes = Some(vec!["any".into()]);
    vec![icon]
}

/// What the view may reach and how it wants to be shown.
fn view_meta() -> MetaObject {
    meta(serde_json::json!({ "ui": {
        "csp": { "connectDomains": [], "resourceDomains": ["https://cdn.example.com"] },
        "prefersBorder": true,
    }}))
}

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

    #[tool(
        description = "Adds two numbers and shows the sum in a view",
        meta = meta(serde_json::json!({ "ui": { "resourceUri": VIEW_URI, "visibility": ["model", "app"] } })),
        icons = icons()
    )]
    async fn show_sum(&self, Parameters(params): Parameters<AddParams>) -> Result<CallToolResult, ErrorData> {
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
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().enable_prompts().build())
            .with_server_info(Implementation::new("rmcp-calculator", "1.0.0").with_icons(icons()))
            .with_instructions("A calculator written with rmcp")
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let view = Resource::new(VIEW_URI, "sum-view")
            .with_description("Shows a sum")
            .with_mime_type(APP_MIME_TYPE)
            .with_icons(icons())
            .with_meta(view_meta());
        Ok(ListResourcesResult::with_all_items(vec![view]))
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let prompt = Prompt::new("explain_sum", Some("Asks the model to explain a sum"), None).with_icons(icons());
        Ok(ListPromptsResult::with_all_items(vec![prompt]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != "explain_sum" {
            return Err(ErrorData::invalid_params(format!("no prompt {}", request.name), None));
        }
        let message = PromptMessage::new_text(Role::User, "Explain how 2 + 3 makes 5.");
        Ok(GetPromptResult::new(vec![message]).into())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != VIEW_URI {
            return Err(ErrorData::resource_not_found(format!("no resource {}", request.uri), None));
        }
        let view = ResourceContents::text(include_str!("../../../guest-template/app/view.html"), VIEW_URI)
            .with_mime_type(APP_MIME_TYPE)
            .with_meta(view_meta());
        Ok(ReadResourceResult::new(vec![view]).into())
    }
}
