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

/// `_meta` key prefixes a guest may not use, left out of what it sends with
/// a warning: MCP's own (a server's `serverInfo`, a subscription's id) and
/// mcp-wit's, which only the host writes.
pub const RESERVED_META_PREFIXES: [&str; 2] = ["io.modelcontextprotocol/", META_PREFIX];

/// Whether a guest may not use `key` in a `_meta`.
pub fn is_reserved_meta_key(key: &str) -> bool {
    RESERVED_META_PREFIXES.iter().any(|prefix| key.starts_with(prefix))
}

/// Whether a guest's `_meta` text may hold a reserved key: one of the
/// prefixes, or an escape that could spell one.
fn may_hold_reserved_key(json: &str) -> bool {
    json.contains('\\') || RESERVED_META_PREFIXES.iter().any(|prefix| json.contains(prefix))
}

/// `keys` without the reserved ones; those left out are told of once (how
/// many, and the first), not once each.
fn without_reserved<'k, T>(entries: impl Iterator<Item = (&'k str, T)>) -> impl Iterator<Item = (&'k str, T)> {
    let mut dropped = Dropped::default();
    entries.filter(move |(key, _)| !dropped.drops(key))
}

/// Counts the reserved keys left out of one `_meta`, and warns of them
/// when it ends.
#[derive(Default)]
struct Dropped {
    count: usize,
    first: Option<String>,
}

impl Dropped {
    /// Whether `key` is left out (counted if it is).
    fn drops(&mut self, key: &str) -> bool {
        if !is_reserved_meta_key(key) {
            return false;
        }
        self.count += 1;
        self.first.get_or_insert_with(|| crate::observe::clipped(key, crate::observe::CLIENT_TEXT_BYTES).into_owned());
        true
    }
}

impl Drop for Dropped {
    fn drop(&mut self) {
        if let Some(first) = &self.first {
            tracing::warn!(
                "left out {} `_meta` key(s) of a guest under a prefix reserved to MCP and mcp-wit ({}), the first \
                 {first:?}",
                self.count,
                RESERVED_META_PREFIXES.join(", ")
            );
        }
    }
}

/// Removes the reserved keys from a guest's `_meta` object, with a warning.
pub fn drop_reserved_meta(object: &mut serde_json::Map<String, serde_json::Value>) {
    let mut dropped = Dropped::default();
    object.retain(|key, _| !dropped.drops(key));
}

/// A guest's `_meta` object, as given when it holds no reserved key (read
/// only to be sure when its text may), else read and sent without them.
pub enum GuestMeta<'a> {
    /// As given.
    AsGiven(GuestJson<'a>),
    /// Read, reserved keys dropped.
    Filtered(serde_json::Map<String, serde_json::Value>),
}

impl Serialize for GuestMeta<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            GuestMeta::AsGiven(json) => json.serialize(s),
            GuestMeta::Filtered(object) => object.serialize(s),
        }
    }
}

