//! The load client: drives one stdio MCP server and measures it.
//!
//! A run spawns the server with piped stdio, initializes a session, sends a
//! warm-up, then `calls` `tools/call` echo requests keeping `inflight` of them
//! outstanding. One thread does both sides, as a pipelining client would: it
//! takes every answer that has arrived, checks it and records its latency,
//! then sends as many new calls as were answered in one `write`, each stamped
//! with the time just before that write.
//!
//! One thread, not a reader and a writer: handing each batch of answers to a
//! writer thread adds a cross-thread wake-up to every round trip, and on a VM
//! whose idle CPUs halt that wake-up costs more than a fast server's whole
//! answer. The client must not be what is measured.

use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::PROTOCOL_VERSION;
use crate::mcp::{Answer, Era, MODERN_VERSION, check_echo};
use crate::stats;

/// How a load run is shaped.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Requests kept outstanding.
    pub inflight: usize,
    /// Measured calls.
    pub calls: usize,
    /// Calls sent (same shape) before measuring: warms caches, lazy
    /// initialisation and the allocator.
    pub warmup: usize,
    /// The warm-up goes on, `warmup` calls at a time, until it has lasted
    /// this long. The kernel settles the client and the server on their CPUs
    /// in the first tenths of a second (at first they often share one, later
    /// they run side by side); measuring before then would measure that.
    pub warmup_min: Duration,
    /// Pass the server's stderr through instead of discarding it.
    pub show_stderr: bool,
    /// Run the client and the server on these CPUs only (e.g. `[0]`: both on
    /// one CPU, so no hand-off waits for another CPU to wake up).
    pub cpus: Option<Vec<usize>>,
    /// The server is killed when the whole run takes longer than this.
    pub timeout: Duration,
    /// The era spoken: a 2025 session (`initialize` first), or 2026-07-28
    /// requests that each carry their envelope (no handshake).
    pub era: Era,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            inflight: 1,
            calls: 20_000,
            warmup: 2_000,
            warmup_min: Duration::from_millis(250),
            era: Era::Legacy,
            show_stderr: false,
            cpus: None,
            timeout: Duration::from_secs(120),
        }
    }
}

/// What one load run measured. Times cover the measured calls only.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LoadResult {
    pub calls_per_sec: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub mean_us: f64,
    pub max_us: f64,
    pub inflight: usize,
    pub calls: usize,
    pub elapsed_s: f64,
    /// The server's user and system CPU time (all its threads), from
    /// `/proc/<pid>/stat`, which counts in clock ticks (usually 10 ms): coarse
    /// for short runs.
    pub cpu_user_s: f64,
    pub cpu_sys_s: f64,
    /// The server's CPU time per call in microseconds, from the scheduler's
    /// nanosecond run time of each of its threads (`/proc/<pid>/task/*/schedstat`).
    pub cpu_us_per_call: f64,
    /// The load client's own CPU time: it shares the machine with the server.
    pub client_cpu_s: f64,
    /// The CPUs client and server were confined to, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpus: Option<Vec<usize>>,
}

/// Runs one load test against the server started by `command`.
pub fn run_load(command: &[String], options: &LoadOptions) -> anyhow::Result<LoadResult> {
    ensure!(options.calls > 0, "--calls must be at least 1");
    // Set on this thread before the server and the client's threads start:
    // both inherit it. Restored when the run ends.
    let _pinned = match &options.cpus {
        Some(cpus) => Some(Affinity::pin(cpus)?),
        None => None,
    };
    let mut server = Server::spawn(command, options.show_stderr)?;
    let watchdog = Watchdog::start(server.pid(), options.timeout);
    let result = measure(&mut server, options);
    drop(watchdog);
    let closed = server.shutdown();
    let result = result?;
    closed?;
    Ok(result)
}

