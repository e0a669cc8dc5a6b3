//! [`Tasks`]: the tasks of one server, their runs, and the answers to
//! `tasks/get`, `tasks/update` and `tasks/cancel`.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use mcp_wit_protocol::tasks::TaskOffer;
use mcp_wit_protocol::{Canceller, RpcError};

use super::policy::TaskPolicies;
use super::record::{Ending, TaskRecord, TaskStatus};

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

/// Runs a task's call again with these params (the first run's, with the
/// answers and the round's state), under this offer (taken: the run is a
/// task's).
pub type Resume = Arc<dyn Fn(Box<RawValue>, TaskOffer) -> Running + Send + Sync>;

/// A task and what runs it.
struct Entry {
    record: TaskRecord,
    /// Who counts it against their limit (the principal, else the
    /// client's address).
    client: Option<String>,
    /// The running request's canceller and id, while a run is going.
    running: Option<(Canceller, String)>,
    /// The first run's params and how to run the call again.
    params: Box<RawValue>,
    resume: Resume,
    /// When its call must end.
    deadline: Instant,
}

/// The tasks of one server (kept in this process).
pub struct Tasks {
    options: TaskOptions,
    entries: Mutex<HashMap<String, Entry>>,
    /// Set once the reaper runs (from the first task on).
    reaping: std::sync::atomic::AtomicBool,
}

/// How often tasks over for longer than their time to live are forgotten.
const REAP_EVERY: Duration = Duration::from_secs(1);

impl Tasks {
    /// No tasks yet.
    pub fn new(options: TaskOptions) -> Arc<Tasks> {
        Arc::new(Tasks { options, entries: Mutex::new(HashMap::new()), reaping: Default::default() })
    }

    /// How tasks are made and kept.
    pub fn options(&self) -> &TaskOptions {
        &self.options
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether `client` (see [`Tasks::create`]) may start one more task.
    pub fn has_room_for(&self, client: Option<&str>) -> bool {
        let unfinished =
            self.entries().values().filter(|e| e.client.as_deref() == client && !e.record.status.is_terminal()).count();
        unfinished < self.options.max_per_client
    }

    /// Makes the running call a task of `owner` (the principal, when
    /// requests are authenticated: no one else sees it), counted against
    /// `client`'s limit: its deadline moves to the
    /// task's, and the task is kept before its client hears of it (an
    /// immediate `tasks/get` finds it). `params` and `resume` run it again
    /// with the answers to its questions. Returns the task as created;
    /// [`Tasks::drive`] then follows its run.
    pub fn create(
        self: &Arc<Self>,
        (owner, client): (Option<String>, Option<String>),
        offer: &TaskOffer,
        running: (Canceller, String),
        params: Box<RawValue>,
        resume: Resume,
    ) -> TaskRecord {
        let deadline = Instant::now() + self.options.timeout;
        offer.extend_deadline(deadline);
        let record = TaskRecord::new(new_task_id(), owner, self.options.ttl, self.options.poll_interval);
        let entry = Entry { record: record.clone(), client, running: Some(running), params, resume, deadline };
        self.entries().insert(record.id.clone(), entry);
        if !self.reaping.swap(true, std::sync::atomic::Ordering::Relaxed) {
            self.start_reaper();
        }
        record
    }

    /// Forgets expired tasks every [`REAP_EVERY`], while the server keeps
    /// its tasks.
    fn start_reaper(self: &Arc<Self>) {
        let tasks = Arc::downgrade(self);
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        runtime.spawn(async move {
            loop {
                tokio::time::sleep(REAP_EVERY).await;
                let Some(tasks) = tasks.upgrade() else { return };
                let reaped = tasks.reap();
                if reaped > 0 {
                    tracing::debug!(reaped, "forgot tasks past their time to live");
                }
            }
        });
    }

    /// Follows a run of task `id` to its end, in a task of its own.
    pub fn drive(self: &Arc<Self>, id: String, run: Pin<Box<dyn Future<Output = Option<Vec<u8>>> + Send>>) {
        let tasks = self.clone();
        tokio::spawn(async move {
            let last = run.await;
            let ending = Ending::read(last.as_deref());
            if let Some(entry) = tasks.entries().get_mut(&id) {
                entry.running = None;
                let was_over = entry.record.status.is_terminal();
                entry.record.end_run(ending);
                if !was_over {
                    ended(&entry.record);
                }
            }
        });
    }

    /// Task `id`, if `owner` may see it; -32602 otherwise, the same as for
    /// one that does not exist (an owner learns nothing of another's).
    pub fn get(&self, owner: Option<&str>, id: &str) -> Result<TaskRecord, RpcError> {
        self.with(owner, id, |entry| entry.record.clone())
    }

    /// Answers to task `id`'s questions; once all are answered, its call
    /// runs again with them.
    pub fn update(
        self: &Arc<Self>,
        owner: Option<&str>,
        id: &str,
        responses: Map<String, Value>,
    ) -> Result<(), RpcError> {
        let again = self.with(owner, id, |entry| {
            let (answers, state) = entry.record.answer(responses)?;
            let params = resumed_params(&entry.params, answers, state);
            let offer = TaskOffer::default();
            offer.take();
            offer.extend_deadline(entry.deadline);
            let running = (entry.resume)(params, offer);
            entry.running = Some((running.canceller.clone(), running.id.clone()));
            Some(running.run)
        })?;
        if let Some(run) = again {
            self.drive(id.to_string(), run);
        }
        Ok(())
    }

    /// Cancels task `id`: it ends `cancelled` at once, and its call, if
    /// running, stops at the next epoch tick. A task already over stays as
    /// it is (the cancel is acknowledged all the same).
    pub fn cancel(&self, owner: Option<&str>, id: &str) -> Result<(), RpcError> {
        self.with(owner, id, |entry| {
            if entry.record.status.is_terminal() {
                return;
            }
            entry.record.set_status(TaskStatus::Cancelled, Some("cancelled by its client".into()));
            ended(&entry.record);
            if let Some((canceller, request)) = entry.running.take() {
                canceller.cancel(&request);
            }
        })
    }

    /// Forgets the tasks over for longer than their time to live.
    pub fn reap(&self) -> usize {
        let now = SystemTime::now();
        let mut entries = self.entries();
        let before = entries.len();
        entries.retain(|_, entry| {
            let record = &entry.record;
            !record.status.is_terminal() || record.updated + record.ttl > now
        });
        before - entries.len()
    }

    /// How many tasks are in each status.
    pub fn counts(&self) -> [(TaskStatus, usize); 5] {
        let entries = self.entries();
        TaskStatus::ALL.map(|status| (status, entries.values().filter(|e| e.record.status == status).count()))
    }

    fn with<T>(&self, owner: Option<&str>, id: &str, f: impl FnOnce(&mut Entry) -> T) -> Result<T, RpcError> {
        let mut entries = self.entries();
        match entries.get_mut(id).filter(|entry| entry.record.owner.as_deref() == owner) {
            Some(entry) => Ok(f(entry)),
            None => Err(RpcError::invalid_params(format!("unknown task {:?} (it may have expired)", clip(id)))),
        }
    }
}

/// Counts a task that just ended in the metrics.
fn ended(record: &TaskRecord) {
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
        Tasks::new(TaskOptions { max_per_client: 1, ttl: Duration::ZERO, ..TaskOptions::default() })
    }

