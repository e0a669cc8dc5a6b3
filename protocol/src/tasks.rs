//! What the core knows of the tasks extension (`io.modelcontextprotocol/tasks`,
//! 2026-07-28): its methods, its -32021, and the [`TaskOffer`] through which
//! a request being served may become a task while it runs. Where tasks are
//! kept and how they are driven is the host's (`mcp_wit::tasks`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Instant;

use crate::jsonrpc::{RpcError, code};

/// The extension's identifier, in `capabilities.extensions`.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// A method of the extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskMethod {
    /// `tasks/get`: the task, with its result, error or questions by status.
    Get,
    /// `tasks/update`: answers to the task's questions.
    Update,
    /// `tasks/cancel`: stops the task.
    Cancel,
}

impl TaskMethod {
    /// The method called `name` on the wire. (`tasks/result` and
    /// `tasks/list`, of the 2025 experimental form, are not methods here:
    /// they get -32601 as any unknown method.)
    pub fn parse(name: &str) -> Option<TaskMethod> {
        match name {
            "tasks/get" => Some(TaskMethod::Get),
            "tasks/update" => Some(TaskMethod::Update),
            "tasks/cancel" => Some(TaskMethod::Cancel),
            _ => None,
        }
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskMethod::Get => "tasks/get",
            TaskMethod::Update => "tasks/update",
            TaskMethod::Cancel => "tasks/cancel",
        }
    }
}

/// -32021 for a client that did not declare the extension: to `tasks/*`,
/// and to a call of a tool that runs only as a task.
pub fn missing_tasks_extension(what: &str) -> RpcError {
    RpcError {
        code: code::MISSING_REQUIRED_CLIENT_CAPABILITY,
        message: format!(
            "Missing required client capability: {what} needs the tasks extension (declare \
             `extensions[\"{TASKS_EXTENSION}\"]` in `clientCapabilities`)"
        ),
        data: Some(serde_json::json!({ "requiredCapabilities": { "extensions": { TASKS_EXTENSION: {} } } })),
    }
}

/// A request's way to become a task while it runs, offered by the transport
/// when its client declared the extension and the tool's policy allows one.
/// The router takes it (`client.run-as-task`), or the host does when the
/// policy says so; whoever serves the request then answers with the task and
/// lets the call run on under [`TaskOffer::deadline`]. Cheap to clone.
#[derive(Clone, Default)]
pub struct TaskOffer {
    inner: Arc<Offer>,
}

#[derive(Default)]
struct Offer {
    taken: AtomicBool,
    waker: Mutex<Option<Waker>>,
    /// Once a task: when its call must end, instead of the request's own
    /// deadline.
    deadline: OnceLock<Instant>,
}

impl TaskOffer {
    /// Takes the offer: the request becomes a task. `false` when it was taken
    /// already.
    pub fn take(&self) -> bool {
        let first = !self.inner.taken.swap(true, Ordering::AcqRel);
        if first && let Some(waker) = self.inner.waker.lock().unwrap_or_else(PoisonError::into_inner).take() {
            waker.wake();
        }
        first
    }

    /// Whether it was taken.
    pub fn is_taken(&self) -> bool {
        self.inner.taken.load(Ordering::Acquire)
    }

    /// Ready once the offer is taken.
    pub fn taken(&self) -> impl Future<Output = ()> + Send + 'static {
        let offer = self.clone();
        std::future::poll_fn(move |cx: &mut Context<'_>| {
            if offer.is_taken() {
                return Poll::Ready(());
            }
            *offer.inner.waker.lock().unwrap_or_else(PoisonError::into_inner) = Some(cx.waker().clone());
            // Taken between the check and the waker's registration.
            if offer.is_taken() { Poll::Ready(()) } else { Poll::Pending }
        })
    }

    /// Gives the call, now a task, until `deadline` (set once).
    pub fn extend_deadline(&self, deadline: Instant) {
        let _ = self.inner.deadline.set(deadline);
    }

    /// The task's deadline, once the request is one.
    pub fn deadline(&self) -> Option<Instant> {
        self.inner.deadline.get().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offer_is_taken_once_and_wakes_its_waiter() {
        let offer = TaskOffer::default();
        let mut taken = std::pin::pin!(offer.taken());
        let waker = Waker::noop();
        assert!(taken.as_mut().poll(&mut Context::from_waker(waker)).is_pending());
        assert!(offer.clone().take());
        assert!(!offer.take(), "taken already");
        assert!(taken.as_mut().poll(&mut Context::from_waker(waker)).is_ready());
        assert_eq!(offer.deadline(), None);
        let at = Instant::now();
        offer.extend_deadline(at);
        offer.extend_deadline(at + std::time::Duration::from_secs(1));
        assert_eq!(offer.deadline(), Some(at), "set once");
    }

    #[test]
    fn the_missing_extension_error_names_it_in_its_data() {
        let error = missing_tasks_extension("tasks/get");
        assert_eq!(error.code, -32021);
        assert_eq!(error.data.unwrap()["requiredCapabilities"]["extensions"][TASKS_EXTENSION], serde_json::json!({}));
        assert_eq!(TaskMethod::parse("tasks/result"), None);
        assert_eq!(TaskMethod::parse("tasks/cancel").map(TaskMethod::as_str), Some("tasks/cancel"));
    }
}