/// Initializes, warms up and measures an already spawned server.
fn measure(server: &mut Server, options: &LoadOptions) -> anyhow::Result<LoadResult> {
    server.era = options.era;
    if options.era == Era::Legacy {
        server.initialize()?;
    }
    let inflight = options.inflight.max(1);
    if options.warmup > 0 {
        let started = Instant::now();
        loop {
            server.pipeline(inflight, 1, options.warmup).context("warm-up")?;
            if started.elapsed() >= options.warmup_min {
                break;
            }
        }
    }
    let (user0, sys0) = process_cpu(server.pid())?;
    let run0 = process_run_time(server.pid());
    let client0 = own_cpu();
    let phase = server.pipeline(inflight, 1 + options.warmup as u64, options.calls)?;
    let (user1, sys1) = process_cpu(server.pid())?;
    let run1 = process_run_time(server.pid());
    let client1 = own_cpu();

    let mut latencies = phase.latencies_ns;
    latencies.sort_unstable();
    let us = |ns: f64| ns / 1_000.0;
    let elapsed_s = phase.elapsed.as_secs_f64();
    let (cpu_user_s, cpu_sys_s) = (user1 - user0, sys1 - sys0);
    Ok(LoadResult {
        calls_per_sec: options.calls as f64 / elapsed_s,
        p50_us: us(stats::percentile_sorted(&latencies, 0.50)),
        p99_us: us(stats::percentile_sorted(&latencies, 0.99)),
        mean_us: us(latencies.iter().map(|&ns| ns as f64).sum::<f64>() / latencies.len() as f64),
        max_us: us(*latencies.last().unwrap_or(&0) as f64),
        inflight,
        calls: options.calls,
        elapsed_s,
        cpu_user_s,
        cpu_sys_s,
        cpu_us_per_call: match (run0, run1) {
            (Some(start), Some(end)) => (end - start) * 1e6 / options.calls as f64,
            _ => (cpu_user_s + cpu_sys_s) * 1e6 / options.calls as f64,
        },
        client_cpu_s: client1 - client0,
        cpus: options.cpus.clone(),
    })
}

/// Time from spawning a server to its `initialize` answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ColdStart {
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    pub runs: usize,
    pub samples_ms: Vec<f64>,
}

/// Spawns the server `runs` times and times spawn → `initialize` answer.
/// One extra, uncounted run first warms the page cache.
pub fn cold_start(command: &[String], runs: usize, show_stderr: bool) -> anyhow::Result<ColdStart> {
    ensure!(runs > 0, "--runs must be at least 1");
    let mut samples = Vec::with_capacity(runs);
    for run in 0..=runs {
        let start = Instant::now();
        let mut server = Server::spawn(command, show_stderr)?;
        let watchdog = Watchdog::start(server.pid(), Duration::from_secs(60));
        let answered = server.initialize_request();
        let elapsed = start.elapsed();
        drop(watchdog);
        server.shutdown()?;
        answered?;
        if run > 0 {
            samples.push(elapsed.as_secs_f64() * 1e3);
        }
    }
    let mut sorted = samples.clone();
    sorted.sort_by(f64::total_cmp);
    Ok(ColdStart {
        median_ms: stats::median(&samples),
        min_ms: sorted[0],
        max_ms: sorted[sorted.len() - 1],
        runs,
        samples_ms: samples,
    })
}

/// A spawned server and its pipes.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    /// The era its calls are sent in.
    era: Era,
}

/// Latencies of one pipeline phase, indexed by call, and its wall time
/// (start → last answer).
struct Phase {
    latencies_ns: Vec<u64>,
    elapsed: Duration,
}

