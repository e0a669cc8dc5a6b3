//! [`Tasks`]: the tasks of one server (or of its replicas, sharing a
//! store), the runs this replica holds, and the answers to `tasks/get`,
//! `tasks/update` and `tasks/cancel`.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use mcp_wit_protocol::auth::SharedCaller;
use mcp_wit_protocol::observe::TraceContext;
use mcp_wit_protocol::tasks::TaskOffer;
use mcp_wit_protocol::{Canceller, RpcError};

use super::policy::TaskPolicies;
use super::record::{Ending, TaskRecord, TaskStatus};
use super::store::{MemoryStore, StoredTask, TaskStore};
use crate::sync::lock;

/// Where tasks are kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum TaskStoreOption {
    /// In this process: one server's, lost with it.
    #[default]
    InProcess,
    /// In a Redis-protocol server at this `redis://` URL, shared by replicas.
    Redis(String),
}

/// How tasks are made and kept.
#[derive(Debug, Clone)]
pub struct TaskOptions {
    /// When each tool's calls become tasks.
    pub policies: TaskPolicies,
    /// How long a task's call may run, from the task's creation (instead of
    /// the call's `--timeout`).
    pub timeout: Duration,
    /// How long a task is kept once over (its `ttlMs`).
    pub ttl: Duration,
    /// How often clients are told to poll (`pollIntervalMs`).
    pub poll_interval: Duration,
    /// Most tasks one client has unfinished at once; past it, calls are
    /// answered as plain calls (and a tool that runs only as a task is
    /// refused).
    pub max_per_client: usize,
    /// Where tasks are kept.
    pub store: TaskStoreOption,
}

/// The longest `--task-timeout`: a task's instance holds memory all along.
pub const MAX_TASK_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

impl Default for TaskOptions {
    fn default() -> Self {
        TaskOptions {
            policies: TaskPolicies::default(),
            timeout: Duration::from_secs(60 * 60),
            ttl: Duration::from_secs(60 * 60),
            poll_interval: Duration::from_millis(500),
            max_per_client: 64,
            store: TaskStoreOption::InProcess,
        }
    }
}

/// A run of a task's call: the request, running, and how to cancel it.
pub struct Running {
    /// Cancels the request.
    pub canceller: Canceller,
    /// The request's id, raw, as the canceller knows it.
    pub id: String,
    /// The run: the last message the request wrote (`None`: none).
    pub run: Pin<Box<dyn Future<Output = Option<Vec<u8>>> + Send>>,
}

/// Runs a task's call again ([`Rerun`]), under this offer (taken: the run
/// is a task's). Given by the transport.
pub type Resume<'a> = &'a (dyn Fn(Rerun, TaskOffer) -> Running + Sync);

/// What a task's call runs again with.
pub struct Rerun {
    /// Who made the first request (over HTTP; stdio has no caller).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub caller: Option<SharedCaller>,
    /// Its id.
    pub id: Box<RawValue>,
    /// The first run's params, with the answers and the round's state.
    pub params: Box<RawValue>,
    /// The trace context the first request came with (over HTTP).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub trace: Option<TraceContext>,
}

/// How often a replica renews the leases of the calls it runs and looks
/// for their cancellation by another replica.
pub(super) const WATCH_EVERY: Duration = Duration::from_millis(250);

/// How long a lease lasts unrenewed: a replica that stopped renewing
/// (it died) loses its tasks this long after.
const LEASE: Duration = Duration::from_secs(3);

/// How often tasks over for longer than their time to live are forgotten.
const REAP_EVERY: Duration = Duration::from_secs(1);

/// The tasks of one server, and the runs this replica holds.
pub struct Tasks {
    options: TaskOptions,
    store: Arc<dyn TaskStore>,
    /// This replica's name, in its leases and its tasks' failures.
    replica: String,
    /// The calls this replica runs: their cancellers, by task.
    running: Mutex<HashMap<String, (Canceller, String)>>,
    /// Set once the reaper runs (from the first task on).
    reaping: std::sync::atomic::AtomicBool,
    /// How many tasks were in each status when the reaper last counted.
    counted: Mutex<[(TaskStatus, usize); 5]>,
}

