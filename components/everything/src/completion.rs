//! Completion: argument values for the `greeting` prompt's `who` argument.
//!
//! `request.input.json` holds the MCP `completion/complete` params:
//! `{"ref": {...}, "argument": {"name", "value"}, "context": {"arguments": {...}}}`.

use serde_json::Value as Json;

use mcp_wit_sdk::CompletionError;
use mcp_wit_sdk::types::{CompletionRequest, CompletionResponse, Content};

use crate::content::{PNG, image};

/// Number of `lang-NNN` candidates; more than a client is shown at once.
const CANDIDATES: usize = 150;

pub fn complete(request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
    let params: Json =
        serde_json::from_str(&request.input.json).map_err(|e| CompletionError::InvalidParameters(e.to_string()))?;

    // Missing fields read as empty, so they simply fail to match below.
    let reference = &params["ref"];
    let is_prompt = reference["type"] == "ref/prompt";
    let ref_name = reference["name"].as_str().or_else(|| reference["uri"].as_str()).unwrap_or_default();
    let argument = &params["argument"];
    let argument_name = argument["name"].as_str().unwrap_or_default();
    let argument_value = argument["value"].as_str().unwrap_or_default();

    // Error triggers, one per `completion-error` case.
    if ref_name == "missing" {
        return Err(CompletionError::NotFound("missing".into()));
    }
    match argument_name {
        "bad" => return Err(CompletionError::InvalidParameters("bad argument".into())),
        "schema" => return Err(CompletionError::SchemaError("schema mismatch".into())),
        "boom" => {
            return Err(CompletionError::ExecutionError("completion backend down".into()));
        }
        _ => {}
    }
    if !is_prompt || ref_name != "greeting" {
        return Err(CompletionError::NotFound(ref_name.into()));
    }

    // Only `who` has candidates; a `prefix` in the context shows that the
    // host passed the other arguments' values along.
    let prefix = params["context"]["arguments"]["prefix"].as_str().unwrap_or_default();
    let mut content: Vec<_> = (0..CANDIDATES)
        .map(|i| format!("lang-{i:03}"))
        .filter(|candidate| argument_name == "who" && candidate.starts_with(argument_value))
        .map(|candidate| Content::text(format!("{prefix}{candidate}")))
        .collect();

    // One non-text item, which the host must skip when building the values.
    content.insert(content.len().min(1), image(PNG, "image/png", None));

    Ok(CompletionResponse { content, meta: request.meta, is_error: None })
}
