//! `router-25-6-18`: a fixture for the `wasix:mcp/router@25.6.18` contract,
//! exported alone (no 25.3.26 export, no extension). It uses what 25.6.18
//! adds to 25.3.26:
//!
//! - `describe-server`: a title, resource metadata (an authorization server)
//!   and `_meta`.
//! - `weather`: a title, read-only annotations, `_meta`, and structured
//!   content that matches its output schema.
//! - `link`: a resource link (to `fixture://readme`) and `_meta` on the result.
//! - `book`, `two_questions`, `nag`: elicitation, one question, two questions,
//!   and a loop that never ends, for the host to bound. The host calls the
//!   tool again with the answers so far under `_elicitations`.
//! - `broken_json`: structured content that is not JSON.
//! - `fail`: an execution error.
//!
//! Plus one resource (`fixture://readme`) and one prompt (`hello`).

wit_bindgen::generate!({
    path: "../../wit/wasix-mcp@25.6.18",
    world: "wasix:mcp/mcp-router@25.6.18",
});

use exports::wasix::mcp::router::{
    Annotations, AuthorizationServer, CompletionError, CompletionRequest, CompletionResponse, ContentBlock,
    ElicitationRequest, GetPromptResult, Guest, Json, McpResource, MetaEntry, Prompt, PromptError, PromptMessage,
    PromptMessageContent, PromptMessageRole, PromptsCapability, ReadResourceResult, ResourceContents, ResourceError,
    ResourceLinkContent, ResourceMetadata, ResourcesCapability, Response, Role, ServerCapabilities, ServerDescription,
    TextContent, TextResourceContents, Tool, ToolAnnotations, ToolError, ToolResult, ToolsCapability,
};
use serde_json::{Map, Value};

const NAME: &str = "router-25-6-18";
const TITLE: &str = "A 25.6.18 router";

const README_URI: &str = "fixture://readme";
const README_TITLE: &str = "Read me";
const README_DESCRIPTION: &str = "What this router offers";
const MARKDOWN: &str = "text/markdown";

const EMPTY_OBJECT: &str = r#"{"type":"object","properties":{}}"#;
const WEATHER_INPUT: &str =
    r#"{"type":"object","properties":{"city":{"type":"string","minLength":1}},"required":["city"]}"#;
const WEATHER_OUTPUT: &str = r#"{"type":"object","properties":{"city":{"type":"string"},"celsius":{"type":"number"}},"required":["city","celsius"]}"#;
const BOOK_INPUT: &str = r#"{"type":"object","properties":{"restaurant":{"type":"string"}},"required":["restaurant"]}"#;
const PEOPLE_SCHEMA: &str =
    r#"{"type":"object","properties":{"people":{"type":"integer","minimum":1}},"required":["people"]}"#;
const NAME_SCHEMA: &str = r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#;
const CONFIRM_SCHEMA: &str = r#"{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}"#;
const AGAIN_SCHEMA: &str = r#"{"type":"object","properties":{"again":{"type":"boolean"}}}"#;

struct Router;

fn meta(key: &str, value: &str) -> Option<Vec<MetaEntry>> {
    Some(vec![MetaEntry { key: key.into(), value: value.into() }])
}

fn tool(name: &str, description: &str, input_schema: &str) -> Tool {
    Tool {
        name: name.into(),
        title: None,
        description: description.into(),
        input_schema: input_schema.into(),
        output_schema: None,
        annotations: None,
        meta: None,
    }
}

fn text_block(text: impl Into<String>) -> ContentBlock {
    ContentBlock::Text(TextContent { text: text.into(), annotations: None })
}

fn completed(content: Vec<ContentBlock>) -> Response {
    Response::Completed(ToolResult { content, structured_content: None, progress: None, meta: None, is_error: None })
}

fn text(text: impl Into<String>) -> Response {
    completed(vec![text_block(text)])
}

fn elicit(message: impl Into<String>, schema: &str) -> Response {
    Response::Elicit(ElicitationRequest {
        title: None,
        message: message.into(),
        schema: schema.into(),
        annotations: None,
        meta: None,
    })
}

fn invalid(message: impl Into<String>) -> ToolError {
    ToolError::InvalidParameters(message.into())
}

/// One answer the client gave to an elicitation (its ElicitResult).
enum Answer {
    Accept(Map<String, Value>),
    Decline,
    Cancel,
}

