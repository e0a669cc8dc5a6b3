//! A request's span adopts the W3C trace context its client sent, so that
//! a tracer shows the server's work under the client's call.

use std::str::FromStr;

use mcp_wit_protocol::observe::TraceContext;
use opentelemetry::trace::{SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState};
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// Makes the span that `context` names the parent of `span` (a malformed
/// `traceparent` is ignored: the span starts a trace of its own).
pub(super) fn adopt_parent(span: &tracing::Span, context: &TraceContext) {
    let Some(parent) = context.traceparent.as_deref().and_then(parse_traceparent) else {
        tracing::debug!("ignoring a malformed traceparent");
        return;
    };
    let state = context.tracestate.as_deref().and_then(|s| TraceState::from_str(s).ok()).unwrap_or_default();
    let parent = SpanContext::new(parent.0, parent.1, parent.2, true, state);
    // Only fails without an OpenTelemetry layer, when there is no trace to join.
    let _ = span.set_parent(opentelemetry::Context::new().with_remote_span_context(parent));
}

/// Names `span` `name` for the tracer: a request's span is named once its
/// target is known, after it started (the `otel.name` field only names a
/// span not yet started).
pub(super) fn rename(span: &tracing::Span, name: String) {
    span.context().span().update_name(name);
}

/// `version-traceid-parentid-flags`, per W3C Trace Context level 1: version
/// `ff` and all-zero ids are invalid; a later version's extra fields are
/// ignored.
fn parse_traceparent(text: &str) -> Option<(TraceId, SpanId, TraceFlags)> {
    let mut parts = text.trim().split('-');
    let version = parts.next().filter(|v| v.len() == 2 && *v != "ff")?;
    let trace = parts.next().filter(|t| t.len() == 32)?;
    let span = parts.next().filter(|s| s.len() == 16)?;
    let flags = parts.next().filter(|f| f.len() == 2)?;
    if version == "00" && parts.next().is_some() {
        return None;
    }
    let all_hex = |s: &str| s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if ![version, trace, span, flags].into_iter().all(all_hex) {
        return None;
    }
    let trace = TraceId::from_hex(trace).ok().filter(|id| *id != TraceId::INVALID)?;
    let span = SpanId::from_hex(span).ok().filter(|id| *id != SpanId::INVALID)?;
    let flags = TraceFlags::new(u8::from_str_radix(flags, 16).ok()?);
    Some((trace, span, flags))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traceparents_are_read_as_the_w3c_defines_them() {
        let (trace, span, flags) =
            parse_traceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01").unwrap();
        assert_eq!(trace.to_string(), "0af7651916cd43dd8448eb211c80319c");
        assert_eq!(span.to_string(), "b7ad6b7169203331");
        assert!(flags.is_sampled());
        for bad in [
            "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b71692033-01",
            "",
        ] {
            assert!(parse_traceparent(bad).is_none(), "{bad}");
        }
        // A later version may add fields.
        assert!(parse_traceparent("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-what").is_some());
    }
}
