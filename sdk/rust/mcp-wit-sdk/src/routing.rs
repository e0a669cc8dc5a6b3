//! The [`Router`] trait that `#[router]` implements, and the contract's
//! exports written once over it.

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::bindings::exports::wasix::mcp::router as wit;
use crate::error::{CompletionError, PromptError, ResourceError, ToolError};
use crate::types::{
    CallToolResult, CompletionRequest, CompletionResponse, GetPromptResult, McpResource, Prompt, ReadResourceResult,
    ResourceTemplate, ServerCapabilities, Tool,
};

/// An MCP server: what `#[router]` writes from an `impl` block's
/// `#[tool]`, `#[resource]`, `#[resource_template]`, `#[prompt]`,
/// `#[complete]` and `#[roots_changed]` methods.
///
/// Implement it by hand only for what the attributes cannot say; the
/// component's exports call it (see [`export!`](crate::export)).
pub trait Router: Sized + 'static {
    /// Runs `f` with the router's one value, made with `Default` on first
    /// use; it lives as long as the host keeps the component's instance.
    fn with_instance<T>(f: impl FnOnce(&Self) -> T) -> T;

    /// The server's name (`serverInfo.name`).
    fn name() -> String;

    /// Guidance for the client's model.
    fn instructions() -> String {
        String::new()
    }

    /// What the server offers.
    fn capabilities() -> ServerCapabilities;

    /// `tools/list`.
    fn list_tools() -> Vec<Tool> {
        Vec::new()
    }

    /// `tools/call`, with the arguments as JSON text.
    fn call_tool(&self, name: &str, arguments: &str) -> Result<CallToolResult, ToolError> {
        let _ = arguments;
        Err(ToolError::NotFound(name.into()))
    }

    /// `resources/list`.
    fn list_resources() -> Vec<McpResource> {
        Vec::new()
    }

    /// `resources/templates/list`.
    fn list_resource_templates() -> Vec<ResourceTemplate> {
        Vec::new()
    }

    /// `resources/read`.
    fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, ResourceError> {
        Err(ResourceError::NotFound(uri.into()))
    }

    /// `prompts/list`.
    fn list_prompts() -> Vec<Prompt> {
        Vec::new()
    }

    /// `prompts/get`, with the client's arguments (none through the
    /// contract's own `get-prompt`).
    fn get_prompt(&self, name: &str, arguments: Map<String, Value>) -> Result<GetPromptResult, PromptError> {
        let _ = arguments;
        Err(PromptError::NotFound(name.into()))
    }

    /// `completion/complete`.
    fn complete(&self, request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        let _ = request;
        Err(CompletionError::NotFound("no completions".into()))
    }

    /// The client's roots changed (`notifications/roots/list_changed`).
    fn roots_changed(&self) {}

    /// What the server shows beside its lists that the contract has no
    /// field for: `_meta` (an MCP App's `ui` on its tool and view) and
    /// icons, by subject (see [`Decoration`](crate::Decoration)). Needs
    /// the `extension` feature.
    fn decorations() -> Vec<crate::Decoration> {
        Vec::new()
    }
}

/// The component's exports for router `R`; [`export!`](crate::export)
/// names it.
pub struct Component<R>(PhantomData<R>);

impl<R: Router> wit::Guest for Component<R> {
    fn name() -> String {
        R::name()
    }

    fn instructions() -> String {
        R::instructions()
    }

    fn capabilities() -> ServerCapabilities {
        R::capabilities()
    }

    fn list_tools() -> Vec<Tool> {
        R::list_tools()
    }

    fn call_tool(tool_name: String, arguments: wit::Value) -> Result<CallToolResult, wit::ToolError> {
        R::with_instance(|router| router.call_tool(&tool_name, &arguments.json)).map_err(Into::into)
    }

    fn list_resources() -> Vec<McpResource> {
        R::list_resources()
    }

    fn read_resource(uri: String) -> Result<ReadResourceResult, wit::ResourceError> {
        R::with_instance(|router| router.read_resource(&uri)).map_err(Into::into)
    }

    fn list_prompts() -> Vec<Prompt> {
        R::list_prompts()
    }

    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, wit::PromptError> {
        R::with_instance(|router| router.get_prompt(&prompt_name, Map::new())).map_err(Into::into)
    }

    fn complete(request: CompletionRequest) -> Result<CompletionResponse, wit::CompletionError> {
        R::with_instance(|router| router.complete(request)).map_err(Into::into)
    }
}

#[cfg(feature = "extension")]
impl<R: Router> crate::bindings::exports::mcp_wit::extension::extension::Guest for Component<R> {
    fn list_resource_templates() -> Vec<crate::bindings::exports::mcp_wit::extension::extension::ResourceTemplate> {
        R::list_resource_templates()
            .into_iter()
            .map(|t| crate::bindings::exports::mcp_wit::extension::extension::ResourceTemplate {
                uri_template: t.uri_template,
                name: t.name,
                title: t.title,
                description: t.description,
                mime_type: t.mime_type,
                annotations: t.annotations,
            })
            .collect()
    }

    fn get_prompt_with_arguments(
        prompt_name: String,
        arguments: Vec<(String, String)>,
    ) -> Result<GetPromptResult, wit::PromptError> {
        let arguments = arguments.into_iter().map(|(name, value)| (name, Value::String(value))).collect();
        R::with_instance(|router| router.get_prompt(&prompt_name, arguments)).map_err(Into::into)
    }

