//! `namespace`: a middleware that puts the wrapped router's tools, prompts
//! and resources under a prefix, so several routers can share one client
//! without their names clashing.
//!
//! Settings (WASI environment, read once per instance):
//!
//! - `NAMESPACE_PREFIX`: put before every tool and prompt name (`gh_` turns
//!   `search` into `gh_search`), and before every resource URI unless
//!   `NAMESPACE_URI_PREFIX` is set.
//! - `NAMESPACE_URI_PREFIX`: put before every resource URI instead
//!   (`gh+` turns `repo://x` into `gh+repo://x`).
//!
//! On the way in the prefix is stripped again; a name or URI without it is
//! answered with `not-found` without asking the wrapped router. See
//! `README.md` for the exact rules.
//!
//! Built with the `contract-25-6-18` feature it wraps a
//! `wasix:mcp/router@25.6.18` router instead, by the same rules; only the
//! functions whose signatures differ between the contracts are written
//! twice, and the extension's are 25.3.26's alone.

use std::sync::OnceLock;

#[cfg(not(feature = "contract-25-6-18"))]
use mcp_middleware::{CallToolResult, ExtensionGuest, ResourceTemplate, ServerCapabilities, Value};
use mcp_middleware::{
    CompletionError, CompletionRequest, CompletionResponse, GetPromptResult, Guest, McpResource, Prompt, PromptError,
    ReadResourceResult, ResourceContents, ResourceError, Tool, ToolError, next,
};
#[cfg(feature = "contract-25-6-18")]
use mcp_middleware::{Json, Response, ServerDescription};

struct Namespace;

mcp_middleware::export!(Namespace);

/// The prefixes in force for this instance.
struct Prefixes {
    /// For tool and prompt names.
    name: String,
    /// For resource URIs.
    uri: String,
}

fn prefixes() -> &'static Prefixes {
    static PREFIXES: OnceLock<Prefixes> = OnceLock::new();
    PREFIXES.get_or_init(|| {
        let name = std::env::var("NAMESPACE_PREFIX").unwrap_or_default();
        let uri = std::env::var("NAMESPACE_URI_PREFIX").unwrap_or_else(|_| name.clone());
        if name.is_empty() && uri.is_empty() {
            eprintln!("namespace: NAMESPACE_PREFIX is not set; names and URIs pass through unchanged");
        }
        Prefixes { name, uri }
    })
}

/// `prefix` + `s`.
fn add(prefix: &str, s: &str) -> String {
    format!("{prefix}{s}")
}

impl Guest for Namespace {
    fn name() -> String {
        next::name()
    }

    // The title is for people, who tell routers apart by it already: only
    // names and URIs need the prefix.
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

    /// The router's description, with the resources it lists there under
    /// the URI prefix, as `list-resources` gives them.
    #[cfg(feature = "contract-25-6-18")]
    fn describe_server() -> ServerDescription {
        let mut description = next::describe_server();
        if let Some(resources) = &mut description.resources {
            add_to_uris(resources);
        }
        description
    }

    fn list_tools() -> Vec<Tool> {
        let prefix = &prefixes().name;
        let mut tools = next::list_tools();
        for tool in &mut tools {
            tool.name = add(prefix, &tool.name);
        }
        tools
    }

    #[cfg(not(feature = "contract-25-6-18"))]
    fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        tool(tool_name, |inner| next::call_tool(inner, arguments))
    }

    // An `elicit` passes as it came, and so do the answers the host puts in
    // `arguments` when it calls again.
    #[cfg(feature = "contract-25-6-18")]
    fn call_tool(tool_name: String, arguments: Json) -> Result<Response, ToolError> {
        tool(tool_name, |inner| next::call_tool(inner, arguments))
    }

    fn list_resources() -> Vec<McpResource> {
        let mut resources = next::list_resources();
        add_to_uris(&mut resources);
        resources
    }

    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
        let prefix = &prefixes().uri;
        let Some(inner) = uri.strip_prefix(prefix.as_str()) else {
            return Err(ResourceError::NotFound(uri));
        };
        match next::read_resource(inner) {
            Ok(mut result) => {
                for contents in &mut result.contents {
                    match contents {
                        ResourceContents::Text(c) => c.uri = add(prefix, &c.uri),
                        ResourceContents::Blob(c) => c.uri = add(prefix, &c.uri),
                    }
                }
                Ok(result)
            }
            Err(ResourceError::NotFound(_)) => Err(ResourceError::NotFound(uri)),
            Err(other) => Err(other),
        }
    }

    fn list_prompts() -> Vec<Prompt> {
        let prefix = &prefixes().name;
        let mut prompts = next::list_prompts();
        for prompt in &mut prompts {
            prompt.name = add(prefix, &prompt.name);
        }
        prompts
    }

    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
        prompt(prompt_name, next::get_prompt)
    }

    #[cfg(not(feature = "contract-25-6-18"))]
    fn complete(request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        completion(request, |request| &mut request.input.json)
    }

    #[cfg(feature = "contract-25-6-18")]
    fn complete(request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        completion(request, |request| &mut request.input)
    }
}

