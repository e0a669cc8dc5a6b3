//! `filter`: a middleware that hides some of the wrapped router's tools,
//! prompts and resources. A hidden item is left out of its list, and a call
//! to it is answered with `not-found` without reaching the wrapped router.
//!
//! Settings (WASI environment, read once per instance), each a
//! comma-separated list of patterns in which `*` matches any run of
//! characters:
//!
//! - `FILTER_ALLOW_TOOLS`, `FILTER_DENY_TOOLS` (tool names)
//! - `FILTER_ALLOW_PROMPTS`, `FILTER_DENY_PROMPTS` (prompt names)
//! - `FILTER_ALLOW_RESOURCES`, `FILTER_DENY_RESOURCES` (resource URIs)
//!
//! An item is visible when its allowlist is unset or one of its patterns
//! matches, and no pattern of its denylist matches. See `README.md`.
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
    ReadResourceResult, ResourceError, Tool, ToolError, next,
};
#[cfg(feature = "contract-25-6-18")]
use mcp_middleware::{Json, Response, ServerDescription};

struct Filter;

mcp_middleware::export!(Filter);

/// The allowlist and denylist of one kind of item.
struct Rule {
    /// `None`: everything not denied is allowed.
    allow: Option<Vec<String>>,
    deny: Vec<String>,
}

impl Rule {
    fn from_env(kind: &str) -> Rule {
        let list = |var: String| std::env::var(var).ok().map(|v| patterns(&v));
        Rule {
            allow: list(format!("FILTER_ALLOW_{kind}")),
            deny: list(format!("FILTER_DENY_{kind}")).unwrap_or_default(),
        }
    }

    /// Whether `name` stays visible.
    fn admits(&self, name: &str) -> bool {
        let allowed = self.allow.as_ref().is_none_or(|allow| allow.iter().any(|p| glob(p, name)));
        allowed && !self.deny.iter().any(|p| glob(p, name))
    }
}

/// The patterns of a comma-separated list; blank entries are dropped.
fn patterns(list: &str) -> Vec<String> {
    list.split(',').map(str::trim).filter(|p| !p.is_empty()).map(str::to_owned).collect()
}

/// Whether `pattern` matches all of `text`; `*` matches any run of characters
/// (also none), every other character only itself.
fn glob(pattern: &str, text: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    let (mut p, mut t) = (0, 0);
    // Where the last `*` was seen, and the text position it was tried at.
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && pattern[p] == '*' {
            star = Some((p, t));
            p += 1;
        } else if p < pattern.len() && pattern[p] == text[t] {
            p += 1;
            t += 1;
        } else if let Some((sp, st)) = star {
            // Let the last `*` swallow one more character and retry.
            p = sp + 1;
            t = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

struct Rules {
    tools: Rule,
    prompts: Rule,
    resources: Rule,
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| Rules {
        tools: Rule::from_env("TOOLS"),
        prompts: Rule::from_env("PROMPTS"),
        resources: Rule::from_env("RESOURCES"),
    })
}

impl Guest for Filter {
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

    /// The router's description, without the hidden resources it lists
    /// there.
    #[cfg(feature = "contract-25-6-18")]
    fn describe_server() -> ServerDescription {
        let mut description = next::describe_server();
        description.resources = description.resources.map(visible_resources);
        description
    }

    fn list_tools() -> Vec<Tool> {
        next::list_tools().into_iter().filter(|t| rules().tools.admits(&t.name)).collect()
    }

    #[cfg(not(feature = "contract-25-6-18"))]
    fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        tool(tool_name, |name| next::call_tool(name, arguments))
    }

    // An `elicit` passes as it came, and so do the answers the host puts in
    // `arguments` when it calls again.
    #[cfg(feature = "contract-25-6-18")]
    fn call_tool(tool_name: String, arguments: Json) -> Result<Response, ToolError> {
        tool(tool_name, |name| next::call_tool(name, arguments))
    }

    fn list_resources() -> Vec<McpResource> {
        visible_resources(next::list_resources())
    }

    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
        if !rules().resources.admits(&uri) {
            return Err(ResourceError::NotFound(uri));
        }
        next::read_resource(&uri)
    }

    fn list_prompts() -> Vec<Prompt> {
        next::list_prompts().into_iter().filter(|p| rules().prompts.admits(&p.name)).collect()
    }

    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
        if !rules().prompts.admits(&prompt_name) {
            return Err(PromptError::NotFound(prompt_name));
        }
        next::get_prompt(&prompt_name)
    }

    #[cfg(not(feature = "contract-25-6-18"))]
    fn complete(request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        refuse_hidden_ref(&request.input.json)?;
        next::complete(request)
    }

    #[cfg(feature = "contract-25-6-18")]
    fn complete(request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        refuse_hidden_ref(&request.input)?;
        next::complete(request)
    }
}

