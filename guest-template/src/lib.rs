//! A starting point for an MCP server written as a WebAssembly component.
//!
//! `#[router]` (from `mcp-wit-sdk`) turns the methods below into the
//! `wasix:mcp/router@25.3.26` contract the `mcp-wit` host serves (see
//! `wit/`): a method's doc comment is its description, its arguments type
//! gives the input schema, and `&Context` reaches the client while the
//! request is served. This router offers:
//!
//! - a `reverse` tool that reverses a string (its argument checked against
//!   its schema, its result structured),
//! - a `greet` tool that logs a line, reports progress and asks the user
//!   their name (elicitation),
//! - a text resource, `template://readme`,
//! - a `welcome` prompt with an argument.
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
    /// The text to reverse
    #[schemars(length(min = 1))]
    text: String,
}

/// What `reverse` returns: `Json<Reversed>` gives the tool an output schema
/// and its result structured content.
#[derive(Serialize, JsonSchema)]
struct Reversed {
    text: String,
    length: usize,
}

/// What `greet` asks the user.
#[derive(Deserialize, JsonSchema)]
struct Name {
    /// What should I call you?
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct WelcomeArgs {
    /// Who to welcome
    name: String,
}

#[router(name = "my-router", instructions = "Reverses text and greets people.")]
impl MyRouter {
    /// Reverses a string
    #[tool(read_only, destructive = false)]
    fn reverse(&self, args: ReverseArgs) -> Json<Reversed> {
        let length = args.text.chars().count();
        Json(Reversed { text: args.text.chars().rev().collect(), length })
    }

    // A log line and progress go out at once, while the tool works; the
    // question waits for the user's answer. A client that did not declare
    // elicitation gets a greeting for whoever they are. Errors are returned,
    // not panicked: a panic traps the component.
    /// Asks the user their name (elicitation), reporting progress and a log line on the way
    #[tool]
    fn greet(&self, cx: &Context) -> Result<String, ToolError> {
        cx.progress(0.0, Some(2.0), Some("asking"));
        cx.log(LogLevel::Info, "greeting someone");
        let name = match cx.elicit::<Name>("What is your name?") {
            Ok(Elicitation::Accept(answer)) => answer.name,
            Ok(_) | Err(ClientError::Unsupported(_)) => return Ok("Hello, whoever you are!".to_owned()),
            Err(other) => return Err(other.into()),
        };
        cx.progress(2.0, Some(2.0), Some("done"));
        Ok(format!("Hello, {name}!"))
    }

    /// What this router offers
    #[resource(uri = "template://readme", mime_type = "text/markdown")]
    fn readme(&self) -> &'static str {
        "# my-router\n\nTools: `reverse`, `greet`. Prompt: `welcome`.\n"
    }

    /// A welcome message for a new user
    #[prompt]
    fn welcome(&self, args: WelcomeArgs) -> Vec<PromptMessage> {
        vec![PromptMessage::user(format!("Write a one-line welcome for {}.", args.name))]
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
        let Json(reversed) = MyRouter.reverse(ReverseArgs { text: "stressed".into() });
        assert_eq!((reversed.text.as_str(), reversed.length), ("desserts", 8));
    }
}
