//! Shared test support: the `mcp-wit` binary under test, a schema check for
//! every message the server writes, two ways to talk to `mcp-wit serve` (a
//! real rmcp client behind a recording proxy, and a raw line client for
//! malformed input), and the small helpers several test files use.

pub mod composition;
pub mod engines;
pub mod haproxy;
pub mod http;
pub mod in_process;
pub mod otlp;
pub mod peers;
pub mod process;
pub mod prometheus;
pub mod redis;
pub mod registry;
pub mod schema;
pub mod sdks;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject, ProgressNotificationParam};
use rmcp::service::{MaybeSendFuture, NotificationContext, RoleClient, RunningService};
use rmcp::{ClientHandler, ErrorData, ServiceError};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tokio::task::JoinHandle;

pub use crate::{COUNT_VOWELS, FIXTURES, PLUGIN_FIXTURES, fixture, plugin_fixture};

/// An rmcp client that records every progress notification it receives.
#[derive(Clone, Default)]
pub struct ProgressRecorder {
    /// The notifications, in the order they came.
    pub seen: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for ProgressRecorder {
    fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) -> impl std::future::Future<Output = ()> + MaybeSendFuture + '_ {
        self.seen.lock().unwrap().push(params);
        std::future::ready(())
    }
}

/// rmcp's client lifecycles, each with the version it should agree on: a
/// 2026-07-28 client (falling back to 2025-11-25), and `initialize` in
/// 2025-11-25.
pub fn rmcp_lifecycles() -> [(rmcp::service::ClientLifecycleMode, rmcp::model::ProtocolVersion); 2] {
    use rmcp::model::ProtocolVersion;
    use rmcp::service::ClientLifecycleMode;
    let modern = ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::V_2025_11_25),
    };
    [(modern, ProtocolVersion::V_2026_07_28), (ClientLifecycleMode::Initialize, ProtocolVersion::V_2025_11_25)]
}

/// Serves `server` with rmcp's own server on one end of an in-memory pipe,
/// in a task of its own, and returns the other end, for a client.
pub fn serve_in_memory<S: rmcp::ServerHandler>(server: S) -> tokio::io::DuplexStream {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let running = rmcp::ServiceExt::serve(server, server_end).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    client_end
}

/// `wac plug <socket> --plug <plug>`: the plug's exports fill the socket's
/// matching imports; the result exports what the socket exports.
pub fn plug(socket: &[u8], plug: &[u8]) -> Vec<u8> {
    use wac_graph::types::Package;
    let mut graph = wac_graph::CompositionGraph::new();
    let socket = Package::from_bytes("mcp-wit:socket", None, socket, graph.types_mut()).expect("socket is a component");
    let socket = graph.register_package(socket).unwrap();
    let plug = Package::from_bytes("mcp-wit:plug", None, plug, graph.types_mut()).expect("plug is a component");
    let plug = graph.register_package(plug).unwrap();
    wac_graph::plug(&mut graph, vec![plug], socket).expect("the plug fills the socket's imports");
    graph.encode(wac_graph::EncodeOptions::default()).expect("the composition encodes and validates")
}

/// How long any single answer may take before a test gives up.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// The path of the fixture component `name`, as a command-line argument.
pub fn fixture_arg(name: &str) -> String {
    fixture(name).to_str().expect("fixture path is UTF-8").to_owned()
}

/// The `mcp-wit` binary under test.
///
/// It belongs to another package (`mcp-wit-cli`, in `cli/`), and cargo
/// builds a package's binaries, and tells where they are
/// (`CARGO_BIN_EXE_<name>`), only for that package's own integration tests
/// and benchmarks. So it is found at run time:
///
/// 1. `CARGO_BIN_EXE_mcp-wit` in the environment: cargo (1.94 and later) sets
///    it when it runs a test of `mcp-wit-cli`, should that test use this
///    support. (`option_env!` would not do: this library is compiled once, as
///    a dependency, where cargo never sets the variable.)
/// 2. Beside the profile directory the running test lives in: test
///    executables are `<target-dir>/<profile>/deps/<test>-<hash>`, binaries
///    `<target-dir>/<profile>/mcp-wit`.
///
/// `cargo test --workspace` builds it: `cli/` has integration tests of its
/// own, so cargo builds `mcp-wit` for them, in the same profile. `cargo test
/// -p mcp-wit-tests` alone does not, and runs whatever binary an earlier
/// build left (possibly stale): build it with `cargo build -p mcp-wit-cli`
/// (`--release` for `cargo test --release`).
///
/// # Panics
///
/// If the binary is not there, saying how to build it.
pub fn binary() -> PathBuf {
    static BINARY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BINARY.get_or_init(find_binary).clone()
}

