//! `audit`: a middleware that writes one JSON line to stderr for every call
//! that reaches the wrapped router: `call-tool`, `get-prompt`,
//! `read-resource` and `complete`. Lists and server information pass
//! through unlogged.
//!
//! ```json
//! {"call":"call-tool","name":"echo","argument_bytes":14,"outcome":"ok","duration_us":87}
//! ```
//!
//! `outcome` is `ok`, `is-error` (a result that reports a failure) or the
//! error case (`not-found`, `invalid-parameters`, …). `duration_us` is the
//! wrapped router's time, from the monotonic clock. No setting is needed;
//! see `README.md`.
//!
//! Built with the `contract-25-6-18` feature it wraps a
//! `wasix:mcp/router@25.6.18` router instead: the same lines, and a
//! `call-tool` that asks the user is logged with the outcome `elicit`.

use std::io::Write;
use std::time::Instant;

#[cfg(not(feature = "contract-25-6-18"))]
use mcp_middleware::{CallToolResult, ExtensionGuest, ResourceTemplate, ServerCapabilities, Value};
use mcp_middleware::{
    CompletionError, CompletionRequest, CompletionResponse, GetPromptResult, Guest, McpResource, Prompt, PromptError,
    ReadResourceResult, ResourceError, Tool, ToolError, next,
};
#[cfg(feature = "contract-25-6-18")]
use mcp_middleware::{Json, Response, ServerDescription};

struct Audit;

mcp_middleware::export!(Audit);
// Prompts with arguments are audited as `get-prompt` (see below); the rest
// of the extension passes unlogged, like the lists.

/// Runs `call` and writes its audit line.
fn audited<T>(
    kind: &'static str,
    name: &str,
    argument_bytes: usize,
    call: impl FnOnce() -> T,
    outcome: fn(&T) -> &'static str,
) -> T {
    let start = Instant::now();
    let result = call();
    let duration_us = start.elapsed().as_micros() as u64;
    // Fields in a fixed order, for people reading the log; `name` is the
    // only free text and is escaped as a JSON string.
    let mut line = format!(
        r#"{{"call":"{kind}","name":{},"argument_bytes":{argument_bytes},"outcome":"{}","duration_us":{duration_us}}}"#,
        serde_json::Value::from(name),
        outcome(&result),
    );
    line.push('\n');
    // One write per line, so lines from several writers never interleave.
    let _ = std::io::stderr().write_all(line.as_bytes());
    result
}

#[cfg(not(feature = "contract-25-6-18"))]
fn tool_outcome(result: &Result<CallToolResult, ToolError>) -> &'static str {
    match result {
        Ok(r) if r.is_error == Some(true) => "is-error",
        Ok(_) => "ok",
        Err(e) => tool_error_outcome(e),
    }
}

#[cfg(feature = "contract-25-6-18")]
fn tool_outcome(result: &Result<Response, ToolError>) -> &'static str {
    match result {
        Ok(Response::Completed(r)) if r.is_error == Some(true) => "is-error",
        Ok(Response::Completed(_)) => "ok",
        // A question for the user; the host calls again with the answer,
        // which makes a line of its own.
        Ok(Response::Elicit(_)) => "elicit",
        Err(e) => tool_error_outcome(e),
    }
}

fn tool_error_outcome(error: &ToolError) -> &'static str {
    match error {
        ToolError::InvalidParameters(_) => "invalid-parameters",
        ToolError::ExecutionError(_) => "execution-error",
        ToolError::SchemaError(_) => "schema-error",
        ToolError::NotFound(_) => "not-found",
    }
}

fn resource_outcome(result: &Result<ReadResourceResult, ResourceError>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(ResourceError::ExecutionError(_)) => "execution-error",
        Err(ResourceError::NotFound(_)) => "not-found",
    }
}

fn prompt_outcome(result: &Result<GetPromptResult, PromptError>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(PromptError::InvalidParameters(_)) => "invalid-parameters",
        Err(PromptError::InternalError(_)) => "internal-error",
        Err(PromptError::NotFound(_)) => "not-found",
    }
}

