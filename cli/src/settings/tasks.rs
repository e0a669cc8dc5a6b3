//! [`TaskSettings`]: when 2026-07-28 tool calls become tasks and how tasks
//! are kept (`[tasks]` in `mcp-wit.toml`).

use std::time::Duration;

use serde::Deserialize;

use mcp_wit::tasks::{MAX_TASK_TIMEOUT, TaskOptions, TaskPolicies, TaskStoreOption};

use crate::units;

/// The tasks extension (`io.modelcontextprotocol/tasks`), over HTTP and
/// stdio, for 2026-07-28 clients that declare it.
#[derive(clap::Args, Debug, Default, Clone, Deserialize)]
#[command(next_help_heading = "Tasks")]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct TaskSettings {
    /// Serve no tasks: every call is answered when it ends, and the
    /// extension is not advertised.
    #[arg(long, value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub no_tasks: Option<bool>,
    /// When a tool's calls become tasks, for clients that declare the
    /// extension: `[TOOL=]POLICY`, POLICY one of `never`, `on-request` (when
    /// the router asks), `after:DURATION` (still running then, or the router
    /// asks), `always`, `required` (always; -32021 to clients without the
    /// extension). TOOL may end in `*`; the first rule that matches wins;
    /// without TOOL, the policy of the tools no rule names. Repeatable
    /// [default: after:5s].
    #[arg(long, value_name = "[TOOL=]POLICY")]
    pub task_policy: Vec<String>,
    /// How long a task's call may run, from when it became a task, instead
    /// of --timeout (at most 24h) [default: 1h].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub task_timeout: Option<Duration>,
    /// How long a task is kept once over, for its client to fetch the result
    /// (`ttlMs`) [default: 1h].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub task_ttl: Option<Duration>,
    /// Most tasks one client has unfinished at once (a principal with
    /// authorization on, else an address); past it, calls are answered when
    /// they end [default: 64].
    #[arg(long, value_name = "N")]
    pub max_tasks_per_client: Option<usize>,
    /// Where tasks are kept: `redis://[USER:PASSWORD@]HOST[:PORT][/DB]`, a
    /// Redis-protocol server (Redis, Valkey) that replicas behind one load
    /// balancer share, so that any of them answers for a task (plain TCP:
    /// keep it on a private network) [default: in this process].
    #[arg(long, value_name = "URL")]
    pub task_store: Option<String>,
}

impl TaskSettings {
    /// These settings where given, `lower`'s elsewhere; policies add up,
    /// the file's after the flags' (the first rule that matches wins).
    pub(super) fn over(self, lower: TaskSettings) -> TaskSettings {
        TaskSettings {
            no_tasks: self.no_tasks.or(lower.no_tasks),
            task_policy: [self.task_policy, lower.task_policy].concat(),
            task_timeout: self.task_timeout.or(lower.task_timeout),
            task_ttl: self.task_ttl.or(lower.task_ttl),
            max_tasks_per_client: self.max_tasks_per_client.or(lower.max_tasks_per_client),
            task_store: self.task_store.or(lower.task_store),
        }
    }

    /// The library's options (`None`: no tasks); the error says which
    /// setting is wrong.
    pub fn options(&self) -> Result<Option<TaskOptions>, String> {
        if self.no_tasks == Some(true) {
            return Ok(None);
        }
        let defaults = TaskOptions::default();
        let timeout = self.task_timeout.unwrap_or(defaults.timeout);
        if timeout > MAX_TASK_TIMEOUT || timeout.is_zero() {
            return Err(format!(
                "--task-timeout {}: a task may run for at most 24h (and more than nothing)",
                humantime::format_duration(timeout)
            ));
        }
        Ok(Some(TaskOptions {
            policies: TaskPolicies::parse(&self.task_policy).map_err(|e| format!("--task-policy {e}"))?,
            timeout,
            ttl: self.task_ttl.unwrap_or(defaults.ttl).max(Duration::from_millis(1)),
            poll_interval: defaults.poll_interval,
            max_per_client: self.max_tasks_per_client.unwrap_or(defaults.max_per_client).max(1),
            store: match &self.task_store {
                Some(url) if url.starts_with("redis://") => TaskStoreOption::Redis(url.clone()),
                Some(url) => return Err(format!("--task-store {url:?}: give a redis:// URL")),
                None => defaults.store,
            },
        }))
    }
}