fn find_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("CARGO_BIN_EXE_mcp-wit") {
        return PathBuf::from(path);
    }
    let name = format!("mcp-wit{}", std::env::consts::EXE_SUFFIX);
    let exe = std::env::current_exe().expect("the path of the running test");
    let dir = exe.parent().expect("the running test is in a directory");
    // In `deps/` (a test, a benchmark), or beside the binary (another binary).
    let profile_dir = if dir.file_name().is_some_and(|n| n == "deps") { dir.parent().unwrap_or(dir) } else { dir };
    let path = profile_dir.join(name);
    assert!(
        path.is_file(),
        "the `mcp-wit` binary is not built: no {}\n\
         build it with `cargo build -p mcp-wit-cli` (with `--release` for a release test run), \
         or run the tests with `cargo test --workspace`, which builds it",
        path.display()
    );
    path
}

/// What the proxy saw the server send, checked against the MCP schema.
#[derive(Default)]
pub struct Transcript {
    /// Method and schema revision of each request the client sent, by raw id.
    methods: HashMap<String, (String, schema::Revision)>,
    /// The revision of the last request sent: notifications are checked
    /// against it.
    last_revision: schema::Revision,
    /// Every message the server sent, with the method it answers (for responses).
    pub messages: Vec<(Option<String>, Value)>,
    /// Schema violations found.
    pub violations: Vec<String>,
}

impl Transcript {
    fn record_client(&mut self, line: &str) {
        if let Ok(msg) = serde_json::from_str::<Value>(line)
            && let (Some(id), Some(method)) = (msg.get("id"), msg.get("method").and_then(Value::as_str))
        {
            let revision = schema::Revision::of_request(&msg);
            self.last_revision = revision;
            self.methods.insert(id.to_string(), (method.to_string(), revision));
        }
    }

    fn record_server(&mut self, line: &str) {
        match serde_json::from_str::<Value>(line) {
            Ok(msg) => {
                let known = msg.get("id").and_then(|id| self.methods.get(&id.to_string())).cloned();
                let revision = known.as_ref().map_or(self.last_revision, |(_, revision)| *revision);
                let method = known.map(|(method, _)| method);
                if let Err(e) = schema::check_server_message_at(revision, &msg, method.as_deref()) {
                    self.violations.push(e);
                }
                self.messages.push((method, msg));
            }
            Err(e) => self.violations.push(format!("server wrote a line that is not JSON ({e}): {line}")),
        }
    }

    /// The `result` of every response to `method`, in order.
    pub fn results(&self, method: &str) -> Vec<Value> {
        self.messages
            .iter()
            .filter(|(m, msg)| m.as_deref() == Some(method) && msg.get("result").is_some())
            .map(|(_, msg)| msg["result"].clone())
            .collect()
    }

    /// Notifications with this method, in order.
    pub fn notifications(&self, method: &str) -> Vec<Value> {
        self.messages
            .iter()
            .filter(|(_, msg)| msg.get("id").is_none() && msg.get("method").and_then(Value::as_str) == Some(method))
            .map(|(_, msg)| msg.clone())
            .collect()
    }
}

/// What serves a test: `mcp-wit serve` as a process, or the library's
/// session in this process ([`in_process`]).
enum Host {
    Process(Child),
    InProcess(JoinHandle<()>),
}

