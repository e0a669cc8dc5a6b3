//! One record to and from one FlatBuffers buffer: a JSON-RPC message as the
//! schema's `Message`, the transport as its `Transport`.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::generated::mcp::fb;
use crate::layout::{self, Body, FILE_IDENTIFIER};
use crate::scan::{self, Top};

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// From the client to the server.
    In,
    /// From the server to the client.
    Out,
}

/// One recorded message.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The session it belongs to (a Streamable HTTP session id, `stdio`, or
    /// the id the server gave a 2026-07-28 request).
    pub session: String,
    /// Which way it went.
    pub direction: Direction,
    /// When, in microseconds since the Unix epoch.
    pub at_micros: u64,
    /// The JSON-RPC message; a message that is not JSON is a string of its
    /// text.
    pub message: Value,
}

/// What each message's `Metadata.additional_data` holds: what the schema has
/// no field for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Context {
    /// [`Record::session`].
    pub session: String,
    /// [`Record::direction`].
    pub direction: Direction,
    /// [`Record::at_micros`].
    pub at: u64,
    /// The JSON-RPC id when it is not a `u64` (`RequestId.id` is then 0), as
    /// JSON text (`"\"abc\""`, `"null"`, `"-1"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// A response or error without any id (an error about a message whose
    /// id could not be read): `RequestId.id` is 0 and stands for nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_id: bool,
    /// A message that is not a JSON-RPC object, as its text (recorded as a
    /// notification whose method is `""`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
}

/// How the recorded server was reached: the schema's `Transport`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// stdio (`StdioTransport`), with the server's read buffer size.
    Stdio {
        /// Bytes.
        buffer_size: u32,
    },
    /// Streamable HTTP, whose responses and streams are SSE
    /// (`SSETransport`): the endpoint and the reconnection delay it
    /// suggests.
    Http {
        /// The MCP endpoint.
        url: String,
        /// Headers a client must send, as `(name, value)`.
        headers: Vec<(String, String)>,
        /// Milliseconds.
        reconnect_ms: u32,
    },
}

/// The size-prefixed buffer of `transport` (a recording's first).
pub fn encode_transport(transport: &Transport) -> Vec<u8> {
    let type_ = match transport {
        Transport::Stdio { buffer_size } => {
            fb::TransportType::StdioTransport(Box::new(fb::StdioTransport { buffer_size: *buffer_size }))
        }
        Transport::Http { url, headers, reconnect_ms } => fb::TransportType::SseTransport(Box::new(fb::SseTransport {
            url: url.clone(),
            headers: (!headers.is_empty()).then(|| {
                headers.iter().map(|(key, value)| fb::Header { key: key.clone(), value: value.clone() }).collect()
            }),
            reconnect_time: *reconnect_ms,
        })),
    };
    finish(&fb::Transport { type_ })
}

/// The transport of a decoded `Transport` buffer.
pub fn decode_transport(transport: fb::Transport) -> Transport {
    match transport.type_ {
        fb::TransportType::StdioTransport(stdio) => Transport::Stdio { buffer_size: stdio.buffer_size },
        fb::TransportType::SseTransport(sse) => Transport::Http {
            url: sse.url,
            headers: sse.headers.unwrap_or_default().into_iter().map(|h| (h.key, h.value)).collect(),
            reconnect_ms: sse.reconnect_time,
        },
    }
}

/// The size-prefixed buffer of `record`.
pub fn encode_message(record: &Record) -> Vec<u8> {
    let text = match &record.message {
        Value::String(raw) => raw.clone(),
        message => message.to_string(),
    };
    let mut out = Vec::new();
    encode_into(&record.session, record.direction, record.at_micros, text.as_bytes(), &mut out);
    out
}