/// The answers so far, in order, from `_elicitations` (none when absent).
fn answers(arguments: &Map<String, Value>) -> Result<Vec<Answer>, ToolError> {
    let Some(list) = arguments.get("_elicitations") else {
        return Ok(Vec::new());
    };
    let list = list.as_array().ok_or_else(|| invalid("`_elicitations` must be an array"))?;
    list.iter()
        .map(|answer| match answer.get("action").and_then(Value::as_str) {
            // An accept with no content is still an accept; the fields the
            // tool needs are checked where it reads them.
            Some("accept") => {
                Ok(Answer::Accept(answer.get("content").and_then(Value::as_object).cloned().unwrap_or_default()))
            }
            Some("decline") => Ok(Answer::Decline),
            Some("cancel") => Ok(Answer::Cancel),
            _ => Err(invalid(format!("not an elicitation answer: {answer}"))),
        })
        .collect()
}

fn string_field<'a>(object: &'a Map<String, Value>, key: &str) -> Result<&'a str, ToolError> {
    object.get(key).and_then(Value::as_str).ok_or_else(|| invalid(format!("`{key}` must be a string")))
}

fn weather(arguments: &Map<String, Value>) -> Result<Response, ToolError> {
    let city = string_field(arguments, "city")?;
    // Written by hand, not through serde_json, to keep the key order of the
    // output schema (serde_json sorts keys here).
    let structured = format!(r#"{{"city":{},"celsius":21.5}}"#, Value::from(city));
    Ok(Response::Completed(ToolResult {
        content: vec![text_block(structured.clone())],
        structured_content: Some(structured),
        progress: None,
        meta: None,
        is_error: None,
    }))
}

fn link() -> Response {
    Response::Completed(ToolResult {
        content: vec![
            text_block("See the readme."),
            ContentBlock::ResourceLink(ResourceLinkContent {
                uri: README_URI.into(),
                title: Some(README_TITLE.into()),
                description: Some(README_DESCRIPTION.into()),
                mime_type: Some(MARKDOWN.into()),
                annotations: Some(Annotations {
                    audience: Some(vec![Role::User]),
                    priority: Some(0.5),
                    timestamp: None,
                }),
            }),
        ],
        structured_content: None,
        progress: None,
        meta: meta("io.example/trace", r#"{"id":7}"#),
        is_error: None,
    })
}

fn book(arguments: &Map<String, Value>) -> Result<Response, ToolError> {
    let restaurant = string_field(arguments, "restaurant")?;
    match answers(arguments)?.as_slice() {
        [] => Ok(Response::Elicit(ElicitationRequest {
            title: Some("Booking".into()),
            message: "How many people?".into(),
            schema: PEOPLE_SCHEMA.into(),
            annotations: None,
            meta: None,
        })),
        [Answer::Accept(content)] => {
            let people =
                content.get("people").and_then(Value::as_i64).ok_or_else(|| invalid("`people` must be an integer"))?;
            Ok(text(format!("Booked {restaurant} for {people}.")))
        }
        [Answer::Decline] => Ok(text("No booking.")),
        [Answer::Cancel] => Ok(text("Booking cancelled.")),
        more => Err(invalid(format!("`book` asks one question, not {}", more.len()))),
    }
}

fn two_questions(arguments: &Map<String, Value>) -> Result<Response, ToolError> {
    let answers = answers(arguments)?;
    let name = match answers.first() {
        None => return Ok(elicit("What is your name?", NAME_SCHEMA)),
        Some(Answer::Accept(content)) => string_field(content, "name")?,
        Some(Answer::Decline | Answer::Cancel) => return Ok(text("Stopped at question 1.")),
    };
    match &answers[1..] {
        [] => Ok(elicit(format!("Confirm, {name}?"), CONFIRM_SCHEMA)),
        [Answer::Accept(content)] => {
            let confirm = content
                .get("confirm")
                .and_then(Value::as_bool)
                .ok_or_else(|| invalid("`confirm` must be a boolean"))?;
            Ok(text(format!("Hello {name}, confirmed: {confirm}")))
        }
        [Answer::Decline | Answer::Cancel] => Ok(text("Stopped at question 2.")),
        _ => Err(invalid(format!("`two_questions` asks two questions, not {}", answers.len()))),
    }
}

impl Guest for Router {
    fn name() -> String {
        NAME.into()
    }

    fn title() -> Option<String> {
        Some(TITLE.into())
    }

    fn instructions() -> String {
        "Fixtures for the wasix:mcp@25.6.18 contract.".into()
    }

    fn describe_server() -> ServerDescription {
        ServerDescription {
            name: NAME.into(),
            title: Some(TITLE.into()),
            capabilities: ServerCapabilities {
                prompts: Some(PromptsCapability { list_changed: None }),
                resources: Some(ResourcesCapability { subscribe: None, list_changed: None }),
                tools: Some(ToolsCapability { list_changed: None }),
                completions: None,
            },
            // The resources are listed by `list-resources`, not here.
            resources: None,
            resource_metadata: Some(vec![ResourceMetadata {
                authorization_servers: vec![AuthorizationServer {
                    issuer: "https://auth.example.com".into(),
                    token_endpoint: None,
                }],
                resource_indicator: "https://mcp.example.com/mcp".into(),
                default_scopes: vec!["tools.read".into()],
            }]),
            meta: meta("io.example/build", r#""fixture""#),
        }
    }

    fn list_tools() -> Vec<Tool> {
        vec![
            Tool {
                title: Some("Weather report".into()),
                output_schema: Some(WEATHER_OUTPUT.into()),
                annotations: Some(ToolAnnotations {
                    read_only: Some(true),
                    destructive: None,
                    streaming: None,
                    experimental: None,
                }),
                meta: meta("io.example/cost", "1"),
                ..tool("weather", "Today's weather in a city", WEATHER_INPUT)
            },
            Tool { title: Some("A link".into()), ..tool("link", "Links to the readme", EMPTY_OBJECT) },
            tool("book", "Books a table, asking how many people", BOOK_INPUT),
            tool("two_questions", "Asks for a name, then a confirmation", EMPTY_OBJECT),
            tool("nag", "Asks forever (an elicitation loop the host must bound)", EMPTY_OBJECT),
            tool("broken_json", "Returns structured content that is not JSON", EMPTY_OBJECT),
            tool("fail", "Fails", EMPTY_OBJECT),
        ]
    }

    fn call_tool(tool_name: String, arguments: Json) -> Result<Response, ToolError> {
        const TOOLS: [&str; 7] = ["weather", "link", "book", "two_questions", "nag", "broken_json", "fail"];
        if !TOOLS.contains(&tool_name.as_str()) {
            return Err(ToolError::NotFound(format!("no tool {tool_name}")));
        }
        let arguments = match serde_json::from_str(&arguments) {
            Ok(Value::Object(arguments)) => arguments,
            _ => return Err(invalid("the arguments must be a JSON object")),
        };
        match tool_name.as_str() {
            "weather" => weather(&arguments),
            "link" => Ok(link()),
            "book" => book(&arguments),
            "two_questions" => two_questions(&arguments),
            // Whatever the answers, it asks again.
            "nag" => Ok(elicit("Again?", AGAIN_SCHEMA)),
            "broken_json" => Ok(Response::Completed(ToolResult {
                content: vec![text_block("{")],
                structured_content: Some("{ not json".into()),
                progress: None,
                meta: None,
                is_error: None,
            })),
            _ => Err(ToolError::ExecutionError("the fixture failed on purpose".into())),
        }
    }

    fn list_resources() -> Vec<McpResource> {
        vec![McpResource {
            uri: README_URI.into(),
            name: "readme".into(),
            title: Some(README_TITLE.into()),
            description: Some(README_DESCRIPTION.into()),
            mime_type: MARKDOWN.into(),
            annotations: None,
        }]
    }

    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
        if uri != README_URI {
            return Err(ResourceError::NotFound(uri));
        }
        Ok(ReadResourceResult {
            contents: vec![ResourceContents::Text(TextResourceContents {
                uri,
                mime_type: Some(MARKDOWN.into()),
                text: "# router-25-6-18\n".into(),
            })],
        })
    }

    fn list_prompts() -> Vec<Prompt> {
        vec![Prompt { name: "hello".into(), description: Some("Says hello".into()), arguments: None }]
    }

    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
        if prompt_name != "hello" {
            return Err(PromptError::NotFound(prompt_name));
        }
        Ok(GetPromptResult {
            description: Some("Says hello".into()),
            messages: vec![PromptMessage {
                role: PromptMessageRole::User,
                content: PromptMessageContent::Text(TextContent { text: "Say hello.".into(), annotations: None }),
            }],
        })
    }

    fn complete(_request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        Err(CompletionError::NotFound("no completions".into()))
    }
}

export!(Router);
