//! The mapping's rules, across the kinds of values it maps.

use super::json::{GuestJson, minify};
use super::*;
use crate::contract;

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
    let not_an_object =
        contract::CallToolResult { structured_content: Some(contract::Value { json: "[1]".into() }), ..result.clone() };
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

    let given = tool_with_meta(meta, None);
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
    let text =
        serde_json::to_string(&checked_call_tool_result(&result, true, Some(checked), ProtocolVersion::V2025_11_25))
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

#[test]
fn a_tool_whose_app_meta_is_malformed_is_refused_naming_what_is_wrong() {
    use crate::version::ProtocolVersion;
    let with_meta = |meta: &str| tool_with_meta(meta, Some(r#"[{"src":"javascript:alert(1)"}]"#));
    let good = with_meta(r#"{"ui":{"resourceUri":"ui://app/view.html"}}"#);
    let listed = serde_json::to_value(tool(&good, ProtocolVersion::V2025_11_25).unwrap()).unwrap();
    assert_eq!(listed["_meta"]["ui"]["resourceUri"], "ui://app/view.html", "{listed}");
    // Icons only decorate: malformed ones are left out, the tool kept.
    assert!(listed.get("icons").is_none(), "{listed}");
    let bad = with_meta(r#"{"ui":{"resourceUri":"https://app/view.html"}}"#);
    let refused = tool(&bad, ProtocolVersion::V2025_11_25).err().expect("refused").to_string();
    assert!(refused.contains("`_meta.ui.resourceUri` must be a `ui://` URI"), "{refused}");
}

/// A tool `t` with `_meta` `meta` and `icons` (JSON texts).
fn tool_with_meta(meta: &str, icons: Option<&str>) -> contract::Tool {
    contract::Tool {
        name: "t".into(),
        description: String::new(),
        input_schema: contract::Value { json: r#"{"type":"object"}"#.into() },
        output_schema: None,
        annotations: None,
        meta: None,
        title: None,
        meta_object: Some(contract::Value { json: meta.into() }),
        icons: icons.map(|json| contract::Value { json: json.into() }),
    }
}
