//! The process's stderr, written without ever blocking the server.
//!
//! Logs and guest output are diagnostics: when whatever reads stderr stops
//! reading (a client that pipes it and never drains it, a stalled log
//! shipper), writing to it must not stall a call, a deadline or a probe.
//! Every line goes through one queue, bounded in lines ([`QUEUED_LINES`])
//! and in bytes ([`QUEUED_BYTES`]), that a thread of its own drains into
//! stderr; a line that finds the queue full is dropped and counted, and
//! once the queue takes lines again a notice says how many were lost.
//! tracing-appender's non-blocking writer does the queueing.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use tracing_appender::non_blocking::{NonBlocking, NonBlockingBuilder, WorkerGuard};

use crate::sync::lock;

/// Lines waiting for stderr at most; more are dropped and counted.
pub const QUEUED_LINES: usize = 4096;

/// Bytes waiting for stderr at most (lines handed to the queue and not yet
/// written out); a line that would pass it is dropped and counted, so that
/// long lines cannot make the queue hold more than this.
pub const QUEUED_BYTES: usize = 32 << 20;

/// What the stderr thread gathers before it writes.
const STDERR_BUFFER: usize = 64 << 10;

struct Queue {
    writer: NonBlocking,
    budget: Arc<Budget>,
    /// Dropped to flush what is queued (see [`finish`]).
    guard: Mutex<Option<WorkerGuard>>,
}

/// What the queue holds, against its bounds: lines are counted in as they
/// are queued and out once the stderr thread has written them.
#[derive(Debug)]
struct Budget {
    max_lines: usize,
    max_bytes: usize,
    lines: AtomicUsize,
    bytes: AtomicUsize,
    /// Lines refused for either bound.
    dropped: AtomicUsize,
    /// Drops already told of.
    reported: AtomicUsize,
}

impl Budget {
    fn new(max_lines: usize, max_bytes: usize) -> Self {
        Budget {
            max_lines,
            max_bytes,
            lines: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
            dropped: AtomicUsize::new(0),
            reported: AtomicUsize::new(0),
        }
    }

    /// Whether a line of `len` bytes fits (and counts it in if so).
    fn fits(&self, len: usize) -> bool {
        let bytes = self.bytes.fetch_add(len, Ordering::AcqRel) + len;
        let lines = self.lines.fetch_add(1, Ordering::AcqRel) + 1;
        if bytes <= self.max_bytes && lines <= self.max_lines {
            return true;
        }
        self.release(len);
        false
    }