/// `resources` under the URI prefix.
fn add_to_uris(resources: &mut [McpResource]) {
    let prefix = &prefixes().uri;
    for resource in resources {
        resource.uri = add(prefix, &resource.uri);
    }
}

/// Calls the tool the client calls `tool_name` with `call`, under the name
/// the wrapped router knows.
fn tool<T>(tool_name: String, call: impl FnOnce(&str) -> Result<T, ToolError>) -> Result<T, ToolError> {
    match tool_name.strip_prefix(prefixes().name.as_str()) {
        Some(inner) => call(inner).map_err(|e| match e {
            // The wrapped router names the tool it knows; the client knows another name.
            ToolError::NotFound(_) => ToolError::NotFound(tool_name),
            other => other,
        }),
        None => Err(ToolError::NotFound(tool_name)),
    }
}

/// Passes `request` to the wrapped router with the prefix stripped from its
/// input (the `completion/complete` params as JSON text, which `input`
/// finds in the request): from `ref.name` (a prompt) or `ref.uri` (a
/// resource).
fn completion(
    mut request: CompletionRequest,
    input: fn(&mut CompletionRequest) -> &mut String,
) -> Result<CompletionResponse, CompletionError> {
    let Ok(mut params) = serde_json::from_str::<serde_json::Value>(input(&mut request)) else {
        return next::complete(request);
    };
    let (field, prefix) = match params["ref"]["type"].as_str() {
        Some("ref/prompt") => ("name", &prefixes().name),
        Some("ref/resource") => ("uri", &prefixes().uri),
        _ => return next::complete(request),
    };
    let Some(outer) = params["ref"][field].as_str().map(str::to_owned) else {
        return next::complete(request);
    };
    let Some(inner) = outer.strip_prefix(prefix.as_str()) else {
        return Err(CompletionError::NotFound(outer));
    };
    params["ref"][field] = inner.into();
    *input(&mut request) = params.to_string();
    next::complete(request).map_err(|e| match e {
        CompletionError::NotFound(_) => CompletionError::NotFound(outer),
        other => other,
    })
}

/// Gets the prompt the client calls `prompt_name` from the wrapped router
/// with `get`, under the name the router knows.
fn prompt(
    prompt_name: String,
    get: impl FnOnce(&str) -> Result<GetPromptResult, PromptError>,
) -> Result<GetPromptResult, PromptError> {
    match prompt_name.strip_prefix(prefixes().name.as_str()) {
        Some(inner) => get(inner).map_err(|e| match e {
            PromptError::NotFound(_) => PromptError::NotFound(prompt_name),
            other => other,
        }),
        None => Err(PromptError::NotFound(prompt_name)),
    }
}

/// Passes `uri` to `call` without its prefix; `not-found` under the
/// client's URI otherwise.
#[cfg(not(feature = "contract-25-6-18"))]
fn with_inner_uri(uri: String, call: impl FnOnce(&str) -> Result<(), ResourceError>) -> Result<(), ResourceError> {
    match uri.strip_prefix(prefixes().uri.as_str()) {
        Some(inner) => call(inner).map_err(|e| match e {
            ResourceError::NotFound(_) => ResourceError::NotFound(uri.clone()),
            other => other,
        }),
        None => Err(ResourceError::NotFound(uri)),
    }
}

/// The extension, renamed the same way: template URIs and subscriptions
/// under the URI prefix, prompts with arguments under the name prefix.
#[cfg(not(feature = "contract-25-6-18"))]
impl ExtensionGuest for Namespace {
    fn list_resource_templates() -> Vec<ResourceTemplate> {
        let prefix = &prefixes().uri;
        let mut templates = next::list_resource_templates();
        for template in &mut templates {
            template.uri_template = add(prefix, &template.uri_template);
        }
        templates
    }

    fn get_prompt_with_arguments(
        prompt_name: String,
        arguments: Vec<(String, String)>,
    ) -> Result<GetPromptResult, PromptError> {
        prompt(prompt_name, |inner| next::get_prompt_with_arguments(inner, &arguments))
    }

    fn subscribe(uri: String) -> Result<(), ResourceError> {
        with_inner_uri(uri, next::subscribe)
    }

    fn unsubscribe(uri: String) -> Result<(), ResourceError> {
        with_inner_uri(uri, next::unsubscribe)
    }

    fn on_roots_list_changed() {
        next::on_roots_list_changed()
    }
}
