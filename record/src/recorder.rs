//! Recording a live server: messages handed over on the request path, a
//! thread of its own that encodes and writes them.
//!
//! Serving never waits for the recording: [`RecordTap::record`] appends the
//! message to the pending batch (a lock held for a copy, no system call) or,
//! when the writer has fallen that far behind, drops it and counts it. The
//! writer, a thread at the lowest priority, takes the batch every few
//! milliseconds (at once when it fills up),
//! takes the secrets out of each message, and the arguments and results of
//! the tools named to redact, encodes and writes them, and flushes: a crash
//! loses at most the last few milliseconds (and leaves a cut tail, which
//! [`crate::read`] leaves out).

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::codec::{self, Direction, Transport};
use crate::file::RecordWriter;

/// What stands for the arguments and results of a tool named with
/// [`RecorderOptions::redact_tools`].
pub const REDACTED: &str = "[redacted]";

/// Messages pending before the recorder drops.
pub const DEFAULT_QUEUE: usize = 64 * 1024;

/// How often the writer takes what is pending.
const WRITE_EVERY: Duration = Duration::from_millis(5);

/// What a recorder leaves out of what it writes.
#[derive(Debug, Clone, Default)]
pub struct RecorderOptions {
    /// Values never written: each is replaced by `[secret]` wherever it
    /// appears in a message's text.
    pub secrets: Vec<String>,
    /// Tools whose arguments and results are not written ([`REDACTED`]).
    pub redact_tools: Vec<String>,
    /// Messages that may be pending (0: 64 Ki).
    pub queue: usize,
}

/// What a finished recording holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordingSummary {
    /// Records written.
    pub written: u64,
    /// Messages dropped because the writer had fallen behind.
    pub dropped: u64,
}

/// Messages not yet written: their bytes one after another, and where each is.
#[derive(Default)]
struct Batch {
    bytes: Vec<u8>,
    entries: Vec<Entry>,
    /// The batch's sessions, each once.
    sessions: Vec<Box<str>>,
    session_index: HashMap<Box<str>, u32>,
}

struct Entry {
    session: u32,
    direction: Direction,
    at_micros: u64,
    end: usize,
}

impl Batch {
    fn push(&mut self, session: &str, direction: Direction, at_micros: u64, message: &[u8]) {
        // Most messages are of the session before (stdio has one).
        let last = self.entries.last().map(|e| e.session).filter(|i| &*self.sessions[*i as usize] == session);
        let index = match last.or_else(|| self.session_index.get(session).copied()) {
            Some(index) => index,
            None => {
                let index = self.sessions.len() as u32;
                self.sessions.push(session.into());
                self.session_index.insert(session.into(), index);
                index
            }
        };
        self.bytes.extend_from_slice(message);
        self.entries.push(Entry { session: index, direction, at_micros, end: self.bytes.len() });
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.entries.clear();
        self.sessions.clear();
        self.session_index.clear();
    }
}

struct Shared {
    pending: Mutex<Pending>,
    /// Wakes the writer early: the batch is full, or the recording ends.
    wake: Condvar,
    dropped: AtomicU64,
    capacity: usize,
}

struct Pending {
    batch: Batch,
    open: bool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Records a server's traffic into a file, on a thread of its own.
pub struct Recorder {
    shared: Arc<Shared>,
    writer: Option<JoinHandle<io::Result<u64>>>,
}

/// The request path's handle on a [`Recorder`]: cheap to clone.
#[derive(Clone)]
pub struct RecordTap {
    shared: Arc<Shared>,
}

impl Recorder {
    /// Creates the recording at `path` (its header: `transport`) and starts
    /// its writer.
    pub fn start(path: &Path, transport: &Transport, options: RecorderOptions) -> io::Result<Self> {
        let file = RecordWriter::create(path, transport)?;
        let capacity = if options.queue == 0 { DEFAULT_QUEUE } else { options.queue };
        let shared = Arc::new(Shared {
            pending: Mutex::new(Pending { batch: Batch::default(), open: true }),
            wake: Condvar::new(),
            dropped: AtomicU64::new(0),
            capacity,
        });
        let writing = shared.clone();
        let writer = std::thread::Builder::new()
            .name("mcp-wit-recorder".into())
            .spawn(move || write_all(file, &writing, Redactor::new(options)))?;
        Ok(Recorder { shared, writer: Some(writer) })
    }

