//! Where tasks are kept: a [`TaskStore`], in this process
//! ([`MemoryStore`], the default) or in a Redis-protocol server shared by
//! replicas ([`super::RedisStore`]).

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::value::RawValue;

use mcp_wit_protocol::auth::Caller;

use super::record::{TaskRecord, TaskStatus};
use crate::sync::lock;

/// What a store answers with: the answer, or why the store could not be
/// reached (told to the client as -32603).
pub type StoreResult<T> = Result<T, String>;

/// A store's answer, to be awaited.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = StoreResult<T>> + Send + 'a>>;

/// A task as kept: what `tasks/get` shows, and what any replica needs to run
/// its call again (the first run's request and caller, the deadline).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct StoredTask {
    /// The task.
    pub record: TaskRecord,
    /// Who counts it against their limit.
    pub client: Option<String>,
    /// The first run's request id and params.
    pub request_id: Box<RawValue>,
    /// The first run's params.
    pub params: Box<RawValue>,
    /// Who made the request, when requests are authenticated.
    pub caller: Option<Caller>,
    /// When its call must end, in milliseconds since the Unix epoch.
    pub deadline_ms: u64,
    /// The replica that runs its call now, if one does.
    pub runner: Option<String>,
    /// The W3C trace context the first request came with (`traceparent`,
    /// `tracestate`): each run's span joins that trace.
    #[serde(default)]
    pub trace: Option<(String, Option<String>)>,
}

impl StoredTask {
    /// How long the store keeps it from now: until its deadline and time
    /// to live are over (once over, its time to live from its end).
    pub fn keep_for(&self) -> Duration {
        let record = &self.record;
        let until = match record.status.is_terminal() {
            true => record.updated + record.ttl,
            false => UNIX_EPOCH + Duration::from_millis(self.deadline_ms) + record.ttl,
        };
        until.duration_since(SystemTime::now()).unwrap_or_default().max(Duration::from_millis(1))
    }
}

/// Where tasks are kept. Changes go through [`TaskStore::update`], which
/// applies a change to the task as it is now (a replica may have changed it
/// since it was read). Running calls hold a lease ([`TaskStore::renew`]):
/// a task still `working` whose lease lapsed lost its replica.
pub trait TaskStore: Send + Sync {
    /// Reaches the store, so that one that cannot be reached stops the
    /// start rather than the first task.
    fn check(&self) -> StoreFuture<'_, ()>;

    /// Keeps a new task.
    fn insert<'a>(&'a self, task: &'a StoredTask) -> StoreFuture<'a, ()>;

    /// Task `id`, if kept.
    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTask>>;

    /// Applies `change` to task `id` as it is now; the task as changed, or
    /// `None` when it is not kept. `change` returns whether it changed
    /// anything (else nothing is written).
    fn update<'a>(
        &'a self,
        id: &'a str,
        change: &'a (dyn Fn(&mut StoredTask) -> bool + Send + Sync),
    ) -> StoreFuture<'a, Option<StoredTask>>;

    /// Holds `replica`'s lease on running task `id` for `lease` more.
    fn renew<'a>(&'a self, id: &'a str, replica: &'a str, lease: Duration) -> StoreFuture<'a, ()>;

    /// Whether a replica holds a lease on task `id`.
    fn leased<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool>;

    /// How many tasks `client` has unfinished.
    fn unfinished<'a>(&'a self, client: Option<&'a str>) -> StoreFuture<'a, usize>;

    /// How many tasks are in each status (of those this store can count).
    fn counts(&self) -> StoreFuture<'_, [(TaskStatus, usize); 5]>;

    /// Forgets the tasks kept past their time (a store that expires them
    /// itself does nothing); how many.
    fn reap(&self) -> usize;
}

/// Tasks kept in this process: one server's, lost with it.
#[derive(Default)]
pub struct MemoryStore {
    tasks: Mutex<HashMap<String, (StoredTask, SystemTime)>>,
    leases: Mutex<HashMap<String, SystemTime>>,
}

impl MemoryStore {
    fn ready<'a, T: Send + 'a>(value: T) -> StoreFuture<'a, T> {
        Box::pin(std::future::ready(Ok(value)))
    }
}

impl TaskStore for MemoryStore {
    fn check(&self) -> StoreFuture<'_, ()> {
        Self::ready(())
    }

    fn insert<'a>(&'a self, task: &'a StoredTask) -> StoreFuture<'a, ()> {
        let until = SystemTime::now() + task.keep_for();
        lock(&self.tasks).insert(task.record.id.clone(), (task.clone(), until));
        Self::ready(())
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTask>> {
        let now = SystemTime::now();
        Self::ready(lock(&self.tasks).get(id).filter(|(_, until)| *until > now).map(|(task, _)| task.clone()))
    }

    fn update<'a>(
        &'a self,
        id: &'a str,
        change: &'a (dyn Fn(&mut StoredTask) -> bool + Send + Sync),
    ) -> StoreFuture<'a, Option<StoredTask>> {
        let mut tasks = lock(&self.tasks);
        let changed = tasks.get_mut(id).map(|(task, until)| {
            if change(task) {
                *until = SystemTime::now() + task.keep_for();
            }
            task.clone()
        });
        Self::ready(changed)
    }

    fn renew<'a>(&'a self, id: &'a str, _replica: &'a str, lease: Duration) -> StoreFuture<'a, ()> {
        lock(&self.leases).insert(id.to_owned(), SystemTime::now() + lease);
        Self::ready(())
    }

    fn leased<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        let now = SystemTime::now();
        Self::ready(lock(&self.leases).get(id).is_some_and(|until| *until > now))
    }

    fn unfinished<'a>(&'a self, client: Option<&'a str>) -> StoreFuture<'a, usize> {
        let tasks = lock(&self.tasks);
        let count = tasks
            .values()
            .filter(|(task, _)| task.client.as_deref() == client && !task.record.status.is_terminal())
            .count();
        Self::ready(count)
    }

    fn counts(&self) -> StoreFuture<'_, [(TaskStatus, usize); 5]> {
        let tasks = lock(&self.tasks);
        let counts =
            TaskStatus::ALL.map(|status| (status, tasks.values().filter(|(t, _)| t.record.status == status).count()));
        Self::ready(counts)
    }

    fn reap(&self) -> usize {
        let now = SystemTime::now();
        let mut tasks = lock(&self.tasks);
        let before = tasks.len();
        tasks.retain(|_, (_, until)| *until > now);
        lock(&self.leases).retain(|_, until| *until > now);
        before - tasks.len()
    }
}
