//! The host functions of `xtp-plugin-schema-v1-draft.json` (`imports`), as
//! a v1-draft plugin declares them with `extism-pdk`, behind safe wrappers.
//! Each takes and gives JSON; the host answers every question, with a
//! `decline`, an error `stopReason` or no roots when the client cannot.
//! Beside them, mcp-wit's own `mcp-wit:extension/caller::current`: who
//! calls, when the server authenticates its clients.

use extism_pdk::{Error, Json, host_fn};
use serde_json::Value;

mod imports {
    use super::*;

    #[host_fn]
    extern "ExtismHost" {
        pub fn create_elicitation(input: Json<Value>) -> Json<Value>;
        pub fn create_message(input: Json<Value>) -> Json<Value>;
        pub fn list_roots() -> Json<Value>;
        pub fn notify_logging_message(input: Json<Value>);
        pub fn notify_progress(input: Json<Value>);
        pub fn notify_prompt_list_changed();
        pub fn notify_resource_list_changed();
        pub fn notify_resource_updated(input: Json<Value>);
        pub fn notify_tool_list_changed();
        pub fn notify_url_elicitation_completed(input: Json<Value>);
    }
}

mod caller_imports {
    use super::*;

    #[host_fn("mcp-wit:extension/caller")]
    extern "ExtismHost" {
        pub fn current() -> Json<Value>;
    }
}

// SAFETY (every call below): the host defines each import with the type the
// schema gives it, and mcp-wit refuses a plugin whose imports differ.

/// Asks the user (`FormElicitRequestParamWithTimeout` or the URL form); an `ElicitResult`.
pub fn create_elicitation(params: Value) -> Result<Value, Error> {
    unsafe { imports::create_elicitation(Json(params)) }.map(|Json(answer)| answer)
}

/// Asks the client's model (`CreateMessageRequestParam`); a `CreateMessageResult`.
pub fn create_message(params: Value) -> Result<Value, Error> {
    unsafe { imports::create_message(Json(params)) }.map(|Json(answer)| answer)
}

/// The client's roots: a `ListRootsResult`.
pub fn list_roots() -> Result<Value, Error> {
    unsafe { imports::list_roots() }.map(|Json(answer)| answer)
}

/// Sends a log message (`LoggingMessageNotificationParam`).
pub fn notify_logging_message(params: Value) -> Result<(), Error> {
    unsafe { imports::notify_logging_message(Json(params)) }
}

/// Reports progress (`ProgressNotificationParam`), under the token of the
/// request's `context._meta.progressToken`.
pub fn notify_progress(params: Value) -> Result<(), Error> {
    unsafe { imports::notify_progress(Json(params)) }
}

/// Says the prompt list changed.
pub fn notify_prompt_list_changed() -> Result<(), Error> {
    unsafe { imports::notify_prompt_list_changed() }
}

/// Says the resource list changed.
pub fn notify_resource_list_changed() -> Result<(), Error> {
    unsafe { imports::notify_resource_list_changed() }
}

/// Says a resource changed (`ResourceUpdatedNotificationParam`).
pub fn notify_resource_updated(params: Value) -> Result<(), Error> {
    unsafe { imports::notify_resource_updated(Json(params)) }
}

/// Says the tool list changed.
pub fn notify_tool_list_changed() -> Result<(), Error> {
    unsafe { imports::notify_tool_list_changed() }
}

/// Says a URL-mode elicitation finished (`ElicitationResponseNotificationParam`).
pub fn notify_url_elicitation_completed(params: Value) -> Result<(), Error> {
    unsafe { imports::notify_url_elicitation_completed(Json(params)) }
}

/// The caller of the request being served (`issuer`, `subject`,
/// `clientId`, `scopes`), or `null` when the server does not authenticate
/// its clients.
pub fn caller() -> Result<Value, Error> {
    unsafe { caller_imports::current() }.map(|Json(caller)| caller)
}
