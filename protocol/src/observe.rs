//! What each request came to, for whoever watches the server: invocation
//! logs, metrics, traces.
//!
//! A [`Session`](crate::Session) or [`StatelessRequest`](crate::StatelessRequest)
//! given an [`Observer`] (in [`SessionOptions::observer`](crate::SessionOptions::observer))
//! tells it of every request it answers: once as the request starts, for
//! the span it runs in (guest calls and host calls made while it runs are
//! that span's children), and once it is answered, with what it came to.
//! The core only reports; what to record is the observer's. Without one, a
//! request costs nothing more than it did.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use serde_json::value::RawValue;

use crate::auth::Caller;
use crate::method::Method;
use crate::router::FaultKind;
use crate::version::ProtocolVersion;

/// The `tracing` target of spans meant for a tracer (the request's, and
/// those of the work done within it).
pub const TRACE_TARGET: &str = "mcp_wit::trace";

/// At most this many bytes of a client's text (a name, a URI, a request id,
/// an unknown method, an error message quoting them) go into a log line or a
/// span attribute: the rest is cut (see [`clipped`]), so that a client
/// cannot make the server hold or send its text many times over.
pub const CLIENT_TEXT_BYTES: usize = 256;

/// At most `max` bytes of `text`, cut on a character boundary and marked
/// with its whole length (`abc… (262144 bytes)`) when cut.
pub fn clipped(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let end = text.floor_char_boundary(max);
    Cow::Owned(format!("{}… ({} bytes)", &text[..end], text.len()))
}

/// The name a method is reported by in metrics and span names: its own
/// when served, else `_OTHER` (OpenTelemetry's word for a value outside the
/// known set), so that a client cannot make up a name that is kept.
pub fn reported_method(method: &str) -> &'static str {
    Method::parse(method).map_or("_OTHER", Method::as_str)
}

/// Told of every request a session answers, and of the sessions themselves.
///
/// Called on the thread that serves the request, between its message and
/// its answer: an implementation records and returns (queue anything slow).
pub trait Observer: Send + Sync + 'static {
    /// A request starts: the span it runs in ([`tracing::Span::none`] for
    /// none). The span is entered while the request runs.
    fn started(&self, request: &Started<'_>) -> tracing::Span {
        let _ = request;
        tracing::Span::none()
    }

    /// A request was answered (or cancelled, or deferred); `span` is the
    /// one [`Observer::started`] gave.
    fn finished(&self, span: &tracing::Span, request: &Finished<'_>);

    /// A 2025 session that `initialize` opened has ended, after `lasted`.
    fn session_ended(&self, session: &SessionEnded<'_>) {
        let _ = session;
    }
}

/// What became of a request a session handled: what its last message to
/// the client says, so that a transport need not read it back (2026-07-28
/// over HTTP gives some errors a status of their own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub enum Outcome {
    /// Its result was sent.
    Answered,
    /// Its error, with this JSON-RPC code, was sent.
    Failed(i32),
    /// Nothing was sent: it was cancelled.
    Cancelled,
    /// It stays open, answered later (`subscriptions/listen`).
    Deferred,
}

/// The transport a request came by, as OpenTelemetry's `network.transport`
/// names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Transport {
    /// Standard input and output (`pipe`).
    #[default]
    Pipe,
    /// HTTP (`tcp`).
    Tcp,
    /// Called within the process (`inproc`).
    InProcess,
}

impl Transport {
    /// The `network.transport` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Pipe => "pipe",
            Transport::Tcp => "tcp",
            Transport::InProcess => "inproc",
        }
    }
}

/// Where requests come from: set once per session by its transport.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    /// The transport.
    pub transport: Transport,
    /// The session's id on its transport (`Mcp-Session-Id`), when it has one.
    pub session_id: Option<Arc<str>>,
}

/// A request as it starts.
#[derive(Debug, Clone, Copy)]
pub struct Started<'a> {
    /// The method as sent.
    pub method: &'a str,
    /// Its JSON-RPC id, as sent.
    pub id: &'a RawValue,
    /// Its params, as sent (the trace context in `_meta` is read from them:
    /// see [`trace_context`]).
    pub params: Option<&'a RawValue>,
    /// Where it came from.
    pub origin: &'a Origin,
    /// The trace context its transport carried (the HTTP `traceparent`
    /// header), for when its `_meta` carries none.
    pub transport_context: Option<&'a TraceContext>,
}

