//! Trouble for a server under load: what [`crate::http`] runs beside the
//! measured calls when asked to.
//!
//! - **Reloads**: SIGHUP to the server at a fixed interval (`mcp-wit serve`
//!   loads everything again and replaces what new sessions are served by).
//! - **Clients killed mid-call**: a call written whole, the connection
//!   dropped before its answer.
//! - **Half-open connections**: request headers begun and never finished,
//!   held until the server gives up on them.
//! - **Slow bodies**: headers promising a body that comes a byte a second;
//!   the server must answer 408 when its body timeout runs out.
//! - **A guest that traps on every tenth call**: a session calling a tool
//!   that traps every tenth call and the echo tool otherwise; every trap must
//!   be answered with an error and every echo after it must succeed.
//!
//! Each actor counts what it did; anything the server answers wrongly ends
//! the run with an error.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, bail, ensure};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::http_client::Client;
use crate::mcp::{Era, call_body};

/// What to do to the server while the measured calls run.
#[derive(Debug, Clone, Default)]
pub struct Disturbances {
    /// Send SIGHUP at this interval.
    pub reload_every: Option<Duration>,
    /// Run the chaos actors; the tool named here traps (the echo tool of the
    /// load is the other one they call).
    pub trap_tool: Option<String>,
}

impl Disturbances {
    /// Whether there is anything to do.
    pub fn any(&self) -> bool {
        self.reload_every.is_some() || self.trap_tool.is_some()
    }
}

/// What the disturbances did, all of it answered as it should be.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Disturbed {
    /// SIGHUPs sent.
    pub reloads: u64,
    /// Calls whose client left before the answer.
    pub killed_mid_call: u64,
    /// Connections that sent half their headers and waited.
    pub half_open: u64,
    /// Bodies sent too slowly, answered 408.
    pub slow_bodies: u64,
    /// Calls of the trapping tool, each answered with an error.
    pub traps: u64,
    /// Echo calls on the trapping session, each answered right.
    pub echoes_between_traps: u64,
}

/// The running disturbances; [`Running::stop`] ends them and reports.
pub struct Running {
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<anyhow::Result<Disturbed>>>,
}

/// Starts `disturbances` against the server at `addr` (process `pid`), whose
/// echo tool is `tool`.
pub fn start(disturbances: &Disturbances, addr: SocketAddr, pid: u32, tool: &str) -> Running {
    let (stop, stopped) = watch::channel(false);
    let mut tasks = Vec::new();
    if let Some(every) = disturbances.reload_every {
        tasks.push(tokio::spawn(reload(pid, every, stopped.clone())));
    }
    if let Some(trap_tool) = &disturbances.trap_tool {
        tasks.push(tokio::spawn(killed_mid_call(addr, tool.to_string(), stopped.clone())));
        for _ in 0..8 {
            tasks.push(tokio::spawn(half_open(addr, stopped.clone())));
        }
        for _ in 0..4 {
            tasks.push(tokio::spawn(slow_body(addr, stopped.clone())));
        }
        tasks.push(tokio::spawn(trapping(addr, tool.to_string(), trap_tool.clone(), stopped)));
    }
    Running { stop, tasks }
}

impl Running {
    /// Ends every actor (each finishes what it has begun) and adds up what
    /// they did; the first error any of them met, if one did.
    pub async fn stop(self) -> anyhow::Result<Disturbed> {
        self.stop.send_replace(true);
        let mut total = Disturbed::default();
        for task in self.tasks {
            let done = task.await.context("a chaos actor panicked")??;
            total.reloads += done.reloads;
            total.killed_mid_call += done.killed_mid_call;
            total.half_open += done.half_open;
            total.slow_bodies += done.slow_bodies;
            total.traps += done.traps;
            total.echoes_between_traps += done.echoes_between_traps;
        }
        Ok(total)
    }
}

/// Waits `period` unless told to stop first; whether to go on.
async fn pause(stopped: &mut watch::Receiver<bool>, period: Duration) -> bool {
    if *stopped.borrow() {
        return false;
    }
    tokio::select! {
        _ = stopped.changed() => false,
        () = tokio::time::sleep(period) => true,
    }
}

async fn reload(pid: u32, every: Duration, mut stopped: watch::Receiver<bool>) -> anyhow::Result<Disturbed> {
    let mut done = Disturbed::default();
    while pause(&mut stopped, every).await {
        // SAFETY: a plain syscall naming the server process this run started.
        let sent = unsafe { libc::kill(pid as libc::pid_t, libc::SIGHUP) };
        ensure!(sent == 0, "cannot send SIGHUP to the server: {}", std::io::Error::last_os_error());
        done.reloads += 1;
    }
    Ok(done)
}

