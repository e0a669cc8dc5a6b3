// A replica set behind a real load balancer: three `mcp-wit serve --http`
// replicas sharing one `--state-key-file`, behind HAProxy configured as
// docs/users/deployment.md says, restarted one at a time with SIGTERM while
// clients drive 2026-07-28 requests through it (multi-round `input_required`
// calls among them, whose rounds land on different replicas) and a 2025
// session pinned to its replica by the balancer. Not one request fails.
// And the drain itself, on one server: after SIGTERM `/readyz` is 503 while
// everything is still served for `--drain-delay`, then the listener closes
// while a request in flight finishes; a second signal ends the delay; an
// embedded `HttpServer` drains the same way.
// Every message the servers send is checked against the MCP schema of its
// request's revision (`RawClient`).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_wit_tests::support;
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::haproxy::{self, Haproxy, REPLICA_HEADER};
use support::http::{HttpServer, RawClient, Reply};
use support::{fixture_arg, text};
use tokio::task::JoinHandle;

const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

/// Longer than HAProxy takes to take a replica out (`inter 200ms`, `fall
/// 1`, plus the check itself), with room to spare on a busy machine.
const DRAIN_DELAY: &str = "1500ms";

/// Clients sending 2026-07-28 requests at once.
const CLIENTS: usize = 4;

/// A guard against hanging, not a measure of speed.
const DEADLINE: Duration = Duration::from_secs(30);

/// The fixture's two-question tool: a call is three requests (two rounds
/// ending `input_required`, then the result).
const MULTI_ROUND: &str = "test_input_required_result_multi_round";

/// One replica: its name in HAProxy's configuration, its port (kept across
/// restarts), and the process now serving.
struct Replica {
    name: &'static str,
    port: u16,
    server: HttpServer,
}

/// `mcp-wit serve` as a replica on `127.0.0.1:port` (0: any free port).
async fn start_replica(key: &Path, port: u16) -> HttpServer {
    let args = [
        fixture_arg("conformance"),
        "--state-key-file".into(),
        key.display().to_string(),
        "--drain-delay".into(),
        DRAIN_DELAY.into(),
        "--http".into(),
        format!("127.0.0.1:{port}"),
    ];
    HttpServer::start_as_given(&args.iter().map(String::as_str).collect::<Vec<_>>()).await
}

/// What the 2026-07-28 clients did.
#[derive(Default)]
struct Load {
    /// Requests answered as expected (each one that is not panics its client).
    requests: AtomicUsize,
    /// Multi-round calls completed.
    calls: AtomicUsize,
    /// Multi-round calls whose rounds were served by more than one replica.
    spread: AtomicUsize,
    /// Requests each replica answered.
    served: Mutex<HashMap<String, usize>>,
}

impl Load {
    fn served(&self, replica: &str) -> usize {
        self.served.lock().unwrap().get(replica).copied().unwrap_or(0)
    }
}

/// Sends a 2026-07-28 `tools/call` of `tool` with `extra` params and
/// returns its result and the replica that answered; panics unless it was
/// answered 200 with a result.
async fn call_modern(client: &RawClient, id: u64, tool: &str, extra: Value, load: &Load) -> (Value, String) {
    let mut params = json!({
        "name": tool,
        "arguments": {},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": { "elicitation": {} },
            "io.modelcontextprotocol/clientInfo": { "name": "replicas-test", "version": "1.0.0" },
        },
    });
    for (key, value) in extra.as_object().unwrap() {
        params[key] = value.clone();
    }
    let body = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params });
    let headers = [("mcp-protocol-version", MODERN), ("mcp-method", "tools/call"), ("mcp-name", tool)];
    let reply = client.post_raw(&headers, body.to_string()).await;
    let replica = replica_of(&reply);
    assert_eq!(reply.status, StatusCode::OK, "{tool} via {replica}: {reply:?}");
    let result = reply.response()["result"].clone();
    assert!(result.is_object(), "{tool} via {replica}: {reply:?}");
    load.requests.fetch_add(1, Ordering::Relaxed);
    *load.served.lock().unwrap().entry(replica.clone()).or_default() += 1;
    (result, replica)
}

fn replica_of(reply: &Reply) -> String {
    reply.header(REPLICA_HEADER).unwrap_or("(none: HAProxy answered itself)").to_string()
}

