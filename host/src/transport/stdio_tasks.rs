//! The tasks extension on stdio (see [`crate::tasks`]): 2026-07-28
//! `tools/call`s that may become tasks, and `tasks/get`, `tasks/update` and
//! `tasks/cancel`, answered beside the connection's session.
//!
//! The stdio loop is one thread, and its session's calls block it. A call
//! that may become a task therefore runs as a 2026-07-28 request of its own
//! (its own instance, blocking calls) on a thread of its own. The loop waits
//! for it until it ends, or until it becomes a task (the tool's policy, or
//! its router asking). In the second case the loop answers with the task and
//! goes back to reading, while the call runs on. The tasks live in
//! [`Tasks`], driven on a small runtime of their own.

use std::io;
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use memchr::memmem::Finder;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::oneshot;

use mcp_wit_protocol::jsonrpc::{self, Incoming, RpcError};
use mcp_wit_protocol::tasks::{TASKS_EXTENSION, TaskMethod, TaskOffer, missing_tasks_extension};
use mcp_wit_protocol::{CallMode, Envelope, Outbox, SessionOptions};

use crate::tasks::{
    Rerun, Running, TaskDecision, TaskOptions, TaskPolicy, Tasks, answer_method, last_message, response, task_result,
    too_many,
};
use crate::{Routers, StatelessRequest};

/// How often the loop looks whether a call it waits for became a task (or
/// was cancelled).
const LOOK_EVERY: Duration = Duration::from_millis(5);

/// The stdio loop's input, as a call it waits for sees it.
pub(super) struct ReadAhead<'a> {
    /// Reads what input is ready, without blocking (the session's tick
    /// hook); a `notifications/cancelled` among it goes to `canceller`.
    pub read: &'a (dyn Fn() + Send + Sync),
    /// The session's canceller, which keeps what it was told of requests
    /// it does not run.
    pub canceller: &'a mcp_wit_protocol::Canceller,
}

impl ReadAhead<'_> {
    /// Whether the client cancelled request `id` (its raw JSON id) by now.
    fn cancelled(&self, id: &str) -> bool {
        (self.read)();
        self.canceller.take_cancelled(id)
    }
}

/// The tasks of a stdio connection.
pub struct StdioTasks {
    tasks: Arc<Tasks>,
    routers: Routers,
    options: SessionOptions,
    /// Started with the first task's business: a connection that makes no
    /// task starts no thread for it.
    runtime: std::sync::OnceLock<tokio::runtime::Runtime>,
    /// Whether some tool runs only as a task: then every 2026-07-28 call is
    /// looked at (a client without the extension gets -32021 for it).
    any_required: bool,
}

impl std::fmt::Debug for StdioTasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StdioTasks").field("options", self.tasks.options()).finish_non_exhaustive()
    }
}

impl StdioTasks {
    /// Tasks made as `options` says, of calls to `routers`, served with
    /// `session` options (those of the connection's session).
    pub fn new(options: TaskOptions, routers: Routers, session: SessionOptions) -> io::Result<StdioTasks> {
        let any_required = options.policies.mentions(TaskPolicy::Required);
        let remote = options.store != crate::tasks::TaskStoreOption::InProcess;
        let tasks = Tasks::new(options).map_err(io::Error::other)?;
        let stdio = StdioTasks { tasks, routers, options: session, runtime: Default::default(), any_required };
        if remote {
            // A store that cannot be reached stops the start, not the first task.
            stdio.runtime()?.block_on(stdio.tasks.check()).map_err(io::Error::other)?;
        }
        Ok(stdio)
    }