/// The resources of `resources` that stay visible.
fn visible_resources(resources: Vec<McpResource>) -> Vec<McpResource> {
    resources.into_iter().filter(|r| rules().resources.admits(&r.uri)).collect()
}

/// Calls the tool `tool_name` with `call` if it is visible.
fn tool<T>(tool_name: String, call: impl FnOnce(&str) -> Result<T, ToolError>) -> Result<T, ToolError> {
    if !rules().tools.admits(&tool_name) {
        return Err(ToolError::NotFound(tool_name));
    }
    call(&tool_name)
}

/// `not-found` for completing an argument of a hidden prompt or resource;
/// `input` is the `completion/complete` params as JSON text.
fn refuse_hidden_ref(input: &str) -> Result<(), CompletionError> {
    let Ok(input) = serde_json::from_str::<serde_json::Value>(input) else {
        return Ok(());
    };
    let hidden = match input["ref"]["type"].as_str() {
        Some("ref/prompt") => input["ref"]["name"].as_str().filter(|n| !rules().prompts.admits(n)),
        Some("ref/resource") => input["ref"]["uri"].as_str().filter(|u| !rules().resources.admits(u)),
        _ => None,
    };
    match hidden {
        Some(name) => Err(CompletionError::NotFound(name.to_owned())),
        None => Ok(()),
    }
}

/// The extension's calls, hidden the same way: templates by their URI
/// template, prompts by name, subscriptions by URI.
#[cfg(not(feature = "contract-25-6-18"))]
impl ExtensionGuest for Filter {
    fn list_resource_templates() -> Vec<ResourceTemplate> {
        let templates = next::list_resource_templates();
        templates.into_iter().filter(|t| rules().resources.admits(&t.uri_template)).collect()
    }

    fn get_prompt_with_arguments(
        prompt_name: String,
        arguments: Vec<(String, String)>,
    ) -> Result<GetPromptResult, PromptError> {
        if !rules().prompts.admits(&prompt_name) {
            return Err(PromptError::NotFound(prompt_name));
        }
        next::get_prompt_with_arguments(&prompt_name, &arguments)
    }

    fn subscribe(uri: String) -> Result<(), ResourceError> {
        if !rules().resources.admits(&uri) {
            return Err(ResourceError::NotFound(uri));
        }
        next::subscribe(&uri)
    }

    fn unsubscribe(uri: String) -> Result<(), ResourceError> {
        if !rules().resources.admits(&uri) {
            return Err(ResourceError::NotFound(uri));
        }
        next::unsubscribe(&uri)
    }

    fn on_roots_list_changed() {
        next::on_roots_list_changed()
    }
}

#[cfg(test)]
mod tests {
    use super::{Rule, glob, patterns};

    #[test]
    fn globs() {
        assert!(glob("echo", "echo"));
        assert!(!glob("echo", "echoes"));
        assert!(glob("*", ""));
        assert!(glob("e*o", "echo"));
        assert!(glob("*://text", "everything://text"));
        assert!(glob("a*b*c", "aXbYbZc"));
        assert!(!glob("a*b*c", "aXbYbZ"));
        assert!(glob("gh_*", "gh_"));
        assert!(!glob("gh_*", "gl_search"));
    }

    #[test]
    fn rules() {
        let rule = Rule { allow: Some(patterns(" e*, add ,")), deny: patterns("echo") };
        assert!(rule.admits("add") && rule.admits("everything"));
        assert!(!rule.admits("echo") && !rule.admits("fail"));
        assert!(!Rule { allow: Some(patterns("")), deny: vec![] }.admits("add"));
        assert!(Rule { allow: None, deny: vec![] }.admits("add"));
    }
}