    /// A handle to record with.
    pub fn tap(&self) -> RecordTap {
        RecordTap { shared: self.shared.clone() }
    }

    /// Writes what is pending, closes the file and says what it holds; what
    /// taps still alive record afterwards is dropped.
    pub fn finish(mut self) -> io::Result<RecordingSummary> {
        self.shared.lock().open = false;
        self.shared.wake.notify_one();
        let writer = self.writer.take().expect("finished once");
        let written = writer.join().map_err(|_| io::Error::other("the recorder's writer panicked"))??;
        Ok(RecordingSummary { written, dropped: self.shared.dropped.load(Ordering::Relaxed) })
    }
}

impl RecordTap {
    /// Messages dropped so far because the writer had fallen behind.
    pub fn dropped(&self) -> u64 {
        self.shared.dropped.load(Ordering::Relaxed)
    }

    /// Records `message` (a JSON-RPC message's text) of `session`, unless
    /// the writer has fallen behind or the recording ended (then it is
    /// counted as dropped).
    pub fn record(&self, session: &str, direction: Direction, message: &[u8]) {
        let at_micros = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_micros() as u64);
        let shared = &*self.shared;
        let mut pending = shared.lock();
        if !pending.open || pending.batch.entries.len() >= shared.capacity {
            drop(pending);
            shared.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        pending.batch.push(session, direction, at_micros, message);
        let full = pending.batch.entries.len() == shared.capacity;
        drop(pending);
        if full {
            shared.wake.notify_one();
        }
    }
}

fn write_all(mut file: RecordWriter, shared: &Shared, mut redactor: Redactor) -> io::Result<u64> {
    lowest_priority();
    let mut written = 0;
    let mut taken = Batch::default();
    let mut out = Vec::with_capacity(256 * 1024);
    loop {
        let open = {
            let mut pending = shared.lock();
            if pending.open && pending.batch.entries.is_empty() {
                pending = shared.wake.wait_timeout(pending, WRITE_EVERY).unwrap_or_else(|e| e.into_inner()).0;
            }
            std::mem::swap(&mut pending.batch, &mut taken);
            pending.open
        };
        let mut start = 0;
        for entry in &taken.entries {
            let message = &taken.bytes[start..entry.end];
            start = entry.end;
            let session = &taken.sessions[entry.session as usize];
            let cleaned = redactor.clean(session, message);
            let message = cleaned.as_deref().unwrap_or(message);
            codec::encode_into(session, entry.direction, entry.at_micros, message, &mut out);
            written += 1;
        }
        taken.clear();
        if !out.is_empty() {
            file.write_encoded(&out)?;
            out.clear();
            file.flush()?;
        }
        if !open && shared.lock().batch.entries.is_empty() {
            return Ok(written);
        }
    }
}

/// Puts the calling thread at the lowest priority: on a machine with no CPU
/// to spare, serving goes first and the recording falls behind (and drops,
/// counting) rather than slowing the server.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system calls on the calling thread (Linux gives each
        // thread its own nice value).
        let set = unsafe { libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 19) };
        if set != 0 {
            warn("cannot lower the recorder's priority");
        }
    }
}

/// A warning on stderr (this crate does not log).
#[cfg(target_os = "linux")]
fn warn(what: &str) {
    eprintln!("mcp-wit-record: {what}: {}", io::Error::last_os_error());
}

/// Takes secrets and redacted tools' data out of messages.
struct Redactor {
    /// Each secret as it appears in JSON text (escaped, without quotes),
    /// and its searcher (built once: building one costs more than a scan).
    secrets: Vec<(String, memchr::memmem::Finder<'static>)>,
    tools: HashSet<String>,
    /// `(session, id)` of calls of redacted tools, whose results are redacted too.
    calls: HashSet<(String, String)>,
}

impl Redactor {
    fn new(options: RecorderOptions) -> Self {
        let secrets = options
            .secrets
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| {
                let quoted = serde_json::to_string(s).expect("a string serialises");
                let escaped = quoted[1..quoted.len() - 1].to_string();
                let finder = memchr::memmem::Finder::new(escaped.as_bytes()).into_owned();
                (escaped, finder)
            })
            .collect();
        Redactor { secrets, tools: options.redact_tools.into_iter().collect(), calls: HashSet::new() }
    }

