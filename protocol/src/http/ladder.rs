//! The validation ladder of 2026-07-28 requests over HTTP: the standard
//! headers against the body (`MCP-Protocol-Version`, `Mcp-Method`,
//! `Mcp-Name`), the `Mcp-Param-*` headers against a tool's `x-mcp-header`
//! arguments, and each refusal's status.

use std::borrow::Cow;

use base64::Engine as _;
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use serde::Deserialize;
use serde_json::Value;

use crate::auth::{Operation, OperationKind};
use crate::envelope::{Envelope, may_claim};
use crate::jsonrpc::{self, RpcError, borrowed_text, code};
use crate::params::{ReadCall, RequestMeta};

use super::answers::status_of;
use super::headers::{MCP_METHOD, MCP_NAME, MCP_PARAM_PREFIX, McpHeaders, PROTOCOL_VERSION};

/// A 2026-07-28 request refused before the handler ran: the status of
/// `error` and the body echoing the request's `id`.
pub fn rejection(id: &serde_json::value::RawValue, error: &RpcError) -> (StatusCode, Vec<u8>) {
    let mut body = Vec::new();
    jsonrpc::write_error(&mut body, Some(id), error);
    (status_of(error), body)
}

/// -32020 with `message`.
pub fn header_mismatch(message: impl Into<String>) -> RpcError {
    RpcError::new(code::HEADER_MISMATCH, format!("Header mismatch: {}", message.into()))
}

/// A header's value, with the `=?base64?…?=` sentinel decoded; -32020 when
/// it is not text or the sentinel does not decode to UTF-8.
pub fn header_text<'h>(headers: &'h HeaderMap, name: &HeaderName) -> Result<Option<Cow<'h, str>>, RpcError> {
    value_text(name, headers.get(name))
}

/// [`header_text`] of the value of header `name` found already.
fn value_text<'h>(name: &HeaderName, value: Option<&'h HeaderValue>) -> Result<Option<Cow<'h, str>>, RpcError> {
    let Some(value) = value else { return Ok(None) };
    let text = value.to_str().map_err(|_| header_mismatch(format!("{name} is not visible ASCII")))?;
    decode_sentinel(text).map(Some).ok_or_else(|| header_mismatch(format!("{name}: the base64 value does not decode")))
}

/// Whether requests of `method` name a tool, prompt or resource.
fn names_something(method: &str) -> bool {
    matches!(
        method,
        "tools/call"
            | "prompts/get"
            | "resources/read"
            | "resources/subscribe"
            | "resources/unsubscribe"
            | "tasks/get"
            | "tasks/update"
            | "tasks/cancel"
    )
}

/// `=?base64?<b64>?=` → the UTF-8 text it encodes; other values as they are.
fn decode_sentinel(text: &str) -> Option<Cow<'_, str>> {
    let Some(encoded) = text.strip_prefix("=?base64?").and_then(|t| t.strip_suffix("?=")) else {
        return Some(Cow::Borrowed(text));
    };
    let bytes = base64::engine::general_purpose::STANDARD.decode(encoded).ok()?;
    String::from_utf8(bytes).ok().map(Cow::Owned)
}

/// What the standard headers are checked against: the name (`tools/call`,
/// `prompts/get`) or URI (`resources/read`) a request names, and a call's
/// arguments, raw. Read once, for the requests that carry them.
#[derive(Deserialize, Default)]
pub struct RequestSubject<'a> {
    #[serde(borrow, default, deserialize_with = "borrowed_text")]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "borrowed_text")]
    uri: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    arguments: Option<&'a serde_json::value::RawValue>,
    /// The task a `tasks/*` request names.
    #[serde(borrow, default, rename = "taskId", deserialize_with = "borrowed_text")]
    task_id: Option<Cow<'a, str>>,
    /// Read in the same pass, for [`RequestSubject::with_envelope`].
    #[serde(borrow, rename = "_meta", default)]
    meta: Option<RequestMeta<'a>>,
}

impl<'a> RequestSubject<'a> {
    /// What a request of `method` with `params` names.
    pub fn of(method: &str, params: Option<&'a serde_json::value::RawValue>) -> Self {
        match names_something(method) {
            true => params.and_then(|p| serde_json::from_str(p.get()).ok()).unwrap_or_default(),
            false => RequestSubject::default(),
        }
    }

    /// A request's 2026-07-28 envelope (see [`Envelope::read`]) and what it
    /// names, read in one pass. Params that make no modern claim are not
    /// read: they name nothing here. When the request's header names a
    /// 2026-07-28 revision (`header_claims`), its params are read whatever
    /// they hold, without first looking for the claim's key in them.
    pub fn with_envelope(
        method: &str,
        params: Option<&'a serde_json::value::RawValue>,
        header_claims: bool,
    ) -> (Self, Result<Option<Envelope>, RpcError>) {
        let Some(text) = params.filter(|p| header_claims || may_claim(p)) else {
            return (RequestSubject::default(), Ok(None));
        };
        if names_something(method)
            && let Ok(named) = serde_json::from_str::<RequestSubject<'a>>(text.get())
        {
            let envelope = Envelope::from_meta(&named.meta.unwrap_or_default());
            return (named, envelope);
        }
        // Params that do not read as a name (nor a URI) name nothing here,
        // as for `RequestSubject::of`; they are read again for the envelope's own error.
        (RequestSubject::default(), Envelope::read(params))
    }

