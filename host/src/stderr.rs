//! The process's stderr, written without ever blocking the server.
//!
//! Logs and guest output are diagnostics: when whatever reads stderr stops
//! reading (a client that pipes it and never drains it, a stalled log
//! shipper), writing to it must not stall a call, a deadline or a probe.
//! Every line goes through one bounded queue ([`QUEUED_LINES`]) that a
//! thread of its own drains into stderr; a line that finds the queue full
//! is dropped and counted, and once the queue takes lines again a notice
//! says how many were lost. tracing-appender's lossy non-blocking writer
//! does the queueing.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use tracing_appender::non_blocking::{NonBlocking, NonBlockingBuilder, WorkerGuard};

use crate::sync::lock;

/// Lines waiting for stderr at most; more are dropped and counted. Guest
/// lines are at most 8 KiB, so the queue holds 32 MiB at the very most.
pub const QUEUED_LINES: usize = 4096;

/// What the stderr thread gathers before it writes.
const STDERR_BUFFER: usize = 64 << 10;

struct Queue {
    writer: NonBlocking,
    /// Drops already told of.
    reported: AtomicUsize,
    /// Dropped to flush what is queued (see [`finish`]).
    guard: Mutex<Option<WorkerGuard>>,
}

fn queue() -> &'static Queue {
    static QUEUE: OnceLock<Queue> = OnceLock::new();
    QUEUE.get_or_init(|| {
        let (writer, guard) = NonBlockingBuilder::default()
            .lossy(true)
            .buffered_lines_limit(QUEUED_LINES)
            .thread_name("mcp-wit-stderr")
            // Buffered: the thread writes what it drained at once, flushing
            // whenever the queue is empty, so a busy server makes one write
            // for many lines rather than one each (whole lines either way).
            .finish(std::io::BufWriter::with_capacity(STDERR_BUFFER, std::io::stderr()));
        Queue { writer, reported: AtomicUsize::new(0), guard: Mutex::new(Some(guard)) }
    })
}

/// A writer onto the queue, for a `tracing` subscriber
/// (`fmt().with_writer(mcp_wit::stderr::writer)`): each write is one line.
pub fn writer() -> Writer {
    Writer(queue().writer.clone())
}

/// See [`writer`].
pub struct Writer(NonBlocking);

impl Write for Writer {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        report_drops(&mut self.0);
        self.0.write(line)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether logs are JSON objects, one a line (`--log-format json`): then
/// what is written here without a `tracing` subscriber (guest output, the
/// notices of dropped lines) is an event or a JSON object too, so that every
/// line parses.
static JSON_LINES: AtomicBool = AtomicBool::new(false);

/// Says that the subscriber writes JSON lines: what is written here
/// without one (guest output, notices) then is JSON too.
pub fn set_json_lines(on: bool) {
    JSON_LINES.store(on, Ordering::Relaxed);
}

/// Whether logs are JSON lines.
pub fn json_lines() -> bool {
    JSON_LINES.load(Ordering::Relaxed)
}

/// `message` as a line in the format logs have: itself, or a JSON object
/// with `level`, `target` and `message` (a notice written outside the
/// subscriber, which cannot be asked from inside its writer).
pub fn notice_line(level: &str, message: &str) -> String {
    match json_lines() {
        false => format!("{message}\n"),
        true => format!(
            "{}\n",
            serde_json::json!({ "level": level, "target": "mcp_wit::stderr", "message": message.trim_end() })
        ),
    }
}

/// Queues `line` (whole, ending in a newline) for stderr; dropped and
/// counted if the queue is full.
pub fn write_line(line: &[u8]) {
    let _ = writer().write(line);
}

/// Lines dropped so far because stderr was not read fast enough.
pub fn dropped_lines() -> usize {
    queue().writer.error_counter().dropped_lines()
}

/// Tells of lines dropped since the last notice, once the queue takes
/// lines again.
fn report_drops(writer: &mut NonBlocking) {
    let queue = queue();
    let dropped = writer.error_counter().dropped_lines();
    let reported = queue.reported.load(Ordering::Relaxed);
    if dropped > reported
        && queue.reported.compare_exchange(reported, dropped, Ordering::AcqRel, Ordering::Relaxed).is_ok()
    {
        let notice = notice_line(
            "WARN",
            &format!(
                "mcp-wit: {} lines of logs and guest output dropped: stderr was not read as fast as they came",
                dropped - reported
            ),
        );
        let _ = writer.write(notice.as_bytes());
    }
}

/// Writes out what is queued (waiting a moment at most) and stops the
/// queue: for the end of the process. Later lines go nowhere.
pub fn finish() {
    let guard = lock(&queue().guard).take();
    drop(guard);
}