    // The host keeps track of who listens to what; a router only says what
    // changed (`Context::notify_resource_updated`).
    fn subscribe(_uri: String) -> Result<(), wit::ResourceError> {
        Ok(())
    }

    fn unsubscribe(_uri: String) -> Result<(), wit::ResourceError> {
        Ok(())
    }

    fn on_roots_list_changed() {
        R::with_instance(|router| router.roots_changed());
    }
}

#[cfg(feature = "extension")]
impl<R: Router> crate::bindings::exports::mcp_wit::extension::presentation::Guest for Component<R> {
    fn decorations() -> Vec<crate::bindings::exports::mcp_wit::extension::presentation::Decoration> {
        R::decorations().into_iter().map(Into::into).collect()
    }
}

/// A tool's arguments, decoded from JSON text: a decode error is
/// `invalid-parameters` with serde's message (which names a missing field;
/// a value of the wrong type by its position).
/// Missing arguments read as `{}`.
pub fn decode_arguments<A: DeserializeOwned>(json: &str) -> Result<A, ToolError> {
    let json = json.trim();
    let json = if json.is_empty() || json == "null" { "{}" } else { json };
    serde_json::from_str(json).map_err(|e| ToolError::InvalidParameters(e.to_string()))
}

/// A prompt's arguments (strings by name), decoded into `A`.
pub fn decode_prompt_arguments<A: DeserializeOwned>(arguments: Map<String, Value>) -> Result<A, PromptError> {
    serde_json::from_value(Value::Object(arguments)).map_err(|e| PromptError::InvalidParameters(e.to_string()))
}

/// The variables of `uri` if it matches the URI template: `{name}` matches
/// a non-empty run without `/`, `{+name}` any non-empty run; values are
/// percent-decoded. (RFC 6570's simple and reserved expansions, the ones
/// resource templates use.)
pub fn match_uri_template(template: &str, uri: &str) -> Option<Map<String, Value>> {
    let mut variables = Map::new();
    let mut rest = uri;
    let mut parts = template.split('{');
    let literal = parts.next().unwrap_or_default();
    rest = rest.strip_prefix(literal)?;
    let expressions: Vec<(&str, &str)> = parts.map(|part| part.split_once('}')).collect::<Option<_>>()?;
    for (index, (expression, literal)) in expressions.iter().enumerate() {
        let (reserved, name) = match expression.strip_prefix('+') {
            Some(name) => (true, name),
            None => (false, *expression),
        };
        let last = index + 1 == expressions.len();
        // The value runs to the next literal (the last one: to its end).
        let end = if literal.is_empty() {
            if last { rest.len() } else { return None }
        } else if last {
            rest.len().checked_sub(literal.len()).filter(|&end| rest[end..] == **literal)?
        } else {
            rest.find(literal)?
        };
        let value = &rest[..end];
        if value.is_empty() || (!reserved && value.contains('/')) {
            return None;
        }
        variables.insert(name.to_owned(), Value::String(percent_decode(value)?));
        rest = &rest[end + literal.len()..];
    }
    rest.is_empty().then_some(variables)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Deserialize, Debug)]
    #[allow(dead_code, reason = "only decoding is checked")]
    struct Args {
        city: String,
        days: Option<u8>,
    }

    #[test]
    fn bad_arguments_are_invalid_parameters_naming_the_field() {
        let error = decode_arguments::<Args>(r#"{"days":3}"#).unwrap_err();
        assert!(matches!(&error, ToolError::InvalidParameters(m) if m.contains("missing field `city`")), "{error}");
        let error = decode_arguments::<Args>(r#"{"city":"Oslo","days":"x"}"#).unwrap_err();
        assert!(matches!(&error, ToolError::InvalidParameters(m) if m.contains("invalid type")), "{error}");
        let error = decode_arguments::<Args>("{not json").unwrap_err();
        assert!(matches!(error, ToolError::InvalidParameters(_)));
        assert_eq!(decode_arguments::<Args>(r#"{"city":"Oslo"}"#).unwrap().city, "Oslo");
        assert!(decode_arguments::<Map<String, Value>>("").unwrap().is_empty());
    }

    #[test]
    fn uri_templates_match_and_decode() {
        let m = |t, u| match_uri_template(t, u).map(Value::Object);
        assert_eq!(m("weather://city/{name}", "weather://city/Oslo"), Some(json!({ "name": "Oslo" })));
        assert_eq!(m("weather://city/{name}", "weather://city/S%C3%A3o%20Paulo"), Some(json!({ "name": "São Paulo" })));
        assert_eq!(m("weather://city/{name}", "weather://city/a/b"), None);
        assert_eq!(m("weather://city/{name}", "weather://city/"), None);
        assert_eq!(m("files://{+path}", "files://a/b.txt"), Some(json!({ "path": "a/b.txt" })));
        assert_eq!(m("t://{a}/x/{b}.json", "t://1/x/2.json"), Some(json!({ "a": "1", "b": "2" })));
        assert_eq!(m("t://{a}/x/{b}.json", "t://1/x/2.txt"), None);
        assert_eq!(m("t://fixed", "t://fixed"), Some(json!({})));
        assert_eq!(m("t://fixed", "t://fixedx"), None);
        assert_eq!(m("t://{a}{b}", "t://xy"), None, "adjacent variables are ambiguous");
    }
}