impl Tasks {
    /// No tasks yet; the error says what is wrong with the store's setting.
    pub fn new(options: TaskOptions) -> Result<Arc<Tasks>, String> {
        let store: Arc<dyn TaskStore> = match &options.store {
            TaskStoreOption::InProcess => Arc::new(MemoryStore::default()),
            TaskStoreOption::Redis(url) => Arc::new(super::RedisStore::new(url, "mcp-wit:")?),
        };
        let replica = format!("{}-{}", std::process::id(), &new_task_id()[..6]);
        let counted = Mutex::new(TaskStatus::ALL.map(|status| (status, 0)));
        Ok(Arc::new(Tasks { options, store, replica, running: Mutex::default(), reaping: Default::default(), counted }))
    }

    /// Reaches the store once (a Redis-protocol server: it answers `PING`).
    pub async fn check(&self) -> Result<(), String> {
        self.store.check().await
    }

    /// How tasks are made and kept.
    pub fn options(&self) -> &TaskOptions {
        &self.options
    }

    /// Whether `client` (see [`Tasks::create`]) may start one more task.
    pub async fn has_room_for(&self, client: Option<&str>) -> Result<bool, RpcError> {
        let unfinished = self.store.unfinished(client).await.map_err(RpcError::internal)?;
        Ok(unfinished < self.options.max_per_client)
    }

    /// Makes the running call of request `request_id` (with `params`, made
    /// by `caller`) a task of `owner` (the principal, when requests are
    /// authenticated: no one else sees it), counted against `client`'s
    /// limit. Its deadline moves to the task's, and the task is kept before
    /// its client hears of it (an immediate `tasks/get` finds it). Returns
    /// the task as created; [`Tasks::drive`] then follows its run.
    pub async fn create(
        self: &Arc<Self>,
        (caller, client): (Option<SharedCaller>, Option<String>),
        offer: &TaskOffer,
        running: (Canceller, String),
        (request_id, params): (Box<RawValue>, Box<RawValue>),
        trace: Option<TraceContext>,
    ) -> Result<TaskRecord, RpcError> {
        let deadline = SystemTime::now() + self.options.timeout;
        offer.extend_deadline(Instant::now() + self.options.timeout);
        let owner = caller.as_ref().map(|c| c.principal_key());
        let record = TaskRecord::new(new_task_id(), owner, self.options.ttl, self.options.poll_interval);
        let task = StoredTask {
            record: record.clone(),
            client,
            request_id,
            params,
            caller: caller.map(|c| (*c).clone()),
            deadline_ms: unix_ms(deadline),
            runner: Some(self.replica.clone()),
            trace: trace.and_then(|t| Some((t.traceparent?, t.tracestate))),
        };
        self.store.renew(&record.id, &self.replica, LEASE).await.map_err(RpcError::internal)?;
        self.store.insert(&task).await.map_err(RpcError::internal)?;
        lock(&self.running).insert(record.id.clone(), running);
        if !self.reaping.swap(true, std::sync::atomic::Ordering::Relaxed) {
            self.start_reaper();
        }
        Ok(record)
    }

