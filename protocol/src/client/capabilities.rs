//! What the client declared it can be asked, the questions a guest asks,
//! and what MCP requires of their params and answers.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::ClientError;

/// What the client declared it can be asked (its `capabilities`, at
/// `initialize` or in a 2026-07-28 request's envelope).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ClientCapabilities {
    /// `sampling`.
    pub sampling: bool,
    /// `elicitation` (form mode: `{}` or `form`).
    pub elicitation_form: bool,
    /// `elicitation.url`.
    pub elicitation_url: bool,
    /// `roots`.
    pub roots: bool,
    /// `extensions`, the JSON text of the object (keyed by extension id,
    /// e.g. `io.modelcontextprotocol/ui`), when the client declared any.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "shared_text")]
    pub extensions: Option<Arc<str>>,
}

/// An `Option<Arc<str>>` (de)serialised as a string: shared between the
/// requests of a session, relayed as text.
mod shared_text {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(text: &Option<Arc<str>>, serializer: S) -> Result<S::Ok, S::Error> {
        match text {
            Some(text) => serializer.serialize_some(&**text),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Arc<str>>, D::Error> {
        Ok(Option::<String>::deserialize(deserializer)?.map(Arc::from))
    }
}

impl ClientCapabilities {
    /// Reads a `ClientCapabilities` object; anything unreadable declares
    /// nothing.
    pub fn read(capabilities: &RawValue) -> Self {
        #[derive(Deserialize)]
        struct Declared<'a> {
            #[serde(default, borrow)]
            sampling: Option<&'a RawValue>,
            #[serde(default)]
            elicitation: Option<Elicitation<'a>>,
            #[serde(default, borrow)]
            roots: Option<&'a RawValue>,
            #[serde(default, borrow)]
            extensions: Option<&'a RawValue>,
        }
        #[derive(Deserialize)]
        struct Elicitation<'a> {
            #[serde(default, borrow)]
            form: Option<&'a RawValue>,
            #[serde(default, borrow)]
            url: Option<&'a RawValue>,
        }
        let Ok(declared) = serde_json::from_str::<Declared<'_>>(capabilities.get()) else {
            return ClientCapabilities::default();
        };
        let present = |v: Option<&RawValue>| v.is_some_and(|v| v.get() != "null");
        let (form, url) = match &declared.elicitation {
            // `elicitation: {}` is form mode (2025-06-18); 2025-11-25 may name the modes.
            Some(e) => (present(e.form) || !present(e.url), present(e.url)),
            None => (false, false),
        };
        ClientCapabilities {
            sampling: present(declared.sampling),
            elicitation_form: form,
            elicitation_url: url,
            roots: present(declared.roots),
            extensions: declared.extensions.filter(|e| e.get().starts_with('{')).map(|e| Arc::from(e.get())),
        }
    }

    /// What the client declared of extension `id` (`extensions[id]`), as
    /// JSON text; `None` when it did not declare it.
    pub fn extension(&self, id: &str) -> Option<String> {
        let extensions = self.extensions.as_deref()?;
        let declared: std::collections::HashMap<&str, &RawValue> = serde_json::from_str(extensions).ok()?;
        declared.get(id).filter(|settings| settings.get() != "null").map(|settings| settings.get().to_owned())
    }
}

/// A question a guest asks its client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// `sampling/createMessage`.
    CreateMessage,
    /// `elicitation/create`.
    Elicit,
    /// `roots/list`.
    ListRoots,
}

impl Question {
    /// The request's method.
    pub fn method(self) -> &'static str {
        match self {
            Question::CreateMessage => "sampling/createMessage",
            Question::Elicit => "elicitation/create",
            Question::ListRoots => "roots/list",
        }
    }

    /// The question a request's method asks.
    pub fn from_method(method: &str) -> Option<Question> {
        [Question::CreateMessage, Question::Elicit, Question::ListRoots].into_iter().find(|q| q.method() == method)
    }
}

/// Where request ids for questions come from: one counter per connection, so
/// that ids never repeat on it.
#[derive(Clone, Default)]
pub(crate) struct QuestionIds(Arc<AtomicU64>);

impl QuestionIds {
    pub(super) fn next(&self) -> u64 {
        self.0.fetch_add(1, Ordering::Relaxed) + 1
    }
}

/// The `ClientCapabilities` a question needs.
pub(super) fn required_capability(question: Question, params: Option<&RawValue>) -> serde_json::Value {
    match question {
        Question::CreateMessage => serde_json::json!({ "sampling": {} }),
        Question::ListRoots => serde_json::json!({ "roots": {} }),
        Question::Elicit if is_url_elicitation(params) => serde_json::json!({ "elicitation": { "url": {} } }),
        Question::Elicit => serde_json::json!({ "elicitation": {} }),
    }
}

