//! The process's stderr, written without ever blocking the server.
//!
//! Logs and guest output are diagnostics: when whatever reads stderr stops
//! reading (a client that pipes it and never drains it, a stalled log
//! shipper), writing to it must not stall a call, a deadline or a probe.
//! Every line goes through one queue, bounded in lines ([`QUEUED_LINES`])
//! and in bytes ([`QUEUED_BYTES`]), that a thread of its own drains into
//! stderr; a line that finds the queue full is dropped and counted, and
//! once the queue takes lines again a notice says how many were lost.
//!
//! The queue is written here rather than taken from tracing-appender, whose
//! channel wakes its thread for every line, and whose thread spins
//! (`sched_yield`) before it sleeps: with a request logged per call, that
//! was a sixth of a stdio server's CPU at one call at a time (BENCHMARKS.md,
//! 2026-11-29). Here a line is appended to a buffer under a lock; the thread
//! is woken only by the first line after it fell idle, and then lingers 5 ms
//! before each write, so that a busy server's lines leave in one
//! `write` per linger instead of one wake-up and one `write` each.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, mpsc};
use std::time::Duration;

use crate::sync::lock;

/// Lines waiting for stderr at most; more are dropped and counted.
pub const QUEUED_LINES: usize = 4096;

/// Bytes waiting for stderr at most (lines handed to the queue and not yet
/// written out); a line that would pass it is dropped and counted, so that
/// long lines cannot make the queue hold more than this.
pub const QUEUED_BYTES: usize = 32 << 20;

/// How long the stderr thread gathers lines before it writes them: a line
/// reaches stderr at most this much later.
const LINGER: Duration = Duration::from_millis(5);

/// How long [`finish`] waits for what is queued to be written.
const FINISH_WAIT: Duration = Duration::from_secs(1);

/// A buffer kept for the next batch up to this capacity; a larger one (a
/// burst of long lines) is given back.
const KEPT_CAPACITY: usize = 64 << 10;

struct Queue {
    shared: Arc<Shared>,
    /// Says when the thread has written everything and stopped.
    stopped: Mutex<Option<mpsc::Receiver<()>>>,
}

/// What the writers and the stderr thread share.
struct Shared {
    pending: Mutex<Pending>,
    /// Wakes the thread: lines after it fell idle, or the end.
    wake: Condvar,
    max_lines: usize,
    max_bytes: usize,
    /// Lines refused for either bound.
    dropped: AtomicUsize,
    /// Drops already told of.
    reported: AtomicUsize,
}

/// The queue's contents, and what it holds against its bounds: lines are
/// counted in as they are queued and out once the thread has written them.
#[derive(Default)]
struct Pending {
    /// Whole lines not yet taken by the thread, in order, and how many.
    lines: Vec<u8>,
    queued: usize,
    /// Lines and bytes queued or being written.
    held_lines: usize,
    held_bytes: usize,
    /// The thread waits for a line (and must be woken for one).
    idle: bool,
    /// No more lines: the thread writes what is left and stops.
    ending: bool,
}

/// What became of a line handed to the queue.
#[derive(PartialEq, Eq)]
enum Pushed {
    Queued,
    /// Over a bound: dropped, to be counted.
    Full,
    /// The queue has ended ([`finish`]).
    Ended,
}

impl Shared {
    /// Queues `line` if the queue takes it.
    fn push(&self, line: &[u8]) -> Pushed {
        let mut pending = lock(&self.pending);
        if pending.ending {
            return Pushed::Ended;
        }
        if pending.held_lines + 1 > self.max_lines || pending.held_bytes + line.len() > self.max_bytes {
            return Pushed::Full;
        }
        pending.held_lines += 1;
        pending.held_bytes += line.len();
        pending.lines.extend_from_slice(line);
        pending.queued += 1;
        if pending.idle {
            pending.idle = false;
            self.wake.notify_one();
        }
        Pushed::Queued
    }

