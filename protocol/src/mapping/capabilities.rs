//! MCP `ServerCapabilities`, as each era's client is told of them.

use serde::Serialize;

use crate::contract;
use crate::version::ProtocolVersion;

/// MCP `ServerCapabilities`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Capabilities {
    #[serde(skip_serializing_if = "Option::is_none")]
    logging: Option<Empty>,
    #[serde(skip_serializing_if = "Option::is_none")]
    completions: Option<Empty>,
    #[serde(skip_serializing_if = "Option::is_none")]
    prompts: Option<ListChanged>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resources: Option<ResourcesCapability>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tools: Option<ListChanged>,
    /// The extensions the host serves: MCP Apps, whose `_meta.ui` and
    /// `ui://` views it carries and checks for every guest; tasks, where the
    /// transport serves them.
    extensions: Extensions,
}

/// The `extensions` object: identifiers and their settings.
struct Extensions {
    tasks: bool,
}

impl Serialize for Extensions {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(1 + usize::from(self.tasks)))?;
        map.serialize_entry(super::apps::UI_EXTENSION, &super::apps::ui_settings())?;
        if self.tasks {
            map.serialize_entry(crate::tasks::TASKS_EXTENSION, &Empty {})?;
        }
        map.end()
    }
}

/// `{}`.
#[derive(Serialize)]
pub struct Empty {}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListChanged {
    #[serde(skip_serializing_if = "Option::is_none")]
    list_changed: Option<bool>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResourcesCapability {
    #[serde(skip_serializing_if = "Option::is_none")]
    subscribe: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    list_changed: Option<bool>,
}

/// Maps the guest's capabilities for a 2025 client and adds the host's own
/// (`logging`). `completions` exists from 2025-03-26 (older clients
/// complete without it).
pub fn capabilities(c: &contract::ServerCapabilities, v: ProtocolVersion) -> Capabilities {
    Capabilities {
        logging: Some(Empty {}),
        completions: c.completions.as_ref().filter(|c| c.enabled && v.has_completions_capability()).map(|_| Empty {}),
        prompts: c.prompts.as_ref().map(|p| ListChanged { list_changed: p.list_changed }),
        resources: c
            .resources
            .as_ref()
            .map(|r| ResourcesCapability { subscribe: r.subscribe, list_changed: r.list_changed }),
        tools: c.tools.as_ref().map(|t| ListChanged { list_changed: t.list_changed }),
        // Tasks are a 2026-07-28 extension.
        extensions: Extensions { tasks: false },
    }
}

/// The capabilities a 2026-07-28 client is told of: exactly what the server
/// handles. No `logging` (`logging/setLevel` is gone: a request names its
/// level). `listChanged` and `subscribe` only where a router can signal
/// (`talks_back`): `subscriptions/listen` delivers nothing else. The tasks
/// extension when the transport serves `tasks/*` and there are tools.
pub fn modern_capabilities(c: &contract::ServerCapabilities, talks_back: bool, tasks: bool) -> Capabilities {
    let signals = |flag: Option<bool>| flag.filter(|&on| on && talks_back);
    Capabilities {
        logging: None,
        completions: c.completions.as_ref().filter(|c| c.enabled).map(|_| Empty {}),
        prompts: c.prompts.as_ref().map(|p| ListChanged { list_changed: signals(p.list_changed) }),
        resources: c
            .resources
            .as_ref()
            .map(|r| ResourcesCapability { subscribe: signals(r.subscribe), list_changed: signals(r.list_changed) }),
        tools: c.tools.as_ref().map(|t| ListChanged { list_changed: signals(t.list_changed) }),
        extensions: Extensions { tasks: tasks && c.tools.is_some() },
    }
}
