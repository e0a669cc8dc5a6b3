//! A real Redis-protocol server for tests: Debian's `redis-server` on a
//! loopback port, nothing saved to disk, where replicas keep their tasks.

use std::path::Path;
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::engines::free_port;
use super::process::start_until_ready;

/// Debian's binary.
const BINARY: &str = "/usr/bin/redis-server";

/// `redis-server` on 127.0.0.1; killed when dropped (also when a test panics).
pub struct RedisServer {
    child: Child,
    /// `redis://127.0.0.1:PORT`.
    pub url: String,
    _stderr: Arc<Mutex<String>>,
}

impl RedisServer {
    /// Starts one and waits until it accepts connections.
    ///
    /// # Panics
    ///
    /// If `/usr/bin/redis-server` is missing (`apt-get install
    /// redis-server`), or it does not start: with what it wrote.
    pub async fn start() -> RedisServer {
        assert!(
            Path::new(BINARY).is_file(),
            "{BINARY} is missing: the task replica tests need a real Redis-protocol server (`apt-get install redis-server`)"
        );
        let port = free_port();
        let mut command = Command::new(BINARY);
        command.args(["--bind", "127.0.0.1", "--port", &port.to_string(), "--save", "", "--appendonly", "no"]);
        let addr = format!("127.0.0.1:{port}");
        let ready = || {
            let addr = addr.clone();
            async move { tokio::net::TcpStream::connect(addr).await.is_ok() }
        };
        let (child, stderr) = start_until_ready(command, BINARY, Duration::from_secs(20), ready)
            .await
            .unwrap_or_else(|why| panic!("redis-server did not start: {why}"));
        RedisServer { child, url: format!("redis://{addr}"), _stderr: stderr }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
