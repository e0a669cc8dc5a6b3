//! Captures a guest's stdout and stderr.
//!
//! Each complete line is written to the host's stderr prefixed with the
//! component's label, so guest output is attributable and never reaches the
//! host's stdout (which the stdio transport owns). The last lines the guest
//! wrote during the current call are kept, so that a trap can be reported
//! with the guest's own panic message.

use std::collections::VecDeque;
use std::io::Write;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamResult};

/// Longest line kept before it is written out anyway.
const MAX_LINE: usize = 8 * 1024;

/// Lines of the current call kept for fault reports.
const RECENT_LINES: usize = 16;

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
    shared: Arc<Shared>,
}

struct Shared {
    label: Arc<str>,
    target: OutputTarget,
    recent: Mutex<VecDeque<String>>,
}

impl GuestOutput {
    /// Creates the output sink for one instance of the component `label`.
    pub fn new(label: Arc<str>, target: OutputTarget) -> Self {
        GuestOutput { shared: Arc::new(Shared { label, target, recent: Mutex::new(VecDeque::new()) }) }
    }

    /// A WASI stdout/stderr stream named `stream` feeding this sink.
    pub fn stream(&self, stream: &'static str) -> GuestStream {
        GuestStream { shared: self.shared.clone(), stream }
    }

    /// Forgets the lines kept so far: called as a guest call begins, so a
    /// fault report only quotes what that call printed.
    pub fn begin_call(&self) {
        let mut recent = self.shared.recent.lock().unwrap_or_else(|e| e.into_inner());
        if !recent.is_empty() {
            recent.clear();
        }
    }

    /// What the guest said last in the current call, as a phrase: `panicked
    /// at FILE:LINE: MESSAGE` when it panicked (Rust's panic report), else
    /// `said: LAST LINE`.
    pub fn last_words(&self) -> Option<String> {
        let recent = self.shared.recent.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = recent.iter().rposition(|line| line.contains("panicked at")) {
            let panic_line = recent[at].trim();
            let panic_line = panic_line.find("panicked at").map_or(panic_line, |i| &panic_line[i..]);
            let message: Vec<&str> = recent
                .iter()
                .skip(at + 1)
                .map(|line| line.trim())
                .take_while(|line| !line.starts_with("note:") && !line.starts_with("stack backtrace"))
                .collect();
            return Some(format!("{} {}", panic_line, message.join(" ")).trim().to_string());
        }
        recent.back().map(|line| format!("said: {}", line.trim()))
    }
}

/// One of a guest's output streams (stdout or stderr).
#[derive(Clone)]
pub struct GuestStream {
    shared: Arc<Shared>,
    stream: &'static str,
}

impl IsTerminal for GuestStream {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for GuestStream {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(LineWriter { shared: self.shared.clone(), stream: self.stream, pending: Vec::new() })
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(AsyncLineWriter(LineWriter { shared: self.shared.clone(), stream: self.stream, pending: Vec::new() }))
    }
}

/// Splits guest bytes into lines and emits each one.
struct LineWriter {
    shared: Arc<Shared>,
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
            self.emit();
        }
    }

    fn emit(&mut self) {
        let line = String::from_utf8_lossy(&self.pending);
        if self.shared.target == OutputTarget::Stderr {
            // One write per line keeps lines from different guests whole.
            let text = format!("[{}:{}] {}\n", self.shared.label, self.stream, line);
            let _ = std::io::stderr().lock().write_all(text.as_bytes());
        }
        if !line.trim().is_empty() {
            let mut recent = self.shared.recent.lock().unwrap_or_else(|e| e.into_inner());
            if recent.len() == RECENT_LINES {
                recent.pop_front();
            }
            recent.push_back(line.into_owned());
        }
        self.pending.clear();
    }
}

impl Drop for LineWriter {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            self.emit();
        }
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
