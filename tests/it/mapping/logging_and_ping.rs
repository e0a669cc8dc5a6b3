//! logging/setLevel and ping, which answer empty results.

use mcp_wit_tests::support;
use rmcp::model::{ClientRequest, CustomRequest, PingRequest, ServerResult};
// rmcp marks MCP logging deprecated (SEP-2577); the host still serves it.
#[allow(deprecated)]
use rmcp::model::{LoggingLevel, SetLevelRequestParams};
use serde_json::json;
use support::rpc_error;

use super::everything::{last_result, raw_error, raw_everything, raw_result, serve_everything};

#[tokio::test]
async fn set_level_and_ping_answer_empty_results() {
    let served = serve_everything().await;

    #[allow(deprecated)]
    served.client.set_level(SetLevelRequestParams::new(LoggingLevel::Debug)).await.expect("logging/setLevel debug");
    assert_eq!(last_result(&served, "logging/setLevel"), json!({}));

    let invalid = CustomRequest::new("logging/setLevel", Some(json!({ "level": "loud" })));
    let error = rpc_error(served.client.send_request(ClientRequest::CustomRequest(invalid)).await);
    assert_eq!(error.code.0, -32602, "{error:?}");

    let pong = served.client.send_request(ClientRequest::PingRequest(PingRequest::default())).await.expect("ping");
    assert!(matches!(pong, ServerResult::EmptyResult(_)), "{pong:?}");
    assert_eq!(last_result(&served, "ping"), json!({}));
    served.finish().await;

    let mut server = raw_everything("2024-11-05").await;
    let answer = server.request(1, "logging/setLevel", json!({ "level": "debug" })).await;
    assert_eq!(raw_result(&answer), &json!({}));
    let answer = server.request(2, "logging/setLevel", json!({ "level": "loud" })).await;
    raw_error(&answer, -32602);
    let answer = server.request(3, "ping", json!({})).await;
    assert_eq!(raw_result(&answer), &json!({}));
    server.finish().await;
}
