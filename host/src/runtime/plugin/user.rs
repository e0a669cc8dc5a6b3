//! `extism:host/user`: the host functions of v1-draft plugins
//! (`xtp-plugin-schema-v1-draft.json`, `imports`), over the same channel to
//! the client as components' `mcp-wit:extension/client`: progress, logging,
//! change notifications, sampling, elicitation and roots, in both eras (a
//! question of a 2026-07-28 request ends the round, and the call is run
//! again with the answer, as a component's is).
//!
//! Every value is JSON in a kernel block, by handle. The v1-draft functions
//! have no error result, so a question the client cannot answer gets the
//! answer hyper-mcp (where these functions come from) gives: sampling a
//! message whose `stopReason` is `"error"`, elicitation a `decline` with the
//! reason in `content.error`, roots an empty list. An input that is not JSON
//! stops the call, as a host function's error does in Extism.

use std::time::Duration;

use mcp_wit_protocol::CallMode;
use mcp_wit_protocol::client::{ClientError, ClientLink, ListKind, LogLevel, Question};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use wasmtime::{Caller, FuncType, Linker, ValType};

use super::kernel::KernelView;
use crate::runtime::client::{Asking, ClientView};

/// The import module of the plugin host functions.
pub const USER_MODULE: &str = "extism:host/user";

/// A host function of `extism:host/user`: its name, whether it takes a
/// JSON input and whether it gives a JSON output (each a kernel handle).
pub struct UserFunction {
    /// The name plugins import it by.
    pub name: &'static str,
    input: bool,
    output: bool,
}

impl UserFunction {
    const fn new(name: &'static str, input: bool, output: bool) -> Self {
        UserFunction { name, input, output }
    }

    /// Its core wasm type: `(i64?) -> (i64?)`.
    pub fn ty(&self, engine: &wasmtime::Engine) -> FuncType {
        let input = self.input.then_some(ValType::I64);
        let output = self.output.then_some(ValType::I64);
        FuncType::new(engine, input, output)
    }

    /// How errors write its type.
    pub fn signature(&self) -> &'static str {
        match (self.input, self.output) {
            (true, true) => "(i64) -> i64",
            (true, false) => "(i64) -> ()",
            (false, true) => "() -> i64",
            (false, false) => "() -> ()",
        }
    }
}

/// Every host function of the v1-draft schema.
pub const USER_FUNCTIONS: [UserFunction; 10] = [
    UserFunction::new("create_elicitation", true, true),
    UserFunction::new("create_message", true, true),
    UserFunction::new("list_roots", false, true),
    UserFunction::new("notify_logging_message", true, false),
    UserFunction::new("notify_progress", true, false),
    UserFunction::new("notify_prompt_list_changed", false, false),
    UserFunction::new("notify_resource_list_changed", false, false),
    UserFunction::new("notify_resource_updated", true, false),
    UserFunction::new("notify_tool_list_changed", false, false),
    UserFunction::new("notify_url_elicitation_completed", true, false),
];

/// The function of `extism:host/user` named `name`.
pub fn user_function(name: &str) -> Option<&'static UserFunction> {
    USER_FUNCTIONS.iter().find(|f| f.name == name)
}

