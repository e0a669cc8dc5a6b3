//! The tasks extension over HTTP (see [`crate::tasks`]): a `tools/call`
//! that may become a task, and `tasks/get`, `tasks/update` and
//! `tasks/cancel`.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::response::Response;
use futures_util::FutureExt;
use serde_json::value::RawValue;

use mcp_wit_protocol::http::{Framing, outcome_status};
use mcp_wit_protocol::observe::TraceContext;
use mcp_wit_protocol::tasks::{TASKS_EXTENSION, TaskMethod, TaskOffer, missing_tasks_extension};
use mcp_wit_protocol::{Admitted, Envelope};

use super::answer::{CancelOnDrop, Handled, whole_answer};
use super::auth::RequestCaller;
use super::state::ServerState;
use super::wire::{self, rejected};
use crate::StatelessRequest;
use crate::tasks::{Rerun, Running, Tasks, answer_method, last_message, response, task_result, too_many};

/// A `tools/call` that may become a task: at once (`after` zero), once it
/// has run `after`, or when its router asks; until then it is an ordinary
/// call, answered as such if it ends first. Most calls end within their
/// first poll, which runs here, as the plain path's does: no task of its
/// own, no timer, no look at the store. A client with too many unfinished
/// tasks gets a plain call (or, for a tool that runs only as a task,
/// `required`, an error saying so).
pub(super) async fn call(
    tasks: &Arc<Tasks>,
    caller: &RequestCaller,
    mut request: StatelessRequest,
    admitted: Admitted,
    (id, params): (Box<RawValue>, Option<Box<RawValue>>),
    (after, required): (Duration, bool),
    (framing, trace): (Framing, Option<TraceContext>),
) -> Response {
    let client = caller.client_key().map(|key| key.to_string());
    let offer = TaskOffer::default();
    let at_once = after.is_zero();
    if at_once {
        match tasks.has_room_for(client.as_deref()).await {
            Ok(true) => {
                offer.take();
                request.offer_task(offer.clone());
            }
            Ok(false) if required => return rejected(&id, too_many(tasks)),
            Ok(false) => {}
            Err(error) => return rejected(&id, error),
        }
    } else {
        request.offer_task(offer.clone());
    }
    let canceller = request.canceller();
    let guard = CancelOnDrop::new(canceller.clone(), id.get());
    let first_params = params.clone().unwrap_or_else(empty_params);
    let request_id = id.clone();
    let mut running_call = Box::pin(async move {
        let mut out: Vec<Vec<u8>> = Vec::new();
        let outcome = request.answer(&request_id, admitted, params.as_deref(), &mut out).await;
        Handled { messages: out, refused: outcome_status(outcome) }
    });
    let ended = match (&mut running_call).now_or_never() {
        // Done at once, and not asked to be a task: a plain answer.
        Some(handled) if !offer.is_taken() => {
            guard.finished().store(true, Ordering::Release);
            return whole_answer(handled, framing, None);
        }
        Some(handled) => Some(handled),
        None => None,
    };
    let mut running_call = match ended {
        Some(handled) => CallRun::Done(handled),
        None => CallRun::Running(tokio::spawn(running_call)),
    };
    if let CallRun::Running(running) = &mut running_call {
        let waited = async {
            if after == Duration::MAX {
                return std::future::pending().await;
            }
            tokio::time::sleep(after).await;
        };
        tokio::select! {
            biased;
            () = offer.taken() => {}
            handled = &mut *running => {
                guard.finished().store(true, Ordering::Release);
                return match handled {
                    Ok(handled) => whole_answer(handled, framing, None),
                    Err(e) => wire::internal(e),
                };
            }
            () = waited => {
                offer.take();
            }
        }
    }
    // Taken by the policy's timer or the router: a task, if the client has
    // room for one (made at once, it was counted already).
    if !at_once && !matches!(tasks.has_room_for(client.as_deref()).await, Ok(true)) {
        guard.finished().store(true, Ordering::Release);
        return match running_call.finish().await {
            Some(handled) => whole_answer(handled, framing, None),
            None => wire::internal("the call's task ended without an answer"),
        };
    }
    // A task's client leaves after the answer: that no longer cancels.
    guard.finished().store(true, Ordering::Release);
    let running = (canceller, id.get().to_string());
    let request = (id.clone(), first_params);
    let record = match tasks.create((caller.0.clone(), client), &offer, running, request, trace).await {
        Ok(record) => record,
        Err(error) => {
            // The store could not keep it: the call stops, unheard of.
            running_call.abort();
            return rejected(&id, error);
        }
    };
    tasks.drive(
        record.id.clone(),
        Box::pin(async move { running_call.finish().await.and_then(|handled| handled.messages.into_iter().last()) }),
    );
    tracing::debug!(task = %record.id, "the call goes on as a task");
    wire::json(response(&id, Ok(task_result(&record, "task"))))
}

/// A call that may become a task: done within its first poll, or running
/// in a task of its own.
enum CallRun {
    Done(Handled),
    Running(tokio::task::JoinHandle<Handled>),
}

impl CallRun {
    /// What the call wrote, once it ends (`None`: its task panicked).
    async fn finish(self) -> Option<Handled> {
        match self {
            CallRun::Done(handled) => Some(handled),
            CallRun::Running(running) => running.await.ok(),
        }
    }

    fn abort(&self) {
        if let CallRun::Running(running) = self {
            running.abort();
        }
    }
}

/// Runs a task's call again with the answers to its questions: a new
/// 2026-07-28 request of the same caller, with the same id, on this
/// replica (whichever made the task).
fn resume(server: &Arc<ServerState>, rerun: Rerun, offer: TaskOffer) -> Running {
    let Rerun { caller, id, params, trace } = rerun;
    let mut request = server.stateless_request(&RequestCaller(caller, None));
    request.set_transport_context(trace);
    request.offer_task(offer);
    let canceller = request.canceller();
    let raw_id = id.get().to_string();
    let run = async move { last_message(request, &id, &params).await };
    Running { canceller, id: raw_id, run: Box::pin(run) }
}

/// `tasks/get`, `tasks/update` or `tasks/cancel`: -32021 for a client that
/// did not declare the extension, before the task is looked for; -32602
/// for a task unknown (or another principal's).
pub(super) async fn serve_method(
    server: &Arc<ServerState>,
    tasks: &Arc<Tasks>,
    caller: &RequestCaller,
    method: TaskMethod,
    id: &RawValue,
    params: Option<&RawValue>,
    envelope: &Envelope,
) -> Response {
    if !envelope.client_declares(TASKS_EXTENSION) {
        return rejected(id, missing_tasks_extension(method.as_str()));
    }
    let owner = caller.get().map(|c| c.principal_key());
    let again = |rerun, offer| resume(server, rerun, offer);
    // Errors of the handler are in-band, with 200.
    wire::json(response(id, answer_method(tasks, owner.as_deref(), method, params, &again).await))
}

fn empty_params() -> Box<RawValue> {
    RawValue::from_string("{}".into()).expect("`{}` is JSON")
}
