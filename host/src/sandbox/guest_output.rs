//! Captures a guest's stdout and stderr.
//!
//! Each complete line is written to the host's stderr prefixed with the
//! component's label, so guest output is attributable and never reaches the
//! host's stdout (which the stdio transport owns). The last lines the guest
//! wrote during the current call are kept, so that a trap can be reported
//! with the guest's own panic message.
//!
//! With JSON log lines, each line is an event carrying the component, the
//! stream and the id of the request being served; a report written over
//! several lines (a Python traceback, a Rust panic) is one event.
//!
//! Output is rate-limited per instance (a token bucket of [`RATE`] bytes per
//! second with a [`BURST`]) and for the whole server ([`SERVER_RATE`],
//! [`SERVER_BURST`]: many instances, or a fresh one per request, share it):
//! guests printing in a loop cannot fill the disk or keep the host busy
//! writing. Dropped lines are counted and reported. Lines go to stderr
//! through [`crate::stderr`], which never blocks a call.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bytes::Bytes;

use crate::redact::Redactor;
use crate::sync::lock;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamResult};

/// Longest line kept before it is written out anyway.
const MAX_LINE: usize = 8 * 1024;

/// Lines of the current call kept for fault reports.
const RECENT_LINES: usize = 16;

/// Most lines of one multi-line report logged as one event; the rest go
/// in the next.
const REPORT_LINES: usize = 200;

/// Sustained guest output written, in bytes per second.
pub const RATE: f64 = 256.0 * 1024.0;

/// Output a guest may write at once before the rate applies.
pub const BURST: f64 = 1024.0 * 1024.0;

/// Sustained output of all guests together, in bytes per second.
pub const SERVER_RATE: f64 = 1024.0 * 1024.0;

/// Output all guests together may write at once before [`SERVER_RATE`]
/// applies.
pub const SERVER_BURST: f64 = 4.0 * 1024.0 * 1024.0;

/// A token bucket: `rate` bytes a second, at most `burst` at once.
struct Bucket {
    tokens: f64,
    refilled: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    fn new(rate: f64, burst: f64) -> Self {
        Bucket { tokens: burst, refilled: Instant::now(), rate, burst }
    }

    /// Whether `len` bytes may be written now (and takes them if so).
    fn admit(&mut self, len: usize) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.refilled).as_secs_f64() * self.rate).min(self.burst);
        self.refilled = now;
        let fits = (len as f64) <= self.tokens;
        if fits {
            self.tokens -= len as f64;
        }
        fits
    }
}

/// The bucket all guests' output shares.
fn server_bucket() -> &'static Mutex<Bucket> {
    static SERVER: std::sync::OnceLock<Mutex<Bucket>> = std::sync::OnceLock::new();
    SERVER.get_or_init(|| Mutex::new(Bucket::new(SERVER_RATE, SERVER_BURST)))
}

/// Where guest output goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputTarget {
    /// The host's stderr, each line prefixed with `[label:stream]`.
    Stderr,
    /// Nowhere (recent lines are still kept for trap reports).
    Discard,
}

/// The output side of one guest instance.
#[derive(Clone)]
pub struct GuestOutput {
    sink: Arc<OutputSink>,
}

struct OutputSink {
    label: Arc<str>,
    target: OutputTarget,
    /// Secret values masked in every line (the policy's).
    redact: Arc<Redactor>,
    /// Whether `state.recent` may hold lines: lets the start of every call
    /// skip the lock when the guest printed nothing (the usual case).
    has_recent: AtomicBool,
    /// Whether `state.report` may hold a report: lets the end of every
    /// request skip the lock when none was begun (the usual case).
    has_report: AtomicBool,
    state: Mutex<State>,
}

struct State {
    recent: VecDeque<String>,
    /// The JSON-RPC id of the request being served, when known.
    request: Option<Arc<str>>,
    /// A report being written over several lines, logged as one event
    /// once it ends (JSON log lines only).
    report: Option<Report>,
    /// The instance's own rate.
    bucket: Bucket,
    dropped_lines: u64,
    dropped_bytes: u64,
}

/// A report a guest writes over several lines: it opens with a line that
/// says so (Python's `Traceback (most recent call last):`, Rust's `…
/// panicked at …`), goes on with indented lines, and ends with the first
/// line that is not (the exception, the panic's message).
struct Report {
    stream: &'static str,
    lines: Vec<String>,
}

impl Report {
    fn opens_with(line: &str) -> bool {
        line.starts_with("Traceback (most recent call last):") || line.contains(" panicked at ")
    }

    /// Whether `line` goes on with the report rather than ending it.
    fn goes_on_with(line: &str) -> bool {
        line.starts_with([' ', '\t']) || line.trim().is_empty()
    }
}

