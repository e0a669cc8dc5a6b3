//! initialize: the version negotiated, the capabilities mapped, and with
//! `hello` only what the guest has.

use mcp_wit_tests::support;
use rmcp::model::ProtocolVersion;
use serde_json::json;
use support::{RawServer, Served, initialize_params};

use super::everything::{INSTRUCTIONS, last_result, raw_result, serve_everything, serve_everything_at};

#[tokio::test]
async fn initialize_negotiates_the_version_and_maps_capabilities() {
    let expected_capabilities = json!({
        "logging": {},
        "completions": {},
        "prompts": { "listChanged": false },
        "resources": { "subscribe": false, "listChanged": true },
        "tools": { "listChanged": true },
        // The host serves MCP Apps' views for every guest (docs/users/apps.md).
        "extensions": { "io.modelcontextprotocol/ui": { "mimeTypes": ["text/html;profile=mcp-app"] } },
    });
    for (asked, answered) in [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2099-01-01", "2025-11-25"),
    ] {
        let mut server = RawServer::in_process("everything");
        let answer = server.request(0, "initialize", initialize_params(asked)).await;
        let result = raw_result(&answer);
        assert_eq!(result["protocolVersion"], answered, "asked for {asked}: {answer}");
        assert_eq!(result["serverInfo"]["name"], "everything", "{answer}");
        assert!(result["serverInfo"]["version"].is_string(), "{answer}");
        assert_eq!(result["instructions"], INSTRUCTIONS, "{answer}");
        let mut expected = expected_capabilities.clone();
        if answered == "2024-11-05" {
            // The completions capability arrived in 2025-03-26.
            expected.as_object_mut().unwrap().remove("completions");
        }
        assert_eq!(result["capabilities"], expected, "asked for {asked}");
        server.finish().await;
    }

    // rmcp's default client asks for a revision newer than the host knows.
    let served = serve_everything().await;
    let info = served.client.peer_info().expect("initialized");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
    assert_eq!(info.server_info.as_ref().map(|s| s.name.as_str()), Some("everything"));
    assert_eq!(info.instructions.as_deref(), Some(INSTRUCTIONS));
    let caps = &info.capabilities;
    assert!(caps.logging.is_some() && caps.completions.is_some(), "{caps:?}");
    assert_eq!(caps.prompts.as_ref().and_then(|p| p.list_changed), Some(false));
    assert_eq!(caps.resources.as_ref().and_then(|r| r.subscribe), Some(false));
    assert_eq!(caps.resources.as_ref().and_then(|r| r.list_changed), Some(true));
    assert_eq!(caps.tools.as_ref().and_then(|t| t.list_changed), Some(true));
    assert_eq!(last_result(&served, "initialize")["capabilities"], expected_capabilities);
    served.finish().await;

    // A known revision asked for through rmcp is answered as is.
    let served = serve_everything_at(ProtocolVersion::V_2025_06_18).await;
    assert_eq!(served.client.peer_info().unwrap().protocol_version, ProtocolVersion::V_2025_06_18);
    served.finish().await;
}

#[tokio::test]
async fn initialize_with_hello_offers_only_what_the_guest_has() {
    let served = Served::in_process("hello", ()).await;
    let result = last_result(&served, "initialize");
    assert_eq!(result["serverInfo"]["name"], "hello", "{result}");
    assert!(result["instructions"].as_str().is_some_and(|s| !s.is_empty()), "instructions missing: {result}");
    let caps = result["capabilities"].as_object().expect("capabilities object");
    assert!(!caps.contains_key("completions"), "hello has no completions: {result}");
    assert!(!caps.contains_key("prompts"), "hello has no prompts: {result}");
    assert!(!caps.contains_key("resources"), "hello has no resources: {result}");
    assert_eq!(caps.get("logging"), Some(&json!({})));
    assert!(caps.contains_key("tools"), "{result}");

    let info = served.client.peer_info().unwrap();
    assert!(info.capabilities.completions.is_none() && info.capabilities.prompts.is_none());
    assert!(info.capabilities.resources.is_none());
    assert!(info.instructions.is_some());
    served.finish().await;
}
