//! Notifications that reach the sessions listening: resource updates to
//! the subscribed, list changes to all.

use mcp_wit_tests::support;
use serde_json::json;
use support::http::EventReader;
use support::text;

use super::fixture::{VERSION, initialized, next_message};

#[tokio::test]
async fn resource_updates_reach_only_the_sessions_subscribed() {
    let (server, watcher) = initialized(&[]).await;
    let mut other = server.client();
    other.initialize(VERSION).await;
    let mut watching = EventReader::new(watcher.get_stream(&server.url(), &[]).await);
    let mut not_watching = EventReader::new(other.get_stream(&server.url(), &[]).await);
    let uri = "test://watched-resource";
    let subscribed = watcher.request(1, "resources/subscribe", json!({ "uri": uri })).await;
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");
    // Another session's request says the resource (then a sub-resource, then
    // an unrelated one) changed.
    for changed in [uri, "test://watched-resource/part", "test://static-text"] {
        let call =
            other.request(2, "tools/call", json!({ "name": "test_update_resource", "arguments": { "uri": changed } }));
        assert_eq!(text(&call.await), "Resource update announced");
    }
    for changed in [uri, "test://watched-resource/part"] {
        let update = next_message(&mut watching, &watcher).await;
        assert_eq!(
            update,
            json!({ "jsonrpc": "2.0", "method": "notifications/resources/updated", "params": { "uri": changed } })
        );
    }
    // A list change, which every session hears of, shows what came before it.
    other.request(3, "tools/call", json!({ "name": "test_trigger_tool_change" })).await;
    assert_eq!(next_message(&mut watching, &watcher).await["method"], "notifications/tools/list_changed");
    assert_eq!(
        next_message(&mut not_watching, &other).await["method"],
        "notifications/tools/list_changed",
        "no update first"
    );
    // Unsubscribed: no more updates.
    watcher.request(4, "resources/unsubscribe", json!({ "uri": uri })).await;
    other.request(5, "tools/call", json!({ "name": "test_update_resource", "arguments": { "uri": uri } })).await;
    other.request(6, "tools/call", json!({ "name": "test_trigger_tool_change" })).await;
    assert_eq!(
        next_message(&mut watching, &watcher).await["method"],
        "notifications/tools/list_changed",
        "no update first"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_list_change_reaches_every_session_that_listens() {
    let (server, first) = initialized(&[]).await;
    let mut second = server.client();
    second.initialize(VERSION).await;
    // The second session listens on its GET stream; the first one's guest
    // says its tools changed.
    let mut listening = EventReader::new(second.get_stream(&server.url(), &[]).await);
    let answer = first.request(1, "tools/call", json!({ "name": "test_trigger_tool_change", "arguments": {} })).await;
    assert_eq!(text(&answer), "Tool list change announced");
    let message = next_message(&mut listening, &second).await;
    assert_eq!(message, json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {} }));
    server.stop().await;
}
