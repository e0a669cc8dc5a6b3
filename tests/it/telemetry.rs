// What an operator sees: a real Prometheus scraping `/metrics` while a
// client calls tools, and OTLP spans received and decoded with the
// OpenTelemetry protobuf definitions, for a 2025 session on stdio and a
// 2026-07-28 request over HTTP.

use std::time::Duration;

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::http::HttpServer;
use support::otlp::{OtlpReceiver, Span};
use support::prometheus::{Prometheus, only_value, value};
use support::{RawServer, fixture_arg};

/// How long a scrape or an export may take to show up (a hang guard).
const SHOWS_UP: Duration = Duration::from_secs(60);

fn call(id: i64, tool: &str, arguments: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": tool, "arguments": arguments } })
}

/// The samples of `result` by the value of `label`.
fn by_label(result: &Value, label: &str) -> Vec<(String, f64)> {
    let mut samples: Vec<(String, f64)> = result
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["metric"][label].as_str().unwrap_or("").to_owned(), value(s)))
        .collect();
    samples.sort_by(|a, b| a.0.cmp(&b.0));
    samples
}

#[tokio::test]
async fn prometheus_sees_calls_by_tool_and_outcome_latency_and_traps_by_kind() {
    let (echo, hostile) = (fixture_arg("echo"), fixture_arg("hostile"));
    // On a loopback listener, metrics are on by default.
    let server = HttpServer::start(&[&echo, &hostile, "--timeout", "2s"]).await;
    let prometheus = Prometheus::start(&[server.addr]).await;
    prometheus.targets_up().await;

    let mut client = server.client();
    client.initialize("2025-11-25").await;
    for id in 1..=5 {
        let answer = client.post(call(id, "echo_echo", json!({ "text": "hi" }))).await;
        assert_eq!(answer.response()["result"]["content"][0]["text"], "hi", "{answer:?}");
    }
    // Arguments its schema refuses: a tool error, twice.
    for id in 6..=7 {
        let answer = client.post(call(id, "echo_echo", json!({}))).await;
        assert_eq!(answer.response()["result"]["isError"], true, "{answer:?}");
    }
    // A trap, and a call past its deadline.
    let trapped = client.post(call(8, "hostile_panic", json!({}))).await;
    assert_eq!(trapped.error_code(), Some(-32603), "{trapped:?}");
    let spun = client.post(call(9, "hostile_spin", json!({}))).await;
    assert_eq!(spun.error_code(), Some(-32603), "{spun:?}");
    // A name no router knows is never a label.
    let unknown = client.post(call(10, "made_up_by_the_client", json!({}))).await;
    assert_eq!(unknown.error_code(), Some(-32602), "{unknown:?}");

    let calls = r#"sum by (gen_ai_tool_name, error_type) (mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call"})"#;
    let result = prometheus
        .wait_for(
            calls,
            |r| r.as_array().is_some_and(|samples| samples.iter().map(value).sum::<f64>() >= 10.0),
            SHOWS_UP,
        )
        .await;
    let mut seen: Vec<(String, String, f64)> = result
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let label = |name: &str| s["metric"][name].as_str().unwrap_or("").to_owned();
            (label("gen_ai_tool_name"), label("error_type"), value(s))
        })
        .collect();
    seen.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    let expected = [
        ("", "-32602", 1.0),
        ("echo_echo", "", 5.0),
        ("echo_echo", "tool_error", 2.0),
        ("hostile_panic", "-32603", 1.0),
        ("hostile_spin", "-32603", 1.0),
    ]
    .map(|(tool, error, count)| (tool.to_owned(), error.to_owned(), count));
    assert_eq!(seen, expected);

    let faults = prometheus.query("sum by (kind) (mcp_wit_guest_faults_total)").await;
    assert_eq!(by_label(&faults, "kind"), [("deadline".to_owned(), 1.0), ("trap".to_owned(), 1.0)]);

    // The median of each tool's latency, from the histogram's buckets: the
    // call that ran into its 2 s deadline is the slower.
    let median = |tool: &str| {
        format!(
            r#"histogram_quantile(0.5, sum by (le) (mcp_server_operation_duration_seconds_bucket{{gen_ai_tool_name="{tool}"}}))"#
        )
    };
    let echo_median = only_value(&prometheus.query(&median("echo_echo")).await).expect("echo's median");
    let spin_median = only_value(&prometheus.query(&median("hostile_spin")).await).expect("spin's median");
    assert!(echo_median > 0.0 && echo_median.is_finite(), "{echo_median}");
    assert!(spin_median > echo_median, "spin {spin_median} vs echo {echo_median}");

    // The runtime's own: instances made and alive, the session, the budget.
    let made = prometheus.query("sum(mcp_wit_instantiation_duration_seconds_count)").await;
    assert!(only_value(&made).is_some_and(|n| n >= 2.0), "{made}");
    let sessions = prometheus.wait_for("mcp_wit_sessions", |r| only_value(r) == Some(1.0), SHOWS_UP).await;
    assert_eq!(only_value(&sessions), Some(1.0));
    let alive = prometheus.query(r#"mcp_wit_instances{component="echo"}"#).await;
    assert_eq!(only_value(&alive), Some(1.0), "{alive}");
    let pooled = prometheus.query("mcp_wit_pool_instances").await;
    assert!(only_value(&pooled).is_some_and(|n| n >= 1.0), "{pooled}");
    let held = prometheus.query(r#"mcp_wit_instance_memory_high_water_bytes{component="echo"}"#).await;
    assert!(only_value(&held).is_some_and(|bytes| bytes >= 65536.0), "{held}");
    // Every query of the dashboard in deploy/ is one Prometheus takes.
    let dashboard: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/grafana/mcp-wit.json")).unwrap(),
    )
    .unwrap();
    for panel in dashboard["panels"].as_array().unwrap() {
        for target in panel["targets"].as_array().unwrap() {
            let expr = target["expr"].as_str().unwrap().replace("$__rate_interval", "1m");
            prometheus.query(&expr).await;
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn the_metrics_endpoint_speaks_both_formats_and_its_own_listener_serves_stdio() {
    let echo = fixture_arg("echo");
    let server = HttpServer::start(&[&echo]).await;
    let http = reqwest::Client::new();
    let text = http.get(server.at("/metrics")).send().await.unwrap();
    assert_eq!(text.headers()["content-type"], "text/plain; version=0.0.4; charset=utf-8");
    let open = http
        .get(server.at("/metrics"))
        .header("accept", "application/openmetrics-text; version=1.0.0")
        .send()
        .await
        .unwrap();
    assert_eq!(open.headers()["content-type"], "application/openmetrics-text; version=1.0.0; charset=utf-8");
    assert!(open.text().await.unwrap().ends_with("# EOF\n"));
    server.stop().await;
    // Off: 404, and the MCP endpoint is unchanged.
    let off = HttpServer::start(&[&echo, "--metrics", "off"]).await;
    assert_eq!(http.get(off.at("/metrics")).send().await.unwrap().status(), 404);
    off.stop().await;

    // A stdio server's metrics, on a listener of their own.
    let addr = format!("127.0.0.1:{}", support::engines::free_port());
    let mut stdio = RawServer::initialized(&["serve", &echo, "--metrics", &addr], "2025-11-25").await;
    stdio.call(1, "echo", json!({ "text": "x" })).await;
    let scraped = http.get(format!("http://{addr}/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(
        scraped.contains(r#"mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",gen_ai_tool_name="echo",mcp_protocol_version="2025-11-25",network_transport="pipe"} 1"#),
        "{scraped}"
    );
    stdio.finish().await;
}

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN: &str = "00f067aa0ba902b7";

fn traceparent() -> String {
    format!("00-{TRACE}-{CLIENT_SPAN}-01")
}

/// The one span named `name`.
fn named<'a>(spans: &'a [Span], name: &str) -> &'a Span {
    let found: Vec<&Span> = spans.iter().filter(|s| s.name == name).collect();
    assert_eq!(found.len(), 1, "{name} in {spans:#?}");
    found[0]
}

/// Checks what every request span of a call to `echo` carries.
fn check_call_span(spans: &[Span], transport: &str, version: &str) {
    let server = named(spans, "tools/call echo");
    assert_eq!(server.kind, "SPAN_KIND_SERVER");
    assert_eq!((server.trace_id.as_str(), server.parent_span_id.as_str()), (TRACE, CLIENT_SPAN), "{server:#?}");
    for (key, expected) in [
        ("mcp.method.name", "tools/call"),
        ("gen_ai.tool.name", "echo"),
        ("gen_ai.operation.name", "execute_tool"),
        ("network.transport", transport),
        ("mcp.protocol.version", version),
        ("mcp.wit.component", "echo"),
    ] {
        assert_eq!(server.attr_str(key), Some(expected), "{key} in {server:#?}");
    }
    assert!(server.attr("error.type").is_none(), "{server:#?}");
    assert_ne!(server.status.code, "STATUS_CODE_ERROR", "{server:#?}");
    // The guest's share is its child (the call of the tool, after the
    // listing its arguments are checked against).
    let guest = spans
        .iter()
        .find(|s| s.name == "guest call" && s.is_child_of(server) && s.attr_str("mcp.wit.target") == Some("echo"));
    assert_eq!(guest.and_then(|g| g.attr_str("mcp.wit.component")), Some("echo"), "{spans:#?}");
    assert_eq!(server.resource_attr("service.name"), Some(&json!("mcp-wit")), "{server:#?}");
}

#[tokio::test]
async fn spans_follow_the_mcp_conventions_and_the_clients_traceparent() {
    let receiver = OtlpReceiver::start();
    let endpoint = receiver.endpoint();
    let echo = fixture_arg("echo");

    // A 2025 session on stdio: the trace context in the call's `_meta`.
    let mut stdio = RawServer::initialized(&["serve", &echo, "--otlp-endpoint", &endpoint], "2025-11-25").await;
    let params =
        json!({ "name": "echo", "arguments": { "text": "traced" }, "_meta": { "traceparent": traceparent() } });
    let answer = stdio.request(2, "tools/call", params).await;
    assert_eq!(answer["result"]["content"][0]["text"], "traced", "{answer}");
    let unknown = stdio.request(3, "tools/call", json!({ "name": "nope", "arguments": {} })).await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    // The spans still queued go out as the process ends.
    stdio.finish().await;
    let spans = receiver.wait_for_spans(|s| s.iter().any(|s| s.name == "tools/call echo"), SHOWS_UP).await;
    check_call_span(&spans, "pipe", "2025-11-25");
    // The session's first guest call (`initialize`'s) ran on the instance
    // the start-up check made, which served no client: none made under it.
    let initialize = named(&spans, "initialize");
    let first = spans.iter().find(|s| s.name == "guest call" && s.is_child_of(initialize)).expect("a guest call");
    assert!(!spans.iter().any(|s| s.name == "instantiate" && s.is_child_of(first)), "{spans:#?}");
    // A failure: its own trace (no traceparent), its status and error type.
    let failed = spans
        .iter()
        .find(|s| s.attr_str("error.type") == Some("-32602"))
        .unwrap_or_else(|| panic!("no failed span in {spans:#?}"));
    assert_eq!((failed.status.code.as_str(), failed.is_root()), ("STATUS_CODE_ERROR", true), "{failed:#?}");
    assert_eq!(failed.attr_str("rpc.response.status_code"), Some("-32602"), "{failed:#?}");
    let before = spans.len();

    // A 2026-07-28 request over HTTP, on its own.
    let server = HttpServer::start(&[&echo, "--otlp-endpoint", &endpoint]).await;
    let client = server.client();
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "traced", "version": "1.0.0" },
        "traceparent": traceparent(),
    });
    let request = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "echo", "arguments": { "text": "modern" }, "_meta": meta },
    });
    let headers = [("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "echo")];
    let reply = client.post_raw(&headers, request.to_string()).await;
    assert_eq!(reply.response()["result"]["content"][0]["text"], "modern", "{reply:?}");
    server.stop().await;
    let spans = receiver
        .wait_for_spans(|s| s.len() > before && s[before..].iter().any(|s| s.name == "tools/call echo"), SHOWS_UP)
        .await;
    check_call_span(&spans[before..], "tcp", "2026-07-28");
}

/// A component is known in logs and metrics by the name its clients see
/// (`serverInfo.name`), not by its file's name.
#[tokio::test]
async fn metrics_and_logs_name_a_component_as_its_clients_see_it() {
    let dir = tempfile::tempdir().unwrap();
    let renamed = dir.path().join("build-output-7.wasm");
    std::fs::copy(support::fixture("echo"), &renamed).unwrap();
    let addr = format!("127.0.0.1:{}", support::engines::free_port());
    let args = ["serve", renamed.to_str().unwrap(), "--metrics", &addr, "--log-format", "json"];
    let mut stdio = RawServer::start(&args);
    let init = stdio.request(0, "initialize", support::initialize_params("2025-11-25")).await;
    assert_eq!(init["result"]["serverInfo"]["name"], "echo", "{init}");
    stdio.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    stdio.call(1, "echo", json!({ "text": "x" })).await;
    let scraped = reqwest::get(format!("http://{addr}/metrics")).await.unwrap().text().await.unwrap();
    assert!(scraped.contains(r#"mcp_wit_instances{component="echo"} 1"#), "{scraped}");
    assert!(!scraped.contains("build-output-7"), "{scraped}");
    stdio.finish_and_wait_for_stderr().await;
    let log = stdio.stderr.lock().unwrap().clone();
    let request = log
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|line| line["target"] == "mcp_wit::request" && line["method"] == "tools/call");
    assert_eq!(request.unwrap_or_else(|| panic!("no request line: {log}"))["component"], "echo");
}