    /// The message to write, if it is not `message` as is: secrets
    /// replaced, redacted tools' data taken out.
    fn clean(&mut self, session: &str, message: &[u8]) -> Option<Vec<u8>> {
        let mut text: Option<Vec<u8>> = None;
        for (secret, finder) in &self.secrets {
            let current = text.as_deref().unwrap_or(message);
            if finder.find(current).is_some() {
                let replaced = String::from_utf8_lossy(current).replace(secret.as_str(), "[secret]");
                text = Some(replaced.into_bytes());
            }
        }
        if self.tools.is_empty() {
            return text;
        }
        let current = text.as_deref().unwrap_or(message);
        let mut value = serde_json::from_slice::<Value>(current).ok()?;
        if self.redact(session, &mut value) { Some(value.to_string().into_bytes()) } else { text }
    }

    /// Takes a redacted tool's arguments or result out of `value`; whether
    /// it did.
    fn redact(&mut self, session: &str, value: &mut Value) -> bool {
        let id = value.get("id").map(Value::to_string);
        let is_call = value.get("method").and_then(Value::as_str) == Some("tools/call");
        if is_call {
            let tool = value.pointer("/params/name").and_then(Value::as_str).unwrap_or_default();
            if !self.tools.contains(tool) {
                return false;
            }
            if let Some(id) = id {
                self.calls.insert((session.to_owned(), id));
            }
            match value.pointer_mut("/params/arguments") {
                Some(arguments) => {
                    *arguments = Value::String(REDACTED.into());
                    true
                }
                None => false,
            }
        } else if let Some(id) = id
            && value.get("method").is_none()
            && self.calls.remove(&(session.to_owned(), id))
            && let Some(result) = value.get_mut("result")
        {
            *result = serde_json::json!({ "content": [{ "type": "text", "text": REDACTED }] });
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secrets_and_redacted_tools_never_reach_the_file() {
        let path = std::env::temp_dir().join(format!("mcp-wit-recorder-{}.mcp", std::process::id()));
        let options = RecorderOptions {
            secrets: vec!["s3cr\"t".into()],
            redact_tools: vec!["login".into()],
            ..RecorderOptions::default()
        };
        let recorder = Recorder::start(&path, &Transport::Stdio { buffer_size: 8192 }, options).unwrap();
        let tap = recorder.tap();
        let call = json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": "login", "arguments": { "password": "hunter2" } } });
        tap.record("a", Direction::In, call.to_string().as_bytes());
        let answer =
            json!({ "jsonrpc": "2.0", "id": 3, "result": { "content": [{ "type": "text", "text": "token xyz" }] } });
        tap.record("a", Direction::Out, answer.to_string().as_bytes());
        let leak =
            json!({ "jsonrpc": "2.0", "method": "notifications/message", "params": { "data": "key is s3cr\"t" } });
        tap.record("a", Direction::Out, leak.to_string().as_bytes());
        tap.record("a", Direction::In, b"garbage {");
        drop(tap);
        let summary = recorder.finish().unwrap();
        assert_eq!(summary, RecordingSummary { written: 4, dropped: 0 });
        let bytes = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for leaked in ["hunter2", "token xyz", "s3cr"] {
            assert!(!text.contains(leaked), "{leaked} reached the file");
        }
        let read = crate::read(&bytes).unwrap();
        assert_eq!(read.records[0].message["params"]["arguments"], "[redacted]");
        assert_eq!(read.records[2].message["params"]["data"], "key is [secret]");
        assert_eq!(read.records[3].message, "garbage {");
    }

    #[test]
    fn a_full_queue_drops_and_counts_and_never_blocks() {
        let path = std::env::temp_dir().join(format!("mcp-wit-recorder-full-{}.mcp", std::process::id()));
        let options = RecorderOptions { queue: 1, ..RecorderOptions::default() };
        let recorder = Recorder::start(&path, &Transport::Stdio { buffer_size: 8192 }, options).unwrap();
        let tap = recorder.tap();
        let message = json!({ "jsonrpc": "2.0", "method": "notifications/progress", "params": { "progress": 1 } });
        for _ in 0..10_000 {
            tap.record("a", Direction::Out, message.to_string().as_bytes());
        }
        drop(tap);
        let summary = recorder.finish().unwrap();
        assert_eq!(summary.written + summary.dropped, 10_000);
        let read = crate::read(&std::fs::read(&path).unwrap()).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(read.records.len() as u64, summary.written);
    }
}
