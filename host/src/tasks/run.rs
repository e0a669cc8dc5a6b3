//! What both transports do with tasks: run a task's request to its last
//! message, answer `tasks/*`, write a response, refuse at the limit.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use mcp_wit_protocol::jsonrpc::{self, RpcError};
use mcp_wit_protocol::tasks::TaskMethod;
use mcp_wit_protocol::{Envelope, StatelessRequest as Request};

use super::record::TaskRecord;
use super::service::{Resume, Tasks};
use crate::runtime::LoadedRouter;

/// Serves `tools/call` request `id` with `params` (their envelope read from
/// them) on `request`; the last message it wrote, which says what became of
/// the task's run (a round's questions, a result, an error).
pub(crate) async fn last_message(request: Request<LoadedRouter>, id: &RawValue, params: &RawValue) -> Option<Vec<u8>> {
    let mut request = request;
    let mut out: Vec<Vec<u8>> = Vec::new();
    let envelope = Envelope::read(Some(params)).and_then(|envelope| {
        envelope.ok_or_else(|| RpcError::internal("the task's request lost its 2026-07-28 envelope"))
    });
    let admitted = match envelope {
        Ok(envelope) => request.admit("tools/call", &envelope).await,
        Err(error) => Err(error),
    };
    match admitted {
        Ok(admitted) => {
            // What becomes of the task is read from the last message.
            let _ = request.answer(id, admitted, Some(params), &mut out).await;
        }
        Err(error) => {
            let mut message = Vec::new();
            jsonrpc::write_error(&mut message, Some(id), &error);
            out.push(message);
        }
    }
    out.pop()
}

/// Answers `tasks/get`, `tasks/update` or `tasks/cancel` with `params` for
/// `owner` (the transport has checked that the client declared the
/// extension); `resume` runs a call again once its questions are answered.
pub(crate) async fn answer_method(
    tasks: &Arc<Tasks>,
    owner: Option<&str>,
    method: TaskMethod,
    params: Option<&RawValue>,
    resume: Resume<'_>,
) -> Result<Value, RpcError> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct TaskParams {
        task_id: String,
        #[serde(default)]
        input_responses: Map<String, Value>,
    }
    let params: TaskParams =
        serde_json::from_str(params.map_or("{}", RawValue::get)).map_err(RpcError::invalid_params)?;
    match method {
        TaskMethod::Get => tasks.get(owner, &params.task_id).await.map(|record| task_result(&record, "complete")),
        TaskMethod::Update => {
            tasks.update(owner, &params.task_id, params.input_responses, resume).await.map(|()| acknowledged())
        }
        TaskMethod::Cancel => tasks.cancel(owner, &params.task_id).await.map(|()| acknowledged()),
    }
}

/// The response to request `id`: its result, or its error.
pub(crate) fn response(id: &RawValue, answer: Result<Value, RpcError>) -> Vec<u8> {
    #[derive(serde::Serialize)]
    struct Reply<'a> {
        jsonrpc: &'static str,
        id: &'a RawValue,
        result: Value,
    }
    match answer {
        Ok(result) => serde_json::to_vec(&Reply { jsonrpc: "2.0", id, result }).expect("a reply serialises"),
        Err(error) => {
            let mut message = Vec::new();
            jsonrpc::write_error(&mut message, Some(id), &error);
            message
        }
    }
}

/// `tasks/update` and `tasks/cancel` acknowledge with nothing else.
fn acknowledged() -> Value {
    json!({ "resultType": "complete" })
}

/// A task as a result of `resultType` `kind` (`task` for the call that
/// made it, `complete` for `tasks/get`).
pub(crate) fn task_result(record: &TaskRecord, kind: &str) -> Value {
    let mut result = record.to_wire();
    result.insert("resultType".into(), kind.into());
    Value::Object(result)
}

/// A `required` tool's call from a client at its limit of unfinished tasks.
pub(crate) fn too_many(tasks: &Tasks) -> RpcError {
    let limit = tasks.options().max_per_client;
    RpcError::internal(format!(
        "this client has {limit} unfinished tasks, the most it may have (--max-tasks-per-client); wait for one to end"
    ))
}