    fn resume() -> Resume {
        Arc::new(|_, _| Running { canceller: Canceller::default(), id: "1".into(), run: Box::pin(async { None }) })
    }

    fn create(tasks: &Arc<Tasks>, owner: Option<&str>) -> TaskRecord {
        let params = RawValue::from_string(r#"{"name":"t"}"#.into()).unwrap();
        let who = (owner.map(str::to_owned), owner.map(str::to_owned));
        tasks.create(who, &TaskOffer::default(), (Canceller::default(), "1".into()), params, resume())
    }

    #[test]
    fn a_task_is_seen_only_by_its_owner_and_ids_are_unguessable() {
        let tasks = tasks();
        let task = create(&tasks, Some("alice"));
        assert_eq!(task.id.len(), 22);
        assert!(tasks.get(Some("alice"), &task.id).is_ok());
        let error = tasks.get(Some("bob"), &task.id).unwrap_err();
        assert_eq!(error.code, -32602);
        assert_eq!(error.message, tasks.get(Some("bob"), "nope").unwrap_err().message.replace("nope", &task.id));
        assert!(tasks.get(None, &task.id).is_err());
    }

    #[test]
    fn each_client_has_room_for_so_many_unfinished_tasks() {
        let tasks = tasks();
        let task = create(&tasks, Some("alice"));
        assert!(!tasks.has_room_for(Some("alice")));
        assert!(tasks.has_room_for(Some("bob")));
        tasks.cancel(Some("alice"), &task.id).unwrap();
        assert!(tasks.has_room_for(Some("alice")), "a cancelled task is over");
        assert_eq!(tasks.reap(), 1, "and, past its time to live, forgotten");
    }

    #[test]
    fn a_cancelled_task_ends_cancelled_and_stays_so() {
        let tasks = tasks();
        let task = create(&tasks, None);
        tasks.cancel(None, &task.id).unwrap();
        assert_eq!(tasks.get(None, &task.id).unwrap().status, TaskStatus::Cancelled);
        tasks.cancel(None, &task.id).unwrap();
        assert_eq!(tasks.counts()[4], (TaskStatus::Cancelled, 1));
    }

    #[test]
    fn answers_resume_the_call_with_the_rounds_state() {
        let first = RawValue::from_string(r#"{"name":"t","requestState":"old"}"#.into()).unwrap();
        let answers = serde_json::from_str(r#"{"q":{"action":"accept"}}"#).unwrap();
        let params: Value = serde_json::from_str(resumed_params(&first, answers, Some("s".into())).get()).unwrap();
        assert_eq!(params["requestState"], "s");
        assert_eq!(params["inputResponses"]["q"]["action"], "accept");
        assert_eq!(params["name"], "t");
    }
}
