//! The HTTP load client: drives one Streamable HTTP MCP server and measures it.
//!
//! A run starts the server on a free port of 127.0.0.1 (its command line names
//! the address as `{addr}`), waits until it accepts connections, and opens
//! `sessions` sessions, each on its own keep-alive HTTP/1.1 connection. In the
//! legacy era (2025-11-25) each opens with `initialize` (the answer carries
//! `Mcp-Session-Id`), then `notifications/initialized`; in the modern era
//! (2026-07-28) there is no handshake and no session id: every call carries
//! the per-request envelope in `_meta` and the `MCP-Protocol-Version`,
//! `Mcp-Method` and `Mcp-Name` headers, and the server answers it on its own
//! (a "session" is then just a connection with one call in flight). Every
//! session then sends a warm-up, and then
//! `calls_per_session` echo `tools/call`s one at a time: one call in flight per
//! session, `sessions` in flight in all. Answers may come as one
//! `application/json` body or as an SSE stream; either way the client reads the
//! whole body and checks the answer (right id, exactly one text item holding
//! the text sent, no error).
//!
//! The client is hyper's connection-level HTTP/1.1 client on a Tokio runtime
//! of one thread (by default), so it takes at most one CPU from the server.
//!
//! [`idle_memory`] opens many sessions, makes one call on each, and reports the
//! server's resident memory growth per session.

use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use hyper::header::HeaderValue;
use serde::{Deserialize, Serialize};

use crate::chaos::{self, Disturbances, Disturbed};
use crate::http_client::{Client, Framing};
use crate::load;
pub use crate::mcp::{Era, MODERN_VERSION};
use crate::stats;

/// Stands for the listen address (`127.0.0.1:PORT`) in a server's command line.
pub const ADDR: &str = "{addr}";

/// Sessions opened at once while setting up (each `initialize` of mcp-wit
/// instantiates the component).
const OPEN_AT_ONCE: usize = 64;

/// How an HTTP load run is shaped.
#[derive(Debug, Clone)]
pub struct HttpLoadOptions {
    /// The era the client speaks.
    pub era: Era,
    /// Sessions, each with one connection and one call in flight.
    pub sessions: usize,
    /// Measured calls of each session.
    pub calls_per_session: usize,
    /// Calls of each session before measuring.
    pub warmup_per_session: usize,
    /// Worker threads of the client's runtime (1: a current-thread runtime).
    pub client_threads: usize,
    /// Pass the server's stdout and stderr through instead of discarding them.
    pub show_stderr: bool,
    /// The run fails when it takes longer than this.
    pub timeout: Duration,
    /// The name the echo tool is served under.
    pub tool: String,
    /// What to do to the server while the measured calls run.
    pub disturbances: Disturbances,
    /// Sent as `Authorization: Bearer …` with every request.
    pub bearer: Option<String>,
}

impl Default for HttpLoadOptions {
    fn default() -> Self {
        HttpLoadOptions {
            era: Era::Legacy,
            sessions: 1,
            calls_per_session: 10_000,
            warmup_per_session: 1_000,
            client_threads: 1,
            show_stderr: false,
            timeout: Duration::from_secs(120),
            tool: "echo".into(),
            disturbances: Disturbances::default(),
            bearer: None,
        }
    }
}

/// What one HTTP load run measured. Times cover the measured calls only.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HttpLoadResult {
    pub era: Era,
    pub sessions: usize,
    /// Calls answered while every session was still sending, per second:
    /// `window_calls / window_s`.
    pub calls_per_sec: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub mean_us: f64,
    pub max_us: f64,
    /// Measured calls, all sessions.
    pub calls: usize,
    /// The server's VmRSS when the measured calls start, the most it
    /// reached while they ran (the kernel's VmHWM, reset at their start),
    /// and when they ended.
    pub rss_start_kib: u64,
    pub rss_peak_kib: u64,
    pub rss_end_kib: u64,
    /// Start → last answer of any session.
    pub elapsed_s: f64,
    /// Start → the first session's last answer: until then all sessions were busy.
    pub window_s: f64,
    /// Calls answered within the window.
    pub window_calls: usize,
    /// The server's user and system CPU time (clock ticks: coarse).
    pub cpu_user_s: f64,
    pub cpu_sys_s: f64,
    /// The server's CPU time per call, from its threads' schedstat.
    pub cpu_us_per_call: f64,
    /// The load client's own CPU time.
    pub client_cpu_s: f64,
    /// How the server framed its answers to calls: `json` or `sse`.
    pub framing: String,
    /// What was done to the server meanwhile, if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disturbed: Option<Disturbed>,
}

