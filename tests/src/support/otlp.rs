//! An OTLP/HTTP receiver for tests: `tests/peers/otlp_receiver.py`, which
//! decodes trace exports with the official protobuf definitions (PyPI
//! `opentelemetry-proto`, pinned in `tests/peers/requirements.txt`) and
//! reports each span as a JSON line, collected here as [`Span`]s.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Map, Value};

/// How long the receiver may take to listen (the venv is already built).
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// One span as an exporter sent it (ids in lowercase hex, enums by their
/// protobuf names).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Span {
    /// 32 hex digits.
    pub trace_id: String,
    /// 16 hex digits.
    pub span_id: String,
    /// 16 hex digits, or "" for a root span.
    pub parent_span_id: String,
    pub name: String,
    /// `SPAN_KIND_SERVER`, `SPAN_KIND_CLIENT`, `SPAN_KIND_INTERNAL`, …
    pub kind: String,
    pub status: SpanStatus,
    /// The span's attributes, as JSON values (arrays and maps nested).
    pub attributes: Map<String, Value>,
    pub events: Vec<SpanEvent>,
    /// The attributes of the resource that sent it (`service.name`, …).
    pub resource: Map<String, Value>,
    /// The instrumentation scope's name.
    pub scope: String,
    pub links: Vec<SpanLink>,
    pub start_time_unix_nano: u64,
    pub end_time_unix_nano: u64,
}

/// A span's status.
#[derive(Debug, Clone, Deserialize)]
pub struct SpanStatus {
    /// `STATUS_CODE_UNSET`, `STATUS_CODE_OK` or `STATUS_CODE_ERROR`.
    pub code: String,
    pub message: String,
}

/// An event in a span (`exception`, …).
#[derive(Debug, Clone, Deserialize)]
pub struct SpanEvent {
    pub name: String,
    pub attributes: Map<String, Value>,
}

/// A link to another span.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpanLink {
    pub trace_id: String,
    pub span_id: String,
}

impl Span {
    /// The attribute `key`.
    pub fn attr(&self, key: &str) -> Option<&Value> {
        self.attributes.get(key)
    }

    /// The attribute `key`, if it is a string.
    pub fn attr_str(&self, key: &str) -> Option<&str> {
        self.attr(key).and_then(Value::as_str)
    }

    /// The resource attribute `key`.
    pub fn resource_attr(&self, key: &str) -> Option<&Value> {
        self.resource.get(key)
    }

    /// Whether it has no parent.
    pub fn is_root(&self) -> bool {
        self.parent_span_id.is_empty()
    }

    /// Whether `parent` is its parent (same trace, its parent id).
    pub fn is_child_of(&self, parent: &Span) -> bool {
        self.trace_id == parent.trace_id && self.parent_span_id == parent.span_id
    }

    /// From its start to its end.
    pub fn duration(&self) -> Duration {
        Duration::from_nanos(self.end_time_unix_nano.saturating_sub(self.start_time_unix_nano))
    }
}

/// The receiver, listening on `127.0.0.1`; killed when dropped (also when
/// a test panics).
pub struct OtlpReceiver {
    child: Child,
    port: u16,
    spans: Arc<Mutex<Vec<Span>>>,
    /// Lines that are not a [`Span`]: a receiver out of step with this
    /// module.
    malformed: Arc<Mutex<Vec<String>>>,
    stderr: Arc<Mutex<String>>,
    /// Held open: the receiver exits when it closes, so that it does not
    /// outlive a test process killed before its drop ran.
    _stdin: ChildStdin,
}

impl OtlpReceiver {
    /// Starts the receiver with the peers' venv Python (built on first use)
    /// and waits until it listens.
    ///
    /// # Panics
    ///
    /// If it does not start: with its stderr.
    pub fn start() -> OtlpReceiver {
        let script = super::peers::scripts().join("otlp_receiver.py");
        let mut child = Command::new(super::peers::python())
            .arg(&script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
        let stdin = child.stdin.take().unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut pipe = child.stderr.take().unwrap();
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut chunk = [0; 4096];
            while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                sink.lock().unwrap().push_str(&String::from_utf8_lossy(&chunk[..n]));
            }
        });
        let spans = Arc::new(Mutex::new(Vec::new()));
        let malformed = Arc::new(Mutex::new(Vec::new()));
        let (port_sender, port_receiver) = mpsc::channel();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let (span_sink, malformed_sink) = (spans.clone(), malformed.clone());
        std::thread::spawn(move || {
            let Some(Ok(first)) = lines.next() else { return };
            let _ = port_sender.send(first);
            for line in lines.map_while(Result::ok) {
                match serde_json::from_str::<Span>(&line) {
                    Ok(span) => span_sink.lock().unwrap().push(span),
                    Err(e) => malformed_sink.lock().unwrap().push(format!("{e}: {line}")),
                }
            }
        });
        let first = port_receiver.recv_timeout(START_TIMEOUT);
        let port = first.as_deref().ok().and_then(|line| line.strip_prefix("listening ")?.trim().parse().ok());
        let Some(port) = port else {
            let _ = child.kill();
            let status = child.wait();
            // Let the reader take the last of what it wrote.
            std::thread::sleep(Duration::from_millis(100));
            panic!("the OTLP receiver did not start (first line {first:?}, {status:?}):\n{}", stderr.lock().unwrap());
        };
        OtlpReceiver { child, port, spans, malformed, stderr, _stdin: stdin }
    }

    /// `http://127.0.0.1:PORT`, as `OTEL_EXPORTER_OTLP_ENDPOINT` takes it
    /// (exporters add `/v1/traces`).
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// `http://127.0.0.1:PORT/v1/traces`, as
    /// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` takes it (used as it is).
    pub fn traces_endpoint(&self) -> String {
        format!("{}/v1/traces", self.endpoint())
    }

    /// What the receiver wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Every span received so far, in the order they came.
    ///
    /// # Panics
    ///
    /// If the receiver reported something that is not a span.
    pub fn spans(&self) -> Vec<Span> {
        let malformed = self.malformed.lock().unwrap();
        assert!(malformed.is_empty(), "the OTLP receiver wrote lines that are not spans:\n{}", malformed.join("\n"));
        self.spans.lock().unwrap().clone()
    }

    /// Waits, checking every 100 ms, until `predicate` holds for the spans
    /// received so far, and returns them.
    ///
    /// # Panics
    ///
    /// If it still does not hold after `deadline` (a guard against hanging,
    /// not a measure of speed): with the spans received.
    pub async fn wait_for_spans(&self, predicate: impl Fn(&[Span]) -> bool, deadline: Duration) -> Vec<Span> {
        let started = Instant::now();
        loop {
            let spans = self.spans();
            if predicate(&spans) {
                return spans;
            }
            assert!(
                started.elapsed() < deadline,
                "the spans wanted did not come in {deadline:?}; received {}:\n{}\nreceiver stderr:\n{}",
                spans.len(),
                spans.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join("\n"),
                self.stderr()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for OtlpReceiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
