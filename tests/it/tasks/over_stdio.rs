//! Calls that become tasks on stdio (2026-07-28 requests): the loop answers
//! with the task and reads on while the call runs on a thread of its own;
//! each message checked against the revision's schema (`RawServer`).

use std::time::Duration;

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::{RawServer, fixture_arg};

use super::wire::{POLICIES, TASKS, declaring, modern};

/// Polls `tasks/get` until the task leaves `status`.
async fn left(server: &mut RawServer, next: &mut i64, id: &str, status: &str) -> Value {
    for _ in 0..200 {
        *next += 1;
        let got = server.request(*next, "tasks/get", modern(json!({ "taskId": id }), declaring())).await;
        let result = &got["result"];
        assert_eq!((result["resultType"].as_str(), result["taskId"].as_str()), (Some("complete"), Some(id)), "{got}");
        if result["status"] != status {
            return result.clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("task {id} still {status} after 20 s");
}

#[tokio::test]
async fn a_long_call_becomes_a_task_on_stdio_too() {
    let fixture = fixture_arg("conformance");
    let mut args = vec!["serve", fixture.as_str(), "--guest-output", "discard"];
    args.extend(POLICIES);
    let mut server = RawServer::start(&args);
    let mut next = 0;
    let mut request = async |server: &mut RawServer, method: &str, params: Value, capabilities: Value| {
        next += 1;
        server.request(next, method, modern(params, capabilities)).await
    };
    let discover = request(&mut server, "server/discover", json!({}), json!({})).await;
    assert_eq!(discover["result"]["capabilities"]["extensions"][TASKS], json!({}), "{discover}");

    // A 30-second call: the task comes at once, the loop reads on, and a
    // cancel stops the guest.
    let slow = json!({ "name": "slow_compute", "arguments": { "seconds": 30, "label": "stdio" } });
    let created = request(&mut server, "tools/call", slow, declaring()).await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    // Its request's line is logged once its call ends (whatever it says:
    // the guest's sleep ends at the cancel, and it may answer before the
    // next epoch tick stops it): within moments, not 30 s.
    let calls_before = server.stderr.lock().unwrap().matches(r#"method="tools/call""#).count();
    let cancelled = request(&mut server, "tasks/cancel", json!({ "taskId": id }), declaring()).await;
    assert_eq!(cancelled["result"], json!({ "resultType": "complete" }));
    let mut polls = 100;
    assert_eq!(left(&mut server, &mut polls, &id, "working").await["status"], "cancelled");
    let stopped = async {
        while server.stderr.lock().unwrap().matches(r#"method="tools/call""#).count() == calls_before {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), stopped)
        .await
        .unwrap_or_else(|_| panic!("the guest ran on:\n{}", server.stderr.lock().unwrap()));

    // A task that asks, answered through tasks/update.
    let confirm = json!({ "name": "confirm_delete", "arguments": { "filename": "s.txt" } });
    let created = request(&mut server, "tools/call", confirm, declaring()).await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let asking = left(&mut server, &mut polls, &id, "working").await;
    assert_eq!(asking["status"], "input_required", "{asking}");
    let key = asking["inputRequests"].as_object().unwrap().keys().next().unwrap().clone();
    let answer =
        json!({ "taskId": id, "inputResponses": { key: { "action": "accept", "content": { "confirm": true } } } });
    let updated = request(&mut server, "tasks/update", answer, declaring()).await;
    assert_eq!(updated["result"], json!({ "resultType": "complete" }));
    let done = left(&mut server, &mut polls, &id, "working").await;
    assert_eq!(done["result"]["content"][0]["text"], "Deleted s.txt.", "{done}");

    // Without the extension: a plain call, and -32021 for a tool that runs
    // only as a task; the session serves the rest as ever.
    let plain =
        request(&mut server, "tools/call", json!({ "name": "slow_compute", "arguments": { "seconds": 0 } }), json!({}))
            .await;
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    let refused =
        request(&mut server, "tools/call", json!({ "name": "failing_job", "arguments": {} }), json!({})).await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    let greeted =
        request(&mut server, "tools/call", json!({ "name": "greet", "arguments": { "name": "W" } }), declaring()).await;
    assert_eq!(greeted["result"]["content"][0]["text"], "Hello, W!", "{greeted}");
    let gated = request(&mut server, "tasks/get", json!({ "taskId": id }), json!({})).await;
    assert_eq!(gated["error"]["code"], -32021, "{gated}");
}

#[tokio::test]
async fn a_call_cancelled_before_it_becomes_a_task_stops_unanswered() {
    let fixture = fixture_arg("conformance");
    let args = ["serve", fixture.as_str(), "--guest-output", "discard", "--task-policy", "slow_compute=after:20s"];
    let mut server = RawServer::start(&args);
    // A 30-second call that would become a task after 20 s; the client
    // cancels it at once, and the loop, waiting for it, sees that.
    let slow = json!({ "name": "slow_compute", "arguments": { "seconds": 30, "label": "cancelled" } });
    let call = json!({ "jsonrpc": "2.0", "id": "slow-1", "method": "tools/call", "params": modern(slow, declaring()) });
    server.send(&call.to_string()).await;
    let cancel = json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": "slow-1" } });
    server.send(&cancel.to_string()).await;
    // The next request is answered next (before the call would have become
    // a task), and nothing ever answers the cancelled call.
    let greet = json!({ "name": "greet", "arguments": { "name": "C" } });
    let greeted = server.request(2, "tools/call", modern(greet, declaring())).await;
    assert_eq!(greeted["result"]["content"][0]["text"], "Hello, C!", "{greeted}");
    server.close_input();
    assert_eq!(server.next_line().await, None, "nothing more was asked, and nothing more came");
    server.finish_and_wait_for_stderr().await;
    let stderr = server.stderr.lock().unwrap().clone();
    assert_eq!(stderr.matches(r#"method="tools/call""#).count(), 2, "the guest stopped, its line logged: {stderr}");
}