/// Resident memory of a server with many idle sessions.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct IdleMemory {
    /// Sessions opened after the first one.
    pub sessions: usize,
    /// VmRSS once the server accepts connections.
    pub rss_start_kib: u64,
    /// VmRSS after the first session (`initialize`, `initialized`, one call):
    /// one-time costs (first instantiation, thread stacks, allocator arenas)
    /// are paid by then.
    pub rss_first_kib: u64,
    /// VmRSS after `sessions` more sessions, each with one call, all still
    /// live (their connections open, unless closed on purpose).
    pub rss_all_kib: u64,
    /// (rss_all − rss_first) / sessions.
    pub kib_per_session: f64,
    pub mib_per_session: f64,
}

/// Runs one HTTP load test against the server started by `command`.
pub fn run_http_load(command: &[String], options: &HttpLoadOptions) -> anyhow::Result<HttpLoadResult> {
    ensure!(options.sessions > 0, "--sessions must be at least 1");
    ensure!(options.calls_per_session > 0, "--calls-per-session must be at least 1");
    let mut server = HttpServer::start(command, options.show_stderr)?;
    let runtime = runtime(options.client_threads)?;
    let result = runtime.block_on(async {
        tokio::time::timeout(options.timeout, measure(&server, options))
            .await
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the run took longer than {:?}", options.timeout)))
    });
    // Closes every connection before the server is stopped.
    drop(runtime);
    let stopped = server.stop();
    let result = result?;
    stopped?;
    Ok(result)
}

/// Opens the sessions, warms them up and measures.
async fn measure(server: &HttpServer, options: &HttpLoadOptions) -> anyhow::Result<HttpLoadResult> {
    let tool: Arc<str> = options.tool.as_str().into();
    let authorization = match &options.bearer {
        Some(token) => Some(HeaderValue::from_str(&format!("Bearer {token}")).context("the bearer token")?),
        None => None,
    };
    let clients = open_sessions_from(server.addr, options.era, 0, options.sessions, &tool, &authorization).await?;
    let (clients, _) = phase(clients, 1, options.warmup_per_session).await.context("warm-up")?;
    let framing = clients[0].framing.map_or("none", Framing::name).to_string();

    let pid = server.pid();
    let (user0, sys0) = load::process_cpu(pid)?;
    let run0 = load::process_run_time(pid);
    let client0 = load::own_cpu();
    let first_id = 1 + options.warmup_per_session as u64;
    let rss_start_kib = rss_kib(pid)?;
    reset_peak_rss(pid)?;
    let disturbing =
        options.disturbances.any().then(|| chaos::start(&options.disturbances, server.addr, pid, &options.tool));
    let (_clients, sessions) = phase(clients, first_id, options.calls_per_session).await?;
    let disturbed = match disturbing {
        Some(running) => Some(running.stop().await.context("the disturbances")?),
        None => None,
    };
    let rss_peak_kib = status_kib(pid, "VmHWM:")?;
    let rss_end_kib = rss_kib(pid)?;
    let (user1, sys1) = load::process_cpu(pid)?;
    let run1 = load::process_run_time(pid);
    let client1 = load::own_cpu();

    // The window ends when the first session is done: up to then, all were busy.
    let window_end = sessions.iter().filter_map(|calls| calls.last().map(|c| c.done_ns)).min().unwrap_or(0);
    let elapsed_end = sessions.iter().filter_map(|calls| calls.last().map(|c| c.done_ns)).max().unwrap_or(0);
    let window_calls = sessions.iter().flatten().filter(|c| c.done_ns <= window_end).count();
    let mut latencies: Vec<u64> = sessions.iter().flatten().map(|c| c.latency_ns).collect();
    latencies.sort_unstable();
    let calls = latencies.len();
    let us = |ns: f64| ns / 1_000.0;
    let window_s = window_end as f64 / 1e9;
    let (cpu_user_s, cpu_sys_s) = (user1 - user0, sys1 - sys0);
    Ok(HttpLoadResult {
        era: options.era,
        sessions: options.sessions,
        calls_per_sec: window_calls as f64 / window_s,
        p50_us: us(stats::percentile_sorted(&latencies, 0.50)),
        p99_us: us(stats::percentile_sorted(&latencies, 0.99)),
        mean_us: us(latencies.iter().map(|&ns| ns as f64).sum::<f64>() / calls as f64),
        max_us: us(*latencies.last().unwrap_or(&0) as f64),
        calls,
        rss_start_kib,
        rss_peak_kib,
        rss_end_kib,
        elapsed_s: elapsed_end as f64 / 1e9,
        window_s,
        window_calls,
        cpu_user_s,
        cpu_sys_s,
        cpu_us_per_call: match (run0, run1) {
            (Some(start), Some(end)) => (end - start) * 1e6 / calls as f64,
            _ => (cpu_user_s + cpu_sys_s) * 1e6 / calls as f64,
        },
        client_cpu_s: client1 - client0,
        framing,
        disturbed,
    })
}

