//! Tasks kept in a Redis-protocol server (Redis, Valkey), shared by the
//! replicas behind one load balancer: a task created on one is polled,
//! answered and cancelled through any other.
//!
//! Keys, under the store's prefix:
//! - `task:{id}`: the task as JSON, expiring when it is to be forgotten;
//! - `lease:{id}`: the replica running its call, while it runs (renewed
//!   every [`super::service::WATCH_EVERY`]; a task still working without a lease
//!   lost its replica);
//! - `client:{key}`: the client's unfinished tasks, a sorted set scored by
//!   deadline (an entry past it no longer counts).
//!
//! A change is a compare-and-set of the whole task (a Lua script): a
//! change based on what another replica has changed since is applied again
//! to the newer task.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::AsyncCommands as _;
use redis::aio::ConnectionManager;
use tokio::sync::OnceCell;

use super::record::TaskStatus;
use super::store::{StoreFuture, StoreResult, StoredTask, TaskStore};

/// Sets `KEYS[1]` to `ARGV[2]` (for `ARGV[3]` ms) if it still holds `ARGV[1]`.
const COMPARE_AND_SET: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0";

/// How often a change is tried again when other replicas keep changing the
/// task under it.
const MAX_ATTEMPTS: usize = 32;

/// Most tasks a scrape counts by status (a `SCAN` of the store).
const MAX_COUNTED: usize = 100_000;

/// Tasks in a Redis-protocol server at a `redis://` (or `rediss://`) URL.
pub struct RedisStore {
    client: redis::Client,
    /// Connected on first use, then reconnecting by itself.
    connection: OnceCell<ConnectionManager>,
    prefix: String,
    /// Where it is, for messages (without credentials).
    shown: String,
    compare_and_set: redis::Script,
}

impl RedisStore {
    /// A store at `url`, its keys under `prefix` (e.g. `mcp-wit:`); the error
    /// says what is wrong with the URL.
    pub fn new(url: &str, prefix: &str) -> Result<RedisStore, String> {
        let client = redis::Client::open(url).map_err(|e| format!("--task-store {}: {e}", shown(url)))?;
        Ok(RedisStore {
            client,
            connection: OnceCell::new(),
            prefix: prefix.to_owned(),
            shown: shown(url),
            compare_and_set: redis::Script::new(COMPARE_AND_SET),
        })
    }

    async fn connection(&self) -> StoreResult<ConnectionManager> {
        self.connection
            .get_or_try_init(|| ConnectionManager::new(self.client.clone()))
            .await
            .cloned()
            .map_err(|e| self.failed(&e))
    }

    fn failed(&self, error: &redis::RedisError) -> String {
        format!("the task store at {} did not answer: {error}", self.shown)
    }

    fn key(&self, kind: &str, id: &str) -> String {
        format!("{}{kind}:{id}", self.prefix)
    }

    fn client_key(&self, client: Option<&str>) -> String {
        self.key("client", client.unwrap_or("-"))
    }

    async fn read(&self, id: &str) -> StoreResult<Option<(String, StoredTask)>> {
        let mut connection = self.connection().await?;
        let text: Option<String> = connection.get(self.key("task", id)).await.map_err(|e| self.failed(&e))?;
        let Some(text) = text else { return Ok(None) };
        let task = serde_json::from_str(&text)
            .map_err(|e| format!("task {id} in the task store at {} does not read: {e}", self.shown))?;
        Ok(Some((text, task)))
    }

    /// Keeps the client's count of unfinished tasks in step with `task`.
    async fn count_for_client(&self, task: &StoredTask) -> StoreResult<()> {
        let mut connection = self.connection().await?;
        let key = self.client_key(task.client.as_deref());
        let id = &task.record.id;
        let done: redis::RedisResult<()> = match task.record.status.is_terminal() {
            true => connection.zrem(&key, id).await,
            false => connection.zadd(&key, id, task.deadline_ms).await,
        };
        done.map_err(|e| self.failed(&e))
    }
}

/// `url` without its password.
fn shown(url: &str) -> String {
    match url.split_once('@') {
        Some((start, host)) => match start.split_once("://") {
            Some((scheme, _)) => format!("{scheme}://…@{host}"),
            None => format!("…@{host}"),
        },
        None => url.to_owned(),
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX).max(1)
}