/// Whether elicitation params ask for URL mode.
pub(super) fn is_url_elicitation(params: Option<&RawValue>) -> bool {
    #[derive(Deserialize)]
    struct Mode<'a> {
        #[serde(default, borrow)]
        mode: Option<&'a str>,
    }
    params.and_then(|p| serde_json::from_str::<Mode<'_>>(p.get()).ok()).and_then(|m| m.mode) == Some("url")
}

/// `text` as a question's params: a JSON object with what MCP requires.
pub(super) fn check_params(question: Question, text: &str) -> Result<Box<RawValue>, ClientError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ClientError::InvalidParams(format!("not JSON: {e}")))?;
    let Some(object) = value.as_object() else {
        return Err(ClientError::InvalidParams("params must be a JSON object".into()));
    };
    let required: &[&str] = match question {
        Question::CreateMessage => &["messages", "maxTokens"],
        Question::Elicit if object.get("mode").and_then(|m| m.as_str()) == Some("url") => {
            &["message", "url", "elicitationId"]
        }
        Question::Elicit => &["message", "requestedSchema"],
        Question::ListRoots => &[],
    };
    if let Some(missing) = required.iter().find(|key| !object.contains_key(**key)) {
        return Err(ClientError::InvalidParams(format!("`{}` params need `{missing}`", question.method())));
    }
    RawValue::from_string(text.to_owned()).map_err(|e| ClientError::InvalidParams(e.to_string()))
}

/// Checks the client's result has what MCP requires of it.
pub(super) fn check_result(question: Question, result: Box<RawValue>) -> Result<Box<RawValue>, ClientError> {
    let value: serde_json::Value = serde_json::from_str(result.get())
        .map_err(|e| ClientError::InvalidResponse(format!("`{}` result: {e}", question.method())))?;
    let required: &[&str] = match question {
        Question::CreateMessage => &["role", "content", "model"],
        Question::Elicit => &["action"],
        Question::ListRoots => &["roots"],
    };
    let object = value.as_object().ok_or_else(|| {
        ClientError::InvalidResponse(format!("the `{}` result is not a JSON object", question.method()))
    })?;
    if let Some(missing) = required.iter().find(|key| !object.contains_key(**key)) {
        return Err(ClientError::InvalidResponse(format!("the `{}` result has no `{missing}`", question.method())));
    }
    if question == Question::Elicit {
        let action = object.get("action").and_then(|a| a.as_str());
        if !matches!(action, Some("accept" | "decline" | "cancel")) {
            return Err(ClientError::InvalidResponse(
                "an `elicitation/create` result's `action` must be accept, decline or cancel".into(),
            ));
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.into()).unwrap()
    }

    #[test]
    fn reads_what_the_client_declared() {
        let caps = ClientCapabilities::read(&raw(r#"{"sampling":{},"elicitation":{},"roots":{"listChanged":true}}"#));
        assert_eq!(
            caps,
            ClientCapabilities {
                sampling: true,
                elicitation_form: true,
                elicitation_url: false,
                roots: true,
                extensions: None
            }
        );
        let caps = ClientCapabilities::read(&raw(r#"{"elicitation":{"url":{}}}"#));
        assert!(!caps.elicitation_form && caps.elicitation_url && !caps.sampling);
        assert_eq!(ClientCapabilities::read(&raw("[]")), ClientCapabilities::default());
    }

    #[test]
    fn an_extension_is_read_as_the_client_declared_it() {
        let apps = r#"{"mimeTypes":["text/html;profile=mcp-app"]}"#;
        let caps = ClientCapabilities::read(&raw(&format!(
            r#"{{"extensions":{{"io.modelcontextprotocol/ui":{apps},"x/off":null}}}}"#
        )));
        assert_eq!(caps.extension("io.modelcontextprotocol/ui").as_deref(), Some(apps));
        assert_eq!(caps.extension("x/off"), None);
        assert_eq!(caps.extension("x/absent"), None);
        assert_eq!(ClientCapabilities::read(&raw(r#"{"extensions":[1]}"#)).extension("x"), None);
        assert_eq!(ClientCapabilities::default().extension("io.modelcontextprotocol/ui"), None);
    }

    #[test]
    fn params_and_results_need_what_mcp_requires() {
        assert!(check_params(Question::CreateMessage, r#"{"messages":[],"maxTokens":10}"#).is_ok());
        assert_eq!(
            check_params(Question::CreateMessage, r#"{"messages":[]}"#).unwrap_err(),
            ClientError::InvalidParams("`sampling/createMessage` params need `maxTokens`".into())
        );
        assert!(matches!(check_params(Question::Elicit, "nope"), Err(ClientError::InvalidParams(_))));
        assert!(check_result(Question::Elicit, raw(r#"{"action":"decline"}"#)).is_ok());
        assert!(matches!(
            check_result(Question::Elicit, raw(r#"{"action":"maybe"}"#)),
            Err(ClientError::InvalidResponse(_))
        ));
    }
}
