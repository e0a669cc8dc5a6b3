//! The load client: drives one stdio MCP server and measures it.
//!
//! A run spawns the server with piped stdio, initializes a session, sends a
//! warm-up, then `calls` `tools/call` echo requests keeping `inflight` of them
//! outstanding. A writer thread sends; a reader thread checks every answer
//! and records its latency. Requests that become sendable together go out in
//! one `write` (as a pipelining client would send them), each stamped with
//! the time just before that write.

use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::PROTOCOL_VERSION;
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
    /// Pass the server's stderr through instead of discarding it.
    pub show_stderr: bool,
    /// Run the client and the server on these CPUs only (e.g. `[0]`: both on
    /// one CPU, so no hand-off waits for another CPU to wake up).
    pub cpus: Option<Vec<usize>>,
    /// The server is killed when the whole run takes longer than this.
    pub timeout: Duration,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            inflight: 1,
            calls: 20_000,
            warmup: 2_000,
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
    server.initialize()?;
    let inflight = options.inflight.max(1);
    if options.warmup > 0 {
        server.pipeline(inflight, 1, options.warmup).context("warm-up")?;
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
        Ok(Server { child, stdin, stdout })
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
        // Send time of each call in ns since `base`; 0 = not sent yet.
        let sent: Vec<AtomicU64> = (0..count).map(|_| AtomicU64::new(0)).collect();
        // The reader frees one slot per answer.
        let (free_tx, free_rx) = mpsc::channel::<()>();
        let base = Instant::now();
        let stdin = self.stdin.as_mut().expect("stdin is open until shutdown");
        let stdout = &mut self.stdout;
        let sent = &sent;
        thread::scope(|scope| {
            let writer = scope.spawn(move || write_calls(stdin, inflight, first_id, sent, free_rx, base));
            let reader = scope.spawn(move || read_answers(stdout, first_id, sent, free_tx, base));
            let read = reader.join().expect("the reader thread panicked");
            let written = writer.join().expect("the writer thread panicked");
            // A bad or missing answer explains a writer failure, not the reverse.
            let (latencies_ns, elapsed) = read?;
            written?;
            Ok(Phase { latencies_ns, elapsed })
        })
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

/// Writer thread: keeps `inflight` calls outstanding.
fn write_calls(
    stdin: &mut ChildStdin,
    inflight: usize,
    first_id: u64,
    sent: &[AtomicU64],
    free: Receiver<()>,
    base: Instant,
) -> anyhow::Result<()> {
    let mut batch = Vec::with_capacity(inflight.min(1024) * 128);
    let mut batch_start = 0;
    let mut credits = inflight;
    for index in 0..sent.len() {
        if credits == 0 {
            // Nothing more may go out until an answer arrives: send what we have.
            send_batch(stdin, &mut batch, &sent[batch_start..index], base)?;
            batch_start = index;
            free.recv().map_err(|_| anyhow::anyhow!("the server stopped answering"))?;
            credits += 1;
            credits += free.try_iter().count();
        }
        let id = first_id + index as u64;
        write!(
            batch,
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"echo {id}"}}}}}}"#
        )?;
        batch.push(b'\n');
        credits -= 1;
    }
    send_batch(stdin, &mut batch, &sent[batch_start..], base)?;
    Ok(())
}

/// Stamps the calls in `batch` and writes them in one go. The stamp comes
/// first so an answer can never arrive before its call's send time is set.
fn send_batch(stdin: &mut ChildStdin, batch: &mut Vec<u8>, calls: &[AtomicU64], base: Instant) -> io::Result<()> {
    if batch.is_empty() {
        return Ok(());
    }
    let now = (base.elapsed().as_nanos() as u64).max(1);
    for stamp in calls {
        stamp.store(now, Ordering::Release);
    }
    stdin.write_all(batch)?;
    batch.clear();
    Ok(())
}

/// Reader thread: checks each answer is the right echo and records its latency.
fn read_answers(
    stdout: &mut BufReader<ChildStdout>,
    first_id: u64,
    sent: &[AtomicU64],
    free: Sender<()>,
    base: Instant,
) -> anyhow::Result<(Vec<u64>, Duration)> {
    let count = sent.len();
    let mut latencies = vec![0u64; count];
    let mut answered = vec![false; count];
    let mut line = Vec::with_capacity(4096);
    let mut expected = String::new();
    let mut last = 0;
    let mut received = 0;
    while received < count {
        line.clear();
        if stdout.read_until(b'\n', &mut line)? == 0 {
            bail!("the server closed its output after {received} of {count} answers (rerun with --show-stderr)");
        }
        let now = base.elapsed().as_nanos() as u64;
        let answer: Answer = serde_json::from_slice(&line)
            .with_context(|| format!("not a JSON-RPC message: {}", String::from_utf8_lossy(&line)))?;
        if let Some(error) = answer.error {
            bail!("a call failed: {}", error.get());
        }
        let Some(id) = answer.id else { continue }; // a notification
        let index = id
            .checked_sub(first_id)
            .map(|i| i as usize)
            .filter(|&i| i < count)
            .with_context(|| format!("an answer to unknown id {id}"))?;
        ensure!(!answered[index], "a second answer to id {id}");
        expected.clear();
        {
            use std::fmt::Write as _;
            write!(expected, "echo {id}").expect("writing to a String");
        }
        check_echo(&answer, &expected).with_context(|| format!("wrong answer to id {id}"))?;
        let stamp = sent[index].load(Ordering::Acquire);
        ensure!(stamp != 0, "an answer to id {id} before it was sent");
        latencies[index] = now.saturating_sub(stamp);
        answered[index] = true;
        received += 1;
        last = now;
        // The writer may have finished already; then nobody needs the slot.
        let _ = free.send(());
    }
    Ok((latencies, Duration::from_nanos(last)))
}

/// A JSON-RPC message from the server, as far as the load client cares.
#[derive(Deserialize)]
pub(crate) struct Answer<'a> {
    pub(crate) id: Option<u64>,
    #[serde(borrow)]
    result: Option<CallResult<'a>>,
    #[serde(borrow)]
    pub(crate) error: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct CallResult<'a> {
    #[serde(borrow)]
    content: Vec<ContentItem<'a>>,
    #[serde(rename = "isError")]
    is_error: Option<bool>,
}

#[derive(Deserialize)]
struct ContentItem<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
}

/// An echo answer is exactly one text item holding the text sent.
pub(crate) fn check_echo(answer: &Answer<'_>, expected: &str) -> anyhow::Result<()> {
    let result = answer.result.as_ref().context("no result")?;
    ensure!(result.is_error != Some(true), "the tool reported an error");
    match result.content.as_slice() {
        [item] if item.kind == "text" && item.text.as_deref() == Some(expected) => Ok(()),
        _ => bail!("expected one text item {expected:?}"),
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
