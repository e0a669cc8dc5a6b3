//! The stdio transport: newline-delimited JSON-RPC on stdin/stdout.
//!
//! One connection is one session. The loop takes a line from its input
//! buffer, hands it to the session and buffers the answers; output is flushed
//! once no more input is already waiting, or after `FLUSH_EVERY` (8) messages,
//! so a one-at-a-time client gets each answer at once while a pipelining
//! client gets its answers in small batches: few system calls, and it works
//! on the first answers while the server works on the rest.
//!
//! Cancellation: every time input arrives it is scanned for
//! `notifications/cancelled`, and while a guest call runs the session's tick
//! hook reads whatever stdin has ready. A cancellation for a queued request
//! drops it; one for the running request interrupts the guest.
//!
//! Talking back: a router's notifications go out at once, and its questions
//! (sampling, elicitation, roots) are written and flushed, then the guest
//! waits while the input is read for the client's response; whatever else
//! arrives meanwhile stays queued, in order, for after the call.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::mem::ManuallyDrop;
use std::os::fd::{AsRawFd, FromRawFd};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use memchr::memmem;

use mcp_wit_protocol::client::{AskError, BoxFuture, ClientError, Response, WaitBound};
use mcp_wit_protocol::jsonrpc::{self, Incoming, RpcError};
use mcp_wit_protocol::observe::{CLIENT_TEXT_BYTES, clipped};
use mcp_wit_protocol::{Canceller, Listeners, Outbox, Peer, Sink};

use crate::sync::lock;

use super::Tap;
use crate::Session;

/// The session name a stdio connection's messages are tapped under.
pub const STDIO_SESSION: &str = "stdio";

pub use super::limits::DEFAULT_MAX_MESSAGE_SIZE;

/// Input read ahead during a long call is capped at this much.
const MAX_READ_AHEAD: usize = 64 << 20;

/// Bytes read from the input at a time.
pub const READ_BUFFER_SIZE: usize = 64 * 1024;

/// Longest single wait for input while a question waits for its answer.
const WAIT_SLICE: Duration = Duration::from_millis(50);

/// Most messages handled between two flushes while more input waits.
///
/// Flushing only once the input runs dry makes a pipelining exchange
/// stop-and-go: the client waits for the whole batch, then the server waits
/// for the next one. Measured with 32 calls in flight over 300,000 calls
/// (client and server on two CPUs, as the kernel settles them): 270–290k
/// calls/s flushing once per batch, 530–580k flushing every 8 messages
/// (every 4: 480–560k, every 16: 380–430k).
const FLUSH_EVERY: usize = 8;

/// Settings of the stdio transport.
#[derive(Debug, Clone)]
pub struct StdioOptions {
    /// Longest accepted message in bytes; a longer line is skipped unread and
    /// answered with -32600.
    pub max_message_size: usize,
    /// Sees every message in and out ([`STDIO_SESSION`]).
    pub tap: Option<Tap>,
    /// While no input waits, how often to look whether the deployment the
    /// session follows was reloaded; when it was, the session moves to the
    /// new routers at once (dropping its instances) and the client hears
    /// which lists changed (`serve --watch`). `None`: only as 2025
    /// sessions do, at a request after the instances are gone.
    pub reload_poll: Option<Duration>,
    /// The tasks extension for 2026-07-28 requests (`None`: no tasks).
    pub tasks: Option<Arc<super::stdio_tasks::StdioTasks>>,
}

impl Default for StdioOptions {
    fn default() -> Self {
        StdioOptions { max_message_size: DEFAULT_MAX_MESSAGE_SIZE, tap: None, reload_poll: None, tasks: None }
    }
}

/// A byte source the transport reads messages from.
pub trait Input: Read + Send + 'static {
    /// Whether a read would return at once (data or end of input). Inputs
    /// that cannot tell say `false`: they are then only read between calls.
    fn ready(&self) -> bool {
        false
    }

    /// Waits up to `timeout` for input; `true` when a read would return at
    /// once. Inputs that cannot tell say `true`: a read then blocks.
    fn wait_ready(&self, timeout: Duration) -> bool {
        let _ = timeout;
        true
    }
}