impl TaskStore for RedisStore {
    fn check(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let mut connection = self.connection().await?;
            let _: String = redis::cmd("PING").query_async(&mut connection).await.map_err(|e| self.failed(&e))?;
            Ok(())
        })
    }

    fn insert<'a>(&'a self, task: &'a StoredTask) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let text = serde_json::to_string(task).expect("a task serialises");
            let mut connection = self.connection().await?;
            let key = self.key("task", &task.record.id);
            let () = connection.pset_ex(key, text, millis(task.keep_for())).await.map_err(|e| self.failed(&e))?;
            self.count_for_client(task).await
        })
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTask>> {
        Box::pin(async move { Ok(self.read(id).await?.map(|(_, task)| task)) })
    }

    fn update<'a>(
        &'a self,
        id: &'a str,
        change: &'a (dyn Fn(&mut StoredTask) -> bool + Send + Sync),
    ) -> StoreFuture<'a, Option<StoredTask>> {
        Box::pin(async move {
            for _ in 0..MAX_ATTEMPTS {
                let Some((before, mut task)) = self.read(id).await? else { return Ok(None) };
                if !change(&mut task) {
                    return Ok(Some(task));
                }
                let after = serde_json::to_string(&task).expect("a task serialises");
                let mut connection = self.connection().await?;
                let set: i64 = self
                    .compare_and_set
                    .key(self.key("task", id))
                    .arg(before)
                    .arg(after)
                    .arg(millis(task.keep_for()))
                    .invoke_async(&mut connection)
                    .await
                    .map_err(|e| self.failed(&e))?;
                if set == 1 {
                    self.count_for_client(&task).await?;
                    return Ok(Some(task));
                }
            }
            Err(format!("task {id} kept changing in the task store at {} while this replica changed it", self.shown))
        })
    }

    fn renew<'a>(&'a self, id: &'a str, replica: &'a str, lease: Duration) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut connection = self.connection().await?;
            connection.pset_ex(self.key("lease", id), replica, millis(lease)).await.map_err(|e| self.failed(&e))
        })
    }

    fn leased<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut connection = self.connection().await?;
            connection.exists(self.key("lease", id)).await.map_err(|e| self.failed(&e))
        })
    }

    fn unfinished<'a>(&'a self, client: Option<&'a str>) -> StoreFuture<'a, usize> {
        Box::pin(async move {
            let mut connection = self.connection().await?;
            let key = self.client_key(client);
            let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_millis() as u64;
            // Past their deadline, tasks count no more (their replica may have
            // died before it could say they ended).
            let (_, count): (i64, usize) = redis::pipe()
                .zrembyscore(&key, "-inf", format!("({now}"))
                .zcard(&key)
                .query_async(&mut connection)
                .await
                .map_err(|e| self.failed(&e))?;
            Ok(count)
        })
    }

    fn counts(&self) -> StoreFuture<'_, [(TaskStatus, usize); 5]> {
        Box::pin(async move {
            let mut connection = self.connection().await?;
            let pattern = self.key("task", "*");
            let mut keys: Vec<String> = Vec::new();
            {
                let mut scan = connection.scan_match::<_, String>(&pattern).await.map_err(|e| self.failed(&e))?;
                while let Some(key) = scan.next_item().await {
                    keys.push(key.map_err(|e| self.failed(&e))?);
                    if keys.len() == MAX_COUNTED {
                        break;
                    }
                }
            }
            let mut counts = TaskStatus::ALL.map(|status| (status, 0));
            for chunk in keys.chunks(256) {
                let texts: Vec<Option<String>> = connection.mget(chunk).await.map_err(|e| self.failed(&e))?;
                for task in texts.iter().flatten().filter_map(|text| serde_json::from_str::<StoredTask>(text).ok()) {
                    if let Some(entry) = counts.iter_mut().find(|(status, _)| *status == task.record.status) {
                        entry.1 += 1;
                    }
                }
            }
            Ok(counts)
        })
    }

    fn reap(&self) -> usize {
        // Keys expire by themselves.
        0
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn urls_are_shown_without_their_password() {
        assert_eq!(super::shown("redis://user:secret@127.0.0.1:6379/0"), "redis://…@127.0.0.1:6379/0");
        assert_eq!(super::shown("redis://127.0.0.1"), "redis://127.0.0.1");
    }
}