impl Server {
    fn spawn(command: &[String], show_stderr: bool) -> anyhow::Result<Self> {
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

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn stdin(&mut self) -> &mut ChildStdin {
        self.stdin.as_mut().expect("stdin is open until shutdown")
    }

    /// Sends `initialize` and waits for its answer (not yet `initialized`).
    fn initialize_request(&mut self) -> anyhow::Result<()> {
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
    fn initialize(&mut self) -> anyhow::Result<()> {
        self.initialize_request()?;
        writeln!(self.stdin(), r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#)?;
        Ok(())
    }

    /// Sends `count` echo calls with ids `first_id..`, `inflight` at a time,
    /// and checks every answer.
    fn pipeline(&mut self, inflight: usize, first_id: u64, count: usize) -> anyhow::Result<Phase> {
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
    fn shutdown(&mut self) -> anyhow::Result<()> {
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

/// The calls of one pipeline phase: what was sent when, and what came back.
struct Calls {
    era: Era,
    first_id: u64,
    /// Calls queued so far (the next one's index).
    queued: usize,
    received: usize,
    /// Send time of each call in ns since the phase began; 0 = not sent yet.
    sent_ns: Vec<u64>,
    latencies_ns: Vec<u64>,
    answered: Vec<bool>,
    expected: String,
}

impl Calls {
    fn new(first_id: u64, count: usize, era: Era) -> Self {
        Calls {
            era,
            first_id,
            queued: 0,
            received: 0,
            sent_ns: vec![0; count],
            latencies_ns: vec![0; count],
            answered: vec![false; count],
            expected: String::new(),
        }
    }

    /// Queues up to `n` more calls, as many as remain.
    fn queue(&mut self, n: usize, out: &mut Outgoing) -> anyhow::Result<()> {
        let end = (self.queued + n).min(self.sent_ns.len());
        for index in self.queued..end {
            let id = self.first_id + index as u64;
            match self.era {
                Era::Legacy => write!(
                    out.bytes,
                    r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"echo {id}"}}}}}}"#
                )?,
                Era::Modern => write!(
                    out.bytes,
                    r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"echo {id}"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN_VERSION}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
                )?,
            }
            out.bytes.push(b'\n');
        }
        self.queued = end;
        out.calls_end = end;
        Ok(())
    }

    /// Checks one message from the server; `true` if it answered a call.
    fn answer(&mut self, line: &[u8], now: u64) -> anyhow::Result<bool> {
        let answer: Answer = serde_json::from_slice(line)
            .with_context(|| format!("not a JSON-RPC message: {}", String::from_utf8_lossy(line)))?;
        if let Some(error) = answer.error {
            bail!("a call failed: {}", error.get());
        }
        let Some(id) = answer.id else { return Ok(false) }; // a notification
        let index = id
            .checked_sub(self.first_id)
            .map(|i| i as usize)
            .filter(|&i| i < self.queued)
            .with_context(|| format!("an answer to unknown id {id}"))?;
        ensure!(!self.answered[index], "a second answer to id {id}");
        self.expected.clear();
        {
            use std::fmt::Write as _;
            write!(self.expected, "echo {id}").expect("writing to a String");
        }
        check_echo(&answer, &self.expected).with_context(|| format!("wrong answer to id {id}"))?;
        let stamp = self.sent_ns[index];
        ensure!(stamp != 0, "an answer to id {id} before it was sent");
        self.latencies_ns[index] = now.saturating_sub(stamp);
        self.answered[index] = true;
        self.received += 1;
        Ok(true)
    }
}

/// Calls queued for the server and not yet written.
#[derive(Default)]
struct Outgoing {
    bytes: Vec<u8>,
    written: usize,
    /// Calls before this index are queued; those from `stamped` on have no
    /// send time yet.
    calls_end: usize,
    stamped: usize,
}

impl Outgoing {
    fn is_pending(&self) -> bool {
        self.written < self.bytes.len()
    }

    /// Writes as much as the pipe takes without blocking. Calls get their send
    /// time just before the first write that carries them, so an answer can
    /// never come before its call's stamp.
    fn send(&mut self, stdin: &mut ChildStdin, sent_ns: &mut [u64], base: Instant) -> anyhow::Result<()> {
        if !self.is_pending() {
            return Ok(());
        }
        let now = (base.elapsed().as_nanos() as u64).max(1);
        sent_ns[self.stamped..self.calls_end].fill(now);
        self.stamped = self.calls_end;
        while self.is_pending() {
            match stdin.write(&self.bytes[self.written..]) {
                Ok(n) => self.written += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e).context("the server stopped reading its input"),
            }
        }
        self.bytes.clear();
        self.written = 0;
        Ok(())
    }
}

/// Whether a whole message is already buffered.
fn has_line(stdout: &BufReader<ChildStdout>) -> bool {
    stdout.buffer().contains(&b'\n')
}

/// Whether reading `stdout` would return at once.
fn readable(stdout: &BufReader<ChildStdout>) -> bool {
    !stdout.buffer().is_empty() || poll(&mut [pollfd(stdout.get_ref().as_raw_fd(), libc::POLLIN)], 0)
}