/// Appends the size-prefixed buffer of `message` (a JSON-RPC message's
/// text; anything else is kept as text) of `session` to `out`. The fields
/// are borrowed from the text; no JSON tree is built.
pub(crate) fn encode_into(session: &str, direction: Direction, at_micros: u64, message: &[u8], out: &mut Vec<u8>) {
    let mut context = ContextRef { session, direction, at: at_micros, id: None, no_id: false, raw: None };
    let Some(top) = scan::scan(message).or_else(|| serde_top(message)) else {
        let raw = String::from_utf8_lossy(message);
        context.raw = Some(&raw);
        let unparsed = Body::Notification { method: "", params: None };
        return layout::write_message(out, "2.0", unparsed, None, |out| context.write_json(out));
    };
    let jsonrpc = top.jsonrpc.as_deref().unwrap_or("2.0");
    let id = match top.id {
        Some(id) => id.parse::<u64>().unwrap_or_else(|_| {
            context.id = Some(id);
            0
        }),
        None => 0,
    };
    // Read again only where it can be: most params carry no token.
    let progress_token = top
        .params
        .filter(|params| params.contains("progressToken"))
        .and_then(|params| serde_json::from_str::<WithMeta<'_>>(params).ok())
        .and_then(|with| with.meta?.progress_token)
        .map(|token| serde_json::from_str::<Cow<'_, str>>(token.get()).unwrap_or(Cow::Borrowed(token.get())));
    let error_body;
    let body = match (top.method.as_deref(), top.error) {
        (Some(method), _) if top.id.is_some() => Body::Request { id, method, params: top.params },
        (Some(method), _) => Body::Notification { method, params: top.params },
        (None, Some(error)) => {
            context.no_id = top.id.is_none();
            error_body = serde_json::from_str::<ErrorBody<'_>>(error).ok();
            match &error_body {
                Some(error) => Body::Error {
                    id,
                    code: i32::try_from(error.code).unwrap_or(0),
                    message: &error.message,
                    data: error.data.map(RawValue::get),
                },
                None => Body::Error { id, code: 0, message: "", data: None },
            }
        }
        (None, None) => {
            context.no_id = top.id.is_none();
            Body::Response { id, result: top.result.unwrap_or("null") }
        }
    };
    layout::write_message(out, jsonrpc, body, progress_token.as_deref(), |out| context.write_json(out));
}

/// A JSON-RPC message's fields, borrowed from its text, as serde_json reads
/// them: for what [`scan::scan`] leaves to it.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default, borrow)]
    jsonrpc: Option<Cow<'a, str>>,
    /// `null` is kept (not read as "no id").
    #[serde(default, borrow, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(default, borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    params: Option<&'a RawValue>,
    #[serde(default, borrow)]
    result: Option<&'a RawValue>,
    #[serde(default, borrow)]
    error: Option<&'a RawValue>,
}

fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}

/// `message`'s top-level fields as serde_json reads them, if each is a
/// JSON value `serde_json::Value` holds (not a number beyond `f64`, a lone
/// surrogate): else the message is kept as text, so that it reads back.
pub(crate) fn serde_top(message: &[u8]) -> Option<Top<'_>> {
    let envelope = serde_json::from_slice::<Envelope<'_>>(message).ok()?;
    let fields = [envelope.id, envelope.params, envelope.result, envelope.error];
    if !fields.into_iter().flatten().all(|raw| serde_json::from_str::<Value>(raw.get()).is_ok()) {
        return None;
    }
    Some(Top {
        jsonrpc: envelope.jsonrpc,
        id: envelope.id.map(RawValue::get),
        method: envelope.method,
        params: envelope.params.map(RawValue::get),
        result: envelope.result.map(RawValue::get),
        error: envelope.error.map(RawValue::get),
    })
}

/// A JSON-RPC error object's fields.
#[derive(Deserialize)]
struct ErrorBody<'a> {
    #[serde(default)]
    code: i64,
    #[serde(default, borrow)]
    message: Cow<'a, str>,
    #[serde(default, borrow)]
    data: Option<&'a RawValue>,
}

/// `params._meta.progressToken`.
#[derive(Deserialize)]
struct WithMeta<'a> {
    #[serde(rename = "_meta", default, borrow)]
    meta: Option<Meta<'a>>,
}

#[derive(Deserialize)]
struct Meta<'a> {
    #[serde(rename = "progressToken", default, borrow)]
    progress_token: Option<&'a RawValue>,
}