/// One answered call: its latency, and when it was answered (ns since the
/// phase began).
#[derive(Clone, Copy)]
struct Timed {
    latency_ns: u64,
    done_ns: u64,
}

/// Every session sends `count` calls with ids `first_id..`, one at a time,
/// all sessions at once. Returns the sessions and the timings of each.
async fn phase(clients: Vec<Client>, first_id: u64, count: usize) -> anyhow::Result<(Vec<Client>, Vec<Vec<Timed>>)> {
    let base = Instant::now();
    let tasks: Vec<_> = clients
        .into_iter()
        .map(|mut client| {
            tokio::spawn(async move {
                let mut timings = Vec::with_capacity(count);
                for id in first_id..first_id + count as u64 {
                    let start = base.elapsed().as_nanos() as u64;
                    client.call(id).await.with_context(|| format!("session {}, call {id}", client.index))?;
                    let done = base.elapsed().as_nanos() as u64;
                    timings.push(Timed { latency_ns: done - start, done_ns: done });
                }
                anyhow::Ok((client, timings))
            })
        })
        .collect();
    let mut clients = Vec::with_capacity(tasks.len());
    let mut timings = Vec::with_capacity(tasks.len());
    for task in tasks {
        let (client, calls) = task.await.context("a session task panicked")??;
        clients.push(client);
        timings.push(calls);
    }
    Ok((clients, timings))
}

/// Opens sessions `first..first + count` calling `tool`, [`OPEN_AT_ONCE`] at
/// a time.
async fn open_sessions_from(
    addr: SocketAddr,
    era: Era,
    first: usize,
    count: usize,
    tool: &Arc<str>,
    authorization: &Option<HeaderValue>,
) -> anyhow::Result<Vec<Client>> {
    let mut clients = Vec::with_capacity(count);
    for start in (first..first + count).step_by(OPEN_AT_ONCE) {
        let end = (start + OPEN_AT_ONCE).min(first + count);
        let tasks: Vec<_> = (start..end)
            .map(|index| tokio::spawn(Client::open(addr, era, index, tool.clone(), authorization.clone())))
            .collect();
        for task in tasks {
            clients.push(task.await.context("a session task panicked")??);
        }
    }
    Ok(clients)
}

/// How [`idle_memory`] measures.
#[derive(Debug, Clone)]
pub struct IdleOptions {
    /// Sessions opened after the first one.
    pub sessions: usize,
    /// Close each session's connection once its call is answered (the
    /// session lives on in the server): for more sessions than the client
    /// may open file descriptors.
    pub close_connections: bool,
    /// How long the sessions stay idle before the measurement (long enough
    /// for a server's idle-instance release, if it has one).
    pub settle: Duration,
    /// Pass the server's stderr through.
    pub show_stderr: bool,
    /// The whole measurement's bound.
    pub timeout: Duration,
}

impl Default for IdleOptions {
    fn default() -> Self {
        IdleOptions {
            sessions: 1000,
            close_connections: false,
            settle: Duration::from_millis(300),
            show_stderr: false,
            timeout: Duration::from_secs(120),
        }
    }
}

/// Opens `options.sessions` sessions, each with one call, and reports how
/// much the server's resident memory grew per session.
pub fn idle_memory(command: &[String], options: &IdleOptions) -> anyhow::Result<IdleMemory> {
    let IdleOptions { sessions, close_connections, settle, show_stderr, timeout } = *options;
    ensure!(sessions > 0, "--sessions must be at least 1");
    let mut server = HttpServer::start(command, show_stderr)?;
    let runtime = runtime(1)?;
    let pid = server.pid();
    let result = runtime.block_on(async {
        let measure = async {
            // Let start-up work (compilation threads, cache writes) settle.
            tokio::time::sleep(Duration::from_millis(200)).await;
            let rss_start_kib = rss_kib(pid)?;
            let echo: Arc<str> = "echo".into();
            let mut first = open_sessions_from(server.addr, Era::Legacy, 0, 1, &echo, &None).await?;
            first[0].call(1).await.context("the first session's call")?;
            tokio::time::sleep(Duration::from_millis(100)).await;
            let rss_first_kib = rss_kib(pid)?;
            let mut rest = Vec::new();
            for start in (1..=sessions).step_by(OPEN_AT_ONCE) {
                let count = OPEN_AT_ONCE.min(sessions + 1 - start);
                let mut batch = open_sessions_from(server.addr, Era::Legacy, start, count, &echo, &None).await?;
                for client in &mut batch {
                    client.call(1).await.with_context(|| format!("session {}'s call", client.index))?;
                }
                if !close_connections {
                    rest.extend(batch);
                }
            }
            tokio::time::sleep(settle).await;
            let rss_all_kib = rss_kib(pid)?;
            drop((first, rest));
            let kib_per_session = rss_all_kib.saturating_sub(rss_first_kib) as f64 / sessions as f64;
            anyhow::Ok(IdleMemory {
                sessions,
                rss_start_kib,
                rss_first_kib,
                rss_all_kib,
                kib_per_session,
                mib_per_session: kib_per_session / 1024.0,
            })
        };
        tokio::time::timeout(timeout, measure)
            .await
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the run took longer than {timeout:?}")))
    });
    drop(runtime);
    let stopped = server.stop();
    let result = result?;
    stopped?;
    Ok(result)
}

