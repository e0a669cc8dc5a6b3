//! What an operator sees of the server: one log line per request, metrics
//! ([`metrics`]), and a span per request for a tracer.
//!
//! [`Telemetry`] is the protocol core's [`Observer`](crate::Observer): given to a session
//! (in [`SessionOptions::observer`](crate::SessionOptions)), it hears of
//! every request as it starts and once it is answered. It logs each at INFO
//! (target `mcp_wit::request`), records the request in the installed
//! [`Metrics`], and, when traces are on, runs the request in a span named
//! and attributed after OpenTelemetry's MCP conventions (target
//! `mcp_wit::trace`, at DEBUG so that logs at the default level do not
//! carry it): an OpenTelemetry layer on the `tracing` subscriber turns it,
//! and the spans of the work done within (instantiation, guest calls,
//! outgoing HTTP, questions to the client, authorization), into OTLP.

pub mod metrics;
mod observer;
mod refusal;
mod request_line;
mod text;
#[cfg(feature = "otel")]
mod trace;

pub use mcp_wit_protocol::observe::TRACE_TARGET;
pub use metrics::{ComponentStats, Metrics};
pub use observer::{RequestLines, Telemetry, TelemetryOptions};
pub use request_line::REQUEST_LOG_TARGET;
pub use text::{EscapedText, escape_controls};