/// A [`Context`], borrowed, as the encoder writes it.
struct ContextRef<'a> {
    session: &'a str,
    direction: Direction,
    at: u64,
    id: Option<&'a str>,
    no_id: bool,
    raw: Option<&'a str>,
}

impl ContextRef<'_> {
    /// What `serde_json::to_writer(out, context)` writes, without its
    /// machinery: this runs for every message recorded.
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"session\":");
        json_string(out, self.session);
        out.extend_from_slice(match self.direction {
            Direction::In => b",\"direction\":\"in\",\"at\":",
            Direction::Out => b",\"direction\":\"out\",\"at\":",
        });
        out.extend_from_slice(itoa::Buffer::new().format(self.at).as_bytes());
        if let Some(id) = self.id {
            out.extend_from_slice(b",\"id\":");
            json_string(out, id);
        }
        if self.no_id {
            out.extend_from_slice(b",\"no_id\":true");
        }
        if let Some(raw) = self.raw {
            out.extend_from_slice(b",\"raw\":");
            json_string(out, raw);
        }
        out.push(b'}');
    }
}

/// `text` as a JSON string.
fn json_string(out: &mut Vec<u8>, text: &str) {
    if text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        serde_json::to_writer(out, text).expect("a string serialises");
    } else {
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    }
}

/// The record a decoded `Message` holds; an error names the field it cannot read.
pub fn decode_message(message: fb::Message) -> Result<Record, String> {
    let (meta, mut object) = match message.type_ {
        fb::MessageType::Request(request) => {
            let mut object = envelope(&request.jsonrpc);
            object.insert("id".into(), request.id.id.into());
            object.insert("method".into(), request.method.into());
            insert_json(&mut object, "params", request.params)?;
            (request.meta, object)
        }
        fb::MessageType::Notification(notification) => {
            let mut object = envelope(&notification.jsonrpc);
            object.insert("method".into(), notification.method.into());
            insert_json(&mut object, "params", notification.params)?;
            (notification.meta, object)
        }
        fb::MessageType::Response(response) => {
            let mut object = envelope(&response.jsonrpc);
            object.insert("id".into(), response.id.id.into());
            insert_json(&mut object, "result", Some(response.result))?;
            (response.meta, object)
        }
        fb::MessageType::Error(error) => {
            let mut object = envelope(&error.jsonrpc);
            object.insert("id".into(), error.id.id.into());
            let mut body = Map::new();
            body.insert("code".into(), error.code.into());
            body.insert("message".into(), error.message.into());
            insert_json(&mut body, "data", error.data)?;
            object.insert("error".into(), body.into());
            (error.meta, object)
        }
    };
    let data = meta.and_then(|m| m.additional_data).ok_or("the message has no `meta.additional_data`")?;
    let context: Context =
        serde_json::from_str(&data).map_err(|e| format!("`meta.additional_data` is not a record's context: {e}"))?;
    if context.no_id {
        object.remove("id");
    }
    if let Some(id) = context.id {
        let id = serde_json::from_str(&id).map_err(|e| format!("the recorded id `{id}` is not JSON: {e}"))?;
        object.insert("id".into(), id);
    }
    let message = match context.raw {
        Some(raw) => Value::String(raw),
        None => Value::Object(object),
    };
    Ok(Record { session: context.session, direction: context.direction, at_micros: context.at, message })
}

/// `{"jsonrpc": …}`, the start of every message.
fn envelope(jsonrpc: &str) -> Map<String, Value> {
    let mut object = Map::new();
    object.insert("jsonrpc".into(), jsonrpc.into());
    object
}

/// Puts the JSON text `field` (if any) under `key`.
fn insert_json(object: &mut Map<String, Value>, key: &str, field: Option<String>) -> Result<(), String> {
    if let Some(text) = field {
        let value = serde_json::from_str(&text).map_err(|e| format!("`{key}` is not JSON: {e}"))?;
        object.insert(key.into(), value);
    }
    Ok(())
}

