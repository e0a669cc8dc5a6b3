//! tools/call's content: every kind mapped, as each protocol revision has it,
//! and structured content from 2025-06-18.

use mcp_wit_tests::support;
use rmcp::model::{ProtocolVersion, ResourceContents, Role};
use serde_json::{Value, json};
use support::{call, text_of};

use super::everything::{last_result, raw_everything, raw_result, serve_everything, serve_everything_at};

#[tokio::test]
async fn all_content_maps_every_content_kind() {
    let served = serve_everything().await;
    let result = served.client.call_tool(call("all-content", json!({}))).await.expect("tools/call all-content");
    assert_eq!(result.is_error, Some(false));
    assert_eq!(result.content.len(), 5, "{result:?}");

    let text = result.content[0].as_text().expect("text first");
    assert_eq!(text.text, "plain text");
    let annotations = text.annotations.as_ref().expect("text is annotated");
    assert_eq!(annotations.audience, Some(vec![Role::User]));
    assert_eq!(annotations.priority, Some(0.5));
    assert_eq!(annotations.last_modified.as_deref(), Some("2025-01-01T00:00:00Z"));

    let image = result.content[1].as_image().expect("image second");
    assert_eq!((image.data.as_str(), image.mime_type.as_str()), ("iVBORw0KGgo=", "image/png"));
    assert_eq!(image.annotations.as_ref().and_then(|a| a.audience.clone()), Some(vec![Role::Assistant]));

    let audio = result.content[2].as_audio().expect("audio third");
    assert_eq!((audio.data.as_str(), audio.mime_type.as_str()), ("UklGRg==", "audio/wav"));

    let embedded_text = result.content[3].as_resource().expect("embedded text fourth");
    match &embedded_text.resource {
        ResourceContents::TextResourceContents { uri, mime_type, text, .. } => {
            assert_eq!(uri, "everything://text");
            assert_eq!(mime_type.as_deref(), Some("text/plain"));
            assert_eq!(text, "embedded text");
        }
        other => panic!("expected text resource contents, got {other:?}"),
    }
    let annotations = embedded_text.annotations.as_ref().expect("embedded text is annotated");
    assert_eq!(annotations.audience, Some(vec![Role::User, Role::Assistant]));
    assert_eq!(annotations.priority, Some(1.0));

    let embedded_blob = result.content[4].as_resource().expect("embedded blob fifth");
    match &embedded_blob.resource {
        ResourceContents::BlobResourceContents { uri, mime_type, blob, .. } => {
            assert_eq!(uri, "everything://blob");
            assert_eq!(mime_type.as_deref(), Some("application/octet-stream"));
            assert_eq!(blob, "AAEC");
        }
        other => panic!("expected blob resource contents, got {other:?}"),
    }
    assert!(embedded_blob.annotations.is_none());

    // The exact wire shape.
    let raw = last_result(&served, "tools/call");
    assert_eq!(
        raw,
        json!({
            "content": [
                {
                    "type": "text",
                    "text": "plain text",
                    "annotations": { "audience": ["user"], "priority": 0.5, "lastModified": "2025-01-01T00:00:00Z" },
                },
                { "type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png", "annotations": { "audience": ["assistant"] } },
                { "type": "audio", "data": "UklGRg==", "mimeType": "audio/wav" },
                {
                    "type": "resource",
                    "resource": { "uri": "everything://text", "mimeType": "text/plain", "text": "embedded text" },
                    "annotations": { "audience": ["user", "assistant"], "priority": 1.0 },
                },
                {
                    "type": "resource",
                    "resource": { "uri": "everything://blob", "mimeType": "application/octet-stream", "blob": "AAEC" },
                },
            ],
            "isError": false,
            "_meta": { "source": "everything", "kind": "all-content" },
        })
    );
    served.finish().await;
}

#[tokio::test]
async fn all_content_follows_the_protocol_version() {
    // 2024-11-05: audio has no content type and becomes an embedded blob.
    let mut server = raw_everything("2024-11-05").await;
    let answer = server.call(1, "all-content", json!({})).await;
    let content = &raw_result(&answer)["content"];
    assert_eq!(
        content[2],
        json!({ "type": "resource", "resource": { "uri": "mcp-wit:audio/2", "mimeType": "audio/wav", "blob": "UklGRg==" } })
    );
    assert_eq!(content[0]["annotations"], json!({ "audience": ["user"], "priority": 0.5 }), "no lastModified");
    assert_eq!(raw_result(&answer)["_meta"], json!({ "source": "everything", "kind": "all-content" }));
    server.finish().await;

    // 2025-03-26: audio, but still no lastModified.
    let served = serve_everything_at(ProtocolVersion::V_2025_03_26).await;
    let result = served.client.call_tool(call("all-content", json!({}))).await.expect("tools/call all-content");
    let audio = result.content[2].as_audio().expect("audio at 2025-03-26");
    assert_eq!((audio.data.as_str(), audio.mime_type.as_str()), ("UklGRg==", "audio/wav"));
    let annotations = result.content[0].as_text().and_then(|t| t.annotations.as_ref()).expect("annotated text");
    assert_eq!(annotations.last_modified, None, "lastModified only from 2025-06-18");
    let raw = last_result(&served, "tools/call");
    assert_eq!(raw["content"][0]["annotations"], json!({ "audience": ["user"], "priority": 0.5 }));
    assert_eq!(raw["content"][2], json!({ "type": "audio", "data": "UklGRg==", "mimeType": "audio/wav" }));
    served.finish().await;

    // 2025-06-18: lastModified appears.
    let mut server = raw_everything("2025-06-18").await;
    let answer = server.call(1, "all-content", json!({})).await;
    assert_eq!(
        raw_result(&answer)["content"][0]["annotations"],
        json!({ "audience": ["user"], "priority": 0.5, "lastModified": "2025-01-01T00:00:00Z" })
    );
    assert_eq!(raw_result(&answer)["content"][2]["type"], "audio");
    server.finish().await;
}

#[tokio::test]
async fn add_returns_structured_content_from_2025_06_18() {
    let served = serve_everything_at(ProtocolVersion::V_2025_06_18).await;
    let result = served.client.call_tool(call("add", json!({ "a": 1, "b": 2 }))).await.expect("tools/call add");
    assert_eq!(serde_json::from_str::<Value>(text_of(&result)).unwrap()["sum"].as_f64(), Some(3.0));
    let structured = result.structured_content.as_ref().expect("structuredContent at 2025-06-18");
    assert_eq!(structured["sum"].as_f64(), Some(3.0), "{structured}");
    assert_eq!(structured.as_object().map(|o| o.len()), Some(1), "{structured}");
    let raw = last_result(&served, "tools/call");
    assert_eq!(raw["structuredContent"]["sum"].as_f64(), Some(3.0), "{raw}");
    assert_eq!(raw["content"][0]["type"], "text", "the text stays alongside: {raw}");
    served.finish().await;

    // The default client (2025-11-25) gets it too.
    let served = serve_everything().await;
    let result = served.client.call_tool(call("add", json!({ "a": 1, "b": 2 }))).await.expect("tools/call add");
    assert_eq!(result.structured_content.as_ref().and_then(|s| s["sum"].as_f64()), Some(3.0));
    served.finish().await;

    // 2025-03-26 has no structured output.
    let mut server = raw_everything("2025-03-26").await;
    let answer = server.call(1, "add", json!({ "a": 1, "b": 2 })).await;
    let result = raw_result(&answer);
    assert!(result.get("structuredContent").is_none(), "no structuredContent at 2025-03-26: {answer}");
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text["sum"].as_f64(), Some(3.0));
    server.finish().await;
}
