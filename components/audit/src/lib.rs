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

use std::io::Write;
use std::time::Instant;

use mcp_middleware::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, ExtensionGuest, GetPromptResult, Guest,
    McpResource, Prompt, PromptError, ReadResourceResult, ResourceError, ResourceTemplate, ServerCapabilities, Tool,
    ToolError, Value, next,
};

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

fn tool_outcome(result: &Result<CallToolResult, ToolError>) -> &'static str {
    match result {
        Ok(r) if r.is_error == Some(true) => "is-error",
        Ok(_) => "ok",
        Err(ToolError::InvalidParameters(_)) => "invalid-parameters",
        Err(ToolError::ExecutionError(_)) => "execution-error",
        Err(ToolError::SchemaError(_)) => "schema-error",
        Err(ToolError::NotFound(_)) => "not-found",
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

impl Guest for Audit {
    fn name() -> String {
        next::name()
    }

    fn instructions() -> String {
        next::instructions()
    }

    fn capabilities() -> ServerCapabilities {
        next::capabilities()
    }

    fn list_tools() -> Vec<Tool> {
        next::list_tools()
    }

    fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        let bytes = arguments.json.len();
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

    fn complete(request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        let target = completion_target(&request.input.json);
        let bytes = request.input.json.len();
        audited("complete", &target, bytes, || next::complete(request), completion_outcome)
    }
}

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
