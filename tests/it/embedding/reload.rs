//! Reloading the routers of an HTTP server under load.

use std::time::Duration;

use mcp_wit::transport::http::HttpOptions;
use mcp_wit::{LoadedRouter, SandboxPolicy, SessionOptions};
use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::fixture;
use support::http::RawClient;

/// An HTTP server of `component` running in this test, with its reloader.
struct Reloadable {
    addr: std::net::SocketAddr,
    url: String,
    reloader: mcp_wit::transport::http::Reloader,
    stop: tokio::sync::oneshot::Sender<()>,
    running: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Reloadable {
    async fn start(component: LoadedRouter, options: HttpOptions) -> Self {
        let server = mcp_wit::transport::http::HttpServer::bind(component, SessionOptions::default(), options)
            .await
            .expect("binds");
        let addr = server.local_addr().expect("an address");
        let url = format!("http://{addr}/mcp");
        let reloader = server.reloader();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let running = tokio::spawn(server.run(async move {
            let _ = stopped.await;
        }));
        Reloadable { addr, url, reloader, stop, running }
    }

    async fn stop(self) {
        self.stop.send(()).expect("the server runs");
        self.running.await.expect("the server task").expect("the server stops cleanly");
    }
}

/// The fixture `name`, its guest's output discarded.
fn load(engine: &mcp_wit::Engine, name: &str) -> LoadedRouter {
    let policy =
        SandboxPolicy::builder(name).guest_output(mcp_wit::sandbox::guest_output::OutputTarget::Discard).build();
    LoadedRouter::from_file(engine, &fixture(name), policy).expect("loads")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reload_under_load_loses_no_call_and_serves_new_sessions_the_new_routers() {
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    let load = |name: &str| load(&engine, name);
    let (echo, hostile) = (load("echo"), load("hostile"));
    let options = HttpOptions::new("127.0.0.1:0".parse().unwrap()).json_response(true);
    let server = Reloadable::start(echo.clone(), options).await;
    let (url, reloader) = (server.url.clone(), server.reloader.clone());

    // Eight sessions call while the routers are replaced back and forth: each
    // is served for its life by the routers it started with, whichever.
    let mut callers = Vec::new();
    for session in 0..8 {
        let mut client = RawClient::new(url.clone());
        callers.push(tokio::spawn(async move {
            client.initialize("2025-11-25").await;
            let tools = client.request(0, "tools/list", json!({})).await;
            let echoes = tools["result"]["tools"].as_array().unwrap().iter().any(|t| t["name"] == "echo");
            for id in 1..=40 {
                let text = format!("session {session} call {id}");
                if echoes {
                    let arguments = json!({ "text": text });
                    let answer =
                        client.request(id, "tools/call", json!({ "name": "echo", "arguments": arguments })).await;
                    assert_eq!(answer["result"]["content"][0]["text"], text, "{answer}");
                } else {
                    let answer = client.request(id, "tools/call", json!({ "name": "counter" })).await;
                    assert_eq!(answer["result"]["content"][0]["text"], id.to_string(), "{answer}");
                }
            }
            (client, echoes)
        }));
    }
    for round in 0..20 {
        reloader.replace(if round % 2 == 0 { hostile.clone() } else { echo.clone() });
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    reloader.replace(hostile.clone());
    let mut sessions = Vec::new();
    for caller in callers {
        sessions.push(caller.await.expect("no call was lost"));
    }

    // A new session gets the new routers; one from before keeps its own.
    let mut fresh = RawClient::new(url.clone());
    fresh.initialize("2025-11-25").await;
    let tools = fresh.request(1, "tools/list", json!({})).await;
    let names: Vec<&str> =
        tools["result"]["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"counter") && !names.contains(&"echo"), "{names:?}");
    // Sessions that started on echo call it still, though hostile is served now.
    for (old, _) in sessions.iter().filter(|(_, echoes)| *echoes) {
        let arguments = json!({ "text": "still echo" });
        let answer = old.request(100, "tools/call", json!({ "name": "echo", "arguments": arguments })).await;
        assert_eq!(answer["result"]["content"][0]["text"], "still echo", "{answer}");
    }
    server.stop().await;
}

/// A 2026-07-28 request is a session of its own: the requests the server
/// keeps once answered, to serve later ones, serve them as new ones would.
/// No guest state outlives a request (each counts from one), and after a
/// reload they are served by the new routers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kept_2026_07_28_requests_hold_no_guest_state_and_follow_a_reload() {
    use support::engines::{modern, modern_headers, post, request};
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    let load = |name: &str| load(&engine, name);
    let (echo, hostile) = (load("echo"), load("hostile"));
    let server = Reloadable::start(hostile, HttpOptions::new("127.0.0.1:0".parse().unwrap())).await;
    let headers = modern_headers("tools/call", Some("counter"));
    for id in 1..=6 {
        let call = request(id, "tools/call", modern(json!({ "name": "counter" })));
        let (status, _, messages) = post(server.addr, &headers, &call).await;
        assert_eq!(status, 200, "{messages:?}");
        let answer = messages.last().expect("an answer");
        assert_eq!(answer["result"]["content"][0]["text"], "1", "request {id} saw another's state: {answer}");
    }
    server.reloader.replace(echo);
    let list = request(7, "tools/list", modern(json!({})));
    let (status, _, messages) = post(server.addr, &modern_headers("tools/list", None), &list).await;
    assert_eq!(status, 200, "{messages:?}");
    let tools = &messages.last().expect("an answer")["result"]["tools"];
    let names: Vec<&str> = tools.as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"echo") && !names.contains(&"counter"), "served the routers before the reload: {names:?}");
    server.stop().await;
}

/// The `notifications/*/list_changed` methods on a session's GET stream
/// within `wait` (each checked against the schema).
async fn list_changes_heard(
    client: &RawClient,
    events: &mut support::http::EventReader,
    wait: Duration,
) -> Vec<String> {
    let mut heard = Vec::new();
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        // The reader's own wait (it panics) outlasts this one.
        let next = events.next_event(wait + Duration::from_secs(1));
        let Ok(Some(event)) = tokio::time::timeout(left, next).await else { return heard };
        if event.data.is_empty() {
            continue;
        }
        let message: Value = serde_json::from_str(&event.data).expect("JSON events");
        client.check(&message);
        heard.push(message["method"].as_str().expect("a notification").to_string());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_2025_session_moves_to_the_reloaded_routers_once_its_instance_is_recreated() {
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    let load = |name: &str, idle: Option<Duration>| load(&engine, name).with_instance_idle_timeout(idle);
    let tools_of = async |client: &RawClient, id| {
        let listed = client.request(id, "tools/list", json!({})).await;
        let tools = listed["result"]["tools"].as_array().expect("tools").iter();
        tools.map(|t| t["name"].as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    let counter = async |client: &RawClient, id| {
        let answer = client.request(id, "tools/call", json!({ "name": "counter", "arguments": {} })).await;
        answer["result"]["content"][0]["text"].as_str().expect("a count").to_string()
    };

    // After a fault: `everything` is served, then `echo` (no prompts, no
    // resources, other tools).
    let any_port = || HttpOptions::new("127.0.0.1:0".parse().unwrap());
    let server = Reloadable::start(load("everything", None), any_port()).await;
    let (url, reloader) = (&server.url, &server.reloader);
    let mut faulting = RawClient::new(url.clone());
    faulting.initialize("2025-11-25").await;
    let mut events = support::http::EventReader::new(faulting.get_stream(url, &[]).await);
    let mut keeping = RawClient::new(url.clone());
    keeping.initialize("2025-11-25").await;
    for client in [&faulting, &keeping] {
        assert_eq!(counter(client, 1).await, "1");
    }
    reloader.replace(load("echo", None));
    // Its instance lives: the session stays on the version it started on.
    assert_eq!(counter(&faulting, 2).await, "2");
    assert!(list_changes_heard(&faulting, &mut events, Duration::from_millis(300)).await.is_empty());
    // A trap drops the instance; the next request is served by the new version.
    let trapped = faulting.request(3, "tools/call", json!({ "name": "panic", "arguments": {} })).await;
    assert!(trapped["error"].is_object() || trapped["result"]["isError"] == true, "{trapped}");
    assert_eq!(tools_of(&faulting, 4).await, ["echo"]);
    let mut heard = list_changes_heard(&faulting, &mut events, Duration::from_secs(2)).await;
    heard.sort();
    assert_eq!(
        heard,
        [
            "notifications/prompts/list_changed",
            "notifications/resources/list_changed",
            "notifications/tools/list_changed"
        ]
    );
    // A session whose instance lives on keeps its version and state.
    assert_eq!(counter(&keeping, 2).await, "2");
    assert!(tools_of(&keeping, 3).await.contains(&"counter".to_string()));
    server.stop().await;

    // Once idle: the instance is released, and the next request moves on.
    let idle = Some(Duration::from_millis(150));
    let server = Reloadable::start(load("everything", idle), any_port()).await;
    let (url, reloader) = (&server.url, &server.reloader);
    let mut client = RawClient::new(url.clone());
    client.initialize("2025-11-25").await;
    let mut events = support::http::EventReader::new(client.get_stream(url, &[]).await);
    assert_eq!(counter(&client, 1).await, "1");
    reloader.replace(load("everything", idle));
    // Same lists: when it moves (its instance released), it hears nothing.
    let mut moved = false;
    for id in 2..40 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        if counter(&client, id).await == "1" {
            moved = true;
            break;
        }
    }
    assert!(moved, "the idle instance was never released");
    assert!(list_changes_heard(&client, &mut events, Duration::from_millis(300)).await.is_empty());
    reloader.replace(load("echo", idle));
    let mut moved = false;
    for id in 100..140 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        if tools_of(&client, id).await == ["echo"] {
            moved = true;
            break;
        }
    }
    assert!(moved, "the session never moved to the reloaded routers");
    assert_eq!(list_changes_heard(&client, &mut events, Duration::from_secs(2)).await.len(), 3);
    server.stop().await;
}
