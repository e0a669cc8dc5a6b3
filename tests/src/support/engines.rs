//! Routers on engines that know nothing of MCP: `mcp-wit wrap` of a fixture,
//! and the real `wasmtime serve` running the result.

use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use super::process::collect_stderr;
use super::{binary, fixture, peers};

/// The fixture `router` behind the adapter, as `mcp-wit wrap` makes it: one
/// component that imports only WASI.
pub fn wrapped(router: &str) -> Vec<u8> {
    wrap_component(&std::fs::read(fixture(router)).unwrap())
}

/// `mcp-wit wrap` of the component `router`.
pub fn wrap_component(router: &[u8]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("router.wasm"), dir.path().join("server.wasm"));
    std::fs::write(&input, router).unwrap();
    let done = Command::new(binary())
        .args(["wrap", input.to_str().unwrap(), "-o", output.to_str().unwrap()])
        .output()
        .expect("mcp-wit runs");
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    std::fs::read(output).unwrap()
}

/// `wasmtime serve -Scli` of a component on a loopback address, with `env`
/// in its WASI environment; killed when dropped.
pub struct WasmtimeServe {
    child: Child,
    /// Where it serves, with the `/mcp` path clients are given.
    pub url: String,
    /// What it (and its component) wrote on stderr after it listened.
    stderr: Arc<Mutex<String>>,
}

impl WasmtimeServe {
    /// Starts it on `addr` (`127.0.0.1:0`: a free port) and waits until it
    /// listens.
    pub fn start(component: &Path, addr: &str, env: &[(&str, &str)]) -> WasmtimeServe {
        Self::start_with(component, addr, env, &[])
    }

    /// [`Self::start`] with further `wasmtime serve` flags (e.g. `--dir`).
    pub fn start_with(component: &Path, addr: &str, env: &[(&str, &str)], flags: &[&str]) -> WasmtimeServe {
        let mut command = Command::new(peers::wasmtime());
        command.args(["serve", "-Scli", "--addr", addr]).args(flags);
        for (name, value) in env {
            command.arg("--env").arg(format!("{name}={value}"));
        }
        let mut child =
            command.arg(component).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("wasmtime serve starts");
        // It says where it listens on stderr; whatever else it prints is
        // read as it comes, so that it never blocks on a full pipe nor fails
        // on a closed one.
        let mut reader = std::io::BufReader::new(child.stderr.take().unwrap());
        let url = loop {
            let mut line = String::new();
            let read = reader.read_line(&mut line).expect("wasmtime serve's stderr reads");
            assert!(read > 0, "wasmtime serve ended before saying where it listens");
            if let Some(rest) = line.strip_prefix("Serving HTTP on ") {
                break format!("{}mcp", rest.trim());
            }
        };
        let stderr = collect_stderr(reader);
        WasmtimeServe { child, url, stderr }
    }

    /// What it wrote on stderr so far, after saying where it listens.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Whether its stderr holds a line with all of `parts`, waiting up to
    /// ten seconds for it (the line is read on another thread).
    pub fn logged(&self, parts: &[&str]) -> bool {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            if self.stderr().lines().any(|line| parts.iter().all(|part| line.contains(part))) {
                return true;
            }
            if std::time::Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// The address it listens on.
    pub fn addr(&self) -> std::net::SocketAddr {
        let authority = self.url.trim_start_matches("http://").trim_end_matches("/mcp");
        authority.parse().expect("wasmtime serve listens on an IP address")
    }

    /// The URL of `path` on it.
    pub fn at(&self, path: &str) -> String {
        format!("{}{path}", self.url.trim_end_matches("/mcp"))
    }
}

/// A loopback port free now, for a server whose URL must be known before it
/// starts (to name it as its own resource identifier).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl Drop for WasmtimeServe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `wash dev` (wasmCloud 2.10) serving `component` on a free loopback port
/// with `env` as its configuration (the component's environment): the
/// process, its URL and the project directory (kept while it runs). wash
/// reads everything from `.wash/config.yaml`; its build step is a no-op, as
/// the component is already built.
pub fn wash_dev(component: &[u8], env: &[(&str, &str)]) -> (std::process::Child, String, tempfile::TempDir) {
    use std::io::BufRead;
    let project = tempfile::tempdir().unwrap();
    std::fs::write(project.path().join("server.wasm"), component).unwrap();
    // A free port: wash takes its address from the configuration only.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut config =
        format!("build:\n  command: \"true\"\n  component_path: server.wasm\ndev:\n  address: 127.0.0.1:{port}\n");
    if !env.is_empty() {
        config.push_str("workload:\n  environment:\n    config:\n");
        for (key, value) in env {
            config.push_str(&format!("      {key}: {value:?}\n"));
        }
    }
    std::fs::create_dir(project.path().join(".wash")).unwrap();
    std::fs::write(project.path().join(".wash/config.yaml"), config).unwrap();
    let mut child = std::process::Command::new(peers::wash())
        .args(["dev"])
        .current_dir(project.path())
        // Its caches and user configuration, kept out of the real home.
        .env("HOME", project.path())
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("wash dev starts");
    // The port opens before the component is deployed (404 until then):
    // ready is when it says so, on either stream.
    let (lines, ready) = std::sync::mpsc::channel();
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    for stream in [Box::new(stdout) as Box<dyn BufRead + Send>, Box::new(stderr)] {
        let lines = lines.clone();
        std::thread::spawn(move || {
            for line in stream.lines().map_while(Result::ok) {
                let _ = lines.send(line);
            }
        });
    }
    let mut said = Vec::new();
    loop {
        match ready.recv_timeout(super::ANSWER_TIMEOUT) {
            Ok(line) if line.contains("listening for HTTP requests") => break,
            Ok(line) => said.push(line),
            Err(_) => panic!("wash dev did not become ready:\n{}", said.join("\n")),
        }
    }
    (child, format!("http://127.0.0.1:{port}/mcp"), project)
}

/// A JSON-RPC request.
pub fn request(id: i64, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

/// `params` with a 2026-07-28 envelope that declares no client capability.
pub fn modern(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    params
}

/// POSTs `body` with `headers` to `addr`; the status, the content type and
/// the messages of the answer (JSON, or each SSE event's data).
pub async fn post(addr: std::net::SocketAddr, headers: &[(&str, &str)], body: &Value) -> (u16, String, Vec<Value>) {
    let mut request = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.body(body.to_string()).send().await.expect("an answer");
    let status = response.status().as_u16();
    let content_type =
        response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    let text = response.text().await.unwrap();
    let messages = if content_type.starts_with("text/event-stream") {
        text.lines().filter_map(|line| line.strip_prefix("data: ")).map(|d| serde_json::from_str(d).unwrap()).collect()
    } else if text.is_empty() {
        Vec::new()
    } else {
        vec![serde_json::from_str(&text).expect("a JSON body")]
    };
    (status, content_type, messages)
}

/// The headers a 2026-07-28 client sends with `method` (naming `name`).
pub fn modern_headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![("mcp-protocol-version", "2026-07-28"), ("mcp-method", method)];
    if let Some(name) = name {
        headers.push(("mcp-name", name));
    }
    headers
}
