//! Routers on engines that know nothing of MCP: `mcp-wit wrap` of a fixture,
//! and the real `wasmtime serve` running the result.

use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Command, Stdio};

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
}

impl WasmtimeServe {
    /// Starts it on `addr` (`127.0.0.1:0`: a free port) and waits until it
    /// listens.
    pub fn start(component: &Path, addr: &str, env: &[(&str, &str)]) -> WasmtimeServe {
        let mut command = Command::new(peers::wasmtime());
        command.args(["serve", "-Scli", "--addr", addr]);
        for (name, value) in env {
            command.arg("--env").arg(format!("{name}={value}"));
        }
        let mut child =
            command.arg(component).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("wasmtime serve starts");
        // It says where it listens on stderr.
        let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
        let url = loop {
            let line = lines.next().expect("wasmtime serve says where it listens").unwrap();
            if let Some(rest) = line.strip_prefix("Serving HTTP on ") {
                break format!("{}mcp", rest.trim());
            }
        };
        // Whatever else it prints is read (and dropped), so that it never
        // blocks on a full pipe nor fails on a closed one.
        std::thread::spawn(move || lines.for_each(drop));
        WasmtimeServe { child, url }
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