/// A guest's `_meta` (JSON text) as sent: `None` when it is not a JSON
/// object (with a warning).
pub(crate) fn guest_meta(json: &str) -> Option<GuestMeta<'_>> {
    let given = content::object(json)?;
    if !may_hold_reserved_key(given.get()) {
        return Some(GuestMeta::AsGiven(given));
    }
    let mut object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(given.get()).ok()?;
    drop_reserved_meta(&mut object);
    Some(GuestMeta::Filtered(object))
}

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
        let last = entries
            .iter()
            .enumerate()
            .filter(|(i, entry)| !entries[i + 1..].iter().any(|later| later.key == entry.key))
            .map(|(_, entry)| (entry.key.as_str(), &entry.value));
        for (key, value) in without_reserved(last) {
            map.serialize_entry(key, value)?;
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

    fn link(uri: &str) -> contract::Content {
        contract::Content::ResourceLink(contract::ResourceLink {
            uri: uri.into(),
            name: "r".into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            meta_object: Some(contract::Value {
                json: r#"{"io.modelcontextprotocol/serverInfo":{"name":"forged"},"k":1}"#.into(),
            }),
        })
    }

    fn result_with(content: Vec<contract::Content>, structured: &str, meta: &str) -> contract::CallToolResult {
        contract::CallToolResult {
            content,
            progress: None,
            meta: Some(vec![contract::MetaEntry { key: "dev.mcp-wit/streaming".into(), value: "x".into() }]),
            is_error: None,
            structured_content: Some(contract::Value { json: structured.into() }),
            meta_object: Some(contract::Value { json: meta.into() }),
        }
    }

    /// The review's L5: a guest's `_meta` carried MCP's own keys (a forged
    /// `serverInfo`) and mcp-wit's; they are left out, however spelt.
    #[test]
    fn reserved_meta_keys_of_a_guest_are_left_out() {
        use crate::version::ProtocolVersion;
        let meta = r#"{"io.modelcontextprotocol/serverInfo":{"name":"forged"},"\u0069o.modelcontextprotocol\/x":1,"dev.mcp-wit/tool-meta":2,"io.example/kept":3}"#;
        let sent = |result: &contract::CallToolResult| {
            serde_json::to_value(call_tool_result(result, false, ProtocolVersion::V2025_11_25)).unwrap()
        };
        let both = sent(&result_with(vec![link("file:///r.md")], "{}", meta));
        assert_eq!(both["_meta"], serde_json::json!({ "io.example/kept": 3 }), "{both}");
        assert_eq!(both["content"][0]["_meta"], serde_json::json!({ "k": 1 }), "{both}");
        let object_only = sent(&contract::CallToolResult { meta: None, ..result_with(Vec::new(), "{}", meta) });
        assert_eq!(object_only["_meta"], serde_json::json!({ "io.example/kept": 3 }), "{object_only}");
        let entries_only = sent(&contract::CallToolResult { meta_object: None, ..result_with(Vec::new(), "{}", "{}") });
        assert_eq!(entries_only["_meta"], serde_json::json!({}), "{entries_only}");

        let given = contract::Tool {
            name: "t".into(),
            description: String::new(),
            input_schema: contract::Value { json: r#"{"type":"object"}"#.into() },
            output_schema: None,
            annotations: None,
            meta: None,
            title: None,
            meta_object: Some(contract::Value { json: meta.into() }),
        };
        let listed = serde_json::to_value(tool(&given, ProtocolVersion::V2025_11_25).unwrap()).unwrap();
        assert_eq!(listed["_meta"], serde_json::json!({ "io.example/kept": 3 }), "{listed}");

        let params = crate::contract_25_6_18::elicitation_params(
            "?",
            r#"{"type":"object"}"#,
            Some([("io.modelcontextprotocol/related".to_string(), "1".to_string())]),
        )
        .unwrap();
        assert!(!params.contains("io.modelcontextprotocol"), "{params}");
    }

    /// The review's L5: duplicate keys in a guest's `structuredContent` went
    /// out raw (a client may read the first; the check read the last).
    #[test]
    fn structured_content_goes_out_as_read() {
        use crate::version::ProtocolVersion;
        let result = result_with(Vec::new(), r#"{"n":"first","n":2}"#, "{}");
        let text = serde_json::to_string(&call_tool_result(&result, true, ProtocolVersion::V2025_11_25)).unwrap();
        assert!(text.contains(r#""structuredContent":{"n":2}"#), "{text}");
        let checked = serde_json::json!({ "n": 3 });
        let text = serde_json::to_string(&checked_call_tool_result(
            &result,
            true,
            Some(checked),
            ProtocolVersion::V2025_11_25,
        ))
        .unwrap();
        assert!(text.contains(r#""structuredContent":{"n":3}"#), "{text}");
    }

    /// The review's L5: links to `javascript:` URIs, URIs with line breaks
    /// and 4 MiB URIs went out as given.
    #[test]
    fn resource_links_out_only_with_uris_a_client_can_take() {
        use crate::version::ProtocolVersion;
        let long = format!("https://example.com/{}", "a".repeat(MAX_LINK_URI_BYTES));
        let given = ["javascript:alert(1)", "DATA:text/html,x", "file:///a\r\nb", "no scheme", &long, "file:///r.md"];
        let result = result_with(given.iter().map(|uri| link(uri)).collect(), "{}", "{}");
        let sent = serde_json::to_value(call_tool_result(&result, false, ProtocolVersion::V2025_11_25)).unwrap();
        let uris: Vec<&str> = sent["content"].as_array().unwrap().iter().filter_map(|c| c["uri"].as_str()).collect();
        assert_eq!(uris, ["file:///r.md"], "{sent}");
        assert!(refused_link_uri("fixture://readme").is_none());
        assert!(refused_link_uri("https://example.com/a?b=c#d").is_none());
        assert!(refused_link_uri(&long).is_some_and(|why| why.contains("bytes long")));
        assert!(refused_link_uri("javascript:x").is_some_and(|why| why.contains("`javascript:`")));
    }

    /// The review's L5: tool names with line breaks were listed as given.
    #[test]
    fn only_valid_mcp_tool_names_are_listed() {
        for name in ["a", "get_weather", "v1.2-beta", &"x".repeat(MAX_TOOL_NAME_CHARS)] {
            assert!(is_valid_tool_name(name), "{name}");
        }
        for name in ["", "a b", "forged\nname", "a/b", "é", &"x".repeat(MAX_TOOL_NAME_CHARS + 1)] {
            assert!(!is_valid_tool_name(name), "{name:?}");
        }
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