impl Host {
    /// Waits for the server to end cleanly once its input is closed.
    async fn finished(&mut self, stderr: &Mutex<String>) {
        match self {
            Host::Process(child) => {
                let status = tokio::time::timeout(ANSWER_TIMEOUT, child.wait()).await.expect("server did not exit");
                assert!(status.unwrap().success(), "server exited with failure; stderr:\n{}", stderr.lock().unwrap());
            }
            Host::InProcess(task) => {
                let ended = tokio::time::timeout(ANSWER_TIMEOUT, task).await.expect("the session did not end");
                ended.expect("the in-process session failed");
            }
        }
    }
}

/// A server driven by a real rmcp client through a recording proxy.
pub struct Served<S: rmcp::Service<RoleClient>> {
    /// The connected client.
    pub client: RunningService<RoleClient, S>,
    /// What the server sent.
    pub transcript: Arc<Mutex<Transcript>>,
    /// What the server wrote to stderr (in process: what it logged).
    pub stderr: Arc<Mutex<String>>,
    host: Host,
}

impl<S: rmcp::Service<RoleClient>> Served<S> {
    /// Starts `mcp-wit serve <args>` and connects `handler` as the client.
    pub async fn start(args: &[&str], handler: S) -> Self {
        let mut child = spawn(args);
        let stderr = collect_stderr(&mut child);
        let (child_in, child_out) = (child.stdin.take().unwrap(), child.stdout.take().unwrap());
        Self::connect(Host::Process(child), child_in, child_out, stderr, handler).await
    }

    /// Serves the fixture `name` in this process (as `mcp-wit serve
    /// NAME.wasm` would) and connects `handler` as the client.
    pub async fn in_process(name: &str, handler: S) -> Self {
        let server = in_process::serve(name);
        let host = Host::InProcess(server.task);
        Self::connect(host, server.to_server, server.from_server, server.logs, handler).await
    }

    async fn connect(
        host: Host,
        mut server_in: impl AsyncWrite + Unpin + Send + 'static,
        server_out: impl AsyncRead + Unpin + Send + 'static,
        stderr: Arc<Mutex<String>>,
        handler: S,
    ) -> Self {
        let transcript = Arc::new(Mutex::new(Transcript::default()));
        let (client_read, proxy_write) = tokio::io::duplex(1 << 20);
        let (proxy_read, client_write) = tokio::io::duplex(1 << 20);
        let up = transcript.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(proxy_read).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                up.lock().unwrap().record_client(&line);
                if server_in.write_all(format!("{line}\n").as_bytes()).await.is_err() {
                    break;
                }
            }
        });
        let down = transcript.clone();
        tokio::spawn(async move {
            let mut proxy_write = proxy_write;
            let mut lines = BufReader::new(server_out).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                down.lock().unwrap().record_server(&line);
                if proxy_write.write_all(format!("{line}\n").as_bytes()).await.is_err() {
                    break;
                }
            }
        });
        let client =
            tokio::time::timeout(ANSWER_TIMEOUT, rmcp::ServiceExt::serve(handler, (client_read, client_write)))
                .await
                .expect("initialize timed out")
                .expect("initialize failed");
        Served { client, transcript, stderr, host }
    }

    /// Asserts the server sent only schema-valid messages (and some at all),
    /// then shuts down.
    pub async fn finish(mut self) {
        let _ = self.client.cancel().await;
        self.host.finished(&self.stderr).await;
        let transcript = self.transcript.lock().unwrap();
        assert!(!transcript.messages.is_empty(), "the server sent nothing");
        assert!(transcript.violations.is_empty(), "schema violations:\n{}", transcript.violations.join("\n"));
    }
}

fn spawn(args: &[&str]) -> Child {
    spawn_with_env(args, &[])
}

fn spawn_with_env(args: &[&str], env: &[(&str, &str)]) -> Child {
    Command::new(binary())
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("cannot start mcp-wit")
}

fn collect_stderr(child: &mut Child) -> Arc<Mutex<String>> {
    let stderr = Arc::new(Mutex::new(String::new()));
    let sink = stderr.clone();
    let pipe = child.stderr.take().unwrap();
    tokio::spawn(async move {
        let mut lines = BufReader::new(pipe).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let mut s = sink.lock().unwrap();
            s.push_str(&line);
            s.push('\n');
        }
    });
    stderr
}

/// The client's end of the pipe into a server.
type ToServer = Box<dyn AsyncWrite + Unpin + Send>;

