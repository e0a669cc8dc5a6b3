//! A starting point for an MCP server written as a WebAssembly component.
//!
//! `#[router]` (from `mcp-wit-sdk`) turns the methods below into the
//! `wasix:mcp/router@25.3.26` contract the `mcp-wit` host serves (see
//! `wit/`): a method's doc comment is its description, its arguments type
//! gives the input schema, and `&Context` reaches the client while the
//! request is served. This router offers:
//!
//! - a `reverse` tool that reverses a string,
//! - a `greet` tool that logs a line, reports progress and asks the user
//!   their name (elicitation),
//! - a text resource, `template://readme`,
//! - a `welcome` prompt.
//!
//! Rename things, replace the bodies, and keep the shape.

use mcp_wit_sdk::prelude::*;

/// The router, made with `Default` on the first request and kept as long as
/// the host keeps this instance. Handlers get `&self`: keep state that
/// changes in a `Cell` or `RefCell`.
#[derive(Default)]
struct MyRouter;

#[derive(Deserialize, JsonSchema)]
struct ReverseArgs {
    /// Text to reverse.
    text: String,
}

/// What `greet` asks the user.
#[derive(Deserialize, JsonSchema)]
struct Name {
    /// What should I call you?
    name: String,
}

#[router(name = "my-router", instructions = "Call the `reverse` tool to reverse a piece of text.")]
impl MyRouter {
    /// Reverses a piece of text
    #[tool(read_only, destructive = false)]
    fn reverse(&self, args: ReverseArgs) -> String {
        args.text.chars().rev().collect()
    }

    // A log line and progress go out at once, while the tool works; the
    // question waits for the user's answer. A client that did not declare
    // elicitation gets a greeting for a stranger. Errors are returned, not
    // panicked: a panic traps the component.
    /// Asks the user their name, then greets them
    #[tool]
    fn greet(&self, cx: &Context) -> Result<String, ToolError> {
        cx.log(LogLevel::Info, "asking for a name");
        cx.progress(0.0, Some(1.0), Some("asking"));
        let name = match cx.elicit::<Name>("What is your name?") {
            Ok(Elicitation::Accept(answer)) => answer.name,
            Ok(_) | Err(ClientError::Unsupported(_)) => "stranger".to_owned(),
            Err(other) => return Err(other.into()),
        };
        cx.progress(1.0, Some(1.0), Some("done"));
        Ok(format!("Hello, {name}!"))
    }

    /// About this router
    #[resource(uri = "template://readme")]
    fn readme(&self) -> &'static str {
        "This router started from the mcp-wit guest template."
    }

    /// Introduces this server
    #[prompt]
    fn welcome(&self) -> Vec<PromptMessage> {
        vec![PromptMessage::user("Say hello, then reverse the word \"template\" with the `reverse` tool.")]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Handlers are plain methods: test them natively with `cargo test`.
    // (Outside of a component there is no client: questions fail with
    // `unavailable`.)
    #[test]
    fn reverse_reverses() {
        assert_eq!(MyRouter.reverse(ReverseArgs { text: "stressed".into() }), "desserts");
    }
}