/// Blocks until the server's output has data or its input has room.
fn wait_for(stdout: &BufReader<ChildStdout>, stdin: &ChildStdin) {
    if stdout.buffer().is_empty() {
        let mut fds = [pollfd(stdout.get_ref().as_raw_fd(), libc::POLLIN), pollfd(stdin.as_raw_fd(), libc::POLLOUT)];
        poll(&mut fds, -1);
    }
}

fn pollfd(fd: RawFd, events: libc::c_short) -> libc::pollfd {
    libc::pollfd { fd, events, revents: 0 }
}

/// `poll(2)`; `true` if any descriptor is ready. Errors (EINTR) count as
/// "not ready": the caller's loop asks again.
fn poll(fds: &mut [libc::pollfd], timeout_ms: libc::c_int) -> bool {
    // SAFETY: `fds` is a valid, exclusively borrowed array of pollfds.
    unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) > 0 }
}

/// Makes a descriptor non-blocking until dropped.
struct NonBlocking {
    fd: RawFd,
    flags: libc::c_int,
}

impl NonBlocking {
    fn set(fd: RawFd) -> anyhow::Result<Self> {
        // SAFETY: fcntl on a descriptor we own, with integer arguments.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        ensure!(flags >= 0, "fcntl(F_GETFL): {}", io::Error::last_os_error());
        // SAFETY: as above.
        let set = unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) };
        ensure!(set >= 0, "fcntl(F_SETFL): {}", io::Error::last_os_error());
        Ok(NonBlocking { fd, flags })
    }
}

impl Drop for NonBlocking {
    fn drop(&mut self) {
        // SAFETY: as in `set`; the descriptor outlives this guard.
        unsafe { libc::fcntl(self.fd, libc::F_SETFL, self.flags) };
    }
}

/// Kills a server that outlives its run's time limit, so a server that stops
/// answering fails the run instead of hanging it.
struct Watchdog {
    stop: Option<Sender<()>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Watchdog {
    fn start(pid: u32, timeout: Duration) -> Self {
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

/// The calling thread's CPU affinity, changed until this is dropped.
struct Affinity {
    previous: libc::cpu_set_t,
}

impl Affinity {
    fn pin(cpus: &[usize]) -> anyhow::Result<Self> {
        ensure!(!cpus.is_empty(), "no CPUs to run on");
        // SAFETY: cpu_set_t is plain data; the calls only read and write the
        // sets they are given, for the calling thread (pid 0).
        unsafe {
            let mut previous: libc::cpu_set_t = std::mem::zeroed();
            ensure!(
                libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut previous) == 0,
                "cannot read the CPU affinity: {}",
                io::Error::last_os_error()
            );
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for &cpu in cpus {
                ensure!(cpu < libc::CPU_SETSIZE as usize, "no CPU {cpu}");
                libc::CPU_SET(cpu, &mut set);
            }
            ensure!(
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0,
                "cannot run on CPUs {cpus:?}: {}",
                io::Error::last_os_error()
            );
            Ok(Affinity { previous })
        }
    }
}

impl Drop for Affinity {
    fn drop(&mut self) {
        // SAFETY: restores the set read in `pin`, for the calling thread.
        unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &self.previous) };
    }
}

/// User and system CPU seconds of process `pid` (all its threads).
pub(crate) fn process_cpu(pid: u32) -> anyhow::Result<(f64, f64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).context("cannot read the server's CPU time")?;
    // Fields after the parenthesised command name start at field 3 (state);
    // utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')').map(|(_, rest)| rest).context("unexpected /proc/<pid>/stat format")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |field: usize| -> anyhow::Result<f64> {
        let value: u64 = fields.get(field - 3).context("short /proc/<pid>/stat")?.parse()?;
        Ok(value as f64 / clock_ticks_per_sec())
    };
    Ok((ticks(14)?, ticks(15)?))
}

/// CPU seconds process `pid` has run, summed over its threads, with
/// nanosecond precision; `None` where the kernel keeps no schedstat. (A
/// thread that ends between two readings drops out of the second one; the
/// servers measured here keep theirs.)
pub(crate) fn process_run_time(pid: u32) -> Option<f64> {
    let mut total_ns = 0u64;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total_ns += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total_ns as f64 / 1e9)
}

fn clock_ticks_per_sec() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as f64 } else { 100.0 }
}

/// This process's user + system CPU seconds.
pub(crate) fn own_cpu() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return f64::NAN;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}
