//! [`Context`]: the client that made the request being served, and who made
//! it.
//!
//! Built natively (for unit tests of handlers) there is no host: messages
//! are dropped and questions fail with [`ClientError::Unavailable`], as they
//! do in a component outside of a request.

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

pub use crate::bindings::mcp_wit::extension::caller::Identity;
pub use crate::bindings::mcp_wit::extension::client::{
    ClientError, ListKind, LogLevel, Question, QuestionKind, Root, RpcError,
};

/// What a handler may reach of the client while it serves a request. Ask for
/// it with a `&Context` parameter.
#[derive(Clone, Debug)]
pub struct Context {
    handler: &'static str,
}

/// The user's answer to an elicitation ([`Context::elicit`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Elicitation<T> {
    /// The user answered.
    Accept(T),
    /// The user said no.
    Decline,
    /// The user dismissed the question.
    Cancel,
}

impl<T> Elicitation<T> {
    /// The answer, if the user gave one.
    pub fn accepted(self) -> Option<T> {
        match self {
            Elicitation::Accept(answer) => Some(answer),
            Elicitation::Decline | Elicitation::Cancel => None,
        }
    }
}

impl Context {
    /// The context of a request served by the handler named `handler` (a
    /// tool, resource or prompt); its log messages carry that name.
    pub fn new(handler: &'static str) -> Self {
        Context { handler }
    }

    /// The tool, resource or prompt being served.
    pub fn handler(&self) -> &'static str {
        self.handler
    }

    /// Reports progress (`notifications/progress`); sent only when the client
    /// asked for it. `progress` should grow from one report to the next.
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        host::notify_progress(progress, total, message);
    }

    /// Logs `data` (any JSON: a string, an object…) under the handler's name
    /// (`notifications/message`), if the client's level lets it through.
    pub fn log(&self, level: LogLevel, data: impl Serialize) {
        self.log_as(level, Some(self.handler), data);
    }

    /// Logs `data` under a logger name of your choice (or none).
    pub fn log_as(&self, level: LogLevel, logger: Option<&str>, data: impl Serialize) {
        let data = serde_json::to_string(&data).unwrap_or_else(|e| json!(format!("unloggable data: {e}")).to_string());
        host::notify_logging_message(level, logger, &data);
    }

    /// Asks the client's model (`sampling/createMessage`) with the params of
    /// MCP's `CreateMessageRequest`; the answer is its `CreateMessageResult`.
    pub fn create_message(&self, params: impl Serialize) -> Result<Value, ClientError> {
        let answer = host::create_message(&to_json(&params)?)?;
        parse_answer(&answer)
    }

    /// Asks the client's model one question and returns the text of its
    /// answer: a `sampling/createMessage` of one user message.
    pub fn sample(&self, prompt: &str, max_tokens: u32) -> Result<String, ClientError> {
        let answer = self.create_message(json!({
            "messages": [{ "role": "user", "content": { "type": "text", "text": prompt } }],
            "maxTokens": max_tokens,
        }))?;
        match answer["content"]["text"].as_str() {
            Some(text) => Ok(text.to_owned()),
            None => Err(ClientError::InvalidResponse(format!("the answer holds no text: {answer}"))),
        }
    }

    /// Asks the user to fill in a form of `T`'s fields (`elicitation/create`,
    /// form mode): `T` is a struct of primitive fields (strings, numbers,
    /// booleans, unit enums), each field's doc comment its description.
    pub fn elicit<T: DeserializeOwned + JsonSchema>(&self, message: &str) -> Result<Elicitation<T>, ClientError> {
        let schema = crate::schema::elicitation_schema::<T>();
        let answer = self.elicit_raw(json!({ "message": message, "requestedSchema": schema }))?;
        match answer["action"].as_str() {
            Some("accept") => {
                let content = answer.get("content").cloned().unwrap_or_else(|| json!({}));
                serde_json::from_value(content)
                    .map(Elicitation::Accept)
                    .map_err(|e| ClientError::InvalidResponse(format!("the answer does not fit the form: {e}")))
            }
            Some("decline") => Ok(Elicitation::Decline),
            Some("cancel") => Ok(Elicitation::Cancel),
            _ => Err(ClientError::InvalidResponse(format!("no action in the answer: {answer}"))),
        }
    }

    /// Asks the user with the params of MCP's `ElicitRequest` (form or URL
    /// mode); the answer is its `ElicitResult`.
    pub fn elicit_raw(&self, params: impl Serialize) -> Result<Value, ClientError> {
        let answer = host::create_elicitation(&to_json(&params)?)?;
        parse_answer(&answer)
    }

    /// The client's roots (`roots/list`).
    pub fn list_roots(&self) -> Result<Vec<Root>, ClientError> {
        host::list_roots()
    }

    /// Asks several questions at once; each answer is its result's JSON
    /// text, in order. (In a 2026-07-28 request the unanswered ones end the
    /// round together, rather than one round each.)
    pub fn ask(&self, questions: &[Question]) -> Vec<Result<String, ClientError>> {
        host::ask(questions)
    }

    /// Says that the router's tools, prompts or resources changed; declare
    /// `list_changed` for them in `#[router]` for clients to listen.
    pub fn notify_list_changed(&self, kind: ListKind) {
        host::notify_list_changed(kind);
    }

    /// Says that a resource changed, to the clients subscribed to it.
    pub fn notify_resource_updated(&self, uri: &str) {
        host::notify_resource_updated(uri);
    }

    /// Says that a URL-mode elicitation finished out of band.
    pub fn notify_url_elicitation_completed(&self, elicitation_id: &str) {
        host::notify_url_elicitation_completed(elicitation_id);
    }

    /// Who made the request, when the server authenticates its requests
    /// (HTTP with authorization); `None` otherwise.
    pub fn caller(&self) -> Option<Identity> {
        host::current_caller()
    }

    /// What the client declared of extension `id` (its capabilities'
    /// `extensions[id]`); `None` when it did not.
    pub fn extension_settings(&self, id: &str) -> Option<Value> {
        host::extension_settings(id).and_then(|settings| serde_json::from_str(&settings).ok())
    }

    /// Asks for the request to go on as a task (the tasks extension): the
    /// client gets the task at once and polls for the result, while this
    /// call runs on. Whether the request is a task now (`false`: the client
    /// did not declare the extension, or the server's policy for the tool
    /// is `never`; the call goes on as before). Ask once the questions that
    /// decide whether to go on are answered.
    pub fn run_as_task(&self) -> bool {
        host::run_as_task()
    }

    /// Whether the client hosts MCP Apps: it declared
    /// [`APPS_EXTENSION`](crate::APPS_EXTENSION) with
    /// [`APP_MIME_TYPE`](crate::APP_MIME_TYPE) among its `mimeTypes`. A tool
    /// with a view answers a client that does not with text it can show.
    pub fn hosts_apps(&self) -> bool {
        self.extension_settings(crate::APPS_EXTENSION).is_some_and(|settings| {
            settings["mimeTypes"].as_array().is_some_and(|types| types.iter().any(|t| t == crate::APP_MIME_TYPE))
        })
    }
}

