//! Questions to the client (elicitation, sampling, roots) and their answers.

use crate::bindings::exports::wasix::mcp::router::ToolError;
use crate::bindings::mcp_wit::extension::client::{self, ClientError, QuestionKind};

/// Asks `questions` at once; their answers, parsed, in the same order.
pub(crate) fn ask_all<const N: usize>(questions: [client::Question; N]) -> Result<[serde_json::Value; N], ToolError> {
    let answers = client::ask(&questions);
    let parsed: Vec<serde_json::Value> = answers
        .into_iter()
        .map(|answer| {
            let json = answer.map_err(asked)?;
            serde_json::from_str(&json).map_err(|e| ToolError::ExecutionError(e.to_string()))
        })
        .collect::<Result<_, _>>()?;
    parsed.try_into().map_err(|_| ToolError::ExecutionError("the host answered a different number of questions".into()))
}

pub(crate) fn name_question(key: &str, message: &str) -> client::Question {
    let mut question = elicitation(key, message, serde_json::json!({ "name": { "type": "string" } }));
    require(&mut question, "name");
    question
}

pub(crate) fn confirm_question(key: &str) -> client::Question {
    let mut question = elicitation(key, "Please confirm", serde_json::json!({ "ok": { "type": "boolean" } }));
    require(&mut question, "ok");
    question
}

/// An elicitation of the fields `properties` (none required), keyed `key`.
pub(crate) fn elicitation(key: &str, message: &str, properties: serde_json::Value) -> client::Question {
    client::Question {
        key: key.into(),
        kind: QuestionKind::CreateElicitation,
        params: Some(
            serde_json::json!({
                "message": message,
                "requestedSchema": { "type": "object", "properties": properties },
            })
            .to_string(),
        ),
    }
}

/// Marks field `name` of an elicitation's schema required.
fn require(question: &mut client::Question, name: &str) {
    let params = question.params.as_deref().unwrap_or("{}");
    let mut params: serde_json::Value = serde_json::from_str(params).expect("written above");
    params["requestedSchema"]["required"] = serde_json::json!([name]);
    question.params = Some(params.to_string());
}

pub(crate) fn sampling_question(key: &str, prompt: &str, max_tokens: u32) -> client::Question {
    client::Question {
        key: key.into(),
        kind: QuestionKind::CreateMessage,
        params: Some(
            serde_json::json!({
                "messages": [{ "role": "user", "content": { "type": "text", "text": prompt } }],
                "maxTokens": max_tokens,
            })
            .to_string(),
        ),
    }
}

pub(crate) fn roots_question(key: &str) -> client::Question {
    client::Question { key: key.into(), kind: QuestionKind::ListRoots, params: None }
}

/// Asks the user; the client's `ElicitResult`.
pub(crate) fn elicit(params: &serde_json::Value) -> Result<serde_json::Value, ToolError> {
    let answer = client::create_elicitation(&params.to_string()).map_err(asked)?;
    serde_json::from_str(&answer).map_err(|e| ToolError::ExecutionError(e.to_string()))
}

/// `Elicitation completed: action=…, content={…}`.
pub(crate) fn completed(answer: &serde_json::Value) -> String {
    format!(
        "Elicitation completed: action={}, content={}",
        answer["action"].as_str().unwrap_or_default(),
        answer.get("content").cloned().unwrap_or_default()
    )
}

/// A question the client could not answer, as the tool's error.
pub(crate) fn asked(error: ClientError) -> ToolError {
    ToolError::ExecutionError(match error {
        ClientError::Unsupported(what) => format!("the client does not support {what}"),
        ClientError::Rejected(e) => format!("the client answered with error {}: {}", e.code, e.message),
        ClientError::InvalidParams(why) => format!("invalid params: {why}"),
        ClientError::InvalidResponse(why) => format!("invalid response from the client: {why}"),
        ClientError::Unavailable(why) => why,
    })
}