/// `root` as a size-prefixed buffer with the file identifier.
fn finish<T>(root: &impl planus::WriteAsOffset<T>) -> Vec<u8> {
    let mut builder = planus::Builder::new();
    let buffer = builder.finish(root, Some(FILE_IDENTIFIER));
    let mut out = Vec::with_capacity(4 + buffer.len());
    out.extend_from_slice(&(buffer.len() as u32).to_le_bytes());
    out.extend_from_slice(buffer);
    standard_header(&mut out[4..]);
    out
}

/// Puts the root offset before the file identifier, where FlatBuffers has
/// it. planus 1.3.0 writes the two the other way round (its builder
/// prepends, and it writes the offset first): `[MCPP][offset from byte 4]`,
/// which other implementations, and planus's own reader, cannot read. The
/// 8-byte header keeps its size, so everything after it stays aligned.
fn standard_header(buffer: &mut [u8]) {
    if buffer[..4] == FILE_IDENTIFIER && buffer[4..8] != FILE_IDENTIFIER {
        let from_byte_4 = u32::from_le_bytes(buffer[4..8].try_into().expect("4 bytes"));
        buffer[..4].copy_from_slice(&(from_byte_4 + 4).to_le_bytes());
        buffer[4..8].copy_from_slice(&FILE_IDENTIFIER);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use planus::ReadAsRoot;
    use serde_json::json;

    fn round_trip(message: Value) -> Record {
        let record = Record { session: "s1".into(), direction: Direction::In, at_micros: 42, message };
        let buffer = encode_message(&record);
        assert_eq!(u32::from_le_bytes(buffer[..4].try_into().unwrap()) as usize, buffer.len() - 4);
        assert_eq!(&buffer[8..12], b"MCPP", "the identifier follows the root offset");
        let root = fb::MessageRef::read_as_root(&buffer[4..]).unwrap();
        let decoded = decode_message(root.try_into().unwrap()).unwrap();
        assert_eq!(decoded.session, "s1");
        assert_eq!(decoded.at_micros, 42);
        decoded
    }

    #[test]
    fn every_kind_of_message_comes_back_as_it_was() {
        for message in [
            json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "hi" } } }),
            json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
            json!({ "jsonrpc": "2.0", "id": 7, "result": { "content": [] } }),
            json!({ "jsonrpc": "2.0", "id": 7, "error": { "code": -32602, "message": "bad", "data": { "why": 1 } } }),
            json!({ "jsonrpc": "2.0", "id": "abc", "method": "ping" }),
            json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32700, "message": "Parse error" } }),
            json!({ "jsonrpc": "2.0", "error": { "code": -32700, "message": "Parse error" } }),
            json!({ "jsonrpc": "2.0", "id": -1, "result": {} }),
            json!({ "jsonrpc": "2.0", "id": 18446744073709551615_u64, "result": {} }),
            json!("not json at all {"),
            json!(r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"big":1e400}}"#),
            json!(r#"{"jsonrpc":"2.0","id":1,"result":"\ud800"}"#),
        ] {
            assert_eq!(round_trip(message.clone()).message, message);
        }
    }

    #[test]
    fn the_progress_token_has_its_field() {
        let message = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "name": "x", "_meta": { "progressToken": "tok" } } });
        let buffer = encode_message(&Record { session: "s".into(), direction: Direction::Out, at_micros: 0, message });
        let root = fb::MessageRef::read_as_root(&buffer[4..]).unwrap();
        let fb::MessageType::Request(request) = fb::Message::try_from(root).unwrap().type_ else { panic!("a request") };
        assert_eq!(request.meta.unwrap().progress_token.as_deref(), Some("tok"));
    }

    #[test]
    fn transports_come_back_as_they_were() {
        for transport in [
            Transport::Stdio { buffer_size: 65536 },
            Transport::Http {
                url: "http://127.0.0.1:8080/mcp".into(),
                headers: vec![("MCP-Protocol-Version".into(), "2025-11-25".into())],
                reconnect_ms: 3000,
            },
        ] {
            let buffer = encode_transport(&transport);
            let root = fb::TransportRef::read_as_root(&buffer[4..]).unwrap();
            assert_eq!(decode_transport(root.try_into().unwrap()), transport);
        }
    }
}
