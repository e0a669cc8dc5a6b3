//! A spawned server and its pipes: initialize, one pipeline phase, the end
//! of the run; and the watchdog that kills a server that stops answering.

use std::borrow::Cow;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::pipeline::{Calls, Outgoing};
use super::pipes::{NonBlocking, has_line, readable, wait_for};
use crate::PROTOCOL_VERSION;
use crate::mcp::Era;

/// A spawned server and its pipes.
pub(super) struct Server {
    child: Child,
    pub(super) stdin: Option<ChildStdin>,
    pub(super) stdout: BufReader<ChildStdout>,
    /// The era its calls are sent in.
    pub(super) era: Era,
}

/// Latencies of one pipeline phase, indexed by call, and its wall time
/// (start → last answer).
pub(super) struct Phase {
    pub(super) latencies_ns: Vec<u64>,
    pub(super) elapsed: Duration,
}

impl Server {
    pub(super) fn spawn(command: &[String], show_stderr: bool) -> anyhow::Result<Self> {
        let (program, args) = command.split_first().context("no server command given (after `--`)")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if show_stderr { Stdio::inherit() } else { Stdio::null() })
            .spawn()
            .with_context(|| format!("cannot start {program}"))?;
        let stdin = child.stdin.take();
        let stdout = BufReader::with_capacity(64 * 1024, child.stdout.take().expect("stdout is piped"));
        Ok(Server { child, stdin, stdout, era: Era::Legacy })
    }

    pub(super) fn pid(&self) -> u32 {
        self.child.id()
    }

    pub(super) fn stdin(&mut self) -> &mut ChildStdin {
        self.stdin.as_mut().expect("stdin is open until shutdown")
    }

    /// Sends `initialize` and waits for its answer (not yet `initialized`).
    pub(super) fn initialize_request(&mut self) -> anyhow::Result<()> {
        let request = format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{PROTOCOL_VERSION}","capabilities":{{}},"clientInfo":{{"name":"mcp-wit-loadgen","version":"{}"}}}}}}"#,
            env!("CARGO_PKG_VERSION")
        );
        writeln!(self.stdin(), "{request}").context("cannot send `initialize` (did the server start?)")?;
        let mut line = Vec::new();
        loop {
            line.clear();
            if self.stdout.read_until(b'\n', &mut line)? == 0 {
                bail!("the server closed its output before answering `initialize` (rerun with --show-stderr)");
            }
            #[derive(Deserialize)]
            struct InitAnswer<'a> {
                id: Option<u64>,
                #[serde(borrow)]
                result: Option<InitResult<'a>>,
                #[serde(borrow)]
                error: Option<&'a RawValue>,
            }
            #[derive(Deserialize)]
            #[serde(rename_all = "camelCase")]
            struct InitResult<'a> {
                #[serde(borrow)]
                protocol_version: Cow<'a, str>,
            }
            let answer: InitAnswer = serde_json::from_slice(&line)
                .with_context(|| format!("not a JSON-RPC message: {}", String::from_utf8_lossy(&line)))?;
            if let Some(error) = answer.error {
                bail!("`initialize` failed: {}", error.get());
            }
            if answer.id != Some(0) {
                continue; // a notification from the server
            }
            let result = answer.result.context("`initialize` answer without a result")?;
            ensure!(!result.protocol_version.is_empty(), "`initialize` answer without a protocol version");
            return Ok(());
        }
    }

    /// The whole handshake: `initialize`, then `notifications/initialized`.
    pub(super) fn initialize(&mut self) -> anyhow::Result<()> {
        self.initialize_request()?;
        writeln!(self.stdin(), r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#)?;
        Ok(())
    }

    /// Sends `count` echo calls with ids `first_id..`, `inflight` at a time,
    /// and checks every answer.
    pub(super) fn pipeline(&mut self, inflight: usize, first_id: u64, count: usize) -> anyhow::Result<Phase> {
        let stdin = self.stdin.as_mut().expect("stdin is open until shutdown");
        let _nonblocking = NonBlocking::set(stdin.as_raw_fd())?;
        let mut calls = Calls::new(first_id, count, self.era);
        let mut out = Outgoing::default();
        let base = Instant::now();
        let mut line = Vec::with_capacity(4096);
        let mut last = 0;
        calls.queue(inflight.min(count), &mut out)?;
        while calls.received < count {
            out.send(stdin, &mut calls.sent_ns, base)?;
            // Every answer already read is taken before anything new is sent,
            // so the calls it frees go out together.
            let mut freed = 0;
            loop {
                if !has_line(&self.stdout) {
                    if freed > 0 {
                        break;
                    }
                    if out.is_pending() {
                        // The pipe to the server is full: wait for it to take
                        // more, or for an answer, whichever comes first.
                        wait_for(&self.stdout, stdin);
                        if !readable(&self.stdout) {
                            break;
                        }
                    }
                }
                line.clear();
                if self.stdout.read_until(b'\n', &mut line)? == 0 {
                    bail!(
                        "the server closed its output after {} of {count} answers (rerun with --show-stderr)",
                        calls.received
                    );
                }
                let now = base.elapsed().as_nanos() as u64;
                if calls.answer(&line, now)? {
                    freed += 1;
                    last = now;
                }
            }
            calls.queue(freed, &mut out)?;
        }
        Ok(Phase { latencies_ns: calls.latencies_ns, elapsed: Duration::from_nanos(last) })
    }

    /// Closes the server's stdin and waits for it to exit (killing it after 5 s).
    pub(super) fn shutdown(&mut self) -> anyhow::Result<()> {
        drop(self.stdin.take());
        let status = wait_for_exit(&mut self.child, "its stdin closing")?;
        // Killed by our watchdog or exited badly: the run is not valid.
        ensure!(status.success(), "the server exited with {status}");
        Ok(())
    }
}

/// Waits up to 5 s for `child` to exit after `cause`, then kills it and fails.
pub(crate) fn wait_for_exit(child: &mut Child, cause: &str) -> anyhow::Result<std::process::ExitStatus> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        if Instant::now() >= deadline {
            child.kill()?;
            child.wait()?;
            bail!("the server did not exit within 5 s of {cause}");
        }
        thread::sleep(Duration::from_millis(2));
    }
}

/// Kills a server that outlives its run's time limit, so a server that stops
/// answering fails the run instead of hanging it.
pub(super) struct Watchdog {
    stop: Option<Sender<()>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Watchdog {
    pub(super) fn start(pid: u32, timeout: Duration) -> Self {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = thread::spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(timeout) {
                eprintln!("loadgen: the server (pid {pid}) took longer than {timeout:?}; killing it");
                // SAFETY: plain syscall. The child is reaped only after this
                // watchdog is dropped, so `pid` still names our own child.
                unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
            }
        });
        Watchdog { stop: Some(stop), thread: Some(thread) }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
