//! Traces exported by OTLP: the OpenTelemetry SDK, fed the spans the
//! library makes (target `mcp_wit::trace`) through `tracing-opentelemetry`.
//!
//! Off unless a collector is named (`--otlp-endpoint`, or the standard
//! `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `OTEL_EXPORTER_OTLP_ENDPOINT`),
//! and `OTEL_SDK_DISABLED` / `OTEL_TRACES_EXPORTER=none` turn it off as in
//! every OpenTelemetry SDK. Off, nothing is created and requests make no
//! span.

use std::borrow::Cow;
use std::sync::OnceLock;
use std::time::Duration;

use mcp_wit::redact::Redactor;
use opentelemetry::Value;
use opentelemetry::trace::{Status, TracerProvider as _};
use opentelemetry_otlp::WithExportConfig;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::trace::{SdkTracerProvider, SpanData, SpanExporter};
use tracing_subscriber::Layer;
use tracing_subscriber::registry::LookupSpan;

/// The provider, kept to flush what is queued when the process ends.
static PROVIDER: OnceLock<SdkTracerProvider> = OnceLock::new();

/// How long the spans still queued at exit may take to go out.
const FLUSH_AT_EXIT: Duration = Duration::from_secs(5);

/// Whether traces are exported: requests then run in spans.
pub fn traces_exported() -> bool {
    PROVIDER.get().is_some()
}

/// Whether traces are exported to a collector: `flag` (`--otlp-endpoint`)
/// names one, or the environment does.
pub fn exports_traces(flag: Option<&str>) -> bool {
    endpoint(flag).is_some()
}

/// The collector to export to: `flag`, else the environment's; `None` when
/// traces are off.
fn endpoint(flag: Option<&str>) -> Option<Option<String>> {
    let set = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    if set("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true"))
        || set("OTEL_TRACES_EXPORTER").is_some_and(|v| v.eq_ignore_ascii_case("none"))
    {
        return None;
    }
    match flag {
        // A base URL, as OTEL_EXPORTER_OTLP_ENDPOINT is: the signal's path added.
        Some(url) => Some(Some(format!("{}/v1/traces", url.trim_end_matches('/')))),
        // The exporter reads these itself (and adds the path to the second).
        None if set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").is_some() || set("OTEL_EXPORTER_OTLP_ENDPOINT").is_some() => {
            Some(None)
        }
        None => None,
    }
}

/// The layer that exports the library's spans, when traces are on
/// (`flag`: `--otlp-endpoint`). A collector that cannot be reached costs
/// nothing but the spans: they are sent in batches from a thread of their
/// own and dropped when it falls behind.
pub fn layer<S>(flag: Option<&str>) -> anyhow::Result<Option<impl Layer<S>>>
where
    S: tracing::Subscriber + for<'span> LookupSpan<'span>,
{
    let Some(endpoint) = endpoint(flag) else { return Ok(None) };
    let mut exporter = opentelemetry_otlp::SpanExporter::builder().with_http();
    if let Some(endpoint) = endpoint {
        exporter = exporter.with_endpoint(endpoint);
    }
    let exporter = MaskedSpans(exporter.build()?);
    let resource = match std::env::var_os("OTEL_SERVICE_NAME") {
        // The SDK's detectors read it (and OTEL_RESOURCE_ATTRIBUTES).
        Some(_) => Resource::builder().build(),
        None => Resource::builder().with_service_name("mcp-wit").build(),
    };
    // The sampler is the SDK's default, which reads OTEL_TRACES_SAMPLER.
    let provider = SdkTracerProvider::builder().with_batch_exporter(exporter).with_resource(resource).build();
    let tracer = provider.tracer("mcp-wit");
    let _ = PROVIDER.set(provider);
    let only_ours = tracing_subscriber::filter::filter_fn(|meta| meta.target() == mcp_wit::telemetry::TRACE_TARGET);
    // Source locations, threads and busy/idle times are the profiler's
    // business: left out, each span costs less.
    let layer = tracing_opentelemetry::layer()
        .with_tracer(tracer)
        .with_location(false)
        .with_threads(false)
        .with_tracked_inactivity(false);
    Ok(Some(layer.with_filter(only_ours)))
}

