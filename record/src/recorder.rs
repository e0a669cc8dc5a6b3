//! Recording a live server: messages handed over on the request path, a
//! thread of its own that encodes and writes them.
//!
//! Serving never waits for the recording: [`RecordTap::record`] copies the
//! message into a bounded queue, or, when the writer has fallen that far
//! behind, drops it and counts it. The writer takes the secrets out of each
//! message, and the arguments and results of the tools named to redact,
//! before it is written; it flushes whenever the queue runs dry, so a crash
//! loses at most what was still queued (and leaves a cut tail, which
//! [`crate::read`] leaves out).

use std::collections::HashSet;
use std::io;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::thread::JoinHandle;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::codec::{Direction, Record, Transport};
use crate::file::RecordWriter;

/// Messages the queue holds before the recorder drops.
pub const DEFAULT_QUEUE: usize = 64 * 1024;

/// What a recorder leaves out of what it writes.
#[derive(Debug, Clone, Default)]
pub struct RecorderOptions {
    /// Values never written: each is replaced by `[secret]` wherever it
    /// appears in a message's text.
    pub secrets: Vec<String>,
    /// Tools whose arguments and results are not written (`[redacted]`).
    pub redact_tools: Vec<String>,
    /// Messages the queue holds (0: [`DEFAULT_QUEUE`]).
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

struct Queued {
    session: Arc<str>,
    direction: Direction,
    at_micros: u64,
    message: Vec<u8>,
}

/// Records a server's traffic into a file, on a thread of its own.
pub struct Recorder {
    tap: RecordTap,
    writer: Option<JoinHandle<io::Result<u64>>>,
}

/// The request path's handle on a [`Recorder`]: cheap to clone.
#[derive(Clone)]
pub struct RecordTap {
    queue: SyncSender<Queued>,
    dropped: Arc<AtomicU64>,
}

impl Recorder {
    /// Creates the recording at `path` (its header: `transport`) and starts
    /// its writer.
    pub fn start(path: &Path, transport: &Transport, options: RecorderOptions) -> io::Result<Self> {
        let file = RecordWriter::create(path, transport)?;
        let capacity = if options.queue == 0 { DEFAULT_QUEUE } else { options.queue };
        let (queue, queued) = sync_channel(capacity);
        let writer = std::thread::Builder::new()
            .name("mcp-wit-recorder".into())
            .spawn(move || write_all(file, queued, Redactor::new(options)))?;
        Ok(Recorder { tap: RecordTap { queue, dropped: Arc::default() }, writer: Some(writer) })
    }

    /// A handle to record with.
    pub fn tap(&self) -> RecordTap {
        self.tap.clone()
    }

    /// Writes what is queued, closes the file and says what it holds. (Any
    /// tap still alive must be dropped first, or this waits for it.)
    pub fn finish(mut self) -> io::Result<RecordingSummary> {
        let dropped = self.tap.dropped.clone();
        drop(self.tap);
        let written = self
            .writer
            .take()
            .expect("finished once")
            .join()
            .map_err(|_| io::Error::other("the recorder's writer panicked"))??;
        Ok(RecordingSummary { written, dropped: dropped.load(Ordering::Relaxed) })
    }
}

impl RecordTap {
    /// Records `message` (a JSON-RPC message's text) of `session`, unless
    /// the writer has fallen behind (then it is counted as dropped).
    pub fn record(&self, session: &str, direction: Direction, message: &[u8]) {
        let at_micros = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_micros() as u64);
        let queued = Queued { session: session.into(), direction, at_micros, message: message.to_vec() };
        match self.queue.try_send(queued) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Messages dropped so far.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

fn write_all(mut file: RecordWriter, queued: Receiver<Queued>, mut redactor: Redactor) -> io::Result<u64> {
    let mut written = 0;
    while let Ok(first) = queued.recv() {
        let mut next = Some(first);
        while let Some(item) = next {
            let message = redactor.clean(&item.session, &item.message);
            let record = Record {
                session: item.session.to_string(),
                direction: item.direction,
                at_micros: item.at_micros,
                message,
            };
            file.append(&record)?;
            written += 1;
            next = queued.try_recv().ok();
        }
        // The queue ran dry: what was written reaches the file.
        file.flush()?;
    }
    file.flush()?;
    Ok(written)
}

/// Takes secrets and redacted tools' data out of messages.
struct Redactor {
    /// Each secret as it appears in JSON text (escaped, without quotes).
    secrets: Vec<String>,
    tools: HashSet<String>,
    /// `(session, id)` of calls of redacted tools, whose results are redacted too.
    calls: HashSet<(Arc<str>, String)>,
}

impl Redactor {
    fn new(options: RecorderOptions) -> Self {
        let secrets = options
            .secrets
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| {
                let quoted = serde_json::to_string(s).expect("a string serialises");
                quoted[1..quoted.len() - 1].to_string()
            })
            .collect();
        Redactor { secrets, tools: options.redact_tools.into_iter().collect(), calls: HashSet::new() }
    }

    /// The message to write: JSON with secrets and redacted data replaced;
    /// text that is not JSON, as a string.
    fn clean(&mut self, session: &Arc<str>, message: &[u8]) -> Value {
        let mut text = String::from_utf8_lossy(message).into_owned();
        for secret in &self.secrets {
            if text.contains(secret.as_str()) {
                text = text.replace(secret.as_str(), "[secret]");
            }
        }
        let Ok(mut value) = serde_json::from_str::<Value>(&text) else { return Value::String(text) };
        if !self.tools.is_empty() {
            self.redact(session, &mut value);
        }
        value
    }

    fn redact(&mut self, session: &Arc<str>, value: &mut Value) {
        let id = value.get("id").map(Value::to_string);
        let is_call = value.get("method").and_then(Value::as_str) == Some("tools/call");
        if is_call {
            let tool = value.pointer("/params/name").and_then(Value::as_str).unwrap_or_default();
            if self.tools.contains(tool) {
                if let Some(arguments) = value.pointer_mut("/params/arguments") {
                    *arguments = Value::String("[redacted]".into());
                }
                if let Some(id) = id {
                    self.calls.insert((session.clone(), id));
                }
            }
        } else if let Some(id) = id
            && value.get("method").is_none()
            && self.calls.remove(&(session.clone(), id))
            && let Some(result) = value.get_mut("result")
        {
            *result = serde_json::json!({ "content": [{ "type": "text", "text": "[redacted]" }] });
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