/// A whole request, as raw HTTP/1.1.
fn raw_request(addr: SocketAddr, headers: &str, body: &str) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\naccept: application/json, \
         text/event-stream\r\n{headers}content-length: {}\r\n\r\n{body}",
        body.len()
    )
}

async fn killed_mid_call(
    addr: SocketAddr,
    tool: String,
    mut stopped: watch::Receiver<bool>,
) -> anyhow::Result<Disturbed> {
    let mut done = Disturbed::default();
    let headers = format!(
        "mcp-protocol-version: {}\r\nmcp-method: tools/call\r\nmcp-name: {tool}\r\n",
        crate::mcp::MODERN_VERSION
    );
    let mut id = 0;
    while pause(&mut stopped, Duration::from_millis(20)).await {
        id += 1;
        let body = call_body(Era::Modern, id, &tool, "killed before its answer");
        let mut stream = TcpStream::connect(addr).await.context("a client to kill: cannot connect")?;
        stream.write_all(raw_request(addr, &headers, &body).as_bytes()).await?;
        // Gone at once, as a killed process's socket: no answer read.
        drop(stream);
        done.killed_mid_call += 1;
    }
    Ok(done)
}

async fn half_open(addr: SocketAddr, mut stopped: watch::Receiver<bool>) -> anyhow::Result<Disturbed> {
    let mut done = Disturbed::default();
    while !*stopped.borrow() {
        let mut stream = TcpStream::connect(addr).await.context("a half-open connection: cannot connect")?;
        stream.write_all(format!("POST /mcp HTTP/1.1\r\nhost: {addr}\r\ncontent-type: applica").as_bytes()).await?;
        done.half_open += 1;
        // Held until the server closes it (its header timeout) or the run ends.
        let mut buf = [0u8; 512];
        tokio::select! {
            _ = stopped.changed() => {}
            _ = stream.read(&mut buf) => {}
        }
    }
    Ok(done)
}

async fn slow_body(addr: SocketAddr, mut stopped: watch::Receiver<bool>) -> anyhow::Result<Disturbed> {
    let mut done = Disturbed::default();
    while !*stopped.borrow() {
        let mut stream = TcpStream::connect(addr).await.context("a slow body: cannot connect")?;
        let body = call_body(Era::Modern, 1, "echo", "too slow");
        let request = raw_request(addr, "", &body);
        let headers_end = request.len() - body.len();
        stream.write_all(&request.as_bytes()[..headers_end]).await?;
        let mut answer = Vec::new();
        let mut sent = headers_end;
        // A byte a second, until the server answers (408) or the run ends.
        let finished = loop {
            let mut buf = [0u8; 1024];
            tokio::select! {
                _ = stopped.changed() => break false,
                read = stream.read(&mut buf) => match read? {
                    0 => break true,
                    n => answer.extend_from_slice(&buf[..n]),
                },
                () = tokio::time::sleep(Duration::from_secs(1)), if sent < request.len() - 1 => {
                    stream.write_all(&request.as_bytes()[sent..sent + 1]).await?;
                    sent += 1;
                }
            }
        };
        if finished {
            let status = String::from_utf8_lossy(&answer);
            ensure!(status.starts_with("HTTP/1.1 408"), "a slow body was answered: {status}");
            done.slow_bodies += 1;
        }
    }
    Ok(done)
}

async fn trapping(
    addr: SocketAddr,
    tool: String,
    trap_tool: String,
    mut stopped: watch::Receiver<bool>,
) -> anyhow::Result<Disturbed> {
    let mut done = Disturbed::default();
    let mut client =
        Client::open(addr, Era::Legacy, usize::MAX, tool.into(), None).await.context("the trapping session")?;
    let mut id = 0;
    while pause(&mut stopped, Duration::from_millis(10)).await {
        id += 1;
        if id % 10 != 0 {
            client.call(id).await.context("an echo call after a trap")?;
            done.echoes_between_traps += 1;
            continue;
        }
        let answer = client.call_raw(id, &trap_tool).await?;
        #[derive(Deserialize)]
        struct Failed {
            id: u64,
            error: Option<serde_json::Value>,
        }
        match serde_json::from_slice::<Failed>(&answer) {
            Ok(Failed { id: answered, error: Some(_) }) if answered == id => done.traps += 1,
            _ => bail!("a trap was answered: {}", String::from_utf8_lossy(&answer)),
        }
    }
    Ok(done)
}