/// One client: multi-round calls (each round a request of its own, sent
/// wherever the balancer likes) and single-round ones, until `stop`.
async fn drive(url: String, stop: Arc<AtomicBool>, load: Arc<Load>) {
    let client = RawClient::new(url);
    let mut id = 0;
    let mut next = || {
        id += 1;
        id
    };
    while !stop.load(Ordering::Relaxed) {
        let (first, r1) = call_modern(&client, next(), MULTI_ROUND, json!({}), &load).await;
        assert_eq!(first["resultType"], "input_required", "via {r1}: {first}");
        assert!(first["inputRequests"]["step1"].is_object(), "via {r1}: {first}");
        let answer = json!({
            "inputResponses": { "step1": { "action": "accept", "content": { "name": "Alice" } } },
            "requestState": first["requestState"],
        });
        let (second, r2) = call_modern(&client, next(), MULTI_ROUND, answer, &load).await;
        assert_eq!(second["resultType"], "input_required", "state of {r1} at {r2}: {second}");
        assert!(second["inputRequests"]["step2"].is_object(), "state of {r1} at {r2}: {second}");
        let answer = json!({
            "inputResponses": { "step2": { "action": "accept", "content": { "color": "blue" } } },
            "requestState": second["requestState"],
        });
        let (done, r3) = call_modern(&client, next(), MULTI_ROUND, answer, &load).await;
        assert_eq!(done["resultType"], "complete", "state of {r2} at {r3}: {done}");
        assert_eq!(done["content"][0]["text"], r#""Alice" likes "blue""#, "via {r1}, {r2}, {r3}: {done}");
        load.calls.fetch_add(1, Ordering::Relaxed);
        if BTreeSet::from([&r1, &r2, &r3]).len() > 1 {
            load.spread.fetch_add(1, Ordering::Relaxed);
        }
        let (simple, replica) = call_modern(&client, next(), "test_simple_text", json!({}), &load).await;
        assert_eq!(simple["content"][0]["text"], "This is a simple text response for testing.", "via {replica}");
    }
}

/// A 2025 session's `counter` call: the guest's count, kept in the
/// session's own instance, so it goes up by one only on the same replica.
async fn count(session: &RawClient, id: usize) -> Reply {
    session
        .post(json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": "counter", "arguments": {} } }))
        .await
}

/// Asserts that `reply` is the session's `expected`-th count, from `pinned`.
fn assert_counted(reply: &Reply, expected: usize, pinned: &str) {
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(text(reply.response()), expected.to_string(), "{reply:?}");
    assert_eq!(replica_of(reply), pinned, "the session left its replica: {reply:?}");
}

/// A 2025 session counting on its replica until `stop`; returns it with
/// how far it counted.
async fn keep_counting(
    session: RawClient,
    mut counted: usize,
    pinned: String,
    stop: Arc<AtomicBool>,
) -> (RawClient, usize) {
    while !stop.load(Ordering::Relaxed) {
        let reply = count(&session, counted + 1).await;
        counted += 1;
        assert_counted(&reply, counted, &pinned);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (session, counted)
}

/// Waits until `done` holds, panicking with what a client that failed said
/// (its task ended early) or after the deadline.
async fn wait_until(what: &str, clients: &mut Vec<JoinHandle<()>>, done: impl Fn() -> bool) {
    let started = Instant::now();
    while !done() {
        if let Some(ended) = clients.iter().position(JoinHandle::is_finished) {
            clients.swap_remove(ended).await.expect("a client's request failed");
            panic!("a client stopped early");
        }
        assert!(started.elapsed() < DEADLINE, "not in {DEADLINE:?}: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// SIGTERM to a replica; HAProxy takes it out on its failing `/readyz`
/// while it still serves; it exits cleanly once drained, and starts again
/// on the same port; HAProxy takes it back, and it serves again.
async fn restart(replica: &mut Replica, haproxy: &Haproxy, key: &Path, load: &Load, clients: &mut Vec<JoinHandle<()>>) {
    replica.server.terminate();
    haproxy.wait_for(replica.name, "DOWN").await;
    let status = replica.server.wait().await;
    let log = log_ending(&replica.server, "shutting down: no new connections").await;
    assert!(status.success(), "{} exited with {status}:\n{log}", replica.name);
    let drained = ["draining for 1.5s", "drain delay over", "shutting down: no new connections"];
    let mut at = 0;
    for line in drained {
        at += log[at..].find(line).unwrap_or_else(|| panic!("no {line:?} after the earlier steps in:\n{log}"));
    }
    replica.server = start_replica(key, replica.port).await;
    haproxy.wait_for(replica.name, "UP").await;
    let before = load.served(replica.name);
    wait_until(&format!("{} serves again", replica.name), clients, || load.served(replica.name) > before).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_restarted_one_by_one_behind_haproxy_fail_no_request() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("state.key");
    std::fs::write(&key, "a key the replicas share, 32 bytes or more").unwrap();
    let mut replicas = Vec::new();
    for name in ["r0", "r1", "r2"] {
        let server = start_replica(&key, 0).await;
        replicas.push(Replica { name, port: server.addr.port(), server });
    }
    let backends: Vec<_> = replicas.iter().map(|r| (r.name, r.server.addr)).collect();
    let haproxy = Haproxy::start(&backends).await;
    for replica in &replicas {
        haproxy.wait_for(replica.name, "UP").await;
    }

    // A 2025 session: the balancer pins it to the replica that created it.
    let mut session = RawClient::new(haproxy.url());
    let pinned = replica_of(&session.initialize(LEGACY).await);
    let reply = count(&session, 1).await;
    assert_counted(&reply, 1, &pinned);

    let load = Arc::new(Load::default());
    let stop = Arc::new(AtomicBool::new(false));
    let mut clients: Vec<JoinHandle<()>> =
        (0..CLIENTS).map(|_| tokio::spawn(drive(haproxy.url(), stop.clone(), load.clone()))).collect();
    wait_until("every replica serves", &mut clients, || backends.iter().all(|(name, _)| load.served(name) > 0)).await;

    // The other replicas restart while the session counts on its own.
    let stop_counting = Arc::new(AtomicBool::new(false));
    let counting = tokio::spawn(keep_counting(session, 1, pinned.clone(), stop_counting.clone()));
    for replica in replicas.iter_mut().filter(|r| r.name != pinned) {
        restart(replica, &haproxy, &key, &load, &mut clients).await;
    }
    stop_counting.store(true, Ordering::Relaxed);
    let (mut session, mut counted) = counting.await.expect("the 2025 session kept working");

    // Its own replica: out of the balancer's rotation, it still serves the
    // session while it drains (`option persist`)...
    let own = replicas.iter_mut().find(|r| r.name == pinned).unwrap();
    own.server.terminate();
    haproxy.wait_for(own.name, "DOWN").await;
    let reply = count(&session, counted + 1).await;
    counted += 1;
    assert_counted(&reply, counted, &pinned);
    // ...until it is gone: then the session is unknown wherever the request
    // lands (404), and the client starts a new one, as the spec says.
    let status = own.server.wait().await;
    assert!(status.success(), "{pinned} exited with {status}");
    let gone = count(&session, counted + 1).await;
    assert_eq!((gone.status, gone.error_code()), (StatusCode::NOT_FOUND, Some(-32001)), "{gone:?}");
    session.session = None;
    let repinned = replica_of(&session.initialize(LEGACY).await);
    assert_counted(&count(&session, 1).await, 1, &repinned);
    own.server = start_replica(&key, own.port).await;
    haproxy.wait_for(own.name, "UP").await;
    let before = load.served(own.name);
    wait_until(&format!("{pinned} serves again"), &mut clients, || load.served(own.name) > before).await;

    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.await.expect("a client's request failed");
    }
    let (requests, calls, spread) = (
        load.requests.load(Ordering::Relaxed),
        load.calls.load(Ordering::Relaxed),
        load.spread.load(Ordering::Relaxed),
    );
    eprintln!(
        "{requests} requests through HAProxy, none failed; {calls} multi-round calls, {spread} of them served by more \
         than one replica; 3 restarts; the 2025 session counted to {counted} on {pinned}; served: {:?}",
        load.served.lock().unwrap()
    );
    assert!(spread > 0, "no call's rounds were served by different replicas ({calls} calls)");
    for replica in &replicas {
        replica.server.terminate();
    }
    for mut replica in replicas {
        let status = replica.server.wait().await;
        assert!(status.success(), "{} exited with {status}", replica.name);
    }
}

/// What `server` wrote to stderr, once it holds `line` (the reader may lag
/// behind the process's exit).
async fn log_ending(server: &HttpServer, line: &str) -> String {
    let started = Instant::now();
    loop {
        let log = server.stderr.lock().unwrap().clone();
        if log.contains(line) || started.elapsed() > DEADLINE {
            return log;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// GETs `url` (a `/readyz`) on a connection of its own.
async fn readyz(url: &str) -> (StatusCode, Value) {
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    let response = http.get(url).send().await.expect("/readyz answers");
    let status = response.status();
    (status, serde_json::from_str(&response.text().await.unwrap()).expect("JSON"))
}

/// Waits until `url` (a `/readyz`) fails; returns its body.
async fn until_not_ready(url: &str) -> Value {
    let started = Instant::now();
    loop {
        let (status, body) = readyz(url).await;
        if status == StatusCode::SERVICE_UNAVAILABLE {
            return body;
        }
        assert!(started.elapsed() < DEADLINE, "/readyz still {status} after {DEADLINE:?}: {body}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_draining_server_fails_readyz_serves_on_then_refuses_connections() {
    let fixture = fixture_arg("conformance");
    let mut server = HttpServer::start(&[&fixture, "--drain-delay", "2s"]).await;
    let (status, body) = readyz(&server.at("/readyz")).await;
    assert_eq!((status, &body["ready"]), (StatusCode::OK, &json!(true)), "{body}");

    server.terminate();
    let body = until_not_ready(&server.at("/readyz")).await;
    assert_eq!(body["ready"], false, "{body}");
    assert_eq!(body["reason"], "draining: shutting down once --drain-delay is over", "{body}");

    // New connections are still served: a 2025 session starts and calls...
    let mut session = server.client();
    session.http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    session.initialize(LEGACY).await;
    let counted = session.request(1, "tools/call", json!({ "name": "counter", "arguments": {} })).await;
    assert_eq!(text(&counted), "1", "{counted}");
    // ...and a slow 2026-07-28 call starts, to be still running when the
    // listener closes.
    let slow = tokio::spawn({
        let client = server.client();
        async move { call_modern(&client, 1, "wait", json!({ "arguments": { "ms": 5000 } }), &Load::default()).await }
    });

    // Once the delay is over, connections are refused; the call in flight
    // finishes within --shutdown-timeout, and the server exits cleanly.
    let started = Instant::now();
    while tokio::net::TcpStream::connect(server.addr).await.is_ok() {
        assert!(started.elapsed() < DEADLINE, "connections still accepted after {DEADLINE:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!slow.is_finished(), "the slow call was still running when the listener closed");
    let (result, _) = slow.await.expect("the call in flight finished");
    assert_eq!(result["content"][0]["text"], "waited 5000 ms", "{result}");
    let status = server.wait().await;
    let log = log_ending(&server, "shutting down: no new connections").await;
    assert!(status.success(), "exited with {status}:\n{log}");
    for line in ["SIGTERM received", "draining for 2s", "drain delay over", "shutting down: no new connections"] {
        assert!(log.contains(line), "no {line:?} in:\n{log}");
    }
}

#[tokio::test]
async fn a_second_signal_ends_the_drain_delay() {
    let fixture = fixture_arg("conformance");
    // A delay no test waits out.
    let mut server = HttpServer::start(&[&fixture, "--drain-delay", "1h"]).await;
    server.terminate();
    until_not_ready(&server.at("/readyz")).await;
    server.terminate();
    let status = server.wait().await;
    let log = log_ending(&server, "shutting down: no new connections").await;
    assert!(status.success(), "exited with {status}:\n{log}");
    assert!(log.contains("drain delay cut short"), "{log}");
}

#[tokio::test]
async fn an_embedded_server_drains_until_its_delay_or_skip_ends() {
    use mcp_wit::transport::http::{HttpOptions, HttpServer as Embedded};
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    let policy = mcp_wit::SandboxPolicy::builder("conformance").build();
    let router = mcp_wit::LoadedRouter::from_file(&engine, &support::fixture("conformance"), policy).expect("loads");
    let mut options = HttpOptions::new("127.0.0.1:0".parse().unwrap());
    options.drain_delay = Duration::from_secs(3600);
    let server = Embedded::bind(router, mcp_wit::SessionOptions::default(), options).await.expect("binds");
    let addr = server.local_addr().unwrap();
    let (shutdown, on_shutdown) = tokio::sync::oneshot::channel::<()>();
    let (skip, on_skip) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run_with_drain_skip(
        async move {
            let _ = on_shutdown.await;
        },
        async move {
            let _ = on_skip.await;
        },
    ));

    shutdown.send(()).unwrap();
    let body = until_not_ready(&format!("http://{addr}/readyz")).await;
    assert_eq!(body["reason"], "draining: shutting down once --drain-delay is over", "{body}");
    let client = RawClient::new(format!("http://{addr}/mcp"));
    let (result, _) = call_modern(&client, 1, "test_simple_text", json!({}), &Load::default()).await;
    assert_eq!(result["content"][0]["text"], "This is a simple text response for testing.", "{result}");

    skip.send(()).unwrap();
    let ended = tokio::time::timeout(DEADLINE, running).await.expect("the skip ended the drain");
    ended.expect("the server task").expect("the server stops cleanly");
    let refused = tokio::net::TcpStream::connect(addr).await.expect_err("the listener is closed");
    assert_eq!(refused.kind(), std::io::ErrorKind::ConnectionRefused, "{refused}");
}

#[test]
fn the_deployment_page_shows_the_configuration_tested_here() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/users/deployment.md");
    let page = std::fs::read_to_string(&page).unwrap();
    for section in [haproxy::DEFAULTS, haproxy::BACKEND] {
        assert!(page.contains(section), "docs/users/deployment.md does not show, as it is:\n{section}");
    }
}
