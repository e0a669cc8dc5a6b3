//! Two `mcp-wit serve --http` replicas keeping their tasks in a real
//! Redis-protocol server (Debian's `redis-server`), behind a real load
//! balancer (HAProxy, round robin, a connection per request): a task
//! created through one replica is polled, answered and cancelled through
//! the other, and a replica killed mid-task leaves its task `failed`, saying
//! why.

use std::time::Duration;

use mcp_wit_tests::support;
use serde_json::json;
use support::fixture_arg;
use support::haproxy::Haproxy;
use support::http::{HttpServer, RawClient, Reply};
use support::redis::RedisServer;

use super::wire::{POLICIES, call, declaring, left, replica, settled, task};

/// A replica on a free port, its tasks in `store`, its rounds signed with
/// `key` (shared by both).
async fn start_replica(store: &str, key: &std::path::Path) -> HttpServer {
    let fixture = fixture_arg("conformance");
    let key = key.display().to_string();
    let mut args = vec![fixture.as_str(), "--guest-output", "discard", "--task-store", store, "--state-key-file", &key];
    args.extend(POLICIES);
    HttpServer::start(&args).await
}

/// Sends `send` (a request through the balancer) until the replica that
/// is not `not` answers it.
async fn through_other(not: &str, mut send: impl AsyncFnMut(i64) -> Reply) -> Reply {
    for attempt in 0..10 {
        let reply = send(attempt).await;
        if replica(&reply) != not {
            return reply;
        }
    }
    panic!("every request went to replica {not}");
}

#[tokio::test]
async fn a_task_is_served_by_whichever_replica_a_request_reaches() {
    let redis = RedisServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("state.key");
    std::fs::write(&key, [7u8; 32]).unwrap();
    let a = start_replica(&redis.url, &key).await;
    let b = start_replica(&redis.url, &key).await;
    let balancer = Haproxy::start(&[("a", a.addr), ("b", b.addr)]).await;
    balancer.wait_for("a", "UP").await;
    balancer.wait_for("b", "UP").await;
    let client = RawClient::new(balancer.url());

    // Created on one, asked and answered through the other, run again there.
    let created = call(&client, 1, "confirm_delete", json!({ "filename": "r.txt" }), declaring()).await;
    let maker = replica(&created);
    let id = created.response()["result"]["taskId"].as_str().expect("a task").to_owned();
    let asking = left(&client, &id, "working").await;
    assert_eq!(asking["status"], "input_required", "{asking}");
    let key = asking["inputRequests"].as_object().unwrap().keys().next().unwrap().clone();
    let answer = json!({ "inputResponses": { key: { "action": "accept", "content": { "confirm": true } } } });
    let updated =
        through_other(&maker, async |n| task(&client, 10 + n, "tasks/update", &id, answer.clone()).await).await;
    assert_eq!(updated.response()["result"], json!({ "resultType": "complete" }));
    let done = settled(&client, &id).await;
    assert_eq!(done["result"]["content"][0]["text"], "Deleted r.txt.", "{done}");

    // A 30-second task, polled and cancelled through the other replica: its
    // guest stops on the replica that runs it.
    let slow = call(&client, 2, "slow_compute", json!({ "seconds": 30, "label": "r" }), declaring()).await;
    let runner = replica(&slow);
    let slow_id = slow.response()["result"]["taskId"].as_str().unwrap().to_owned();
    let polled = through_other(&runner, async |n| task(&client, 20 + n, "tasks/get", &slow_id, json!({})).await).await;
    assert_eq!(polled.response()["result"]["status"], "working");
    let running_on = if runner == "a" { &a } else { &b };
    let calls_before = running_on.stderr.lock().unwrap().matches(r#"method="tools/call""#).count();
    let cancelled =
        through_other(&runner, async |n| task(&client, 30 + n, "tasks/cancel", &slow_id, json!({})).await).await;
    assert_eq!(cancelled.response()["result"], json!({ "resultType": "complete" }));
    assert_eq!(settled(&client, &slow_id).await["status"], "cancelled");
    let stopped = async {
        while running_on.stderr.lock().unwrap().matches(r#"method="tools/call""#).count() == calls_before {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), stopped).await.expect("the guest stopped on its replica");

    // A replica killed mid-task: the task fails, saying why, through the
    // other one.
    let doomed = call(&client, 3, "slow_compute", json!({ "seconds": 60, "label": "doomed" }), declaring()).await;
    let (doomed_on, survivor) = if replica(&doomed) == "a" { (&a, &b) } else { (&b, &a) };
    let doomed_id = doomed.response()["result"]["taskId"].as_str().unwrap().to_owned();
    std::process::Command::new("kill").args(["-KILL", &doomed_on.pid().to_string()]).status().unwrap();
    let direct = survivor.client();
    let failed = settled(&direct, &doomed_id).await;
    assert_eq!(failed["status"], "failed", "{failed}");
    let reason = failed["statusMessage"].as_str().unwrap();
    assert!(reason.contains("stopped before it ended"), "{reason}");
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
}
