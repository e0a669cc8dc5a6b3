//! [`Telemetry`], the server's observer: a log line, metrics and a span for
//! every request.

use std::borrow::Cow;
use std::io::Write as _;
use std::sync::Arc;

use mcp_wit_protocol::observe::{
    CLIENT_TEXT_BYTES, Finished, Observer, SessionEnded, Started, TRACE_TARGET, Target, clipped, reported_method,
};
use mcp_wit_protocol::{FaultKind, Outcome};

use super::metrics::{self, Metrics, OperationKey, TargetLabel};
use super::request_line::{REQUEST_LOG_TARGET, RequestLine};
#[cfg(feature = "otel")]
use super::trace;
use crate::redact::{MaskedWriter, Redactor};

/// A request line's buffer kept for the next line up to this capacity.
const KEPT_LINE_CAPACITY: usize = 16 << 10;

thread_local! {
    /// The request line being written ([`RequestLines::Text`]): one
    /// allocation per thread, not per line.
    static TEXT_LINE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// How much of an argument or result `--log-arguments` logs.
const LOGGED_BYTES: usize = 4096;

/// How request lines are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RequestLines {
    /// As `tracing` events at INFO, target [`REQUEST_LOG_TARGET`], for
    /// whatever subscriber is installed to format.
    #[default]
    Events,
    /// Straight onto [`crate::stderr`] (with [`MaskedWriter`]'s masking),
    /// byte for byte as `tracing_subscriber::fmt`'s default format under
    /// [`EscapedText`](super::EscapedText) writes those events outside any
    /// span. For a binary whose subscriber is that format, writes these
    /// lines (target [`REQUEST_LOG_TARGET`] at INFO) and enables no span at
    /// INFO: the subscriber is not asked, line by line (a fifth of the CPU
    /// of a stdio call was the generic formatting of this line, and asking
    /// its filters a hundredth).
    Text,
}

/// What to watch of each request.
#[derive(Debug, Clone, Default)]
pub struct TelemetryOptions {
    /// Record requests into the installed [`Metrics`] (see [`Metrics::install`]).
    pub metrics: bool,
    /// Run each request in a span for a tracer.
    pub traces: bool,
    /// Log one line per request (at INFO, target `mcp_wit::request`).
    pub log_requests: bool,
    /// How those lines are written.
    pub request_lines: RequestLines,
    /// Log each call's arguments and result beside its line (never by
    /// default: they may be personal data).
    pub log_arguments: bool,
    /// Values masked as `[redacted]` wherever they would be logged.
    pub secrets: Vec<String>,
}

/// The server's observer: logs, metrics and spans for every request.
#[derive(Debug)]
pub struct Telemetry {
    options: TelemetryOptions,
    metrics: Option<Arc<Metrics>>,
    /// `options.secrets`, raw and escaped (arguments are JSON text).
    redactor: Redactor,
}

impl Telemetry {
    /// An observer watching as `options` say; metrics are recorded only if
    /// installed.
    pub fn new(options: TelemetryOptions) -> Arc<Telemetry> {
        let metrics = options.metrics.then(Metrics::global).flatten().cloned();
        let redactor = Redactor::new(&options.secrets);
        Arc::new(Telemetry { options, metrics, redactor })
    }

    fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        self.redactor.mask(text)
    }

    fn log(&self, request: &Finished<'_>) {
        if !self.options.log_requests {
            return;
        }
        // `Text` is chosen for a subscriber that writes these lines.
        if self.options.request_lines == RequestLines::Events
            && !tracing::enabled!(target: REQUEST_LOG_TARGET, tracing::Level::INFO)
        {
            return;
        }
        // Client text is clipped here, masked first (a secret is never cut
        // in two), and escaped by the log format (see `EscapedText`).
        let method = clipped(request.method_name, CLIENT_TEXT_BYTES);
        let target = match request.target {
            Some(Target::Tool(name) | Target::Prompt(name) | Target::Resource(name)) => Some(self.redact(name)),
            None => None,
        };
        let target = target.as_deref().map(|name| clipped(name, CLIENT_TEXT_BYTES));
        let outcome_text = outcome_text(request);
        // Arguments and answers only when asked for: a field that is `None`
        // is left out of the line.
        let (arguments, answer) = match self.options.log_arguments {
            true => (
                request.params.map(|p| clip(self.redact(p.get())).into_owned()),
                request.answer.map(|a| clip(self.redact(&String::from_utf8_lossy(a))).into_owned()),
            ),
            false => (None, None),
        };
        // As the guest's output has it (`CallContext::request_id`).
        let request_id = clipped(request.id.get().trim_matches('"'), CLIENT_TEXT_BYTES);
        let line = RequestLine {
            method: &method,
            target: target.as_deref(),
            outcome_text: &outcome_text,
            component: request.component,
            session: request.origin.session_id.as_deref(),
            request_id: Some(&request_id),
            caller: request.caller.map(|caller| caller.subject.as_str()),
            version: request.version.map(|v| v.as_str()),
            duration_micros: u64::try_from(request.duration.as_micros()).unwrap_or(u64::MAX),
            outcome: outcome_kind(request),
            error_code: match request.outcome {
                Outcome::Failed(code) => Some(code),
                _ => None,
            },
            arguments: arguments.as_deref(),
            answer: answer.as_deref(),
        };
        match self.options.request_lines {
            RequestLines::Events => line.emit(),
            RequestLines::Text => TEXT_LINE.with(|text| {
                let mut text = text.borrow_mut();
                text.clear();
                line.write_text(std::time::SystemTime::now(), &mut text);
                // As the subscriber's writer does: `--secret` values masked.
                let _ = MaskedWriter(crate::stderr::writer()).write(text.as_bytes());
                if text.capacity() > KEPT_LINE_CAPACITY {
                    *text = String::new();
                }
            }),
        }
    }

    fn record(&self, metrics: &Metrics, request: &Finished<'_>) {
        let target = match request.target {
            Some(Target::Tool(name)) => Some((TargetLabel::Tool, name)),
            Some(Target::Prompt(name)) => Some((TargetLabel::Prompt, name)),
            // URIs are the client's to make up: never a label.
            Some(Target::Resource(_)) | None => None,
        };
        let key = OperationKey {
            method: request.method.map_or("_OTHER", |m| m.as_str()),
            target,
            error: request.error_type(),
            version: request.version.map(|v| v.as_str()),
            transport: request.origin.transport.as_str(),
        };
        metrics.operation_by_key(&key, request.duration);
        let component = request.component.unwrap_or("");
        if let Some(kind) = request.fault.and_then(fault_kind) {
            metrics.fault(component, kind);
        }
        if request.output_capped {
            metrics.fault(component, "output_cap");
        }
    }
}

impl Observer for Telemetry {
    fn started(&self, request: &Started<'_>) -> tracing::Span {
        if !self.options.traces {
            return tracing::Span::none();
        }
        // A method not served is `_OTHER`, as in metrics: the span's name and
        // attributes are never the client's own text at any length.
        let method = reported_method(request.method);
        let span = tracing::debug_span!(
            target: TRACE_TARGET,
            "mcp.request",
            otel.name = method,
            otel.kind = "server",
            otel.status_code = tracing::field::Empty,
            otel.status_description = tracing::field::Empty,
            mcp.method.name = method,
            jsonrpc.request.id = &*clipped(request.id.get().trim_matches('"'), CLIENT_TEXT_BYTES),
            mcp.session.id = request.origin.session_id.as_deref(),
            mcp.protocol.version = tracing::field::Empty,
            network.transport = request.origin.transport.as_str(),
            gen_ai.operation.name = tracing::field::Empty,
            gen_ai.tool.name = tracing::field::Empty,
            gen_ai.prompt.name = tracing::field::Empty,
            mcp.resource.uri = tracing::field::Empty,
            mcp.wit.component = tracing::field::Empty,
            error.type = tracing::field::Empty,
            rpc.response.status_code = tracing::field::Empty,
        );
        #[cfg(feature = "otel")]
        match mcp_wit_protocol::observe::trace_context(request.params) {
            Some(context) => trace::adopt_parent(&span, &context),
            None => {
                if let Some(context) = request.transport_context {
                    trace::adopt_parent(&span, context);
                }
            }
        }
        span
    }

    fn finished(&self, span: &tracing::Span, request: &Finished<'_>) {
        if !span.is_disabled() {
            annotate(span, request);
        }
        if let Some(metrics) = &self.metrics {
            self.record(metrics, request);
        }
        self.log(request);
    }