/// Defines the host functions in `linker`; questions wait on the calling
/// thread (blocking) or as futures (async).
pub(crate) fn add_to_linker<T: KernelView + ClientView + Send + 'static>(
    linker: &mut Linker<T>,
    calls: CallMode,
) -> wasmtime::Result<()> {
    let m = USER_MODULE;
    linker.func_wrap(m, "notify_progress", |mut c: Caller<'_, T>, input: u64| {
        let input = read::<Progress>(&mut c, "notify_progress", input)?;
        if let Some(link) = c.data().client() {
            progress(link, input);
        }
        Ok(())
    })?;
    linker.func_wrap(m, "notify_logging_message", |mut c: Caller<'_, T>, input: u64| {
        let input = read::<Logged>(&mut c, "notify_logging_message", input)?;
        if let Some(link) = c.data().client() {
            link.log(input.level, input.logger.as_deref(), input.data.get());
        }
        Ok(())
    })?;
    linker.func_wrap(m, "notify_resource_updated", |mut c: Caller<'_, T>, input: u64| {
        let input = read::<Updated>(&mut c, "notify_resource_updated", input)?;
        if let Some(link) = c.data().client() {
            link.resource_updated(&input.uri);
        }
        Ok(())
    })?;
    linker.func_wrap(m, "notify_url_elicitation_completed", |mut c: Caller<'_, T>, input: u64| {
        let input = read::<Completed>(&mut c, "notify_url_elicitation_completed", input)?;
        if let Some(link) = c.data().client() {
            link.url_elicitation_completed(&input.elicitation_id);
        }
        Ok(())
    })?;
    for (name, kind) in [
        ("notify_tool_list_changed", ListKind::Tools),
        ("notify_prompt_list_changed", ListKind::Prompts),
        ("notify_resource_list_changed", ListKind::Resources),
    ] {
        linker.func_wrap(m, name, move |c: Caller<'_, T>| {
            if let Some(link) = c.data().client() {
                link.list_changed(kind);
            }
        })?;
    }
    for (name, question) in [("create_message", Question::CreateMessage), ("create_elicitation", Question::Elicit)] {
        match calls {
            CallMode::Blocking => linker.func_wrap(m, name, move |mut c: Caller<'_, T>, input: u64| {
                mcp_wit_protocol::block_on(answer(&mut c, question, Some(input)))
            })?,
            CallMode::Async => linker.func_wrap_async(m, name, move |mut c: Caller<'_, T>, (input,): (u64,)| {
                Box::new(async move { answer(&mut c, question, Some(input)).await })
            })?,
        };
    }
    match calls {
        CallMode::Blocking => linker.func_wrap(m, "list_roots", |mut c: Caller<'_, T>| {
            mcp_wit_protocol::block_on(answer(&mut c, Question::ListRoots, None))
        })?,
        CallMode::Async => linker.func_wrap_async(m, "list_roots", |mut c: Caller<'_, T>, (): ()| {
            Box::new(async move { answer(&mut c, Question::ListRoots, None).await })
        })?,
    };
    Ok(())
}

/// `ProgressNotificationParam`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Progress {
    progress: f64,
    progress_token: Box<RawValue>,
    #[serde(default)]
    total: Option<f64>,
    #[serde(default)]
    message: Option<String>,
}

/// `LoggingMessageNotificationParam`.
#[derive(Deserialize)]
struct Logged {
    level: LogLevel,
    data: Box<RawValue>,
    #[serde(default)]
    logger: Option<String>,
}

/// `ResourceUpdatedNotificationParam`.
#[derive(Deserialize)]
struct Updated {
    uri: String,
}

/// `ElicitationResponseNotificationParam`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Completed {
    elicitation_id: String,
}

/// Reports progress on the request being served. The plugin names the
/// token it was given (`context._meta.progressToken`); one that is not the
/// request's is dropped: it would report on another request.
fn progress(link: &ClientLink, input: Progress) {
    let Some(token) = link.progress_token() else { return };
    if !same_token(token, &input.progress_token) {
        tracing::debug!(
            "dropping the plugin's progress for token {}: the request's is {}",
            input.progress_token,
            token
        );
        return;
    }
    link.progress(input.progress, input.total, input.message.as_deref());
}

/// Whether the plugin's token is the request's: the same JSON, or a
/// number the plugin wrote as a string (the schema types it a string).
fn same_token(request: &RawValue, plugin: &RawValue) -> bool {
    if request.get() == plugin.get() {
        return true;
    }
    let plugin: Result<String, _> = serde_json::from_str(plugin.get());
    plugin.is_ok_and(|plugin| plugin == request.get())
}

/// The JSON input at `handle`, as `T`; a host function's error (which
/// stops the call) when it is not.
fn read<T: for<'de> Deserialize<'de>>(
    c: &mut Caller<'_, impl KernelView>,
    function: &str,
    handle: u64,
) -> wasmtime::Result<T> {
    let bytes = c.data_mut().kernel().block(handle);
    serde_json::from_slice(bytes).map_err(|e| {
        wasmtime::Error::msg(format!("`{function}`: the plugin's input is not the JSON the v1-draft schema asks: {e}"))
    })
}

