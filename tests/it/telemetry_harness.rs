//! The telemetry tests' harness on its own, without mcp-wit: a real
//! Prometheus scrapes a static exposition served here and answers PromQL
//! about it, and the OTLP/HTTP receiver decodes a trace export made with the
//! official protobuf definitions. If these fail, a telemetry test's failure
//! says nothing about mcp-wit.

use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_wit_tests::support::otlp::OtlpReceiver;
use mcp_wit_tests::support::peers;
use mcp_wit_tests::support::prometheus::{self, Prometheus};
use serde_json::{Value, json};

/// A guard against hanging, not a measure of speed.
const DEADLINE: Duration = Duration::from_secs(30);

/// A counter and a histogram of ten observations: two ≤ 0.1, four more
/// ≤ 0.5, two more ≤ 1, two above. The median (the 5th) falls in
/// (0.1, 0.5], three of that bucket's four in: 0.1 + 0.4 × 3/4 = 0.4.
const EXPOSITION: &str = "\
# HELP harness_probe_total Probes, by kind.
# TYPE harness_probe_total counter
harness_probe_total{kind=\"a\"} 3
# HELP harness_probe_duration_seconds How long a probe took.
# TYPE harness_probe_duration_seconds histogram
harness_probe_duration_seconds_bucket{le=\"0.1\"} 2
harness_probe_duration_seconds_bucket{le=\"0.5\"} 6
harness_probe_duration_seconds_bucket{le=\"1\"} 8
harness_probe_duration_seconds_bucket{le=\"+Inf\"} 10
harness_probe_duration_seconds_sum 7.25
harness_probe_duration_seconds_count 10
";

/// Serves [`EXPOSITION`] at `/metrics` on a loopback port; counts scrapes.
async fn exposition_server() -> (SocketAddr, Arc<AtomicUsize>) {
    let scrapes = Arc::new(AtomicUsize::new(0));
    let counted = scrapes.clone();
    let app = axum::Router::new().route(
        "/metrics",
        axum::routing::get(move || {
            counted.fetch_add(1, Ordering::Relaxed);
            std::future::ready(([("content-type", "text/plain; version=0.0.4")], EXPOSITION))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (address, scrapes)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prometheus_scrapes_a_target_and_answers_promql() {
    let (address, scrapes) = exposition_server().await;
    let prometheus = Prometheus::start(&[address]).await;

    let targets = prometheus.targets_up().await;
    assert_eq!(targets[0]["labels"]["job"], "mcp-wit", "{targets}");
    assert_eq!(targets[0]["labels"]["instance"], address.to_string(), "{targets}");
    assert_eq!(targets[0]["scrapeUrl"], format!("http://{address}/metrics"), "{targets}");
    assert!(scrapes.load(Ordering::Relaxed) >= 1, "Prometheus reports the target up but never scraped it");

    let counter = prometheus.wait_for("harness_probe_total", |r| prometheus::only_value(r).is_some(), DEADLINE).await;
    let sample = &counter[0];
    assert_eq!(prometheus::value(sample), 3.0, "{counter}");
    assert_eq!(sample["metric"]["kind"], "a", "{counter}");
    assert_eq!(sample["metric"]["job"], "mcp-wit", "{counter}");
    assert_eq!(sample["metric"]["instance"], address.to_string(), "{counter}");

    let median = prometheus.query("histogram_quantile(0.5, sum by (le) (harness_probe_duration_seconds_bucket))").await;
    let median = prometheus::only_value(&median).unwrap_or_else(|| panic!("no median: {median}"));
    assert!((median - 0.4).abs() < 1e-9, "median {median}, expected 0.4");

    let count = prometheus.query("harness_probe_duration_seconds_count").await;
    assert_eq!(prometheus::only_value(&count), Some(10.0), "{count}");
    let mean = prometheus.query("harness_probe_duration_seconds_sum / harness_probe_duration_seconds_count").await;
    assert_eq!(prometheus::only_value(&mean), Some(0.725), "{mean}");
    // A series nobody exposes is an empty vector, not an error.
    assert_eq!(prometheus::only_value(&prometheus.query("harness_no_such_series").await), None);
    // A scalar result.
    assert_eq!(prometheus::only_value(&prometheus.query("scalar(up{job=\"mcp-wit\"})").await), Some(1.0));

    // Scraping goes on.
    prometheus
        .wait_for("count_over_time(up{job=\"mcp-wit\"}[1m])", |r| prometheus::only_value(r) >= Some(2.0), DEADLINE)
        .await;
    assert!(scrapes.load(Ordering::Relaxed) >= 2, "scraped {} times", scrapes.load(Ordering::Relaxed));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[should_panic(expected = "bad_data")]
async fn a_bad_query_fails_loudly() {
    let (address, _) = exposition_server().await;
    let prometheus = Prometheus::start(&[address]).await;
    prometheus.query("sum by (le (").await;
}

/// What `otlp_send.py` got back: the HTTP status and the body, in hex.
fn send(url: &str, args: &[&str], spans: Option<&Value>) -> (u16, String) {
    let mut child = Command::new(peers::python())
        .arg(peers::scripts().join("otlp_send.py"))
        .arg(url)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sender runs");
    let input = spans.map(Value::to_string).unwrap_or_default();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "otlp_send.py failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let answer: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    (answer["status"].as_u64().unwrap() as u16, answer["body"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn the_otlp_receiver_decodes_an_export() {
    let receiver = OtlpReceiver::start();
    assert!(receiver.endpoint().starts_with("http://127.0.0.1:"), "{}", receiver.endpoint());
    let traces = receiver.traces_endpoint();
    let trace = "0af7651916cd43dd8448eb211c80319c";
    let export = json!({
        "resource": { "service.name": "harness", "service.version": "1.2.3" },
        "scope": "harness-scope",
        "spans": [
            {
                "traceId": trace, "spanId": "b7ad6b7169203331", "name": "POST /mcp",
                "kind": "SPAN_KIND_SERVER",
                "startTimeUnixNano": 1_700_000_000_000_000_000_u64,
                "endTimeUnixNano": 1_700_000_000_250_000_000_u64,
                "attributes": { "http.request.method": "POST", "http.response.status_code": 200 },
            },
            {
                "traceId": trace, "spanId": "00f067aa0ba902b7", "parentSpanId": "b7ad6b7169203331",
                "name": "tools/call echo", "kind": "SPAN_KIND_INTERNAL",
                "startTimeUnixNano": 1_700_000_000_100_000_000_u64,
                "endTimeUnixNano": 1_700_000_000_200_000_000_u64,
                "attributes": {
                    "mcp.method.name": "tools/call", "gen_ai.tool.name": "echo",
                    "retried": false, "ratio": 0.5, "tags": ["x", "y"],
                },
                "status": { "code": "STATUS_CODE_ERROR", "message": "tool failed" },
                "links": [{ "traceId": "4bf92f3577b34da6a3ce929d0e0e4736", "spanId": "00f067aa0ba90200" }],
            },
        ],
    });
    let sent = tokio::task::spawn_blocking({
        let traces = traces.clone();
        move || send(&traces, &["--gzip"], Some(&export))
    })
    .await
    .unwrap();
    // An empty ExportTraceServiceResponse serializes to no bytes.
    assert_eq!(sent, (200, String::new()));

    let spans = receiver.wait_for_spans(|spans| spans.len() >= 2, DEADLINE).await;
    assert_eq!(spans.len(), 2, "{spans:#?}");
    let (root, child) = (&spans[0], &spans[1]);
    assert_eq!(root.name, "POST /mcp");
    assert_eq!(root.kind, "SPAN_KIND_SERVER");
    assert!(root.is_root(), "{root:?}");
    assert_eq!(root.status.code, "STATUS_CODE_UNSET");
    assert_eq!(root.attr("http.response.status_code"), Some(&json!(200)));
    assert_eq!(root.duration(), Duration::from_millis(250));

    assert_eq!(child.name, "tools/call echo");
    assert_eq!(child.kind, "SPAN_KIND_INTERNAL");
    assert_eq!(child.trace_id, trace);
    assert_eq!(child.span_id, "00f067aa0ba902b7");
    assert_eq!(child.parent_span_id, "b7ad6b7169203331");
    assert!(child.is_child_of(root), "{child:?}");
    assert_eq!(child.attr_str("mcp.method.name"), Some("tools/call"));
    assert_eq!(child.attr_str("gen_ai.tool.name"), Some("echo"));
    assert_eq!(child.attr("retried"), Some(&json!(false)));
    assert_eq!(child.attr("ratio"), Some(&json!(0.5)));
    assert_eq!(child.attr("tags"), Some(&json!(["x", "y"])));
    assert_eq!(child.attr("absent"), None);
    assert_eq!((child.status.code.as_str(), child.status.message.as_str()), ("STATUS_CODE_ERROR", "tool failed"));
    assert_eq!(child.links.len(), 1);
    assert_eq!(child.links[0].trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
    assert_eq!(child.links[0].span_id, "00f067aa0ba90200");
    for span in &spans {
        assert_eq!(span.resource_attr("service.name"), Some(&json!("harness")));
        assert_eq!(span.resource_attr("service.version"), Some(&json!("1.2.3")));
        assert_eq!(span.scope, "harness-scope");
    }

    // What an exporter must not be told is fine, and what it may send
    // beside traces.
    let endpoint = receiver.endpoint();
    let answers = tokio::task::spawn_blocking(move || {
        [
            send(&traces, &["--raw", "garbage"], None).0,
            send(&traces, &["--content-type", "application/json", "--raw", "{}"], None).0,
            send(&format!("{endpoint}/v1/nothing"), &["--raw", ""], None).0,
            send(&format!("{endpoint}/v1/metrics"), &["--raw", ""], None).0,
            send(&format!("{endpoint}/v1/logs"), &["--raw", ""], None).0,
        ]
    })
    .await
    .unwrap();
    assert_eq!(answers, [400, 415, 404, 200, 200]);
    assert_eq!(receiver.spans().len(), 2, "{:#?}", receiver.spans());
}
