//! Progress notifications: before the result, their tokens echoed, and
//! optional.

use std::time::Duration;

use mcp_wit_tests::support;
use rmcp::model::NumberOrString;
use serde_json::{Value, json};
use support::{ProgressRecorder, Served, call, text_of};

use super::everything::{exchange, raw_everything, raw_result};

/// The progress values and messages the `progress` tool's list maps to.
const PROGRESS: [(f64, Option<&str>); 4] =
    [(0.25, Some("quarter")), (1.25, Some("no value")), (2.25, Some("went backwards")), (10.0, None)];

fn assert_progress_params(notifications: &[Value], token: &Value) {
    assert_eq!(notifications.len(), 4, "exactly four progress notifications: {notifications:?}");
    for (n, (progress, message)) in notifications.iter().zip(PROGRESS) {
        assert_eq!(n["method"], "notifications/progress", "{n}");
        assert_eq!(&n["params"]["progressToken"], token, "token echoed: {n}");
        assert_eq!(n["params"]["progress"].as_f64(), Some(progress), "{n}");
        assert_eq!(n["params"]["message"].as_str(), message, "{n}");
        if message.is_none() {
            assert!(n["params"].get("message").is_none(), "no message key: {n}");
        }
    }
}

#[tokio::test]
async fn progress_notifications_precede_the_result() {
    let recorder = ProgressRecorder::default();
    let served = Served::in_process("everything", recorder.clone()).await;
    // rmcp attaches an integer progress token to every request it sends.
    let result = served.client.call_tool(call("progress", json!({}))).await.expect("tools/call progress");
    assert_eq!(text_of(&result), "done");

    {
        let transcript = served.transcript.lock().unwrap();
        let response_at = transcript
            .messages
            .iter()
            .position(|(method, msg)| method.as_deref() == Some("tools/call") && msg.get("result").is_some())
            .expect("the tools/call response");
        let progress_at: Vec<usize> = transcript
            .messages
            .iter()
            .enumerate()
            .filter(|(_, (_, msg))| msg["method"] == "notifications/progress")
            .map(|(i, _)| i)
            .collect();
        assert_eq!(progress_at.len(), 4, "four notifications in the transcript");
        assert!(progress_at.iter().all(|&i| i < response_at), "notifications come before the response");
        let notifications = transcript.notifications("notifications/progress");
        let token = notifications[0]["params"]["progressToken"].clone();
        assert!(token.is_i64(), "rmcp's token is an integer: {token}");
        assert_progress_params(&notifications, &token);
        let values: Vec<f64> = notifications.iter().map(|n| n["params"]["progress"].as_f64().unwrap()).collect();
        assert!(values.windows(2).all(|w| w[0] < w[1]), "progress strictly increases: {values:?}");
    }

    // The client itself saw them (delivered by background tasks).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while recorder.seen.lock().unwrap().len() < 4 {
        assert!(tokio::time::Instant::now() < deadline, "on_progress was not called four times");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut seen = recorder.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 4);
    seen.sort_by(|a, b| a.progress.total_cmp(&b.progress));
    assert!(seen.iter().all(|p| matches!(p.progress_token.0, NumberOrString::Number(_))));
    assert!(seen.windows(2).all(|w| w[0].progress_token == w[1].progress_token), "one token for the call");
    let got: Vec<(f64, Option<&str>)> = seen.iter().map(|p| (p.progress, p.message.as_deref())).collect();
    assert_eq!(got, PROGRESS);
    served.finish().await;
}

#[tokio::test]
async fn progress_tokens_are_echoed_and_optional() {
    let mut server = raw_everything("2025-11-25").await;

    let (notifications, answer) = exchange(
        &mut server,
        1,
        "tools/call",
        json!({ "name": "progress", "arguments": {}, "_meta": { "progressToken": "tok-1" } }),
    )
    .await;
    assert_eq!(raw_result(&answer)["content"][0]["text"], "done");
    assert_progress_params(&notifications, &json!("tok-1"));

    let (notifications, answer) = exchange(
        &mut server,
        2,
        "tools/call",
        json!({ "name": "progress", "arguments": {}, "_meta": { "progressToken": 42 } }),
    )
    .await;
    assert_eq!(raw_result(&answer)["content"][0]["text"], "done");
    assert_progress_params(&notifications, &json!(42));

    // Without a token the list is dropped: the response comes first.
    let (notifications, answer) =
        exchange(&mut server, 3, "tools/call", json!({ "name": "progress", "arguments": {} })).await;
    assert!(notifications.is_empty(), "no progress without a token: {notifications:?}");
    assert_eq!(raw_result(&answer)["content"][0]["text"], "done");
    let (notifications, _) = exchange(&mut server, 4, "ping", json!({})).await;
    assert!(notifications.is_empty(), "nothing was left behind: {notifications:?}");

    // Tools without progress send none even with a token.
    let (notifications, _) = exchange(
        &mut server,
        5,
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": "hi" }, "_meta": { "progressToken": "tok-2" } }),
    )
    .await;
    assert!(notifications.is_empty(), "{notifications:?}");
    server.finish().await;

    // 2024-11-05 progress notifications had no `message`.
    let mut server = raw_everything("2024-11-05").await;
    let (notifications, _) = exchange(
        &mut server,
        1,
        "tools/call",
        json!({ "name": "progress", "arguments": {}, "_meta": { "progressToken": "old" } }),
    )
    .await;
    assert_eq!(notifications.len(), 4, "{notifications:?}");
    assert!(notifications.iter().all(|n| n["params"].get("message").is_none()), "{notifications:?}");
    server.finish().await;
}