    fn session_ended(&self, session: &SessionEnded<'_>) {
        if let Some(metrics) = &self.metrics {
            let labels: metrics::Labels = vec![
                ("mcp_protocol_version", session.version.as_str().to_owned()),
                ("network_transport", session.origin.transport.as_str().to_owned()),
            ];
            metrics.session(&labels, session.lasted);
        }
    }
}

/// The span's name and attributes once the request is answered: a target
/// is one its router lists (the core reports no other), its text clipped
/// all the same (a resource's URI is the client's).
fn annotate(span: &tracing::Span, request: &Finished<'_>) {
    let method = request.method.map_or("_OTHER", |m| m.as_str());
    match request.target {
        Some(Target::Tool(name)) => {
            let name = clipped(name, CLIENT_TEXT_BYTES);
            rename(span, format!("{method} {name}"));
            span.record("gen_ai.tool.name", &*name);
            span.record("gen_ai.operation.name", "execute_tool");
        }
        Some(Target::Prompt(name)) => {
            let name = clipped(name, CLIENT_TEXT_BYTES);
            rename(span, format!("{method} {name}"));
            span.record("gen_ai.prompt.name", &*name);
        }
        Some(Target::Resource(uri)) => {
            span.record("mcp.resource.uri", &*clipped(uri, CLIENT_TEXT_BYTES));
        }
        None => {}
    }
    if let Some(component) = request.component {
        span.record("mcp.wit.component", component);
    }
    if let Some(version) = request.version {
        span.record("mcp.protocol.version", version.as_str());
    }
    if let Outcome::Failed(code) = request.outcome {
        span.record("rpc.response.status_code", code.to_string());
    }
    if let Some(error) = request.error_type() {
        span.record("error.type", error.to_string());
        span.record("otel.status_code", "ERROR");
        if let Some(message) = request.error_message {
            span.record("otel.status_description", &*clipped(message, CLIENT_TEXT_BYTES));
        }
    }
}

/// Names a request's span after its target (`tools/call get_weather`).
fn rename(span: &tracing::Span, name: String) {
    span.record("otel.name", name.as_str());
    #[cfg(feature = "otel")]
    trace::rename(span, name);
}

/// The `kind` label of a fault, for those that are the guest's.
fn fault_kind(kind: FaultKind) -> Option<&'static str> {
    match kind {
        FaultKind::Trap => Some("trap"),
        FaultKind::Timeout => Some("deadline"),
        FaultKind::MemoryLimit => Some("memory"),
        FaultKind::Instantiate => Some("instantiate"),
        // The client's doing, and not a failure.
        FaultKind::Cancelled | FaultKind::InputRequired => None,
    }
}

