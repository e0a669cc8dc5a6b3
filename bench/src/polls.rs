//! `loadgen polls`: how many `tasks/get` polls a server answers (the tasks
//! extension of 2026-07-28). One task is made (a long call of `tool`), then
//! `connections` clients poll it one poll at a time each, for `duration`;
//! the result is polls per second, their latency and the server's CPU per
//! poll.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use serde::{Deserialize, Serialize};

use crate::http::{HttpServer, runtime};
use crate::http_client::{Client, messages};
use crate::load;
use crate::mcp::{Era, MODERN_VERSION};
use crate::stats;

/// `loadgen polls`' settings.
#[derive(Debug, Clone)]
pub struct PollOptions {
    /// Clients polling at once, each on its own connection.
    pub connections: usize,
    /// How long they poll (after a warm-up of a tenth of it).
    pub duration: Duration,
    /// The tool whose call becomes the task, and its arguments (JSON).
    pub tool: String,
    /// Its arguments, as JSON text.
    pub arguments: String,
    /// Pass the server's stderr through.
    pub show_stderr: bool,
}

/// What a run measured.
#[derive(Debug, Serialize, Deserialize)]
pub struct PollResult {
    /// Clients polling at once.
    pub connections: usize,
    /// Polls answered while measuring.
    pub polls: usize,
    /// Polls answered per second.
    pub polls_per_sec: f64,
    /// Median latency of a poll, in µs.
    pub p50_us: f64,
    /// 99th percentile, in µs.
    pub p99_us: f64,
    /// The server's CPU time per poll, in µs.
    pub cpu_us_per_poll: f64,
}

/// Starts the server `command` (`{addr}` its address), makes a task and
/// measures the polls.
pub fn run_polls(command: &[String], options: &PollOptions) -> anyhow::Result<PollResult> {
    ensure!(options.connections > 0, "--connections must be at least 1");
    let mut server = HttpServer::start(command, options.show_stderr)?;
    let runtime = runtime(options.connections.min(2))?;
    let result = runtime.block_on(measure(&server, options));
    drop(runtime);
    let stopped = server.stop();
    let result = result?;
    stopped?;
    Ok(result)
}

fn tasks_meta() -> String {
    format!(
        r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN_VERSION}","io.modelcontextprotocol/clientCapabilities":{{"extensions":{{"io.modelcontextprotocol/tasks":{{}}}}}}}}"#
    )
}

async fn measure(server: &HttpServer, options: &PollOptions) -> anyhow::Result<PollResult> {
    let tool: Arc<str> = options.tool.as_str().into();
    let mut maker = Client::open(server.addr, Era::ModernTasks, 0, tool.clone(), None).await?;
    let create = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{}","arguments":{},{}}}}}"#,
        options.tool,
        options.arguments,
        tasks_meta()
    );
    let reply = maker.post_as(create, "tools/call", &tool).await.context("the call that makes the task")?;
    let task_id = messages(&reply)?
        .iter()
        .find_map(|message| {
            let value: serde_json::Value = serde_json::from_slice(message).ok()?;
            value["result"]["taskId"].as_str().map(str::to_owned)
        })
        .with_context(|| {
            format!(
                "the call did not become a task (give the tool the policy `always`): {}",
                String::from_utf8_lossy(&reply.body)
            )
        })?;
    let task_id: Arc<str> = task_id.into();
    let mut clients = Vec::with_capacity(options.connections);
    for index in 0..options.connections {
        clients.push(Client::open(server.addr, Era::ModernTasks, index, tool.clone(), None).await?);
    }
    let (clients, _) = phase(clients, &task_id, options.duration / 10).await.context("warm-up")?;
    let pid = server.pid();
    let run0 = load::process_run_time(pid);
    let (user0, sys0) = load::process_cpu(pid)?;
    let started = Instant::now();
    let (_, latencies) = phase(clients, &task_id, options.duration).await?;
    let elapsed = started.elapsed().as_secs_f64();
    let run1 = load::process_run_time(pid);
    let (user1, sys1) = load::process_cpu(pid)?;
    let mut latencies: Vec<u64> = latencies.into_iter().flatten().collect();
    latencies.sort_unstable();
    let polls = latencies.len();
    ensure!(polls > 0, "no poll was answered");
    let cpu_s = match (run0, run1) {
        (Some(start), Some(end)) => end - start,
        _ => (user1 - user0) + (sys1 - sys0),
    };
    Ok(PollResult {
        connections: options.connections,
        polls,
        polls_per_sec: polls as f64 / elapsed,
        p50_us: stats::percentile_sorted(&latencies, 0.50) / 1_000.0,
        p99_us: stats::percentile_sorted(&latencies, 0.99) / 1_000.0,
        cpu_us_per_poll: cpu_s * 1e6 / polls as f64,
    })
}

/// Every client polls the task one poll at a time for `duration`; their
/// latencies, in ns.
async fn phase(
    clients: Vec<Client>,
    task_id: &Arc<str>,
    duration: Duration,
) -> anyhow::Result<(Vec<Client>, Vec<Vec<u64>>)> {
    let until = Instant::now() + duration;
    let meta = tasks_meta();
    let runs: Vec<_> = clients
        .into_iter()
        .map(|mut client| {
            let (task_id, meta) = (task_id.clone(), meta.clone());
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut id = 2u64;
                while Instant::now() < until {
                    let body = format!(
                        r#"{{"jsonrpc":"2.0","id":{id},"method":"tasks/get","params":{{"taskId":"{task_id}",{meta}}}}}"#
                    );
                    let start = Instant::now();
                    let reply = client.post_as(body, "tasks/get", &task_id).await?;
                    latencies.push(start.elapsed().as_nanos() as u64);
                    ensure!(
                        reply.status.is_success() && reply.body.windows(8).any(|w| w == br#""taskId""#),
                        "a poll was answered {}: {}",
                        reply.status,
                        String::from_utf8_lossy(&reply.body)
                    );
                    id += 1;
                }
                anyhow::Ok((client, latencies))
            })
        })
        .collect();
    let mut clients = Vec::new();
    let mut all = Vec::new();
    for run in runs {
        let (client, latencies) = run.await.context("a polling client panicked")??;
        clients.push(client);
        all.push(latencies);
    }
    Ok((clients, all))
}