    /// [`Budget::fits`], counting the line as dropped if not.
    fn admit(&self, len: usize) -> bool {
        let fits = self.fits(len);
        if !fits {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
        fits
    }

    /// A line of `len` bytes has left the queue.
    fn release(&self, len: usize) {
        self.bytes.fetch_sub(len, Ordering::AcqRel);
        self.lines.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The stderr thread's writer: counts each line out of the budget once
/// written (the thread writes each queued line with one `write_all`).
struct Drain<W> {
    inner: W,
    budget: Arc<Budget>,
}

impl<W: Write> Write for Drain<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.inner.write(bytes)
    }

    fn write_all(&mut self, line: &[u8]) -> std::io::Result<()> {
        let written = self.inner.write_all(line);
        self.budget.release(line.len());
        written
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl Queue {
    /// A queue onto `out`, drained by a thread of its own.
    fn onto<W: Write + Send + 'static>(out: W, max_lines: usize, max_bytes: usize) -> Queue {
        let budget = Arc::new(Budget::new(max_lines, max_bytes));
        // The budget admits at most `max_lines`, so the channel (as large)
        // never drops a line of its own: every drop is counted here.
        let (writer, guard) = NonBlockingBuilder::default()
            .lossy(true)
            .buffered_lines_limit(max_lines)
            .thread_name("mcp-wit-stderr")
            .finish(Drain { inner: out, budget: budget.clone() });
        Queue { writer, budget, guard: Mutex::new(Some(guard)) }
    }

    fn writer(&self) -> Writer {
        Writer { queue: self.writer.clone(), budget: self.budget.clone() }
    }

    fn dropped_lines(&self) -> usize {
        self.budget.dropped.load(Ordering::Relaxed) + self.writer.error_counter().dropped_lines()
    }
}

fn queue() -> &'static Queue {
    static QUEUE: OnceLock<Queue> = OnceLock::new();
    QUEUE.get_or_init(|| {
        // Buffered: the thread writes what it drained at once, flushing
        // whenever the queue is empty, so a busy server makes one write
        // for many lines rather than one each (whole lines either way).
        let stderr = std::io::BufWriter::with_capacity(STDERR_BUFFER, std::io::stderr());
        Queue::onto(stderr, QUEUED_LINES, QUEUED_BYTES)
    })
}

/// A writer onto the queue, for a `tracing` subscriber
/// (`fmt().with_writer(mcp_wit::stderr::writer)`): each write is one line.
pub fn writer() -> Writer {
    queue().writer()
}

/// See [`writer`].
pub struct Writer {
    queue: NonBlocking,
    budget: Arc<Budget>,
}

impl Writer {
    /// Queues `line` if it fits, else counts it as dropped.
    fn queue_line(&mut self, line: &[u8]) -> std::io::Result<usize> {
        match self.budget.admit(line.len()) {
            true => self.queue.write(line),
            false => Ok(line.len()),
        }
    }
}

impl Write for Writer {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        report_drops(self);
        self.queue_line(line)
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
    queue().dropped_lines()
}

/// Tells of lines dropped since the last notice, once the queue takes
/// lines again.
fn report_drops(writer: &mut Writer) {
    let budget = &writer.budget;
    let dropped = budget.dropped.load(Ordering::Relaxed) + writer.queue.error_counter().dropped_lines();
    let reported = budget.reported.load(Ordering::Relaxed);
    if dropped <= reported {
        return;
    }
    let notice = notice_line(
        "WARN",
        &format!(
            "mcp-wit: {} lines of logs and guest output dropped: stderr was not read as fast as they came",
            dropped - reported
        ),
    );
    // Told once it fits (a notice that does not is no lost line), by the
    // one writer that moves `reported` on.
    if !budget.fits(notice.len()) {
        return;
    }
    match budget.reported.compare_exchange(reported, dropped, Ordering::AcqRel, Ordering::Relaxed) {
        Ok(_) => {
            let _ = writer.queue.write(notice.as_bytes());
        }
        Err(_) => budget.release(notice.len()),
    }
}

/// Writes out what is queued (waiting a moment at most) and stops the
/// queue: for the end of the process. Later lines go nowhere.
pub fn finish() {
    let guard = lock(&queue().guard).take();
    drop(guard);
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    /// A stderr nobody reads: each write waits for a permit.
    struct Stalled(mpsc::Receiver<()>);

    impl Write for Stalled {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let _ = self.0.recv();
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn long_lines_that_are_not_drained_are_held_up_to_the_byte_bound_and_counted_beyond() {
        const MAX_BYTES: usize = 1 << 20;
        const LINE: usize = 64 << 10;
        let (permits, waiting) = mpsc::channel();
        let queue = Queue::onto(Stalled(waiting), 4096, MAX_BYTES);
        let mut writer = queue.writer();
        let line = [b'x'; LINE];
        for _ in 0..100 {
            writer.write_all(&line).unwrap();
            let held = queue.budget.bytes.load(Ordering::Acquire);
            assert!(held <= MAX_BYTES, "{held} bytes held");
        }
        // 1 MiB of 64 KiB lines: 16 held, the other 84 dropped (the line
        // count never came near its bound).
        assert_eq!(queue.dropped_lines(), 100 - MAX_BYTES / LINE);
        // Once drained, the queue takes lines again, and says what was lost.
        for _ in 0..MAX_BYTES / LINE {
            permits.send(()).unwrap();
        }
        for _ in 0..1000 {
            if queue.budget.lines.load(Ordering::Acquire) == 0 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(queue.budget.bytes.load(Ordering::Acquire), 0);
        drop(permits);
        writer.write_all(b"after\n").unwrap();
        assert_eq!(queue.budget.reported.load(Ordering::Acquire), 100 - MAX_BYTES / LINE);
    }
}