fn outcome_text(request: &Finished<'_>) -> Cow<'static, str> {
    match request.outcome {
        Outcome::Answered if request.input_required => "input required".into(),
        Outcome::Answered if request.tool_error => "tool error".into(),
        Outcome::Answered => "ok".into(),
        // The message may quote the client (`Unknown tool: NAME`).
        Outcome::Failed(code) => match request.error_message {
            Some(message) => format!("error {code} ({})", clipped(message, CLIENT_TEXT_BYTES)).into(),
            None => format!("error {code}").into(),
        },
        Outcome::Cancelled => "cancelled".into(),
        Outcome::Deferred => "open".into(),
    }
}

/// The `outcome` field of a request's log line: one word.
fn outcome_kind(request: &Finished<'_>) -> &'static str {
    match request.outcome {
        Outcome::Answered if request.input_required => "input_required",
        Outcome::Answered if request.tool_error => "tool_error",
        Outcome::Answered => "ok",
        Outcome::Failed(_) => "error",
        Outcome::Cancelled => "cancelled",
        Outcome::Deferred => "open",
    }
}

/// At most [`LOGGED_BYTES`] of `text`, cut on a character boundary.
fn clip(text: Cow<'_, str>) -> Cow<'_, str> {
    match clipped(&text, LOGGED_BYTES) {
        Cow::Borrowed(_) => text,
        Cow::Owned(cut) => Cow::Owned(cut),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_clipped_on_a_character_boundary() {
        let text = "é".repeat(LOGGED_BYTES);
        let clipped = clip(Cow::Borrowed(&text));
        assert!(clipped.len() < LOGGED_BYTES + 32, "{}", clipped.len());
        assert!(clipped.ends_with(&format!("… ({} bytes)", text.len())), "{clipped}");
        assert_eq!(clip(Cow::Borrowed("short")), "short");
    }

    /// Every value a span is given or recorded, by field name.
    #[derive(Clone, Default)]
    struct SpanFields(Arc<std::sync::Mutex<Vec<(String, String)>>>);

    impl tracing::field::Visit for SpanFields {
        fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
            self.0.lock().unwrap().push((field.name().to_owned(), format!("{value:?}")));
        }

        fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
            self.0.lock().unwrap().push((field.name().to_owned(), value.to_owned()));
        }
    }

    impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for SpanFields {
        fn on_new_span(
            &self,
            attributes: &tracing::span::Attributes<'_>,
            _: &tracing::span::Id,
            _: tracing_subscriber::layer::Context<'_, S>,
        ) {
            attributes.record(&mut self.clone());
        }

        fn on_record(
            &self,
            _: &tracing::span::Id,
            values: &tracing::span::Record<'_>,
            _: tracing_subscriber::layer::Context<'_, S>,
        ) {
            values.record(&mut self.clone());
        }
    }

    #[test]
    fn a_span_is_never_named_by_the_client_and_holds_its_text_clipped() {
        use mcp_wit_protocol::observe::Origin;
        use serde_json::value::RawValue;
        use tracing_subscriber::layer::SubscriberExt;

        let made_up = format!("x\n{}", "m".repeat(1 << 18));
        let id = RawValue::from_string(serde_json::to_string(&made_up).unwrap()).unwrap();
        let uri = format!("file:///{made_up}");
        let message = format!("Unknown tool: {made_up}");
        let origin = Origin::default();
        let fields = SpanFields::default();
        let telemetry = Telemetry::new(TelemetryOptions { traces: true, ..Default::default() });
        tracing::subscriber::with_default(tracing_subscriber::registry().with(fields.clone()), || {
            for (method, target) in [(made_up.as_str(), None), ("resources/read", Some(Target::Resource(&uri)))] {
                let started = Started { method, id: &id, params: None, origin: &origin, transport_context: None };
                let span = telemetry.started(&started);
                let finished = Finished {
                    method_name: method,
                    method: mcp_wit_protocol::Method::parse(method),
                    id: &id,
                    params: None,
                    target,
                    component: None,
                    outcome: Outcome::Failed(-32602),
                    tool_error: false,
                    fault: None,
                    output_capped: false,
                    error_message: Some(&message),
                    input_required: false,
                    version: None,
                    origin: &origin,
                    caller: None,
                    duration: std::time::Duration::ZERO,
                    answer: None,
                };
                telemetry.finished(&span, &finished);
            }
        });
        let fields = fields.0.lock().unwrap();
        let named: Vec<&str> = fields.iter().filter(|(name, _)| name == "otel.name").map(|(_, v)| v.as_str()).collect();
        assert_eq!(named, ["_OTHER", "resources/read"]);
        let methods = fields.iter().filter(|(name, _)| name == "mcp.method.name").map(|(_, v)| v.as_str());
        assert_eq!(methods.collect::<Vec<_>>(), ["_OTHER", "resources/read"]);
        for field in ["jsonrpc.request.id", "mcp.resource.uri", "otel.status_description"] {
            assert!(fields.iter().any(|(name, _)| name == field), "no {field}");
        }
        let longest = fields.iter().max_by_key(|(_, value)| value.len()).unwrap();
        assert!(longest.1.len() < CLIENT_TEXT_BYTES + 32, "{} of {} bytes", longest.0, longest.1.len());
    }

    #[test]
    fn secrets_are_masked_in_what_is_logged() {
        let telemetry = Telemetry::new(TelemetryOptions { secrets: vec!["hunter22".into()], ..Default::default() });
        assert_eq!(telemetry.redact(r#"{"password":"hunter22"}"#), r#"{"password":"[redacted]"}"#);
        // As `--log-arguments` sees a secret with a quote or a backslash:
        // JSON-escaped.
        let telemetry =
            Telemetry::new(TelemetryOptions { secrets: vec![r#"hun"ter\22"#.into()], ..Default::default() });
        assert_eq!(telemetry.redact(r#"{"password":"hun\"ter\\22"}"#), r#"{"password":"[redacted]"}"#);
    }
}