impl<T: AsRef<[u8]> + Send + 'static> Input for io::Cursor<T> {}

/// The process's stdin, read without std's own buffering so that readiness
/// (`poll`) reflects exactly what is unread.
pub struct Stdin {
    file: ManuallyDrop<File>,
}

impl Stdin {
    /// Wraps file descriptor 0 (it is never closed by this type).
    pub fn new() -> Self {
        // SAFETY: fd 0 stays open for the life of the process, and
        // `ManuallyDrop` keeps this handle from closing it.
        Stdin { file: ManuallyDrop::new(unsafe { File::from_raw_fd(0) }) }
    }
}

impl Default for Stdin {
    fn default() -> Self {
        Self::new()
    }
}

impl Read for Stdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        (&*self.file).read(buf)
    }
}

impl Input for Stdin {
    fn ready(&self) -> bool {
        self.wait_ready(Duration::ZERO)
    }

    fn wait_ready(&self, timeout: Duration) -> bool {
        let millis = i32::try_from(timeout.as_millis()).unwrap_or(i32::MAX);
        let mut fd = libc::pollfd { fd: self.file.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        // SAFETY: one valid pollfd.
        unsafe { libc::poll(&mut fd, 1, millis) > 0 }
    }
}

/// Serves `session` on the process's stdin and stdout until stdin closes.
pub fn serve_stdio(session: &mut Session, options: &StdioOptions) -> io::Result<()> {
    serve(session, Stdin::new(), io::stdout(), options)
}

/// Serves `session` over any byte streams until `input` ends.
pub fn serve<I: Input, W: Write + Send + 'static>(
    session: &mut Session,
    input: I,
    output: W,
    options: &StdioOptions,
) -> io::Result<()> {
    let canceller = session.canceller();
    let tap = options.tap.clone();
    let buffer = Arc::new(Mutex::new(InputBuffer::new(input, canceller.clone(), tap.clone())));
    let output = Arc::new(Mutex::new(Output {
        writer: BufWriter::with_capacity(64 * 1024, output),
        error: None,
        tap: tap.clone(),
    }));
    let peer = Arc::new(StdioPeer { input: buffer.clone(), output: output.clone() });
    session.set_peer(Some(peer.clone()));
    // One client on the connection: it hears of every change it listens for.
    session.set_listeners(Listeners::new());
    session.set_sink(Some(peer));
    let hook_buffer = buffer.clone();
    let read_ahead: mcp_wit_protocol::TickHook = Arc::new(move || {
        // The loop never holds the lock during a call, so this only fails if
        // another thread is reading, in which case it will scan what it reads.
        if let Ok(mut input) = hook_buffer.try_lock() {
            input.read_ahead();
        }
    });
    session.set_tick_hook(read_ahead.clone());
    // While the loop waits for a call that may become a task, the same
    // reading ahead finds the call's cancellation.
    let ahead = super::stdio_tasks::ReadAhead { read: &*read_ahead, canceller: &canceller };
    let mut out = LineOutbox(output.clone());
    let mut line = Vec::with_capacity(4096);
    let mut scratch = Vec::new();
    let mut unflushed = 0;
    loop {
        if let Some(every) = options.reload_poll {
            // Between messages, and while idle (waking for input, or every
            // `every`): move to reloaded routers. Looked at before each
            // message too, so that a client that is never idle for `every`
            // still moves.
            loop {
                if session.deployment_changed() {
                    session.move_to_newest_now(&mut out);
                    lock(&output).writer.flush()?;
                }
                if lock(&buffer).wait_for_input(every) {
                    break;
                }
            }
        }
        let next = lock(&buffer).next_line(&mut line, options.max_message_size)?;
        match next {
            Line::Eof => {
                // Open `subscriptions/listen` requests get their final result.
                session.end_subscriptions(&mut out);
                break;
            }
            Line::Message => {
                let message = trim(&line);
                if !message.is_empty() {
                    if let Some(tap) = &tap {
                        tap.received(STDIO_SESSION, message);
                    }
                    // A task's business is served beside the session.
                    let by_tasks = options.tasks.as_ref().is_some_and(|tasks| tasks.serve(message, &mut out, &ahead));
                    if !by_tasks {
                        // Driven here, so that the session's code is entered
                        // once a message (see the architecture page's walks).
                        mcp_wit_protocol::block_on(session.handle_blocking(message, &mut out));
                    }
                }
            }
            Line::TooLarge(size) => {
                let error = RpcError::invalid_request(format!(
                    "message of {size} bytes exceeds the limit of {} bytes",
                    options.max_message_size
                ));
                jsonrpc::write_error(&mut scratch, None, &error);
                out.send(&scratch);
            }
        }
        if let Some(e) = lock(&output).error.take() {
            return Err(e);
        }
        unflushed += 1;
        if unflushed >= FLUSH_EVERY || !lock(&buffer).has_complete_line() {
            lock(&output).writer.flush()?;
            unflushed = 0;
        }
    }
    session.set_peer(None);
    session.set_sink(None);
    lock(&output).writer.flush()
}