/// Asks the client `question` with the plugin's input at `handle`, and
/// gives the plugin its answer in a new block.
async fn answer<T: KernelView + ClientView>(
    c: &mut Caller<'_, T>,
    question: Question,
    handle: Option<u64>,
) -> wasmtime::Result<u64> {
    let name = match question {
        Question::CreateMessage => "create_message",
        Question::Elicit => "create_elicitation",
        Question::ListRoots => "list_roots",
    };
    let mut asking = Asking::of(c.data());
    let params = match handle {
        None => None,
        Some(handle) => {
            let mut params: Value = read(c, name, handle)?;
            if question == Question::Elicit {
                if let Some(ms) = take_timeout(&mut params) {
                    asking = asking.within(ms);
                }
                date_time_formats(&mut params);
            }
            Some(params.to_string())
        }
    };
    let answer = match asking.ask(question, params.as_deref()).await? {
        Ok(json) => json,
        Err(error) => {
            tracing::debug!("a plugin's `{name}` got no answer: {error}");
            unanswered(question, &error).to_string()
        }
    };
    let block = c.data_mut().kernel().new_block(answer.as_bytes());
    if block == 0 {
        return Err(wasmtime::Error::msg(format!(
            "`{name}`: the client's answer ({} bytes) does not fit the plugin's memory",
            answer.len()
        )));
    }
    Ok(block)
}

/// Removes the schema's `timeout` (milliseconds) from elicitation params:
/// it is the plugin's, not MCP's.
fn take_timeout(params: &mut Value) -> Option<Duration> {
    let timeout = params.as_object_mut()?.remove("timeout")?;
    timeout.as_u64().map(Duration::from_millis)
}

/// XTP's generated types write the JSON Schema format `date-time` as
/// `date_time`; clients accept only the former.
fn date_time_formats(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(format)) = map.get_mut("format")
                && format == "date_time"
            {
                *format = "date-time".into();
            }
            map.values_mut().for_each(date_time_formats);
        }
        Value::Array(items) => items.iter_mut().for_each(date_time_formats),
        _ => {}
    }
}

/// What a plugin gets when the client gives no answer.
fn unanswered(question: Question, error: &ClientError) -> Value {
    let reason = error.to_string();
    match question {
        Question::CreateMessage => json!({
            "role": "assistant",
            "content": { "type": "text", "text": reason },
            "model": "",
            "stopReason": "error",
        }),
        Question::Elicit => json!({ "action": "decline", "content": { "error": reason } }),
        Question::ListRoots => json!({ "roots": [] }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_match_as_json_or_as_a_string() {
        let raw = |s: &str| RawValue::from_string(s.to_string()).unwrap();
        assert!(same_token(&raw(r#""abc""#), &raw(r#""abc""#)));
        assert!(same_token(&raw("7"), &raw("7")));
        assert!(same_token(&raw("7"), &raw(r#""7""#)));
        assert!(!same_token(&raw("7"), &raw(r#""8""#)));
        assert!(!same_token(&raw(r#""a""#), &raw(r#""b""#)));
    }

    #[test]
    fn elicitation_params_lose_the_timeout_and_get_standard_formats() {
        let mut params = json!({
            "message": "When?",
            "timeout": 1500,
            "requestedSchema": { "type": "object", "properties": { "at": { "type": "string", "format": "date_time" } } },
        });
        assert_eq!(take_timeout(&mut params), Some(Duration::from_millis(1500)));
        date_time_formats(&mut params);
        assert_eq!(params["requestedSchema"]["properties"]["at"]["format"], "date-time");
        assert!(params.get("timeout").is_none());
    }

    #[test]
    fn unanswered_questions_get_hyper_mcps_answers() {
        let error = ClientError::Unsupported("sampling".into());
        assert_eq!(unanswered(Question::CreateMessage, &error)["stopReason"], "error");
        assert_eq!(unanswered(Question::Elicit, &error)["action"], "decline");
        assert_eq!(unanswered(Question::ListRoots, &error), json!({ "roots": [] }));
    }

    #[test]
    fn every_function_has_its_schema_type() {
        let engine = wasmtime::Engine::default();
        let roots = user_function("list_roots").unwrap();
        assert_eq!(roots.signature(), "() -> i64");
        assert_eq!(roots.ty(&engine).results().len(), 1);
        assert!(user_function("get_access_token").is_none());
    }
}
