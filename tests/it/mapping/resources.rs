//! resources: list, read, and their failures.

use mcp_wit_tests::support;
use rmcp::model::{ReadResourceRequestParams, ResourceContents, Role};
use serde_json::json;
use support::rpc_error;

use super::everything::{last_result, raw_everything, raw_result, serve_everything};

#[tokio::test]
async fn resources_list_read_and_fail() {
    let served = serve_everything().await;
    let resources = served.client.list_resources(None).await.expect("resources/list").resources;
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["everything://text", "everything://blob", "everything://broken"]);

    let text = &resources[0];
    assert_eq!(text.name, "text");
    assert_eq!(text.description.as_deref(), Some("A text resource"));
    assert_eq!(text.mime_type.as_deref(), Some("text/plain"));
    let annotations = text.annotations.as_ref().expect("text resource is annotated");
    assert_eq!(annotations.audience, Some(vec![Role::Assistant]));
    assert_eq!(annotations.priority, Some(1.0));
    assert_eq!(annotations.last_modified.as_deref(), Some("2025-06-01T12:00:00Z"));

    let blob = &resources[1];
    assert_eq!(blob.name, "blob");
    assert_eq!(blob.description, None);
    assert_eq!(blob.mime_type.as_deref(), Some("application/octet-stream"));
    assert!(blob.annotations.is_none());

    let broken = &resources[2];
    assert_eq!(broken.name, "broken");
    assert_eq!(broken.description.as_deref(), Some("Always fails to read"));
    assert_eq!(broken.mime_type.as_deref(), Some("text/plain"));

    assert_eq!(
        last_result(&served, "resources/list"),
        json!({ "resources": [
            {
                "uri": "everything://text", "name": "text", "description": "A text resource", "mimeType": "text/plain",
                "annotations": { "audience": ["assistant"], "priority": 1.0, "lastModified": "2025-06-01T12:00:00Z" },
            },
            { "uri": "everything://blob", "name": "blob", "mimeType": "application/octet-stream" },
            { "uri": "everything://broken", "name": "broken", "description": "Always fails to read", "mimeType": "text/plain" },
        ]})
    );

    let read = |uri: &str| served.client.read_resource(ReadResourceRequestParams::new(uri));
    let contents = read("everything://text").await.expect("read text").contents;
    assert_eq!(
        contents,
        [ResourceContents::TextResourceContents {
            uri: "everything://text".into(),
            mime_type: Some("text/plain".into()),
            text: "hello from a resource".into(),
            meta: None,
        }]
    );
    let contents = read("everything://blob").await.expect("read blob").contents;
    assert_eq!(
        contents,
        [ResourceContents::BlobResourceContents {
            uri: "everything://blob".into(),
            mime_type: Some("application/octet-stream".into()),
            blob: "AAECAw==".into(),
            meta: None,
        }]
    );
    read("everything://both").await.expect("read both");
    assert_eq!(
        last_result(&served, "resources/read"),
        json!({ "contents": [
            { "uri": "everything://both", "text": "part one" },
            { "uri": "everything://both", "mimeType": "image/png", "blob": "iVBORw0KGgo=" },
        ]})
    );

    let error = rpc_error(read("everything://missing").await);
    assert_eq!(error.code.0, -32002, "{error:?}");
    assert_eq!(error.data, Some(json!({ "uri": "everything://missing" })));
    assert!(error.message.contains("everything://missing"), "{error:?}");

    let error = rpc_error(read("everything://broken").await);
    assert_eq!(error.code.0, -32603, "{error:?}");
    assert_eq!(error.message, "storage offline");

    let templates = served.client.list_resource_templates(None).await.expect("resources/templates/list");
    assert!(templates.resource_templates.is_empty());
    assert_eq!(last_result(&served, "resources/templates/list"), json!({ "resourceTemplates": [] }));
    served.finish().await;

    // lastModified only from 2025-06-18.
    for (version, has_last_modified) in [("2025-03-26", false), ("2025-06-18", true)] {
        let mut server = raw_everything(version).await;
        let answer = server.request(1, "resources/list", json!({})).await;
        let annotations = &raw_result(&answer)["resources"][0]["annotations"];
        assert_eq!(annotations["audience"], json!(["assistant"]), "{answer}");
        assert_eq!(annotations["priority"].as_f64(), Some(1.0), "{answer}");
        assert_eq!(annotations.get("lastModified").is_some(), has_last_modified, "at {version}: {answer}");
        server.finish().await;
    }
}