fn completion_outcome(result: &Result<CompletionResponse, CompletionError>) -> &'static str {
    match result {
        Ok(r) if r.is_error == Some(true) => "is-error",
        Ok(_) => "ok",
        Err(CompletionError::InvalidParameters(_)) => "invalid-parameters",
        Err(CompletionError::ExecutionError(_)) => "execution-error",
        Err(CompletionError::SchemaError(_)) => "schema-error",
        Err(CompletionError::NotFound(_)) => "not-found",
    }
}

/// What a completion is for: the prompt name or resource URI of its `ref`.
fn completion_target(input: &str) -> String {
    let input: serde_json::Value = serde_json::from_str(input).unwrap_or_default();
    let reference = &input["ref"];
    reference["name"].as_str().or_else(|| reference["uri"].as_str()).unwrap_or_default().to_owned()
}

/// Runs `request` and writes its audit line; `input` finds the request's
/// input JSON text.
fn completion(
    request: CompletionRequest,
    input: fn(&CompletionRequest) -> &str,
) -> Result<CompletionResponse, CompletionError> {
    let target = completion_target(input(&request));
    let bytes = input(&request).len();
    audited("complete", &target, bytes, || next::complete(request), completion_outcome)
}

impl Guest for Audit {
    fn name() -> String {
        next::name()
    }

    #[cfg(feature = "contract-25-6-18")]
    fn title() -> Option<String> {
        next::title()
    }

    fn instructions() -> String {
        next::instructions()
    }

    #[cfg(not(feature = "contract-25-6-18"))]
    fn capabilities() -> ServerCapabilities {
        next::capabilities()
    }

    #[cfg(feature = "contract-25-6-18")]
    fn describe_server() -> ServerDescription {
        next::describe_server()
    }

    fn list_tools() -> Vec<Tool> {
        next::list_tools()
    }

    #[cfg(not(feature = "contract-25-6-18"))]
    fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        let bytes = arguments.json.len();
        audited("call-tool", &tool_name, bytes, || next::call_tool(&tool_name, arguments), tool_outcome)
    }

    #[cfg(feature = "contract-25-6-18")]
    fn call_tool(tool_name: String, arguments: Json) -> Result<Response, ToolError> {
        let bytes = arguments.len();
        audited("call-tool", &tool_name, bytes, || next::call_tool(&tool_name, arguments), tool_outcome)
    }

    fn list_resources() -> Vec<McpResource> {
        next::list_resources()
    }

    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
        audited("read-resource", &uri, 0, || next::read_resource(&uri), resource_outcome)
    }

    fn list_prompts() -> Vec<Prompt> {
        next::list_prompts()
    }

    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
        audited("get-prompt", &prompt_name, 0, || next::get_prompt(&prompt_name), prompt_outcome)
    }

    #[cfg(not(feature = "contract-25-6-18"))]
    fn complete(request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        completion(request, |request| &request.input.json)
    }

    #[cfg(feature = "contract-25-6-18")]
    fn complete(request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        completion(request, |request| &request.input)
    }
}

#[cfg(not(feature = "contract-25-6-18"))]
impl ExtensionGuest for Audit {
    fn list_resource_templates() -> Vec<ResourceTemplate> {
        next::list_resource_templates()
    }

    fn get_prompt_with_arguments(
        prompt_name: String,
        arguments: Vec<(String, String)>,
    ) -> Result<GetPromptResult, PromptError> {
        let bytes = arguments.iter().map(|(name, value)| name.len() + value.len()).sum();
        let call = || next::get_prompt_with_arguments(&prompt_name, &arguments);
        audited("get-prompt", &prompt_name, bytes, call, prompt_outcome)
    }

    fn subscribe(uri: String) -> Result<(), ResourceError> {
        next::subscribe(&uri)
    }

    fn unsubscribe(uri: String) -> Result<(), ResourceError> {
        next::unsubscribe(&uri)
    }

    fn on_roots_list_changed() {
        next::on_roots_list_changed()
    }
}