    /// [`Shared::push`], counting the line as dropped if the queue is full
    /// (once it has ended, a line goes nowhere: no loss to tell of).
    fn admit(&self, line: &[u8]) {
        if self.push(line) == Pushed::Full {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The stderr thread: waits for lines, lingers so that more gather,
    /// writes them in one go, and counts them out once written.
    fn drain(&self, mut out: impl Write) {
        let mut batch = Vec::new();
        loop {
            let mut pending = lock(&self.pending);
            while pending.lines.is_empty() && !pending.ending {
                pending.idle = true;
                pending = self.wake.wait(pending).unwrap_or_else(|poisoned| poisoned.into_inner());
            }
            if !pending.ending {
                // Gather for a moment; only the end cuts it short (writers do
                // not wake a thread that is not idle).
                pending = self.wake.wait_timeout(pending, LINGER).unwrap_or_else(|p| p.into_inner()).0;
            }
            std::mem::swap(&mut batch, &mut pending.lines);
            let lines = std::mem::take(&mut pending.queued);
            // Once ending, the queue takes no more lines: this batch is the last.
            let ending = pending.ending;
            drop(pending);
            // Errors are dropped: there is nowhere else to tell of them.
            let _ = out.write_all(&batch).and_then(|()| out.flush());
            let mut pending = lock(&self.pending);
            pending.held_lines -= lines;
            pending.held_bytes -= batch.len();
            drop(pending);
            if ending {
                return;
            }
            batch.clear();
            if batch.capacity() > KEPT_CAPACITY {
                batch = Vec::new();
            }
        }
    }
}

impl Queue {
    /// A queue onto `out`, drained by a thread of its own.
    fn onto<W: Write + Send + 'static>(out: W, max_lines: usize, max_bytes: usize) -> Queue {
        let shared = Arc::new(Shared {
            pending: Mutex::new(Pending::default()),
            wake: Condvar::new(),
            max_lines,
            max_bytes,
            dropped: AtomicUsize::new(0),
            reported: AtomicUsize::new(0),
        });
        let (done, stopped) = mpsc::channel();
        let draining = shared.clone();
        let spawned = std::thread::Builder::new().name("mcp-wit-stderr".into()).spawn(move || {
            draining.drain(out);
            let _ = done.send(());
        });
        if let Err(e) = spawned {
            // Without the thread nothing would ever leave the queue: say so
            // once, where it can still be read, and take no lines.
            let _ = writeln!(std::io::stderr(), "mcp-wit: cannot start the thread that writes stderr: {e}");
            lock(&shared.pending).ending = true;
        }
        Queue { shared, stopped: Mutex::new(Some(stopped)) }
    }

    fn writer(&self) -> Writer {
        Writer { shared: self.shared.clone() }
    }

    fn dropped_lines(&self) -> usize {
        self.shared.dropped.load(Ordering::Relaxed)
    }

    /// Ends the queue: what is queued is written (waiting [`FINISH_WAIT`]
    /// at most, in case stderr is not read), later lines go nowhere.
    fn finish(&self) {
        let Some(stopped) = lock(&self.stopped).take() else { return };
        lock(&self.shared.pending).ending = true;
        self.shared.wake.notify_one();
        let _ = stopped.recv_timeout(FINISH_WAIT);
    }
}

fn queue() -> &'static Queue {
    static QUEUE: OnceLock<Queue> = OnceLock::new();
    QUEUE.get_or_init(|| Queue::onto(std::io::stderr(), QUEUED_LINES, QUEUED_BYTES))
}

/// A writer onto the queue, for a `tracing` subscriber
/// (`fmt().with_writer(mcp_wit::stderr::writer)`): each write is one line.
pub fn writer() -> Writer {
    queue().writer()
}

/// See [`writer`].
pub struct Writer {
    shared: Arc<Shared>,
}

impl Write for Writer {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        report_drops(&self.shared);
        self.shared.admit(line);
        Ok(line.len())
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
fn report_drops(shared: &Shared) {
    let dropped = shared.dropped.load(Ordering::Relaxed);
    let reported = shared.reported.load(Ordering::Relaxed);
    if dropped <= reported {
        return;
    }
    // Told by the one writer that moves `reported` on, once it fits (a
    // notice that does not is no lost line: it is told with the next).
    if shared.reported.compare_exchange(reported, dropped, Ordering::AcqRel, Ordering::Relaxed).is_err() {
        return;
    }
    let notice = notice_line(
        "WARN",
        &format!(
            "mcp-wit: {} lines of logs and guest output dropped: stderr was not read as fast as they came",
            dropped - reported
        ),
    );
    if shared.push(notice.as_bytes()) != Pushed::Queued {
        let _ = shared.reported.compare_exchange(dropped, reported, Ordering::AcqRel, Ordering::Relaxed);
    }
}

/// Writes out what is queued (waiting a moment at most) and stops the
/// queue: for the end of the process. Later lines go nowhere.
pub fn finish() {
    queue().finish();
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
            let held = lock(&queue.shared.pending).held_bytes;
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
            if lock(&queue.shared.pending).held_lines == 0 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(lock(&queue.shared.pending).held_bytes, 0);
        drop(permits);
        writer.write_all(b"after\n").unwrap();
        assert_eq!(queue.shared.reported.load(Ordering::Acquire), 100 - MAX_BYTES / LINE);
    }

    /// A stderr that keeps what it is given.
    #[derive(Clone, Default)]
    struct Kept(Arc<Mutex<Vec<u8>>>);

    impl Write for Kept {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            lock(&self.0).extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_from_many_writers_reach_stderr_whole_and_each_writers_in_order_and_finish_writes_the_rest() {
        let out = Kept::default();
        let queue = Queue::onto(out.clone(), QUEUED_LINES, QUEUED_BYTES);
        std::thread::scope(|scope| {
            for writer_no in 0..4 {
                let mut writer = queue.writer();
                scope.spawn(move || {
                    for line in 0..500 {
                        writer.write_all(format!("writer {writer_no} line {line}\n").as_bytes()).unwrap();
                    }
                });
            }
        });
        queue.finish();
        let written = String::from_utf8(lock(&out.0).clone()).unwrap();
        assert_eq!(written.lines().count(), 2000, "every line, once");
        for writer_no in 0..4 {
            let mine: Vec<&str> = written.lines().filter(|l| l.starts_with(&format!("writer {writer_no} "))).collect();
            let expected: Vec<String> = (0..500).map(|line| format!("writer {writer_no} line {line}")).collect();
            assert_eq!(mine, expected);
        }
        assert_eq!(lock(&queue.shared.pending).held_lines, 0);
        // Finished: later lines go nowhere, and nothing waits for them.
        queue.writer().write_all(b"late\n").unwrap();
        queue.finish();
        assert!(!String::from_utf8(lock(&out.0).clone()).unwrap().contains("late"));
    }
}