fn to_json(params: &impl Serialize) -> Result<String, ClientError> {
    serde_json::to_string(params).map_err(|e| ClientError::InvalidParams(e.to_string()))
}

fn parse_answer(answer: &str) -> Result<Value, ClientError> {
    serde_json::from_str(answer).map_err(|e| ClientError::InvalidResponse(e.to_string()))
}

#[cfg(target_arch = "wasm32")]
mod host {
    pub use crate::bindings::mcp_wit::extension::caller::current as current_caller;
    pub use crate::bindings::mcp_wit::extension::client::*;
}

/// No host outside of a component: what a component sees outside of a
/// request.
#[cfg(not(target_arch = "wasm32"))]
mod host {
    use super::{ClientError, Identity, ListKind, LogLevel, Question, Root};

    fn unavailable<T>() -> Result<T, ClientError> {
        Err(ClientError::Unavailable("no client: not running in a component".into()))
    }

    pub fn notify_progress(_: f64, _: Option<f64>, _: Option<&str>) {}
    pub fn notify_logging_message(_: LogLevel, _: Option<&str>, _: &str) {}
    pub fn create_message(_: &str) -> Result<String, ClientError> {
        unavailable()
    }
    pub fn create_elicitation(_: &str) -> Result<String, ClientError> {
        unavailable()
    }
    pub fn list_roots() -> Result<Vec<Root>, ClientError> {
        unavailable()
    }
    pub fn ask(questions: &[Question]) -> Vec<Result<String, ClientError>> {
        questions.iter().map(|_| unavailable()).collect()
    }
    pub fn notify_list_changed(_: ListKind) {}
    pub fn notify_resource_updated(_: &str) {}
    pub fn notify_url_elicitation_completed(_: &str) {}
    pub fn current_caller() -> Option<Identity> {
        None
    }
    pub fn extension_settings(_: &str) -> Option<String> {
        None
    }
    pub fn run_as_task() -> bool {
        false
    }
}
