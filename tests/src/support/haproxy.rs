//! A real load balancer for tests: Debian's `haproxy` (2.6) on a loopback
//! port in front of `mcp-wit serve --http` replicas, with the configuration
//! `docs/users/deployment.md` recommends (the same text), run in the
//! foreground and asked for its servers' states on its admin socket.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::engines::free_port;
use super::process::start_until_ready;

/// Debian's binary.
const BINARY: &str = "/usr/sbin/haproxy";

/// How long HAProxy may take to listen, and a server to reach a state.
const WAIT: Duration = Duration::from_secs(20);

/// How often the `wait_*` helpers ask again.
const POLL: Duration = Duration::from_millis(50);

/// The header naming the replica (the `server` line's name) that answered.
pub const REPLICA_HEADER: &str = "x-replica";

/// HAProxy balancing `/mcp` over named replicas; killed when dropped (also
/// when a test panics).
pub struct Haproxy {
    child: Child,
    /// Where clients connect.
    pub addr: SocketAddr,
    stderr: Arc<Mutex<String>>,
    _dir: tempfile::TempDir,
}

impl Haproxy {
    /// Starts HAProxy in front of `replicas` (name, address) and waits until
    /// it listens.
    ///
    /// # Panics
    ///
    /// If `/usr/sbin/haproxy` is missing (`apt-get install haproxy`), or it
    /// does not start: with its stderr.
    pub async fn start(replicas: &[(&str, SocketAddr)]) -> Haproxy {
        Self::start_with(replicas, BACKEND).await
    }

    /// [`Self::start`] with another `backend` section (its `server` lines
    /// added), e.g. [`engine_backend`].
    pub async fn start_with(replicas: &[(&str, SocketAddr)], backend: &str) -> Haproxy {
        assert!(
            Path::new(BINARY).is_file(),
            "{BINARY} is missing: the replica tests need a real load balancer (`apt-get install haproxy`)"
        );
        let dir = tempfile::tempdir().expect("a directory for HAProxy");
        let socket = dir.path().join("admin.sock");
        let config = dir.path().join("haproxy.cfg");
        // A free port is only free when picked: another process may bind it
        // before HAProxy does. Another try on a new port covers that.
        let mut tries = Vec::new();
        for _ in 0..3 {
            let addr = SocketAddr::from(([127, 0, 0, 1], free_port()));
            std::fs::write(&config, config_text(addr, &socket, backend, replicas)).expect("the HAProxy config");
            match launch(&config, addr).await {
                Ok((child, stderr)) => return Haproxy { child, addr, stderr, _dir: dir },
                Err(said) => tries.push(said),
            }
        }
        panic!("HAProxy did not start:\n{}", tries.join("\n(another try:)\n"))
    }

    /// `http://ADDR/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// What HAProxy wrote to stderr so far (servers going up and down).
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Each replica's state as its health checks see it: `UP`, `DOWN`, or
    /// on the way (`UP 1/2`: one more good check to go).
    pub async fn states(&self) -> HashMap<String, String> {
        let mut stream = self.admin_socket().await;
        stream.write_all(b"show stat\n").await.expect("a command on the admin socket");
        let mut csv = String::new();
        stream.read_to_string(&mut csv).await.expect("the answer of the admin socket");
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().unwrap_or_default().trim_start_matches("# ").split(',').collect();
        let column = |name: &str| header.iter().position(|c| *c == name).unwrap_or_else(|| panic!("no {name}: {csv}"));
        let (proxy, server, status) = (column("pxname"), column("svname"), column("status"));
        lines
            .map(|line| line.split(',').collect::<Vec<_>>())
            .filter(|fields| fields.len() > status && fields[proxy] == "replicas" && fields[server] != "BACKEND")
            .map(|fields| (fields[server].to_string(), fields[status].to_string()))
            .collect()
    }

    /// A connection to the admin socket, which may not be in place yet just
    /// after the start: HAProxy's port can listen before it (seen once in CI,
    /// `NotFound` on the first look).
    ///
    /// # Panics
    ///
    /// When it is still missing after 20 s, or cannot be connected to.
    async fn admin_socket(&self) -> tokio::net::UnixStream {
        let socket = self._dir.path().join("admin.sock");
        let started = Instant::now();
        loop {
            match tokio::net::UnixStream::connect(&socket).await {
                Ok(stream) => return stream,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && started.elapsed() < WAIT => {
                    tokio::time::sleep(POLL).await;
                }
                Err(e) => panic!("HAProxy's admin socket {}: {e}", socket.display()),
            }
        }
    }

