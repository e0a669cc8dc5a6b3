//! Long tool calls as tasks: the tasks extension of 2026-07-28
//! (`io.modelcontextprotocol/tasks`).
//!
//! A transport that serves tasks asks `TaskPolicies::decide` what becomes
//! of each `tools/call`; one that may become a task runs with a
//! [`TaskOffer`](mcp_wit_protocol::tasks::TaskOffer), which the host takes
//! when the tool's policy says (at once, or once the call has run a while)
//! and the router may take itself (`client.run-as-task`). The client then
//! gets the task at once, and its call runs on under the task's own
//! deadline; `Tasks` keeps it, answers `tasks/get`, runs it again with
//! the answers `tasks/update` brings to its questions (each run a
//! 2026-07-28 round, as any call's), stops it on `tasks/cancel`, and
//! forgets it once its time to live is over. Tasks are kept in a
//! `TaskStore`: in this process, or in a Redis-protocol server that
//! replicas share (a task's call runs on the replica that holds it, under a
//! lease the others watch).

mod policy;
mod record;
mod redis_store;
mod run;
mod service;
mod store;

pub use policy::{DEFAULT_TASK_POLICY, TaskPolicies, TaskPolicy};
pub use service::{MAX_TASK_TIMEOUT, TaskOptions, TaskStoreOption};

pub(crate) use policy::TaskDecision;
pub(crate) use redis_store::RedisStore;
pub(crate) use run::{answer_method, last_message, response, task_result, too_many};
pub(crate) use service::{Rerun, Running, Tasks};
