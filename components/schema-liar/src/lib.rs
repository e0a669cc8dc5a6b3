//! `schema-liar`: a fixture for the host's schema checks. Its tools declare
//! schemas that are wrong in each way a router can get them wrong, and one
//! breaks its own output schema:
//!
//! - `strict`: valid schemas (`text`, a non-empty string; `length`, an
//!   integer), so that its arguments are checked; it answers honestly.
//! - `liar`: its output schema asks for `{"length": integer}`, it answers
//!   `{"length": "many"}`.
//! - `typo`: an input schema with `"type": "strng"`, not valid JSON Schema.
//! - `not-json`: an input schema that is not JSON.
//! - `slow-pattern`: words that are not runs of `a`, by a pattern with
//!   nested quantifiers and a lookahead that backtracks heavily on `aaa…a1`
//!   (each such word costs the regex engine milliseconds).
//! - `integers`: an array of integers (`n`), and `all-types`: a value (`s`)
//!   that must be an integer 200 times over (`allOf`), whose refusals the
//!   host must describe briefly, however large the argument.
//! - `forged\nname`: a name MCP does not allow (a line break in it), which
//!   the host leaves out of the list.

wit_bindgen::generate!({
    path: "../../wit",
    world: "wasix:mcp/mcp-router@25.3.26",
});

use exports::wasix::mcp::router::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, Content, GetPromptResult, Guest,
    McpResource, Prompt, PromptError, ReadResourceResult, ResourceError, ServerCapabilities, TextContent, Tool,
    ToolError, ToolsCapability, Value,
};

const STRICT_INPUT: &str = r#"{"type":"object","properties":{"text":{"type":"string","minLength":1}},"required":["text"],"additionalProperties":false}"#;
const LENGTH_OUTPUT: &str = r#"{"type":"object","properties":{"length":{"type":"integer"}},"required":["length"]}"#;
const SLOW_PATTERN_INPUT: &str = r#"{"type":"object","properties":{"words":{"type":"array","items":{"type":"string","not":{"pattern":"^((?=a)a+)+$"}}}},"required":["words"]}"#;
const INTEGERS_INPUT: &str =
    r#"{"type":"object","properties":{"n":{"type":"array","items":{"type":"integer"}}},"required":["n"]}"#;
/// A name with a line break: a client that logs or shows it as given
/// would show two lines.
const FORGED_NAME: &str = "forged\nname";

/// `s` must be an integer, 200 times over.
fn all_types_input() -> String {
    let types = vec![r#"{"type":"integer"}"#; 200].join(",");
    format!(r#"{{"type":"object","properties":{{"s":{{"allOf":[{types}]}}}},"required":["s"]}}"#)
}

struct SchemaLiar;

fn tool(name: &str, input: &str, output: Option<&str>) -> Tool {
    Tool {
        name: name.into(),
        description: format!("The `{name}` case of the schema checks"),
        input_schema: Value { json: input.into() },
        output_schema: output.map(|json| Value { json: json.into() }),
        annotations: None,
        meta: None,
    }
}

fn text(text: String) -> CallToolResult {
    CallToolResult {
        content: vec![Content::Text(TextContent { text, annotations: None })],
        progress: None,
        meta: None,
        is_error: None,
    }
}

/// The `text` argument, read without a JSON library: the host checked it.
fn text_argument(arguments: &str) -> String {
    let start = arguments.find("\"text\"").map(|i| i + 6).unwrap_or(0);
    let rest = &arguments[start..];
    let open = rest.find('"').map(|i| i + 1).unwrap_or(0);
    let close = rest[open..].find('"').map(|i| open + i).unwrap_or(open);
    rest[open..close].to_string()
}

impl Guest for SchemaLiar {
    fn name() -> String {
        "schema-liar".into()
    }

    fn instructions() -> String {
        String::new()
    }

    fn capabilities() -> ServerCapabilities {
        ServerCapabilities {
            prompts: None,
            resources: None,
            tools: Some(ToolsCapability { list_changed: None }),
            completions: None,
        }
    }

    fn list_tools() -> Vec<Tool> {
        vec![
            tool("strict", STRICT_INPUT, Some(LENGTH_OUTPUT)),
            tool("liar", r#"{"type":"object"}"#, Some(LENGTH_OUTPUT)),
            tool("typo", r#"{"type":"object","properties":{"a":{"type":"strng"}}}"#, None),
            tool("not-json", "{not json", None),
            tool("slow-pattern", SLOW_PATTERN_INPUT, None),
            tool("integers", INTEGERS_INPUT, None),
            tool("all-types", &all_types_input(), None),
            tool(FORGED_NAME, r#"{"type":"object"}"#, None),
        ]
    }

    fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        match tool_name.as_str() {
            "strict" => Ok(text(format!(r#"{{"length":{}}}"#, text_argument(&arguments.json).chars().count()))),
            "liar" => Ok(text(r#"{"length":"many"}"#.into())),
            "typo" | "not-json" | "slow-pattern" | "integers" | "all-types" | FORGED_NAME => Ok(text("called".into())),
            _ => Err(ToolError::NotFound(tool_name)),
        }
    }

    fn list_resources() -> Vec<McpResource> {
        Vec::new()
    }

    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
        Err(ResourceError::NotFound(uri))
    }

    fn list_prompts() -> Vec<Prompt> {
        Vec::new()
    }

    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
        Err(PromptError::NotFound(prompt_name))
    }

    fn complete(_request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        Err(CompletionError::NotFound("no completions".into()))
    }
}

export!(SchemaLiar);