    /// Follows a run of task `id` to its end, in a task of its own: renews
    /// its lease meanwhile and stops it if another replica cancels it; then
    /// keeps what it came to.
    pub fn drive(self: &Arc<Self>, id: String, run: Pin<Box<dyn Future<Output = Option<Vec<u8>>> + Send>>) {
        let tasks = self.clone();
        tokio::spawn(async move {
            let watching = tasks.watch(&id);
            let last = tokio::select! {
                last = run => last,
                () = watching => std::future::pending().await,
            };
            lock(&tasks.running).remove(&id);
            let ending = Ending::read(last.as_deref());
            let ended = std::sync::Mutex::new(Some(ending));
            let change = |task: &mut StoredTask| {
                task.runner = None;
                let was_over = task.record.status.is_terminal();
                if let Some(ending) = lock(&ended).take() {
                    task.record.end_run(ending);
                }
                if !was_over {
                    note_end(&task.record);
                }
                true
            };
            if let Err(error) = tasks.store.update(&id, &change).await {
                tracing::warn!(task = %id, "what the task's call came to is lost: {error}");
            }
        });
    }

    /// Renews the lease of running task `id` until the run ends (this
    /// future is dropped then), and cancels it if its status turned
    /// `cancelled` (another replica's `tasks/cancel`).
    async fn watch(&self, id: &str) {
        loop {
            tokio::time::sleep(WATCH_EVERY).await;
            if let Err(error) = self.store.renew(id, &self.replica, LEASE).await {
                tracing::warn!(task = %id, "cannot renew the task's lease: {error}");
            }
            if let Ok(Some(task)) = self.store.get(id).await
                && task.record.status == TaskStatus::Cancelled
            {
                self.stop_local(id);
            }
        }
    }

    /// Stops this replica's run of task `id`, if it holds one.
    fn stop_local(&self, id: &str) {
        if let Some((canceller, request)) = lock(&self.running).get(id) {
            canceller.cancel(request);
        }
    }

    /// Task `id`, if `owner` may see it; -32602 otherwise, the same as for
    /// one that does not exist (an owner learns nothing of another's). A
    /// task still working whose replica stopped renewing its lease fails,
    /// saying so.
    pub async fn get(&self, owner: Option<&str>, id: &str) -> Result<TaskRecord, RpcError> {
        let task = self.visible(owner, id).await?;
        if task.record.status != TaskStatus::Working || self.store.leased(id).await.map_err(RpcError::internal)? {
            return Ok(task.record);
        }
        let lost = |task: &mut StoredTask| {
            if task.record.status != TaskStatus::Working {
                return false;
            }
            let runner = task.runner.take().unwrap_or_else(|| "unknown".into());
            let reason =
                format!("the replica running the task's call ({runner}) stopped before it ended; call the tool again");
            task.record.end_run(Ending::failed(&reason));
            note_end(&task.record);
            true
        };
        let changed = self.store.update(id, &lost).await.map_err(RpcError::internal)?;
        Ok(changed.map_or(task.record, |task| task.record))
    }

    /// Answers to task `id`'s questions; once all are answered, its call
    /// runs again with them, here, through `resume`.
    pub async fn update(
        self: &Arc<Self>,
        owner: Option<&str>,
        id: &str,
        responses: Map<String, Value>,
        resume: Resume<'_>,
    ) -> Result<(), RpcError> {
        self.visible(owner, id).await?;
        let next = std::sync::Mutex::new(None);
        let answer = |task: &mut StoredTask| {
            let Some(round) = task.record.answer(responses.clone()) else {
                // Partial answers change the task all the same.
                return task.record.status == TaskStatus::InputRequired;
            };
            task.runner = Some(self.replica.clone());
            *lock(&next) = Some(round);
            true
        };
        let task = self.store.update(id, &answer).await.map_err(RpcError::internal)?;
        let (Some(task), Some((answers, state))) = (task, lock(&next).take()) else { return Ok(()) };
        self.store.renew(id, &self.replica, LEASE).await.map_err(RpcError::internal)?;
        let params = resumed_params(&task.params, answers, state);
        let offer = TaskOffer::default();
        offer.take();
        let left = Duration::from_millis(task.deadline_ms.saturating_sub(unix_ms(SystemTime::now())));
        offer.extend_deadline(Instant::now() + left);
        let trace =
            task.trace.map(|(traceparent, tracestate)| TraceContext { traceparent: Some(traceparent), tracestate });
        let rerun = Rerun { caller: task.caller.map(Arc::new), id: task.request_id.clone(), params, trace };
        let running = resume(rerun, offer);
        lock(&self.running).insert(id.to_owned(), (running.canceller.clone(), running.id.clone()));
        self.drive(id.to_owned(), running.run);
        Ok(())
    }