    /// The tool a `tools/call` names.
    pub fn tool(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The `tools/call` these params make, owned, for the call to take as
    /// read here ([`StatelessRequest::set_read_call`](crate::StatelessRequest::set_read_call));
    /// `None` when they name no tool (the call then reads them itself, for
    /// the error it owes).
    pub fn read_call(&self) -> Option<ReadCall> {
        let name = self.name.as_deref()?;
        Some(ReadCall::new(name, self.arguments, self.meta.and_then(|meta| meta.progress_token)))
    }

    /// The task a `tasks/*` request names.
    pub fn task_id(&self) -> Option<&str> {
        self.task_id.as_deref()
    }

    /// The operation a request of `method` performs on a named thing, for
    /// scope rules.
    pub fn operation(&self, method: &str) -> Option<Operation<'_>> {
        let (kind, name) = match method {
            "tools/call" => (OperationKind::Tool, self.name.as_deref()?),
            "prompts/get" => (OperationKind::Prompt, self.name.as_deref()?),
            "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
                (OperationKind::Resource, self.uri.as_deref()?)
            }
            _ => return None,
        };
        Some(Operation { kind, name })
    }

    /// What `Mcp-Name` must equal.
    fn mcp_name(&self, method: &str) -> Option<&str> {
        match method {
            "tools/call" | "prompts/get" => self.name.as_deref(),
            "resources/read" => self.uri.as_deref(),
            "tasks/get" | "tasks/update" | "tasks/cancel" => self.task_id.as_deref(),
            _ => None,
        }
    }
}

/// The rungs of the ladder between the envelope and the method: the version
/// header against the body, the revision, then `Mcp-Method` and `Mcp-Name`.
pub fn check_headers(
    sent: &McpHeaders<'_>,
    method: &str,
    named: &RequestSubject<'_>,
    envelope: &Envelope,
) -> Result<(), RpcError> {
    let version = value_text(&PROTOCOL_VERSION, sent.protocol_version)?;
    if let Some(version) = &version
        && **version != envelope.requested_version
    {
        return Err(header_mismatch(format!(
            "MCP-Protocol-Version is {version:?} but the body's `_meta` names {:?}",
            envelope.requested_version
        )));
    }
    envelope.version()?;
    if version.is_none() {
        return Err(header_mismatch("MCP-Protocol-Version is required on 2026-07-28 requests"));
    }
    match value_text(&MCP_METHOD, sent.method)? {
        None => return Err(header_mismatch("Mcp-Method is required on 2026-07-28 requests")),
        Some(sent) if sent != method => {
            return Err(header_mismatch(format!("Mcp-Method is {sent:?} but the body's method is {method:?}")));
        }
        Some(_) => {}
    }
    match (value_text(&MCP_NAME, sent.name)?, named.mcp_name(method)) {
        (Some(header), Some(body)) if header == body => Ok(()),
        (Some(header), Some(body)) => {
            Err(header_mismatch(format!("Mcp-Name is {header:?} but the body names {body:?}")))
        }
        (None, Some(_)) => Err(header_mismatch(format!("Mcp-Name is required on {method}"))),
        // No name in the body (or none needed): the handler says what is missing.
        (_, None) => Ok(()),
    }
}

/// `Mcp-Param-{Name}` against the arguments of a `tools/call` whose tool
/// marks `declared` (argument, header name) with `x-mcp-header`: every one
/// the body gives a value must come with its header, equal to it; integers
/// compare as numbers.
pub fn check_param_headers(
    headers: &HeaderMap,
    call: &RequestSubject<'_>,
    declared: Vec<(String, String)>,
) -> Result<(), RpcError> {
    if declared.is_empty() {
        return Ok(());
    }
    let arguments: serde_json::Map<String, Value> =
        call.arguments.and_then(|a| serde_json::from_str(a.get()).ok()).unwrap_or_default();
    for (argument, header) in declared {
        let Some(value) = arguments.get(&argument).filter(|v| !v.is_null()) else { continue };
        let name = HeaderName::try_from(format!("{MCP_PARAM_PREFIX}{header}"))
            .map_err(|_| header_mismatch(format!("x-mcp-header {header:?} is not a valid header name")))?;
        let Some(sent) = header_text(headers, &name)? else {
            return Err(header_mismatch(format!("{name} is required: the body gives `{argument}`")));
        };
        if !same_value(&sent, value) {
            return Err(header_mismatch(format!("{name} is {sent:?} but the body's `{argument}` is {value}")));
        }
    }
    Ok(())
}

