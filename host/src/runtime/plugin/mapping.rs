//! What an Extism plugin's exports take: a servlet's `call` input
//! (`xtp-plugin-schema-v0.yaml`), a v1-draft plugin's requests and their
//! `context`. What they answer is MCP's JSON, read by `runtime::mcp_json`.

use serde_json::value::RawValue;

/// `call`'s input: a `CallToolRequest` naming the tool, with its
/// arguments (JSON text; empty is none).
pub(crate) fn call_input(name: &str, arguments: &str) -> Vec<u8> {
    let arguments = if arguments.trim().is_empty() { "null" } else { arguments };
    let name = serde_json::to_string(name).expect("a string serialises");
    format!(r#"{{"params":{{"name":{name},"arguments":{arguments}}}}}"#).into_bytes()
}

/// A v1-draft list export's input: the request's `context`.
pub(crate) fn list_input(context: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({ "context": context })).expect("JSON serialises")
}

/// A v1-draft `call_tool`'s input: the request and its `context`.
pub(crate) fn call_tool_input(name: &str, arguments: &str, context: &serde_json::Value) -> Vec<u8> {
    let arguments = if arguments.trim().is_empty() { "{}" } else { arguments };
    let request = format!(
        r#"{{"request":{{"name":{},"arguments":{arguments}}},"context":{}}}"#,
        serde_json::to_string(name).expect("a string serialises"),
        context
    );
    request.into_bytes()
}

/// `PluginRequestContext`: an id unique per request, and `_meta`.
pub(crate) fn context(id: &str, progress_token: Option<&RawValue>) -> serde_json::Value {
    let mut meta = serde_json::Map::new();
    if let Some(token) = progress_token {
        let token = serde_json::from_str(token.get()).expect("a progress token is JSON");
        meta.insert("progressToken".into(), token);
    }
    serde_json::json!({ "id": id, "_meta": meta })
}

/// A v1-draft request export's input: `{"request": …, "context": …}`.
pub(crate) fn request_input(request: &serde_json::Value, context: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({ "request": request, "context": context })).expect("JSON serialises")
}

/// A v1-draft `complete`'s request, from the contract's completion input
/// (MCP's params): the reference's type without its `ref/` prefix, as
/// v1-draft plugins take it.
pub(crate) fn complete_request(input: &str) -> Result<serde_json::Value, String> {
    let mut request: serde_json::Value =
        serde_json::from_str(input).map_err(|e| format!("the completion request is not JSON: {e}"))?;
    if let Some(kind) = request["ref"]["type"].as_str().and_then(|t| t.strip_prefix("ref/")).map(str::to_owned) {
        request["ref"]["type"] = serde_json::Value::String(kind);
    }
    Ok(request)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_servlets_call_input_names_the_tool_and_its_arguments() {
        let input = call_input("say \"hi\"", r#"{"a":1}"#);
        let parsed: serde_json::Value = serde_json::from_slice(&input).unwrap();
        assert_eq!(parsed, serde_json::json!({ "params": { "name": "say \"hi\"", "arguments": { "a": 1 } } }));
        let empty: serde_json::Value = serde_json::from_slice(&call_input("x", "")).unwrap();
        assert_eq!(empty["params"]["arguments"], serde_json::Value::Null);
    }
}
