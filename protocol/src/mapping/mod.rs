//! WIT values → MCP JSON, for one negotiated protocol revision.
//!
//! Every shape here borrows from the guest's returned value, so serialising a
//! result copies each string once, into the output buffer. The book's
//! mapping table (docs/users/protocol.md) documents each rule.

mod content;
mod json;
mod prompts;
mod resources;
mod tools;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::contract;
use crate::version::ProtocolVersion;

pub use content::*;
pub use json::*;
pub use prompts::*;
pub use resources::*;
pub use tools::*;

/// The `_meta` key prefix for contract fields MCP has no place for.
pub const META_PREFIX: &str = "dev.mcp-wit/";

/// A WIT `f32` as the shortest decimal that reads back as the same `f32`
/// (0.1f32 is sent as 0.1, not 0.10000000149011612); `None` if not finite.
pub fn widen(x: f32) -> Option<f64> {
    x.is_finite().then(|| x.to_string().parse().unwrap_or(f64::from(x)))
}

/// `list<meta-entry>` → a JSON object; a repeated key keeps its last value.
pub struct MetaMap<'a>(pub &'a [contract::MetaEntry]);

impl Serialize for MetaMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let entries = self.0;
        let mut map = s.serialize_map(None)?;
        for (i, entry) in entries.iter().enumerate() {
            if !entries[i + 1..].iter().any(|later| later.key == entry.key) {
                map.serialize_entry(&entry.key, &entry.value)?;
            }
        }
        map.end()
    }
}

fn meta_map(entries: &Option<Vec<contract::MetaEntry>>) -> Option<MetaMap<'_>> {
    entries.as_deref().filter(|e| !e.is_empty()).map(MetaMap)
}

/// MCP `Annotations`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    audience: Option<Vec<&'static str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    priority: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_modified: Option<&'a str>,
}

fn role(role: contract::Role) -> &'static str {
    match role {
        contract::Role::User => "user",
        contract::Role::Assistant => "assistant",
    }
}

/// Maps annotations; `None` when nothing is left to say.
pub fn annotations(a: &Option<contract::Annotations>, v: ProtocolVersion) -> Option<Annotations<'_>> {
    let a = a.as_ref()?;
    let out = Annotations {
        audience: a.audience.as_ref().map(|roles| roles.iter().map(|r| role(*r)).collect()),
        // MCP bounds priority to [0, 1].
        priority: a.priority.and_then(widen).map(|p| p.clamp(0.0, 1.0)),
        last_modified: a.timestamp.as_deref().filter(|_| v.has_last_modified()),
    };
    (out.audience.is_some() || out.priority.is_some() || out.last_modified.is_some()).then_some(out)
}

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
    }
}

/// The capabilities a 2026-07-28 client is told of: exactly what the server
/// handles. No `logging` (`logging/setLevel` is gone: a request names its
/// level). `listChanged` and `subscribe` only where a router can signal
/// (`talks_back`): `subscriptions/listen` delivers nothing else.
pub fn modern_capabilities(c: &contract::ServerCapabilities, talks_back: bool) -> Capabilities {
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What 25.3.26 cannot say reaches the client from guests that say it,
    /// where the revision has it.
    #[test]
    fn fields_beyond_the_contract_reach_the_client_where_the_revision_has_them() {
        use crate::version::ProtocolVersion;
        let link = contract::ResourceLink {
            uri: "file:///r.md".into(),
            name: "r.md".into(),
            title: Some("Report".into()),
            description: None,
            mime_type: Some("text/markdown".into()),
            size: Some(3),
            annotations: None,
            meta_object: Some(contract::Value { json: r#"{"k":1}"#.into() }),
        };
        let result = contract::CallToolResult {
            content: vec![contract::Content::ResourceLink(link)],
            progress: None,
            meta: Some(vec![contract::MetaEntry { key: "entry".into(), value: "text".into() }]),
            is_error: None,
            structured_content: Some(contract::Value { json: r#"{"n":2}"#.into() }),
            meta_object: Some(contract::Value { json: r#"{"trace":{"id":7}}"#.into() }),
        };
        let json = |v| serde_json::to_value(call_tool_result(&result, false, v)).unwrap();
        let now = json(ProtocolVersion::V2025_06_18);
        assert_eq!(now["content"][0]["type"], "resource_link", "{now}");
        assert_eq!(now["content"][0]["_meta"]["k"], 1, "{now}");
        assert_eq!(now["structuredContent"]["n"], 2, "{now}");
        assert_eq!((&now["_meta"]["trace"]["id"], &now["_meta"]["entry"]), (&7.into(), &"text".into()), "{now}");
        let before = json(ProtocolVersion::V2025_03_26);
        assert_eq!(before["content"][0], serde_json::json!({"type": "text", "text": "Report: file:///r.md"}));
        assert!(before.get("structuredContent").is_none(), "{before}");
        let not_an_object = contract::CallToolResult {
            structured_content: Some(contract::Value { json: "[1]".into() }),
            ..result.clone()
        };
        let sent = serde_json::to_value(call_tool_result(&not_an_object, false, ProtocolVersion::V2025_06_18)).unwrap();
        assert!(sent.get("structuredContent").is_none(), "{sent}");
    }

    #[test]
    fn minify_keeps_strings_and_drops_layout() {
        assert_eq!(minify("{\n  \"a b\": \"x\\\" \\n y\",\n  \"c\": [1, 2]\n}"), r#"{"a b":"x\" \n y","c":[1,2]}"#);
    }

    #[test]
    fn widen_prints_short_decimals() {
        assert_eq!(serde_json::to_string(&widen(0.1)).unwrap(), "0.1");
        assert_eq!(widen(f32::NAN), None);
    }

    #[test]
    fn guest_json_rejects_invalid_and_checks_schema_shape() {
        assert!(GuestJson::parse("{not json").is_err());
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(GuestJson::parse(&deep(json::MAX_DEPTH)).is_ok());
        let refused = GuestJson::parse(&deep(100_000)).err().expect("too deep");
        assert!(refused.to_string().contains("nested more than 128 levels"), "{refused}");
        assert!(GuestJson::parse(r#"{"a":"[[[[[[[[[["}"#).is_ok(), "brackets in strings do not nest");
        assert!(GuestJson::parse(r#"{"type":"object"}"#).unwrap().is_object_schema());
        assert!(!GuestJson::parse(r#"{"type":"string"}"#).unwrap().is_object_schema());
        assert!(!GuestJson::parse("[]").unwrap().is_object_schema());
        assert_eq!(GuestJson::parse("{\n\"type\": \"object\"\n}").unwrap().get(), r#"{"type":"object"}"#);
    }
}