impl State {
    /// Logs `line` of `stream` as an event, or keeps it for the report it
    /// opens or belongs to (logged whole when it ends).
    fn log_line(&mut self, component: &str, stream: &'static str, line: &str) {
        if let Some(report) = &mut self.report {
            if report.stream == stream {
                report.lines.push(line.to_owned());
                if !Report::goes_on_with(line) || report.lines.len() >= REPORT_LINES {
                    self.log_report(component);
                }
                return;
            }
            // The other stream's line: what was kept goes first.
            self.log_report(component);
        }
        if Report::opens_with(line) {
            self.report = Some(Report { stream, lines: vec![line.to_owned()] });
            return;
        }
        self.log_event(component, stream, line);
    }

    /// Logs the report being kept, if any.
    fn log_report(&mut self, component: &str) {
        if let Some(report) = self.report.take() {
            self.log_event(component, report.stream, &report.lines.join("\n"));
        }
    }

    /// One event, so the subscriber writes it as every log line.
    fn log_event(&self, component: &str, stream: &'static str, text: &str) {
        let request_id = self.request.as_deref();
        tracing::info!(target: "mcp_wit::guest", %component, stream, request_id, "{text}");
    }

    /// Whether a line of `len` bytes may be written now.
    fn admit(&mut self, len: usize) -> bool {
        let admitted = self.bucket.admit(len) && lock(server_bucket()).admit(len);
        if !admitted {
            self.dropped_lines += 1;
            self.dropped_bytes += len as u64;
        }
        admitted
    }

    /// A notice for lines dropped since the last one, if any.
    fn take_dropped_notice(&mut self, label: &str) -> Option<String> {
        if self.dropped_lines == 0 {
            return None;
        }
        let notice = crate::stderr::notice_line(
            "WARN",
            &format!(
                "[{label}] {} lines ({} bytes) of guest output dropped: over the rate limit of {} KiB/s per instance, \
                 or {} KiB/s for all guests together",
                self.dropped_lines,
                self.dropped_bytes,
                RATE as u64 / 1024,
                SERVER_RATE as u64 / 1024
            ),
        );
        self.dropped_lines = 0;
        self.dropped_bytes = 0;
        Some(notice)
    }
}

impl GuestOutput {
    /// Creates the output sink for one instance of the component `label`.
    pub fn new(label: Arc<str>, target: OutputTarget, redact: Arc<Redactor>) -> Self {
        let state = State {
            recent: VecDeque::new(),
            request: None,
            report: None,
            bucket: Bucket::new(RATE, BURST),
            dropped_lines: 0,
            dropped_bytes: 0,
        };
        let (has_recent, has_report) = (AtomicBool::new(false), AtomicBool::new(false));
        let state = Mutex::new(state);
        GuestOutput { sink: Arc::new(OutputSink { label, target, redact, has_recent, has_report, state }) }
    }

    /// A WASI stdout/stderr stream named `stream` feeding this sink.
    pub fn stream(&self, stream: &'static str) -> GuestStream {
        GuestStream { sink: self.sink.clone(), stream }
    }

    /// A request starts: what the guest writes is logged with its id.
    pub fn begin_request(&self, id: Option<&Arc<str>>) {
        // Output that is not logged needs no id (and a request, no lock).
        if self.sink.target == OutputTarget::Discard {
            return;
        }
        let mut state = self.sink.lock();
        if state.request.as_ref() != id {
            state.request = id.cloned();
        }
    }

    /// The request ended: a report it left unfinished is logged as it is.
    pub fn end_request(&self) {
        if !self.sink.has_report.load(Ordering::Relaxed) {
            return;
        }
        let mut state = self.sink.lock();
        if state.report.is_some() {
            state.log_report(&self.sink.label);
        }
    }

    /// Forgets the lines kept so far: called as a guest call begins, so a
    /// fault report only quotes what that call printed.
    pub fn begin_call(&self) {
        if self.sink.has_recent.swap(false, Ordering::Relaxed) {
            self.sink.lock().recent.clear();
        }
    }

    /// What the guest said last in the current call, as a phrase: `panicked
    /// at FILE:LINE: MESSAGE` when it panicked (Rust's panic report), else
    /// `said: LAST LINE`.
    pub fn last_words(&self) -> Option<String> {
        let state = self.sink.lock();
        if let Some((at, message)) = panic_report(&state.recent) {
            return Some(format!("{at} {message}").trim().to_string());
        }
        state.recent.back().map(|line| format!("said: {}", line.trim()))
    }

    /// The message of the guest's panic in the current call, without where
    /// it happened (Rust's report since 1.73: `panicked at FILE:LINE:COL:`,
    /// then the message on the lines after).
    pub fn panic_message(&self) -> Option<String> {
        let state = self.sink.lock();
        panic_report(&state.recent).map(|(_, message)| message).filter(|message| !message.is_empty())
    }
}

/// The last panic among `recent` lines: its `panicked at …` part, and the
/// message on the lines after it (up to the notes and backtrace).
fn panic_report(recent: &std::collections::VecDeque<String>) -> Option<(String, String)> {
    let at = recent.iter().rposition(|line| line.contains("panicked at"))?;
    let panic_line = recent[at].trim();
    let panic_line = panic_line.find("panicked at").map_or(panic_line, |i| &panic_line[i..]);
    let message: Vec<&str> = recent
        .iter()
        .skip(at + 1)
        .map(|line| line.trim())
        .take_while(|line| !line.starts_with("note:") && !line.starts_with("stack backtrace"))
        .collect();
    Some((panic_line.to_string(), message.join(" ")))
}

