//! What both transports do with a task's call: run its request to its last
//! message, and the answers `tasks/*` and a refusal share.

use serde_json::value::RawValue;
use serde_json::{Value, json};

use mcp_wit_protocol::jsonrpc::{self, RpcError};
use mcp_wit_protocol::{Envelope, StatelessRequest as Request};

use super::record::TaskRecord;
use super::service::Tasks;
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

/// `tasks/update` and `tasks/cancel` acknowledge with nothing else.
pub(crate) fn acknowledged() -> Value {
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
