//! Guest calls on the runtime's threads: guests that spin, wait, log forever
//! or fail hold up no other session.

use std::time::Duration;

use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::json;
use support::http::{EventReader, HttpServer, RawClient};
use support::{error_message, fixture_arg, text};

use super::fixture::{VERSION, call, next_message};

/// A session of its own on `server`.
pub(super) async fn session(server: &HttpServer) -> RawClient {
    let mut client = server.client();
    client.initialize(VERSION).await;
    client
}

#[tokio::test]
async fn guests_that_spin_hold_up_no_other_session() {
    // Three guests spinning until their deadline, more than the server has
    // worker threads (one per CPU): each call gives its thread back at every
    // epoch tick, so a fourth session is served all along.
    let path = fixture_arg("hostile");
    let server = HttpServer::start(&[&path, "--timeout", "5s"]).await;
    let spinners = [session(&server).await, session(&server).await, session(&server).await];
    let other = session(&server).await;
    let spinning = futures_util::future::join_all(spinners.iter().map(|c| c.post(call(1, "spin", json!({})))));
    let served = async {
        // Let the spinners start first.
        tokio::time::sleep(Duration::from_millis(300)).await;
        for id in 1..=20 {
            let answer = other.request(id, "tools/call", json!({ "name": "counter" })).await;
            assert_eq!(text(&answer), id.to_string());
        }
    };
    tokio::pin!(spinning);
    tokio::select! {
        replies = &mut spinning => panic!("the spinners ended before the other session was served: {replies:?}"),
        () = served => {}
    }
    for reply in spinning.await {
        assert_eq!(reply.response()["error"]["code"], -32603, "{reply:?}");
        assert!(error_message(reply.response()).contains("timed out after 5s"), "{reply:?}");
    }
    server.stop().await;
}

#[tokio::test]
async fn guest_waits_end_at_the_deadline_or_on_cancellation() {
    let path = fixture_arg("hostile");
    let server = HttpServer::start(&[&path, "--timeout", "1s"]).await;
    let client = session(&server).await;
    // A guest sleeping in a host call is held to the deadline.
    let reply = client.post(call(1, "sleep", json!({ "secs": 3600 }))).await;
    assert!(error_message(reply.response()).contains("timed out after 1s"), "{reply:?}");
    assert_eq!(text(&client.request(2, "tools/call", json!({ "name": "counter" })).await), "1");

    // A cancelled spin ends without a response; the session goes on.
    let spin = client.post(call(3, "spin", json!({})));
    let cancel = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        client
            .post(json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 3 } }))
            .await
    };
    let (spin, cancel) = tokio::join!(spin, cancel);
    assert_eq!(cancel.status, StatusCode::ACCEPTED, "{cancel:?}");
    assert!(spin.messages.is_empty(), "a cancelled request gets no response: {spin:?}");
    assert_eq!(text(&client.request(4, "tools/call", json!({ "name": "counter" })).await), "1");
    server.stop().await;
}

#[tokio::test]
async fn a_guest_that_logs_forever_to_a_client_that_does_not_read_stops_at_its_deadline() {
    let path = fixture_arg("hostile");
    let server = HttpServer::start(&[&path, "--timeout", "1s"]).await;
    let client = session(&server).await;
    client.request(1, "logging/setLevel", json!({ "level": "info" })).await;
    // The call's stream is opened, then not read while the guest floods it.
    let body = call(2, "log-forever", json!({})).to_string();
    client.note_request(&body);
    let unread = client.http.post(&client.url).headers(client.default_headers()).body(body).send().await.unwrap();
    assert_eq!(unread.status(), StatusCode::OK);
    // What has no room is dropped, so the guest runs on to its deadline and
    // the session serves the next request (on a fresh instance).
    assert_eq!(text(&client.request(3, "tools/call", json!({ "name": "counter" })).await), "1");
    // The stream holds as many log messages as it had room for, then the end.
    let mut events = EventReader::new(unread);
    let mut logs = 0;
    let answer = loop {
        let message = next_message(&mut events, &client).await;
        if message.get("id").is_some() {
            break message;
        }
        assert_eq!(message["method"], "notifications/message", "{message}");
        logs += 1;
    };
    assert!(logs > 0, "the stream carried the guest's first messages");
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    assert!(error_message(&answer).contains("timed out after 1s"), "{answer}");
    server.stop().await;
}

#[tokio::test]
async fn guests_that_print_panic_or_overflow_are_contained_over_http() {
    let path = fixture_arg("hostile");
    let server = HttpServer::start(&[&path, "--timeout", "10s"]).await;
    let client = session(&server).await;
    let answer = client.request(1, "tools/call", json!({ "name": "print", "arguments": { "mib": 20 } })).await;
    assert_eq!(text(&answer), "printed 20 MiB");
    let answer = client.request(2, "tools/call", json!({ "name": "panic" })).await;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    let answer = client.request(3, "tools/call", json!({ "name": "recurse" })).await;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    let answer = client.request(4, "tools/call", json!({ "name": "huge-result", "arguments": { "mib": 100 } })).await;
    assert!(error_message(&answer).contains("exceeds the output limit"), "{answer}");
    // After all that, a fresh instance serves the session.
    assert_eq!(text(&client.request(5, "tools/call", json!({ "name": "counter" })).await), "1");
    server.stop().await;
}

#[tokio::test]
async fn instance_modes_hold_over_http() {
    let path = fixture_arg("hostile");
    for (mode, expected) in
        [("shared", ["1", "2", "3", "4"]), ("per-session", ["1", "1", "2", "2"]), ("per-request", ["1", "1", "1", "1"])]
    {
        let server = HttpServer::start(&[&path, "--instances", mode]).await;
        let (a, b) = (session(&server).await, session(&server).await);
        let mut counts = Vec::new();
        for (id, client) in [(1, &a), (2, &b), (3, &a), (4, &b)] {
            counts.push(text(&client.request(id, "tools/call", json!({ "name": "counter" })).await).to_owned());
        }
        assert_eq!(counts, expected, "{mode}");
        server.stop().await;
    }
}