    fn runtime(&self) -> io::Result<&tokio::runtime::Runtime> {
        if let Some(runtime) = self.runtime.get() {
            return Ok(runtime);
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("mcp-wit-tasks")
            .enable_all()
            .build()?;
        Ok(self.runtime.get_or_init(|| runtime))
    }

    /// Serves `message` when it is the extension's business, writing its
    /// answer to `out`; `false` when the session serves it.
    pub(super) fn serve(&self, message: &[u8], out: &mut dyn Outbox, ahead: &ReadAhead<'_>) -> bool {
        // Most messages are not: a substring decides, without parsing (the
        // searchers built once: building one costs more than a search).
        // Both of a task's marks hold `tasks`: a message without it is
        // searched once.
        static TASKS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"tasks"));
        static METHOD: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"tasks/"));
        static DECLARED: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(TASKS_EXTENSION.as_bytes()));
        static CALL: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"tools/call\""));
        let found = |finder: &Finder<'_>| finder.find(message).is_some();
        let marked = found(&TASKS) && (found(&METHOD) || found(&DECLARED));
        if !(marked || (self.any_required && found(&CALL))) {
            return false;
        }
        let Ok(Incoming::Request { id, method, params }) = jsonrpc::parse(message) else { return false };
        let Ok(Some(envelope)) = Envelope::read(params) else { return false };
        let runtime = match self.runtime() {
            Ok(runtime) => runtime,
            Err(e) => {
                reply(out, id, Err(RpcError::internal(format!("cannot start the tasks' runtime: {e}"))));
                return true;
            }
        };
        let _entered = runtime.enter();
        if let Some(task_method) = TaskMethod::parse(&method) {
            let answer = self.task_method(task_method, params, &envelope);
            reply(out, id, answer);
            return true;
        }
        if method != "tools/call" {
            return false;
        }
        #[derive(Deserialize)]
        struct Named<'a> {
            #[serde(borrow)]
            name: std::borrow::Cow<'a, str>,
        }
        let Some(tool) = params.and_then(|p| serde_json::from_str::<Named<'_>>(p.get()).ok()) else { return false };
        let policies = &self.tasks.options().policies;
        match policies.decide(&tool.name, envelope.client_declares(TASKS_EXTENSION)) {
            TaskDecision::Plain => false,
            TaskDecision::Refuse => {
                reply(out, id, Err(missing_tasks_extension(&format!("tool `{}`", tool.name))));
                true
            }
            TaskDecision::MayBecomeTask { after, required } => {
                self.call(id, params, (after, required), (out, ahead));
                true
            }
        }
    }

    /// The runtime, started by [`Self::serve`] before anything uses it.
    fn rt(&self) -> &tokio::runtime::Runtime {
        self.runtime.get().expect("started before use")
    }

    fn task_method(
        &self,
        method: TaskMethod,
        params: Option<&RawValue>,
        envelope: &Envelope,
    ) -> Result<Value, RpcError> {
        if !envelope.client_declares(TASKS_EXTENSION) {
            return Err(missing_tasks_extension(method.as_str()));
        }
        // The one client of the connection owns every task it made.
        let again = |rerun, offer| self.run(rerun, offer);
        self.rt().block_on(answer_method(&self.tasks, None, method, params, &again))
    }

    /// A `tools/call` that may become a task (see the module's documentation).
    /// A cancellation that comes before it is one stops it, unanswered.
    fn call(
        &self,
        id: &RawValue,
        params: Option<&RawValue>,
        (after, required): (Duration, bool),
        (out, ahead): (&mut dyn Outbox, &ReadAhead<'_>),
    ) {
        let offer = TaskOffer::default();
        let room = |tasks: &Tasks| matches!(self.rt().block_on(tasks.has_room_for(None)), Ok(true));
        if after.is_zero() {
            match room(&self.tasks) {
                true => {
                    offer.take();
                }
                false if required => return reply(out, id, Err(too_many(&self.tasks))),
                false => {}
            }
        }
        // Made at once but no room for it: a plain call.
        let plain = after.is_zero() && !offer.is_taken();
        let offered = (!plain).then(|| offer.clone());
        let params =
            params.map_or_else(|| RawValue::from_string("{}".into()).expect("`{}` is JSON"), ToOwned::to_owned);
        let rerun = Rerun { caller: None, id: id.to_owned(), params: params.clone(), trace: None };
        let Running { canceller, id: raw_id, run } = self.start(rerun, offered);
        let (done, mut ended) = oneshot::channel();
        self.rt().spawn(async move {
            let _ = done.send(run.await);
        });
        let started = Instant::now();
        let mut cancelled = false;
        let last = loop {
            let waited = self.rt().block_on(async { tokio::time::timeout(LOOK_EVERY, &mut ended).await });
            if !cancelled && ahead.cancelled(&raw_id) {
                canceller.cancel(&raw_id);
                cancelled = true;
            }
            match waited {
                // Stopped as its client asked: no answer, as the spec says.
                Ok(_) if cancelled => return,
                Err(_) if cancelled => {}
                // Ended: a plain answer, unless it is a task already (its router asked).
                Ok(last) if !offer.is_taken() => break last.ok().flatten(),
                Ok(last) => {
                    let last = last.ok().flatten();
                    return self.made_task(
                        (canceller, raw_id),
                        (id, params),
                        &offer,
                        Box::pin(async move { last }),
                        out,
                    );
                }
                Err(_) if !plain && (offer.is_taken() || (after != Duration::MAX && started.elapsed() >= after)) => {
                    offer.take();
                    if after.is_zero() || room(&self.tasks) {
                        let run = Box::pin(async move { ended.await.ok().flatten() });
                        return self.made_task((canceller, raw_id), (id, params), &offer, run, out);
                    }
                    // No room: a plain call after all.
                    break self.rt().block_on(async { ended.await.ok().flatten() });
                }
                Err(_) => {}
            }
        };
        match last {
            Some(message) => out.send(&message),
            None => reply(out, id, Err(RpcError::internal("the call ended without an answer"))),
        }
    }

    /// Keeps the call as a task and answers with it.
    fn made_task(
        &self,
        running: (mcp_wit_protocol::Canceller, String),
        (id, params): (&RawValue, Box<RawValue>),
        offer: &TaskOffer,
        run: std::pin::Pin<Box<dyn Future<Output = Option<Vec<u8>>> + Send>>,
        out: &mut dyn Outbox,
    ) {
        let created =
            self.rt().block_on(self.tasks.create((None, None), offer, running, (id.to_owned(), params), None));
        match created {
            Ok(record) => {
                self.tasks.drive(record.id.clone(), run);
                reply(out, id, Ok(task_result(&record, "task")));
            }
            Err(error) => reply(out, id, Err(error)),
        }
    }

    /// Runs a task's call again (`tasks/update`), on a thread of its own.
    fn run(&self, rerun: Rerun, offer: TaskOffer) -> Running {
        self.start(rerun, Some(offer))
    }

    /// Starts request `rerun` as a 2026-07-28 request of its own, its guest
    /// calls blocking a thread of its own; its last message comes through
    /// the future it returns.
    fn start(&self, rerun: Rerun, offer: Option<TaskOffer>) -> Running {
        let Rerun { id, params, .. } = rerun;
        let mut request = StatelessRequest::new(self.routers.clone(), self.options.clone(), None);
        request.set_calls(CallMode::Blocking);
        if let Some(offer) = offer {
            request.offer_task(offer);
        }
        let canceller = request.canceller();
        let raw_id = id.get().to_owned();
        let (done, ended) = oneshot::channel();
        let spawned = std::thread::Builder::new().name("mcp-wit-task-call".into()).spawn(move || {
            let last = mcp_wit_protocol::block_on(last_message(request, &id, &params));
            let _ = done.send(last);
        });
        if let Err(e) = spawned {
            tracing::error!("cannot start a thread for a task's call: {e}");
        }
        Running { canceller, id: raw_id, run: Box::pin(async move { ended.await.ok().flatten() }) }
    }
}

/// Writes the response to request `id`.
fn reply(out: &mut dyn Outbox, id: &RawValue, answer: Result<Value, RpcError>) {
    out.send(&response(id, answer));
}