    /// Cancels task `id`: it ends `cancelled` at once, and its call stops at
    /// the next epoch tick, here or on the replica that runs it (which
    /// looks every [`WATCH_EVERY`]). A task already over stays as it is (the
    /// cancel is acknowledged all the same).
    pub async fn cancel(&self, owner: Option<&str>, id: &str) -> Result<(), RpcError> {
        self.visible(owner, id).await?;
        let cancel = |task: &mut StoredTask| {
            if task.record.status.is_terminal() {
                return false;
            }
            task.record.set_status(TaskStatus::Cancelled, Some("cancelled by its client".into()));
            note_end(&task.record);
            true
        };
        self.store.update(id, &cancel).await.map_err(RpcError::internal)?;
        self.stop_local(id);
        Ok(())
    }

    /// How many tasks are in each status, counted now.
    pub async fn counts(&self) -> [(TaskStatus, usize); 5] {
        let counts = self.store.counts().await.unwrap_or_else(|_| TaskStatus::ALL.map(|status| (status, 0)));
        *lock(&self.counted) = counts;
        counts
    }

    /// How many tasks were in each status when last counted (every
    /// [`REAP_EVERY`] once there are tasks), for a scrape (of the HTTP
    /// listener's `/metrics`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub fn last_counts(&self) -> [(TaskStatus, usize); 5] {
        *lock(&self.counted)
    }

    /// Task `id` if `owner` may see it, else -32602.
    async fn visible(&self, owner: Option<&str>, id: &str) -> Result<StoredTask, RpcError> {
        let task = self.store.get(id).await.map_err(RpcError::internal)?;
        task.filter(|task| task.record.owner.as_deref() == owner)
            .ok_or_else(|| RpcError::invalid_params(format!("unknown task {:?} (it may have expired)", clip(id))))
    }

    /// Forgets expired tasks every [`REAP_EVERY`], and counts those kept,
    /// while the server keeps its tasks.
    fn start_reaper(self: &Arc<Self>) {
        let tasks = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(REAP_EVERY).await;
                let Some(tasks) = tasks.upgrade() else { return };
                let reaped = tasks.store.reap();
                if reaped > 0 {
                    tracing::debug!(reaped, "forgot tasks past their time to live");
                }
                tasks.counts().await;
            }
        });
    }
}

/// Counts a task that just ended in the metrics.
fn note_end(record: &TaskRecord) {
    if record.status.is_terminal()
        && let Some(metrics) = crate::telemetry::Metrics::global()
    {
        let lasted = record.updated.duration_since(record.created).unwrap_or_default();
        metrics.task_ended(record.status.as_str(), lasted);
    }
}

/// The first run's params with the answers to the last round's questions
/// and its state: a 2026-07-28 retry, as the client would have sent it.
fn resumed_params(first: &RawValue, answers: Map<String, Value>, state: Option<String>) -> Box<RawValue> {
    let mut params: Map<String, Value> = serde_json::from_str(first.get()).unwrap_or_default();
    params.insert("inputResponses".into(), Value::Object(answers));
    match state {
        Some(state) => params.insert("requestState".into(), Value::String(state)),
        None => params.remove("requestState"),
    };
    serde_json::value::to_raw_value(&params).expect("a JSON object serialises")
}

fn unix_ms(at: SystemTime) -> u64 {
    u64::try_from(at.duration_since(UNIX_EPOCH).unwrap_or_default().as_millis()).unwrap_or(u64::MAX)
}

/// 128 random bits, base64url.
fn new_task_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the OS gives random bytes");
    URL_SAFE_NO_PAD.encode(bytes)
}