/// The client's end of the pipe out of a server, by line.
type FromServer = tokio::io::Lines<BufReader<Box<dyn AsyncRead + Unpin + Send>>>;

/// A server spoken to line by line, for input no real client sends.
pub struct RawServer {
    host: Host,
    stdin: Option<ToServer>,
    stdout: FromServer,
    transcript: Transcript,
    /// What the server wrote to stderr (in process: what it logged).
    pub stderr: Arc<Mutex<String>>,
}

impl RawServer {
    /// Starts `mcp-wit serve <args>`.
    pub fn start(args: &[&str]) -> Self {
        Self::start_with_env(args, &[])
    }

    /// Starts `mcp-wit <args>` with extra environment variables.
    pub fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut child = spawn_with_env(args, env);
        let stderr = collect_stderr(&mut child);
        let stdin: ToServer = Box::new(child.stdin.take().unwrap());
        let stdout: Box<dyn AsyncRead + Unpin + Send> = Box::new(child.stdout.take().unwrap());
        let stdout = BufReader::new(stdout).lines();
        RawServer { host: Host::Process(child), stdin: Some(stdin), stdout, transcript: Transcript::default(), stderr }
    }

    /// Serves the fixture `name` in this process, as `mcp-wit serve
    /// NAME.wasm` would.
    pub fn in_process(name: &str) -> Self {
        let server = in_process::serve(name);
        let stdout: Box<dyn AsyncRead + Unpin + Send> = Box::new(server.from_server);
        RawServer {
            host: Host::InProcess(server.task),
            stdin: Some(Box::new(server.to_server)),
            stdout: BufReader::new(stdout).lines(),
            transcript: Transcript::default(),
            stderr: server.logs,
        }
    }

    /// Starts a server and initializes the session with `version`.
    pub async fn initialized(args: &[&str], version: &str) -> Self {
        Self::start(args).initialize(version).await
    }

    /// Serves the fixture `name` in this process and initializes the session
    /// with `version`.
    pub async fn initialized_in_process(name: &str, version: &str) -> Self {
        Self::in_process(name).initialize(version).await
    }

    async fn initialize(mut self, version: &str) -> Self {
        let answer = self.request(0, "initialize", initialize_params(version)).await;
        assert_eq!(answer["result"]["protocolVersion"], version, "{answer}");
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
        self
    }

    /// Writes one line (a newline is added).
    pub async fn send(&mut self, line: &str) {
        self.transcript.record_client(line);
        let stdin = self.stdin.as_mut().expect("stdin is closed");
        stdin.write_all(line.as_bytes()).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        stdin.flush().await.unwrap();
    }

    /// Writes raw bytes as they are.
    pub async fn send_bytes(&mut self, bytes: &[u8]) {
        for line in String::from_utf8_lossy(bytes).lines() {
            self.transcript.record_client(line.trim());
        }
        let stdin = self.stdin.as_mut().expect("stdin is closed");
        stdin.write_all(bytes).await.unwrap();
        stdin.flush().await.unwrap();
    }

    /// Reads the next message, checked against the schema.
    pub async fn receive(&mut self) -> Value {
        let line = tokio::time::timeout(ANSWER_TIMEOUT, self.stdout.next_line())
            .await
            .expect("no answer in time")
            .unwrap()
            .expect("server closed stdout");
        self.transcript.record_server(&line);
        assert!(self.transcript.violations.is_empty(), "schema violations: {:?}", self.transcript.violations);
        self.transcript.messages.last().unwrap().1.clone()
    }

    /// Sends a request and returns its response, skipping notifications.
    pub async fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        let msg = serde_json::json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        self.send(&msg.to_string()).await;
        loop {
            let answer = self.receive().await;
            if answer.get("id").is_some() {
                assert_eq!(answer["id"], id, "answer to another request: {answer}");
                return answer;
            }
        }
    }

    /// Sends a `tools/call` and returns the response.
    pub async fn call(&mut self, id: i64, tool: &str, arguments: Value) -> Value {
        self.request(id, "tools/call", serde_json::json!({ "name": tool, "arguments": arguments })).await
    }

    /// The server process's resident memory, in bytes (Linux).
    pub fn rss_bytes(&self) -> u64 {
        match &self.host {
            Host::Process(child) => rss_bytes(child.id().expect("server is running")),
            Host::InProcess(_) => panic!("an in-process server has no process of its own to measure"),
        }
    }

    /// Like [`finish`](Self::finish), and also waits until the server's
    /// stderr is fully collected.
    pub async fn finish_and_wait_for_stderr(&mut self) {
        drop(self.stdin.take());
        self.host.finished(&self.stderr).await;
        // The collector task ends when the pipe closes.
        for _ in 0..100 {
            if Arc::strong_count(&self.stderr) == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Closes stdin, leaving stdout to be read to its end.
    pub fn close_input(&mut self) {
        drop(self.stdin.take());
    }

    /// The next line the server writes, or `None` once it closed stdout.
    pub async fn next_line(&mut self) -> Option<String> {
        tokio::time::timeout(ANSWER_TIMEOUT, self.stdout.next_line()).await.expect("no answer in time").unwrap()
    }

    /// Closes stdin and waits for a clean exit.
    pub async fn finish(mut self) {
        drop(self.stdin.take());
        self.host.finished(&self.stderr).await;
    }
}

/// `initialize` params asking for `version`.
pub fn initialize_params(version: &str) -> Value {
    serde_json::json!({
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": { "name": "mcp-wit-tests", "version": "0" }
    })
}

/// Reads everything from an async reader (used for small outputs).
pub async fn read_all<R: AsyncRead + Unpin>(mut r: R) -> Vec<u8> {
    let mut buf = Vec::new();
    tokio::io::AsyncReadExt::read_to_end(&mut r, &mut buf).await.unwrap();
    buf
}

/// The resident memory of process `pid`, in bytes (Linux).
pub fn rss_bytes(pid: u32) -> u64 {
    memory_status_bytes(pid, "VmRSS")
}

/// The peak resident memory of process `pid` so far, in bytes (Linux):
/// a peak between two samples of [`rss_bytes`] is not missed.
pub fn peak_rss_bytes(pid: u32) -> u64 {
    memory_status_bytes(pid, "VmHWM")
}

/// The `field` of `/proc/PID/status` (a size in kB), in bytes.
fn memory_status_bytes(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("{field} in /proc/PID/status"));
    kb * 1024
}