    /// Waits until HAProxy holds `replica` to be in `state` (`UP`, `DOWN`).
    ///
    /// # Panics
    ///
    /// After 20 s (a guard against hanging, not a measure of speed).
    pub async fn wait_for(&self, replica: &str, state: &str) {
        let started = Instant::now();
        loop {
            let states = self.states().await;
            if states.get(replica).map(String::as_str) == Some(state) {
                return;
            }
            assert!(
                started.elapsed() < WAIT,
                "{replica} is not {state} after {WAIT:?}: {states:?}\nHAProxy stderr:\n{}",
                self.stderr()
            );
            tokio::time::sleep(POLL).await;
        }
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("HAProxy's stderr:\n{}", self.stderr());
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The configuration of `docs/users/deployment.md`, listening on `addr`,
/// with an admin socket at `socket` for [`Haproxy::states`].
pub fn config_text(addr: SocketAddr, socket: &Path, backend: &str, replicas: &[(&str, SocketAddr)]) -> String {
    let servers: String = replicas.iter().map(|(name, addr)| format!("    server {name} {addr}\n")).collect();
    format!(
        "global\n    maxconn 1024\n    stats socket {socket} mode 600 level admin\n\n{}\
         frontend mcp\n    bind {addr}\n    default_backend replicas\n\n{}{servers}",
        DEFAULTS,
        backend,
        socket = socket.display(),
    )
}

/// The `defaults` section, as the deployment page shows it.
pub const DEFAULTS: &str = "\
defaults
    mode http
    timeout connect 1s
    timeout client 60s
    timeout http-keep-alive 60s
    # More than --timeout (a guest call's budget, 30s) and --sse-keep-alive
    # (15s): no quiet answer or stream is cut.
    timeout server 60s
    timeout check 1s
    # Retry only a connection that failed (the default `retry-on
    # conn-failure`): the request never reached a replica, so any request
    # may be retried, and on another replica (`redispatch 1`).
    retries 3
    option redispatch 1

";

/// The `backend` section without its `server` lines, as the deployment page
/// shows it.
pub const BACKEND: &str = "\
backend replicas
    balance roundrobin
    # /readyz turns 503 at SIGTERM (--drain-delay) and when saturated.
    option httpchk GET /readyz
    http-check expect status 200
    default-server check inter 200ms fall 1 rise 2
    # 2025 sessions live in the replica that created them: follow
    # Mcp-Session-Id. 2026-07-28 requests carry none and go anywhere.
    stick-table type string len 64 size 100k expire 15m
    stick store-response res.hdr(mcp-session-id)
    stick match req.hdr(mcp-session-id)
    # A session's requests still go to its replica while that drains (or is
    # saturated); once it refuses connections they go elsewhere (404: the
    # client initializes again).
    option persist
    # A new connection per request: none is ever sent on an idle connection
    # the replica is closing at that moment.
    option http-server-close
    # Which replica answered (for the tests).
    http-response set-header X-Replica %s
";

/// Starts HAProxy in the foreground and waits until it accepts connections
/// on `addr`; the error says what it wrote.
async fn launch(config: &Path, addr: SocketAddr) -> Result<(Child, Arc<Mutex<String>>), String> {
    let mut command = Command::new(BINARY);
    command.arg("-db").arg("-f").arg(config);
    start_until_ready(command, BINARY, WAIT, || async move { tokio::net::TcpStream::connect(addr).await.is_ok() }).await
}

/// The health check of `docs/users/engines.md`: `wasmtime serve` refuses a
/// request without a `Host` header (500), which HAProxy's HTTP/1.0 check
/// lacks.
pub const ENGINE_HEALTH_CHECK: &str = "\
    option httpchk
    http-check send meth GET uri /readyz ver HTTP/1.1 hdr host mcp
";

/// [`BACKEND`] with [`ENGINE_HEALTH_CHECK`], for replicas on an engine.
pub fn engine_backend() -> String {
    BACKEND.replace("    option httpchk GET /readyz\n", ENGINE_HEALTH_CHECK)
}