/// Whether a header's text stands for `value`: strings as they are, numbers
/// numerically, booleans as `true`/`false`.
fn same_value(sent: &str, value: &Value) -> bool {
    match value {
        Value::String(s) => s == sent,
        Value::Number(n) => match (n.as_i64(), sent.trim().parse::<i64>()) {
            (Some(a), Ok(b)) => a == b,
            _ => n.as_f64().zip(sent.trim().parse::<f64>().ok()).is_some_and(|(a, b)| a == b),
        },
        Value::Bool(b) => sent == if *b { "true" } else { "false" },
        other => serde_json::to_string(other).is_ok_and(|text| text == sent),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::value::RawValue;

    use super::*;
    use crate::params::{CallToolParams, decode};

    fn progress_token<'a>(params: &CallToolParams<'a>) -> Option<&'a str> {
        params.meta.and_then(|meta| meta.progress_token).map(RawValue::get)
    }

    #[test]
    fn a_call_read_with_its_envelope_is_the_call_read_alone() {
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}"#;
        let calls = [
            format!(r#"{{"name":"echo","arguments":{{"text":"a\"b"}},{meta}}}}}"#),
            format!(r#"{{"name":"echo",{meta},"progressToken":"p-1"}},"arguments":null}}"#),
            format!(r#"{{"arguments":[1],{meta},"progressToken":7}},"name":"é"}}"#),
            format!(r#"{{"name":"echo",{meta}}}}}"#),
        ];
        for text in &calls {
            let params = serde_json::from_str::<&RawValue>(text).unwrap();
            let (subject, envelope) = RequestSubject::with_envelope("tools/call", Some(params), false);
            assert!(envelope.unwrap().is_some(), "{text}");
            let read = subject.read_call().expect("it names a tool");
            let read = read.params();
            let alone: CallToolParams = decode(Some(params)).unwrap();
            assert_eq!(read.name, alone.name, "{text}");
            assert_eq!(read.arguments.map(RawValue::get), alone.arguments.map(RawValue::get), "{text}");
            assert_eq!(progress_token(&read), progress_token(&alone), "{text}");
        }
        // Params that name no tool give no call: the call reads them itself,
        // for its error.
        let nameless = format!(r#"{{"arguments":{{}},{meta}}}}}"#);
        let params = serde_json::from_str::<&RawValue>(&nameless).unwrap();
        assert!(RequestSubject::with_envelope("tools/call", Some(params), false).0.read_call().is_none());
    }

    #[test]
    fn decodes_the_base64_sentinel() {
        assert_eq!(decode_sentinel("tools/call").as_deref(), Some("tools/call"));
        assert_eq!(decode_sentinel("=?base64?aMOpbGxv?=").as_deref(), Some("héllo"));
        assert_eq!(decode_sentinel("=?base64?!!?="), None);
    }

    #[test]
    fn compares_header_values_as_json_types() {
        assert!(same_value("42", &serde_json::json!(42)));
        assert!(same_value("42.0", &serde_json::json!(42)));
        assert!(!same_value("43", &serde_json::json!(42)));
        assert!(same_value("true", &serde_json::json!(true)));
        assert!(same_value("a b", &serde_json::json!("a b")));
    }

    /// One pass reads what two did: the same envelope (or the same error)
    /// and the same name as `Envelope::read` and `RequestSubject::of`, for params
    /// that claim 2026-07-28 well, badly, only inside an argument, or not
    /// at all.
    #[test]
    fn the_envelope_and_the_name_read_in_one_pass_are_those_read_apart() {
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":3}"#;
        let cases = [
            format!(r#"{{"name":"echo","arguments":{{"text":"hi"}},{meta}}}"#),
            r#"{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#.to_string(),
            r#"{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":7,"io.modelcontextprotocol/clientCapabilities":{}}}"#.to_string(),
            r#"{"name":"echo","_meta":"io.modelcontextprotocol/protocolVersion"}"#.to_string(),
            r#"{"name":"echo","arguments":{"text":"io.modelcontextprotocol/protocolVersion"}}"#.to_string(),
            format!(r#"{{"name":5,{meta}}}"#),
            r#"{"name":"echo","arguments":{}}"#.to_string(),
        ];
        for params in &cases {
            let raw = serde_json::value::RawValue::from_string(params.clone()).unwrap();
            // Read as claimed by a header or not: the same answers.
            for (method, header_claims) in [("tools/call", false), ("tools/list", false), ("tools/call", true)] {
                let (named, envelope) = RequestSubject::with_envelope(method, Some(&raw), header_claims);
                let apart = crate::envelope::Envelope::read(Some(&raw));
                match (&envelope, &apart) {
                    (Ok(one), Ok(two)) => assert_eq!(format!("{one:?}"), format!("{two:?}"), "{method} {params}"),
                    (Err(one), Err(two)) => assert_eq!(one.message, two.message, "{method} {params}"),
                    _ => panic!("{method} {params}: {envelope:?} against {apart:?}"),
                }
                if matches!(apart, Ok(Some(_))) {
                    assert_eq!(named.tool(), RequestSubject::of(method, Some(&raw)).tool(), "{method} {params}");
                }
            }
        }
    }
}