/// What the request named, once the routers knew it: names a client made up
/// are never reported, so that labels stay the routers' own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'a> {
    /// A tool, as the client names it (with its mount's prefix).
    Tool(&'a str),
    /// A prompt, as the client names it.
    Prompt(&'a str),
    /// A resource's URI, as the client sent it.
    Resource(&'a str),
}

/// A request once answered.
#[derive(Debug, Clone, Copy)]
pub struct Finished<'a> {
    /// The method as sent.
    pub method_name: &'a str,
    /// The method, if it is one served.
    pub method: Option<Method>,
    /// Its JSON-RPC id, as sent.
    pub id: &'a RawValue,
    /// Its params, as sent.
    pub params: Option<&'a RawValue>,
    /// What it named, when a router knew it.
    pub target: Option<Target<'a>>,
    /// The label of the component that served it, when one did.
    pub component: Option<&'a str>,
    /// What became of it.
    pub outcome: Outcome,
    /// Whether its result is a tool error (`isError`).
    pub tool_error: bool,
    /// Why the guest call failed, when it did.
    pub fault: Option<FaultKind>,
    /// Whether the guest's result was refused for its size (`--max-output`).
    pub output_capped: bool,
    /// The message of the JSON-RPC error sent, when one was.
    pub error_message: Option<&'a str>,
    /// Whether its result asks the client for input (a 2026-07-28 round).
    pub input_required: bool,
    /// The revision it was served at, when known.
    pub version: Option<ProtocolVersion>,
    /// Where it came from.
    pub origin: &'a Origin,
    /// Who made it, when authenticated.
    pub caller: Option<&'a Caller>,
    /// How long it took, from its message to its answer.
    pub duration: Duration,
    /// The answer as sent (its JSON-RPC response), when one was.
    pub answer: Option<&'a [u8]>,
}

impl Finished<'_> {
    /// OpenTelemetry's `error.type`: the JSON-RPC code of an error,
    /// `tool_error` for a tool's error result, none for a success.
    pub fn error_type(&self) -> Option<ErrorType> {
        match self.outcome {
            Outcome::Failed(code) => Some(ErrorType::Code(code)),
            _ if self.tool_error => Some(ErrorType::ToolError),
            _ => None,
        }
    }

    /// The tool's name when it is a `tools/call` (`gen_ai.tool.name`).
    pub fn tool(&self) -> Option<&str> {
        match self.target {
            Some(Target::Tool(name)) => Some(name),
            _ => None,
        }
    }

    /// The prompt's name when it is a `prompts/get` (`gen_ai.prompt.name`).
    pub fn prompt(&self) -> Option<&str> {
        match self.target {
            Some(Target::Prompt(name)) => Some(name),
            _ => None,
        }
    }
}

/// What OpenTelemetry's `error.type` says of a request that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorType {
    /// A JSON-RPC error with this code.
    Code(i32),
    /// A result with `isError`.
    ToolError,
}

impl std::fmt::Display for ErrorType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ErrorType::Code(code) => write!(f, "{code}"),
            ErrorType::ToolError => f.write_str("tool_error"),
        }
    }
}

/// A 2025 session that ended.
#[derive(Debug, Clone, Copy)]
pub struct SessionEnded<'a> {
    /// The revision it spoke.
    pub version: ProtocolVersion,
    /// Where it came from.
    pub origin: &'a Origin,
    /// From `initialize` to its end.
    pub lasted: Duration,
}

/// The W3C trace context a request carries in `params._meta`
/// (`traceparent`, `tracestate`: reserved by 2026-07-28, used by clients of
/// either era).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
pub struct TraceContext {
    /// `traceparent`.
    pub traceparent: Option<String>,
    /// `tracestate`.
    pub tracestate: Option<String>,
}

/// The trace context in `params._meta`, if any (read only when asked: most
/// observers have no tracer).
pub fn trace_context(params: Option<&RawValue>) -> Option<TraceContext> {
    #[derive(serde::Deserialize)]
    struct Params {
        #[serde(rename = "_meta", default)]
        meta: Option<TraceContext>,
    }
    let params: Params = serde_json::from_str(params?.get()).ok()?;
    params.meta.filter(|meta| meta.traceparent.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trace_context_is_read_from_meta() {
        let params = RawValue::from_string(
            r#"{"name":"x","_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","tracestate":"a=b","progressToken":1}}"#
                .to_owned(),
        )
        .unwrap();
        let context = trace_context(Some(&params)).unwrap();
        assert_eq!(context.traceparent.as_deref(), Some("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"));
        assert_eq!(context.tracestate.as_deref(), Some("a=b"));
        let without = RawValue::from_string(r#"{"_meta":{"progressToken":1}}"#.to_owned()).unwrap();
        assert_eq!(trace_context(Some(&without)), None);
        assert_eq!(trace_context(None), None);
    }

    #[test]
    fn client_text_is_clipped_on_a_character_boundary_with_its_length() {
        let long = "é".repeat(CLIENT_TEXT_BYTES);
        let clipped = clipped(&long, CLIENT_TEXT_BYTES);
        assert!(clipped.len() < CLIENT_TEXT_BYTES + 32, "{}", clipped.len());
        assert!(clipped.ends_with(&format!("… ({} bytes)", long.len())), "{clipped}");
        assert!(matches!(super::clipped("short", CLIENT_TEXT_BYTES), Cow::Borrowed("short")));
    }

    #[test]
    fn only_methods_served_are_reported_by_name() {
        assert_eq!(reported_method("tools/call"), "tools/call");
        assert_eq!(reported_method("tools/call\nforged"), "_OTHER");
        assert_eq!(reported_method(&"x".repeat(1 << 16)), "_OTHER");
    }

    #[test]
    fn error_types_follow_the_conventions() {
        assert_eq!(ErrorType::Code(-32602).to_string(), "-32602");
        assert_eq!(ErrorType::ToolError.to_string(), "tool_error");
    }
}