/// Buffered output, shared by the loop and the session's peer.
struct Output<W: Write> {
    writer: BufWriter<W>,
    /// The first write error; the loop ends with it.
    error: Option<io::Error>,
    tap: Option<Tap>,
}

impl<W: Write> Output<W> {
    fn line(&mut self, message: &[u8]) {
        if self.error.is_some() {
            return;
        }
        if let Some(tap) = &self.tap {
            tap.sent(STDIO_SESSION, message);
        }
        if let Err(e) = self.writer.write_all(message).and_then(|()| self.writer.write_all(b"\n")) {
            self.error = Some(e);
        }
    }
}

struct LineOutbox<W: Write>(Arc<Mutex<Output<W>>>);

impl<W: Write> Outbox for LineOutbox<W> {
    fn send(&mut self, message: &[u8]) {
        lock(&self.0).line(message);
    }
}

/// The session's way to the client while a guest call runs: messages are
/// written and flushed at once; a response is looked for in the input.
struct StdioPeer<I, W: Write> {
    input: Arc<Mutex<InputBuffer<I>>>,
    output: Arc<Mutex<Output<W>>>,
}

impl<I: Input, W: Write> StdioPeer<I, W> {
    fn send(&self, message: &[u8]) {
        let mut output = lock(&self.output);
        output.line(message);
        if output.error.is_none()
            && let Err(e) = output.writer.flush()
        {
            output.error = Some(e);
        }
    }
}

/// Changes the client listens for go out at once, like notifications.
impl<I: Input, W: Write + Send> Sink for StdioPeer<I, W> {
    fn offer(&self, message: &[u8]) {
        self.send(message);
    }
}

impl<I: Input, W: Write + Send> Peer for StdioPeer<I, W> {
    fn notify(&self, message: &[u8]) {
        self.send(message);
    }

    fn ask(&self, id: u64, request: Vec<u8>, bound: WaitBound) -> BoxFuture<Result<Response, AskError>> {
        self.send(&request);
        // Guest calls over stdio block the loop's thread: so does this wait.
        let answer = lock(&self.input).wait_for_response(id, &bound);
        Box::pin(std::future::ready(answer))
    }
}

#[derive(Debug)]
enum Line {
    Eof,
    Message,
    /// The line was longer than allowed; its size in bytes.
    TooLarge(usize),
}

/// Bytes read from the input and not yet handed out as lines.
struct InputBuffer<I> {
    input: I,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// Everything before this offset has been scanned for cancellations.
    scanned: usize,
    eof: bool,
    canceller: Canceller,
    /// Built once: building a searcher costs more than scanning a message.
    cancelled_finder: memmem::Finder<'static>,
    /// Sees the client's responses this buffer hands to waiting questions.
    tap: Option<Tap>,
}