// ---------------------------------------------------------------------------
// Small helpers shared by the test files
// ---------------------------------------------------------------------------

/// The tools `everything` lists, in order.
pub const TOOLS: [&str; 9] =
    ["echo", "add", "all-content", "progress", "fail", "is-error", "panic", "counter", "annotated"];

/// A JSON object literal as rmcp's argument map.
pub fn object(value: Value) -> JsonObject {
    value.as_object().cloned().expect("a JSON object")
}

/// rmcp's `tools/call` params: `name` with `arguments` (a JSON object).
pub fn call(name: &'static str, arguments: Value) -> CallToolRequestParams {
    CallToolRequestParams::new(name).with_arguments(object(arguments))
}

/// The text of the only content item of a tool result (rmcp).
pub fn text_of(result: &CallToolResult) -> &str {
    assert_eq!(result.content.len(), 1, "expected one content item: {result:?}");
    result.content[0].as_text().unwrap_or_else(|| panic!("expected text content: {result:?}")).text.as_str()
}

/// The JSON-RPC error a request was answered with (rmcp).
pub fn rpc_error<T: std::fmt::Debug>(outcome: Result<T, ServiceError>) -> ErrorData {
    match outcome {
        Err(ServiceError::McpError(error)) => error,
        other => panic!("expected a JSON-RPC error response, got {other:?}"),
    }
}

/// The text of the first content item of a raw `tools/call` response.
pub fn text(response: &Value) -> &str {
    response["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text in {response}"))
}

/// The code of a raw error response.
pub fn error_code(response: &Value) -> i64 {
    response["error"]["code"].as_i64().unwrap_or_else(|| panic!("not an error: {response}"))
}

/// The message of a raw error response ("" for anything else).
pub fn error_message(response: &Value) -> &str {
    response["error"]["message"].as_str().unwrap_or_default()
}