/// An exporter that first masks the `--secret` values a span quotes (its
/// name, string attributes, events and status message: a guest's URL, an
/// error message), as every log line is masked
/// ([`mcp_wit::redact::mask_in_logs`]).
#[derive(Debug)]
struct MaskedSpans<E>(E);

impl<E: SpanExporter> SpanExporter for MaskedSpans<E> {
    fn export(&self, mut batch: Vec<SpanData>) -> impl Future<Output = OTelSdkResult> + Send {
        let redactor = mcp_wit::redact::logs_redactor();
        if !redactor.is_empty() {
            batch.iter_mut().for_each(|span| mask_span(&redactor, span));
        }
        self.0.export(batch)
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.0.shutdown_with_timeout(timeout)
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.0.force_flush()
    }

    fn set_resource(&mut self, resource: &Resource) {
        self.0.set_resource(resource);
    }
}

/// `span` with every text `redactor` finds a secret in masked.
fn mask_span(redactor: &Redactor, span: &mut SpanData) {
    let masked = |text: &str| match redactor.mask(text) {
        Cow::Owned(masked) => Some(masked),
        Cow::Borrowed(_) => None,
    };
    if let Some(name) = masked(&span.name) {
        span.name = name.into();
    }
    let events = span.events.events.iter_mut().flat_map(|event| event.attributes.iter_mut());
    for attribute in span.attributes.iter_mut().chain(events) {
        if let Value::String(text) = &attribute.value
            && let Some(text) = masked(text.as_str())
        {
            attribute.value = Value::String(text.into());
        }
    }
    if let Status::Error { description } = &mut span.status
        && let Some(text) = masked(description)
    {
        *description = text.into();
    }
}

/// Sends the spans still queued (at exit).
pub fn flush() {
    if let Some(provider) = PROVIDER.get()
        && let Err(e) = provider.shutdown_with_timeout(FLUSH_AT_EXIT)
    {
        tracing::warn!("some traces were not exported: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_a_span_quotes_is_masked_before_export() {
        use opentelemetry::KeyValue;
        use opentelemetry::trace::{SpanContext, SpanId, SpanKind};
        let redactor = Redactor::new(["s3cr3t-in-a-span"]);
        let mut span = SpanData {
            span_context: SpanContext::empty_context(),
            parent_span_id: SpanId::INVALID,
            parent_span_is_remote: false,
            span_kind: SpanKind::Client,
            name: "GET s3cr3t-in-a-span".into(),
            start_time: std::time::SystemTime::UNIX_EPOCH,
            end_time: std::time::SystemTime::UNIX_EPOCH,
            attributes: vec![
                KeyValue::new("url.full", "http://api.example/s3cr3t-in-a-span/data"),
                KeyValue::new("http.request.method", "GET"),
            ],
            dropped_attributes_count: 0,
            events: Default::default(),
            links: Default::default(),
            status: Status::error("denied: s3cr3t-in-a-span"),
            instrumentation_scope: Default::default(),
        };
        mask_span(&redactor, &mut span);
        assert_eq!(span.name, "GET [redacted]");
        assert_eq!(span.attributes[0].value.as_str(), "http://api.example/[redacted]/data");
        assert_eq!(span.attributes[1].value.as_str(), "GET");
        assert_eq!(span.status, Status::error("denied: [redacted]"));
    }

    #[test]
    fn a_flag_is_a_base_url() {
        // Assumes the test's environment names no collector of its own.
        if std::env::var_os("OTEL_SDK_DISABLED").is_none() {
            assert_eq!(endpoint(Some("http://127.0.0.1:4318/")), Some(Some("http://127.0.0.1:4318/v1/traces".into())));
        }
    }
}
