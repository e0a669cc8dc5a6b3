//! An MCP App: a tool that comes with an HTML view, which a client that
//! hosts MCP Apps (Claude, ChatGPT, VS Code, Goose, the MCP Inspector…)
//! renders in a sandboxed frame.
//!
//! - `show_sum` adds two numbers. Its `app` names the view; a client that
//!   hosts apps shows the view with the result, any other gets a sentence.
//! - `add` is the tool the view calls back through its host (`app_only`:
//!   hosts keep it from the model).
//! - `ui://my-router/sum.html` is the view: `src/view.html`, built into the
//!   component. It shows the sum and asks `add` for the sum plus one.
//!
//! Rename things, replace the bodies, and keep the shape.

use mcp_wit_sdk::prelude::*;
use mcp_wit_sdk::serde_json::json;

/// The view's URI.
const VIEW: &str = "ui://my-router/sum.html";

#[derive(Default)]
struct MyRouter;

#[derive(Deserialize, JsonSchema)]
struct Operands {
    /// Left operand
    a: f64,
    /// Right operand
    b: f64,
}

#[router(
    name = "my-router",
    instructions = "Adds numbers and shows the sum in a view.",
    icons = json!([{ "src": "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=", "mimeType": "image/svg+xml" }])
)]
impl MyRouter {
    /// Adds two numbers and shows the sum in a view
    #[tool(app = "ui://my-router/sum.html")]
    fn show_sum(&self, args: Operands, cx: &Context) -> CallToolResult {
        let sum = args.a + args.b;
        match cx.hosts_apps() {
            // The view reads the sum from the result the host hands it.
            true => CallToolResult::success(vec![Content::text(json!({ "sum": sum }).to_string())]),
            false => CallToolResult::success(vec![Content::text(format!("{} + {} = {sum}", args.a, args.b))]),
        }
    }

    /// Adds two numbers (for the view)
    #[tool(app = "ui://my-router/sum.html", app_only)]
    fn add(&self, args: Operands) -> CallToolResult {
        CallToolResult::success(vec![Content::text(json!({ "sum": args.a + args.b }).to_string())])
    }

    /// The sum's view
    #[resource(uri = "ui://my-router/sum.html", app_view = json!({ "prefersBorder": true }))]
    fn view(&self) -> &'static str {
        include_str!("view.html")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tool_names_its_view_and_the_view_is_html() {
        let decorations = <MyRouter as mcp_wit_sdk::Router>::decorations();
        assert!(decorations.contains(&Decoration::app_tool("show_sum", VIEW)));
        let html = MyRouter.view();
        assert!(html.contains("ui/initialize"), "the view introduces itself to its host");
    }
}