impl<I: Input> InputBuffer<I> {
    fn new(input: I, canceller: Canceller, tap: Option<Tap>) -> Self {
        InputBuffer {
            input,
            buf: Vec::new(),
            start: 0,
            end: 0,
            scanned: 0,
            eof: false,
            canceller,
            cancelled_finder: memmem::Finder::new(b"notifications/cancelled"),
            tap,
        }
    }

    fn pending(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    fn has_complete_line(&self) -> bool {
        memchr::memchr(b'\n', self.pending()).is_some()
    }

    /// Whether a line (or the end of input) is there to take, waiting up to
    /// `timeout` for the input.
    fn wait_for_input(&self, timeout: Duration) -> bool {
        self.eof || self.has_complete_line() || self.input.wait_ready(timeout)
    }

    /// Copies the next line (without its `\n`) into `line`; a line longer
    /// than `max` is skipped without being held in memory.
    fn next_line(&mut self, line: &mut Vec<u8>, max: usize) -> io::Result<Line> {
        line.clear();
        loop {
            if let Some(pos) = memchr::memchr(b'\n', self.pending()) {
                if pos > max {
                    self.start += pos + 1;
                    return Ok(Line::TooLarge(pos));
                }
                line.extend_from_slice(&self.buf[self.start..self.start + pos]);
                self.start += pos + 1;
                return Ok(Line::Message);
            }
            if self.end - self.start > max {
                return self.skip_line();
            }
            if self.eof {
                if self.start == self.end {
                    return Ok(Line::Eof);
                }
                line.extend_from_slice(self.pending());
                self.start = self.end;
                return Ok(Line::Message);
            }
            self.fill()?;
        }
    }

    /// Discards the current line, which is already too long, up to its end.
    fn skip_line(&mut self) -> io::Result<Line> {
        let mut size = 0;
        loop {
            if let Some(pos) = memchr::memchr(b'\n', self.pending()) {
                self.start += pos + 1;
                return Ok(Line::TooLarge(size + pos));
            }
            size += self.end - self.start;
            self.start = self.end;
            if self.eof {
                return Ok(Line::TooLarge(size));
            }
            self.fill()?;
        }
    }

    /// Reads once from the input (blocking), then scans what came in.
    fn fill(&mut self) -> io::Result<()> {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
            self.scanned = 0;
        } else if self.start > 0 && self.buf.len() - self.end < READ_BUFFER_SIZE {
            self.buf.copy_within(self.start..self.end, 0);
            self.scanned -= self.start.min(self.scanned);
            self.end -= self.start;
            self.start = 0;
        }
        if self.buf.len() - self.end < READ_BUFFER_SIZE {
            self.buf.resize(self.end + READ_BUFFER_SIZE, 0);
        }
        let n = loop {
            match self.input.read(&mut self.buf[self.end..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        if n == 0 {
            self.eof = true;
        }
        self.end += n;
        self.scan_for_cancellations();
        Ok(())
    }

    /// Waits within `bound` for the client's response to request `id`, and
    /// takes it out of the input; all else read meanwhile stays, in order.
    fn wait_for_response(&mut self, id: u64, bound: &WaitBound) -> Result<Response, AskError> {
        loop {
            if let Some(answer) = self.take_response(id) {
                return Ok(answer);
            }
            if self.eof {
                return Err(ClientError::Unavailable("the client closed its input without answering".into()).into());
            }
            if bound.cancel.is_cancelled() {
                return Err(AskError::Cancelled);
            }
            let now = Instant::now();
            if now >= bound.deadline {
                return Err(AskError::TimedOut);
            }
            if self.end - self.start > MAX_READ_AHEAD {
                return Err(ClientError::Unavailable(
                    "more input than the server holds arrived while waiting for the client's answer".into(),
                )
                .into());
            }
            // Short waits, so that a cancellation read meanwhile is seen.
            if self.input.wait_ready((bound.deadline - now).min(WAIT_SLICE)) {
                self.fill().map_err(|e| ClientError::Unavailable(format!("cannot read the client's answer: {e}")))?;
            }
        }
    }

    /// Removes the first complete line that answers request `id`.
    fn take_response(&mut self, id: u64) -> Option<Response> {
        let mut at = self.start;
        while let Some(pos) = memchr::memchr(b'\n', &self.buf[at..self.end]) {
            let line = at..at + pos;
            let next = line.end + 1;
            let found = match jsonrpc::parse(trim(&self.buf[line.clone()])) {
                Ok(Incoming::Response { .. }) => {
                    jsonrpc::read_response(&self.buf[line.clone()]).filter(|r| r.id == Some(id))
                }
                _ => None,
            };
            if let Some(response) = found {
                if let Some(tap) = &self.tap {
                    tap.received(STDIO_SESSION, trim(&self.buf[line.clone()]));
                }
                let removed = next - line.start;
                self.buf.copy_within(next..self.end, line.start);
                self.end -= removed;
                if self.scanned >= next {
                    self.scanned -= removed;
                } else if self.scanned > line.start {
                    self.scanned = line.start;
                }
                return Some(response.answer);
            }
            at = next;
        }
        None
    }

    /// Called during a guest call: reads what is ready without blocking.
    fn read_ahead(&mut self) {
        if self.eof || self.end - self.start > MAX_READ_AHEAD || !self.input.ready() {
            return;
        }
        if let Err(e) = self.fill() {
            tracing::debug!("reading ahead on stdin failed: {e}");
        }
    }

    /// Looks at complete lines not yet scanned for `notifications/cancelled`
    /// and passes each request id found to the canceller.
    fn scan_for_cancellations(&mut self) {
        let from = self.scanned.max(self.start);
        let Some(last_newline) = memchr::memrchr(b'\n', &self.buf[from..self.end]) else {
            return;
        };
        let region = from..from + last_newline + 1;
        self.scanned = region.end;
        let mut at = region.start;
        while let Some(hit) = self.cancelled_finder.find(&self.buf[at..region.end]) {
            let hit = at + hit;
            let line_start =
                memchr::memrchr(b'\n', &self.buf[region.start..hit]).map_or(region.start, |p| region.start + p + 1);
            let line_end = hit + memchr::memchr(b'\n', &self.buf[hit..region.end]).unwrap_or(region.end - hit);
            if let Some(id) = jsonrpc::cancelled_request_in(&self.buf[line_start..line_end]) {
                tracing::debug!(id = %clipped(&id, CLIENT_TEXT_BYTES), "cancellation seen ahead of its turn");
                self.canceller.cancel(&id);
            }
            at = line_end;
        }
    }
}

/// `line` without leading and trailing whitespace (the line break among it).
fn trim(line: &[u8]) -> &[u8] {
    let end = line.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |p| p + 1);
    let start = line[..end].iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(end);
    &line[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(input: &'static [u8]) -> InputBuffer<io::Cursor<&'static [u8]>> {
        InputBuffer::new(io::Cursor::new(input), Canceller::default(), None)
    }

    #[test]
    fn reads_lines_and_skips_oversized_ones() {
        let mut input = buffer(b"short\n0123456789abc\nlast");
        let mut line = Vec::new();
        assert!(matches!(input.next_line(&mut line, 8).unwrap(), Line::Message));
        assert_eq!(line, b"short");
        assert!(matches!(input.next_line(&mut line, 8).unwrap(), Line::TooLarge(13)));
        assert!(matches!(input.next_line(&mut line, 8).unwrap(), Line::Message));
        assert_eq!(line, b"last");
        assert!(matches!(input.next_line(&mut line, 8).unwrap(), Line::Eof));
    }

    #[test]
    fn finds_cancellations_in_what_it_reads() {
        let line = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r-7","reason":"x"}}"#;
        assert_eq!(jsonrpc::cancelled_request_in(line).as_deref(), Some(r#""r-7""#));
        assert_eq!(jsonrpc::cancelled_request_in(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), None);
    }
}
