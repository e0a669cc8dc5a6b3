//! `mcp-wit serve FIXTURE` without the process: the library's [`Session`]
//! in this process, fed one line at a time from an in-memory pipe, as the
//! stdio transport feeds it. For the tests of the mapping, which need no
//! process; the tests of framing, signals and flags launch the binary.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use mcp_wit::{EngineOptions, LoadedRouter, SandboxPolicy, Session, SessionOptions};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::task::JoinHandle;
use tracing::instrument::WithSubscriber;

/// Pipe capacity each way.
const PIPE: usize = 1 << 20;

/// A session with the fixture `name` served in this process: the client's
/// ends of its pipes, the task that serves it (it ends when the client's
/// input closes) and what it logs, as `mcp-wit serve -v` would on stderr.
pub struct InProcess {
    /// Where the client reads the server's messages.
    pub from_server: DuplexStream,
    /// Where the client writes its messages.
    pub to_server: DuplexStream,
    /// The serving task.
    pub task: JoinHandle<()>,
    /// The log lines.
    pub logs: Arc<Mutex<String>>,
}

/// Starts serving `fixture` (compiled once per test binary).
pub fn serve(fixture: &str) -> InProcess {
    let component = component(fixture);
    let (from_server, server_out) = tokio::io::duplex(PIPE);
    let (server_in, to_server) = tokio::io::duplex(PIPE);
    let logs = Arc::new(Mutex::new(String::new()));
    let sink = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || LogWriter(sink.clone()))
        .with_ansi(false)
        .with_max_level(tracing::Level::DEBUG)
        .finish();
    let task = tokio::spawn(run(component, server_in, server_out).with_subscriber(subscriber));
    InProcess { from_server, to_server, task, logs }
}

/// One session over the pipes: each line is one message to
/// [`Session::handle_async`], each message it writes one line back.
async fn run(component: LoadedRouter, input: DuplexStream, mut output: DuplexStream) {
    let mut session = Session::new(component, SessionOptions::default());
    let mut lines = BufReader::new(input).lines();
    let mut out: Vec<Vec<u8>> = Vec::new();
    while let Ok(Some(line)) = lines.next_line().await {
        if line.trim().is_empty() {
            continue;
        }
        session.handle_async(line.as_bytes(), &mut out).await;
        for message in out.drain(..) {
            if output.write_all(&message).await.is_err() || output.write_all(b"\n").await.is_err() {
                return;
            }
        }
    }
}

/// The fixture `name`, compiled and linked once per test binary.
fn component(name: &str) -> LoadedRouter {
    static ENGINE: OnceLock<mcp_wit::Engine> = OnceLock::new();
    static LOADED: OnceLock<Mutex<HashMap<String, LoadedRouter>>> = OnceLock::new();
    let engine = ENGINE.get_or_init(|| {
        // Room for the sessions of one test binary's tests running at once.
        EngineOptions { pool_instances: 64, ..EngineOptions::default() }.build().expect("an engine")
    });
    let mut loaded = LOADED.get_or_init(Mutex::default).lock().unwrap();
    loaded
        .entry(name.to_owned())
        .or_insert_with(|| {
            let policy = SandboxPolicy::builder(name).build();
            LoadedRouter::from_file(engine, &crate::fixture(name), policy).expect("the fixture loads")
        })
        .clone()
}

/// Appends log output to a shared string.
struct LogWriter(Arc<Mutex<String>>);

impl Write for LogWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().push_str(&String::from_utf8_lossy(bytes));
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