/// A client's id, clipped for an error message.
fn clip(id: &str) -> &str {
    id.char_indices().nth(64).map_or(id, |(at, _)| &id[..at])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tasks() -> Arc<Tasks> {
        Tasks::new(TaskOptions { max_per_client: 1, ttl: Duration::from_millis(1), ..TaskOptions::default() }).unwrap()
    }

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.into()).unwrap()
    }

    async fn create(tasks: &Arc<Tasks>, owner: Option<&str>) -> TaskRecord {
        let caller = owner.map(|o| Arc::new(mcp_wit_protocol::auth::Caller::new("https://as", o, None, [])));
        let who = (caller, owner.map(str::to_owned));
        let request = (raw("1"), raw(r#"{"name":"t"}"#));
        tasks.create(who, &TaskOffer::default(), (Canceller::default(), "1".into()), request, None).await.unwrap()
    }

    #[tokio::test]
    async fn a_task_is_seen_only_by_its_owner_and_ids_are_unguessable() {
        let tasks = tasks();
        let task = create(&tasks, Some("alice")).await;
        assert_eq!(task.id.len(), 22);
        let alice = "https://as\nalice";
        assert!(tasks.get(Some(alice), &task.id).await.is_ok());
        let error = tasks.get(Some("https://as\nbob"), &task.id).await.unwrap_err();
        assert_eq!(error.code, -32602);
        let unknown = tasks.get(Some(alice), "nope").await.unwrap_err();
        assert_eq!(error.message, unknown.message.replace("nope", &task.id));
        assert!(tasks.get(None, &task.id).await.is_err());
    }

    #[tokio::test]
    async fn each_client_has_room_for_so_many_unfinished_tasks() {
        let tasks = tasks();
        let task = create(&tasks, None).await;
        assert!(!tasks.has_room_for(None).await.unwrap());
        assert!(tasks.has_room_for(Some("bob")).await.unwrap());
        tasks.cancel(None, &task.id).await.unwrap();
        assert!(tasks.has_room_for(None).await.unwrap(), "a cancelled task is over");
        tokio::time::sleep(Duration::from_millis(5)).await;
        assert_eq!(tasks.store.reap(), 1, "and, past its time to live, forgotten");
    }

    #[tokio::test]
    async fn a_cancelled_task_ends_cancelled_and_stays_so() {
        let tasks = tasks();
        let task = create(&tasks, None).await;
        tasks.cancel(None, &task.id).await.unwrap();
        assert_eq!(tasks.get(None, &task.id).await.unwrap().status, TaskStatus::Cancelled);
        tasks.cancel(None, &task.id).await.unwrap();
        assert_eq!(tasks.counts().await[4], (TaskStatus::Cancelled, 1));
    }

    #[tokio::test]
    async fn a_working_task_whose_lease_lapsed_fails_saying_why() {
        let tasks = tasks();
        let task = create(&tasks, None).await;
        assert_eq!(tasks.get(None, &task.id).await.unwrap().status, TaskStatus::Working);
        // As if its replica had died: no lease.
        tasks.store.renew(&task.id, "gone", Duration::ZERO).await.unwrap();
        let lost = tasks.get(None, &task.id).await.unwrap();
        assert_eq!(lost.status, TaskStatus::Failed);
        assert!(lost.status_message.unwrap().contains("stopped before it ended"));
    }

    #[test]
    fn answers_resume_the_call_with_the_rounds_state() {
        let first = raw(r#"{"name":"t","requestState":"old"}"#);
        let answers = serde_json::from_str(r#"{"q":{"action":"accept"}}"#).unwrap();
        let params: Value = serde_json::from_str(resumed_params(&first, answers, Some("s".into())).get()).unwrap();
        assert_eq!(params["requestState"], "s");
        assert_eq!(params["inputResponses"]["q"]["action"], "accept");
        assert_eq!(params["name"], "t");
    }
}