/// One of a guest's output streams (stdout or stderr).
#[derive(Clone)]
pub struct GuestStream {
    sink: Arc<OutputSink>,
    stream: &'static str,
}

impl IsTerminal for GuestStream {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for GuestStream {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(LineWriter { sink: self.sink.clone(), stream: self.stream, pending: Vec::new() })
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(AsyncLineWriter(LineWriter { sink: self.sink.clone(), stream: self.stream, pending: Vec::new() }))
    }
}

/// Splits guest bytes into lines and emits each one.
struct LineWriter {
    sink: Arc<OutputSink>,
    stream: &'static str,
    pending: Vec<u8>,
}

impl LineWriter {
    fn push(&mut self, mut bytes: &[u8]) {
        while let Some(pos) = bytes.iter().position(|&b| b == b'\n') {
            self.pending.extend_from_slice(&bytes[..pos]);
            self.emit();
            bytes = &bytes[pos + 1..];
        }
        self.pending.extend_from_slice(bytes);
        if self.pending.len() >= MAX_LINE {
            // Written in pieces: each ends where no secret is split (the
            // bytes that may begin one wait for the next piece), so that
            // both halves of one are never logged unmasked.
            let cut = self.sink.redact.safe_cut(&self.pending);
            if cut > 0 {
                let rest = self.pending.split_off(cut);
                self.emit();
                self.pending = rest;
            }
        }
    }

    fn emit(&mut self) {
        let line = String::from_utf8_lossy(&self.pending);
        // Masked before it is logged or kept for a fault report.
        let line = self.sink.redact.mask(&line);
        let mut state = self.sink.lock();
        if self.sink.target == OutputTarget::Stderr && state.admit(line.len()) {
            let notice = state.take_dropped_notice(&self.sink.label).unwrap_or_default();
            if crate::stderr::json_lines() {
                if !notice.is_empty() {
                    crate::stderr::write_line(notice.as_bytes());
                }
                state.log_line(&self.sink.label, self.stream, &line);
                self.sink.has_report.store(state.report.is_some(), Ordering::Relaxed);
            } else {
                // One write per line keeps lines from different guests whole;
                // escaped as every text log line, so that a guest's `\r` or
                // ANSI escape cannot rewrite the terminal it reaches.
                // (A CRLF line's `\r` is its ending, not its text.)
                let line = crate::telemetry::escape_controls(line.strip_suffix('\r').unwrap_or(&line));
                let text = format!("{notice}[{}:{}] {}\n", self.sink.label, self.stream, line);
                crate::stderr::write_line(text.as_bytes());
            }
        }
        if !line.trim().is_empty() {
            if state.recent.len() == RECENT_LINES {
                state.recent.pop_front();
            }
            state.recent.push_back(line.into_owned());
            self.sink.has_recent.store(true, Ordering::Relaxed);
        }
        drop(state);
        self.pending.clear();
    }
}

impl Drop for LineWriter {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            self.emit();
        }
        let mut state = self.sink.lock();
        if state.report.as_ref().is_some_and(|report| report.stream == self.stream) {
            state.log_report(&self.sink.label);
        }
        if let Some(notice) = state.take_dropped_notice(&self.sink.label) {
            crate::stderr::write_line(notice.as_bytes());
        }
    }
}

impl OutputSink {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl OutputStream for LineWriter {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        self.push(&bytes);
        Ok(())
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(64 * 1024)
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for LineWriter {
    async fn ready(&mut self) {}
}

struct AsyncLineWriter(LineWriter);

impl tokio::io::AsyncWrite for AsyncLineWriter {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        self.0.push(buf);
        std::task::Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line longer than [`MAX_LINE`] is written in pieces; a secret where
    /// it is cut is masked whole, not logged in two unmasked halves.
    #[test]
    fn a_secret_across_the_long_line_split_is_masked() {
        let secret = "hunter2-straddling";
        let output = GuestOutput::new("guest".into(), OutputTarget::Discard, Arc::new(Redactor::new([secret])));
        let mut writer = LineWriter { sink: output.sink.clone(), stream: "stdout", pending: Vec::new() };
        // The line passes the split inside the secret.
        let mut start = vec![b'x'; MAX_LINE - 8];
        start.extend_from_slice(&secret.as_bytes()[..10]);
        writer.push(&start);
        writer.push(&secret.as_bytes()[10..]);
        writer.push(b" and more\n");
        let lines: Vec<String> = output.sink.lock().recent.iter().cloned().collect();
        assert_eq!(lines.len(), 2, "the long line in two pieces");
        let logged = lines.concat();
        assert!(logged.ends_with("[redacted] and more"), "{}", &logged[logged.len() - 40..]);
        assert!(!logged.contains("hunter") && !logged.contains("straddl"), "{}", &logged[logged.len() - 40..]);
        assert!(lines.iter().all(|line| line.len() <= MAX_LINE + secret.len()));
    }
}