/// The client's runtime: current-thread for 1 thread, else multi-threaded.
pub(crate) fn runtime(threads: usize) -> anyhow::Result<tokio::runtime::Runtime> {
    let mut builder = if threads <= 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut builder = tokio::runtime::Builder::new_multi_thread();
        builder.worker_threads(threads);
        builder
    };
    Ok(builder.enable_all().build()?)
}

/// A server process listening on 127.0.0.1.
pub(crate) struct HttpServer {
    child: Child,
    pub(crate) addr: SocketAddr,
}

impl HttpServer {
    /// Picks a free port, starts `command` with `{addr}` replaced by
    /// `127.0.0.1:PORT`, and waits until it accepts connections.
    pub(crate) fn start(command: &[String], show_stderr: bool) -> anyhow::Result<Self> {
        ensure!(
            command.iter().any(|arg| arg.contains(ADDR)),
            "the server command must name its listen address as {ADDR} (e.g. `--http {ADDR}`)"
        );
        let addr = free_port()?;
        let command: Vec<String> = command.iter().map(|arg| arg.replace(ADDR, &addr.to_string())).collect();
        let (program, args) = command.split_first().context("no server command given (after `--`)")?;
        let output = || if show_stderr { Stdio::inherit() } else { Stdio::null() };
        let child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(output())
            .stderr(output())
            .spawn()
            .with_context(|| format!("cannot start {program}"))?;
        let mut server = HttpServer { child, addr };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = server.child.try_wait()? {
                bail!("the server exited with {status} before accepting connections (rerun with --show-stderr)");
            }
            if TcpStream::connect_timeout(&addr, Duration::from_millis(100)).is_ok() {
                return Ok(server);
            }
            if Instant::now() >= deadline {
                let _ = server.stop();
                bail!("the server did not accept connections on {addr} within 60 s");
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGTERM and waits for the server to exit (killing it after 5 s).
    /// Ending by SIGTERM counts as a clean exit: the baselines do not handle it.
    pub(crate) fn stop(&mut self) -> anyhow::Result<()> {
        if self.child.try_wait()?.is_none() {
            // SAFETY: plain syscall on our own child, which is not reaped yet.
            unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        }
        use std::os::unix::process::ExitStatusExt;
        let status = load::wait_for_exit(&mut self.child, "SIGTERM")?;
        ensure!(status.success() || status.signal() == Some(libc::SIGTERM), "the server exited with {status}");
        Ok(())
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A port of 127.0.0.1 that nothing listens on (just now).
fn free_port() -> anyhow::Result<SocketAddr> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).context("cannot find a free port")?;
    Ok(listener.local_addr()?)
}

/// VmRSS of process `pid`, in KiB.
fn rss_kib(pid: u32) -> anyhow::Result<u64> {
    status_kib(pid, "VmRSS:")
}

/// The `field` (e.g. `VmRSS:`) of `/proc/<pid>/status`, in KiB.
fn status_kib(pid: u32, field: &str) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).context("cannot read the server's memory")?;
    let line = status
        .lines()
        .find(|line| line.starts_with(field))
        .with_context(|| format!("no {field} in /proc/<pid>/status"))?;
    let kib = line.split_whitespace().nth(1).with_context(|| format!("unexpected {field} line"))?;
    Ok(kib.parse()?)
}

/// Makes the kernel's peak RSS of `pid` (VmHWM) start again from its RSS now.
fn reset_peak_rss(pid: u32) -> anyhow::Result<()> {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").context("cannot reset the server's peak RSS")
}
