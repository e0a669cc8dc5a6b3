//! What a request came to beyond its outcome, noted as it is handled for
//! the observer, and the span it runs in.

use std::time::{Duration, Instant};

use crate::observe::Target;
use crate::router::FaultKind;
use crate::version::ProtocolVersion;

/// What a request came to beyond its outcome, noted as it is handled.
#[derive(Default)]
pub(super) struct Watch {
    /// What the request named: its kind, and the name in `target_name`
    /// (a buffer kept from one request to the next).
    target: Option<TargetKind>,
    target_name: String,
    mount: Option<usize>,
    tool_error: bool,
    fault: Option<FaultKind>,
    output_capped: bool,
    input_required: bool,
    version: Option<ProtocolVersion>,
    /// The message of the error sent, if one was.
    error: Option<String>,
}

#[derive(Clone, Copy)]
pub(super) enum TargetKind {
    Tool,
    Prompt,
    Resource,
}

impl Watch {
    /// Clears what the last request noted, for the next.
    pub(super) fn reset(&mut self) {
        let mut target_name = std::mem::take(&mut self.target_name);
        target_name.clear();
        *self = Watch { target_name, ..Watch::default() };
    }

    /// Notes what the request named, and the mount that knows it.
    pub(super) fn note_target(&mut self, mount: usize, kind: TargetKind, name: &str) {
        self.mount = Some(mount);
        self.target = Some(kind);
        self.target_name.clear();
        self.target_name.push_str(name);
    }

    /// Notes the mount the request went to.
    pub(super) fn note_mount(&mut self, mount: usize) {
        self.mount = Some(mount);
    }

    /// Notes whether its result is a tool error.
    pub(super) fn note_tool_error(&mut self, tool_error: bool) {
        self.tool_error = tool_error;
    }

    /// Notes why its guest call failed.
    pub(super) fn note_fault(&mut self, fault: FaultKind) {
        self.fault = Some(fault);
    }

    /// Notes that its result was refused for its size.
    pub(super) fn note_output_capped(&mut self) {
        self.output_capped = true;
    }

    /// Notes that its result asks the client for input.
    pub(super) fn note_input_required(&mut self) {
        self.input_required = true;
    }

    /// Notes the revision it is served at, when known.
    pub(super) fn note_version(&mut self, version: Option<ProtocolVersion>) {
        self.version = version;
    }

    /// Notes the message of the error sent.
    pub(super) fn note_error(&mut self, message: String) {
        self.error = Some(message);
    }

    pub(super) fn target(&self) -> Option<Target<'_>> {
        let name = self.target_name.as_str();
        self.target.map(|kind| match kind {
            TargetKind::Tool => Target::Tool(name),
            TargetKind::Prompt => Target::Prompt(name),
            TargetKind::Resource => Target::Resource(name),
        })
    }

    pub(super) fn mount(&self) -> Option<usize> {
        self.mount
    }

    pub(super) fn tool_error(&self) -> bool {
        self.tool_error
    }

    pub(super) fn fault(&self) -> Option<FaultKind> {
        self.fault
    }

    pub(super) fn output_capped(&self) -> bool {
        self.output_capped
    }

    pub(super) fn input_required(&self) -> bool {
        self.input_required
    }

    pub(super) fn version(&self) -> Option<ProtocolVersion> {
        self.version
    }

    pub(super) fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
}

/// A request being watched: the span it runs in and when it started.
pub(super) struct Watching {
    span: tracing::Span,
    started: Instant,
}

impl Watching {
    pub(super) fn new(span: tracing::Span) -> Self {
        Watching { span, started: Instant::now() }
    }

    pub(super) fn span(&self) -> &tracing::Span {
        &self.span
    }

    /// How long the request has run.
    pub(super) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The span of a watched request, if a subscriber records it.
    pub(super) fn recording_span(watching: Option<&Watching>) -> Option<tracing::Span> {
        watching.map(Watching::span).filter(|span| !span.is_disabled()).cloned()
    }
}

/// Awaits a request's answering future in its span when a subscriber
/// records that span, else as it is. The future is made where it is
/// awaited: wrapping it in a span moves it into the wrapper, a copy of a
/// few kilobytes per request, which is all a span that records nothing
/// would cost.
macro_rules! await_watched {
    ($watching:expr, $answering:expr) => {
        match $crate::session::watch::Watching::recording_span($watching) {
            Some(span) => tracing::Instrument::instrument($answering, span).await,
            None => $answering.await,
        }
    };
}
pub(super) use await_watched;
