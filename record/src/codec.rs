//! One record to and from one FlatBuffers buffer: a JSON-RPC message as the
//! schema's `Message`, the transport as its `Transport`.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::FILE_IDENTIFIER;
use crate::generated::mcp::fb;

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
    Encoder::default().encode(&record.session, record.direction, record.at_micros, text.as_bytes(), &mut out);
    out
}

/// Encodes messages from their JSON text, reusing its buffers: the fields
/// are borrowed from the text, and no JSON tree is built.
#[derive(Default)]
pub struct Encoder {
    builder: planus::Builder,
    context: Vec<u8>,
}

/// A JSON-RPC message's fields, borrowed from its text.
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

impl Encoder {
    /// Appends the size-prefixed buffer of `message` (a JSON-RPC message's
    /// text; anything else is kept as text) of `session` to `out`.
    pub fn encode(&mut self, session: &str, direction: Direction, at_micros: u64, message: &[u8], out: &mut Vec<u8>) {
        let mut context = ContextRef { session, direction, at: at_micros, id: None, no_id: false, raw: None };
        let builder = &mut self.builder;
        builder.clear();
        let envelope = serde_json::from_slice::<Envelope<'_>>(message).ok();
        let Some(envelope) = envelope else {
            let raw = String::from_utf8_lossy(message);
            context.raw = Some(&raw);
            let meta = metadata(builder, &mut self.context, &context, None);
            let unparsed = fb::Notification::create(builder, "2.0", "", None::<&str>, Some(meta));
            let root = fb::MessageType::create_notification(builder, unparsed);
            let message = fb::Message::create(builder, root);
            return finish_into(builder, message, out);
        };
        let jsonrpc = envelope.jsonrpc.as_deref().unwrap_or("2.0");
        let request_id = match envelope.id {
            Some(id) => match id.get().parse::<u64>() {
                Ok(id) => fb::RequestId { id },
                Err(_) => {
                    context.id = Some(id.get());
                    fb::RequestId { id: 0 }
                }
            },
            None => fb::RequestId { id: 0 },
        };
        // Read again only where it can be: most params carry no token.
        let progress_token = envelope
            .params
            .filter(|params| params.get().contains("progressToken"))
            .and_then(|params| serde_json::from_str::<WithMeta<'_>>(params.get()).ok())
            .and_then(|with| with.meta?.progress_token)
            .map(|token| serde_json::from_str::<Cow<'_, str>>(token.get()).unwrap_or(Cow::Borrowed(token.get())));
        let params = envelope.params.map(RawValue::get);
        let root = match (envelope.method.as_deref(), envelope.error) {
            (Some(method), _) if envelope.id.is_some() => {
                let meta = metadata(builder, &mut self.context, &context, progress_token.as_deref());
                let request = fb::Request::create(builder, jsonrpc, request_id, method, params, Some(meta));
                fb::MessageType::create_request(builder, request)
            }
            (Some(method), _) => {
                let meta = metadata(builder, &mut self.context, &context, progress_token.as_deref());
                let notification = fb::Notification::create(builder, jsonrpc, method, params, Some(meta));
                fb::MessageType::create_notification(builder, notification)
            }
            (None, Some(error)) => {
                context.no_id = envelope.id.is_none();
                let body = serde_json::from_str::<ErrorBody<'_>>(error.get()).ok();
                let (code, text, data) = match &body {
                    Some(body) => (i32::try_from(body.code).unwrap_or(0), &*body.message, body.data.map(RawValue::get)),
                    None => (0, "", None),
                };
                let meta = metadata(builder, &mut self.context, &context, None);
                let error = fb::Error::create(builder, jsonrpc, request_id, code, text, data, Some(meta));
                fb::MessageType::create_error(builder, error)
            }
            (None, None) => {
                context.no_id = envelope.id.is_none();
                let result = envelope.result.map_or("null", RawValue::get);
                let meta = metadata(builder, &mut self.context, &context, None);
                let response = fb::Response::create(builder, jsonrpc, request_id, result, Some(meta));
                fb::MessageType::create_response(builder, response)
            }
        };
        let message = fb::Message::create(builder, root);
        finish_into(builder, message, out);
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

/// The message's `Metadata`: `context` as JSON in `additional_data`
/// (written into `scratch`), and the progress token.
fn metadata(
    builder: &mut planus::Builder,
    scratch: &mut Vec<u8>,
    context: &ContextRef<'_>,
    progress_token: Option<&str>,
) -> planus::Offset<fb::Metadata> {
    scratch.clear();
    // What `serde_json::to_writer(scratch, context)` writes, without its
    // machinery: this runs for every message recorded.
    scratch.extend_from_slice(b"{\"session\":");
    serde_json::to_writer(&mut *scratch, context.session).expect("a string serialises");
    scratch.extend_from_slice(match context.direction {
        Direction::In => b",\"direction\":\"in\",\"at\":",
        Direction::Out => b",\"direction\":\"out\",\"at\":",
    });
    scratch.extend_from_slice(context.at.to_string().as_bytes());
    if let Some(id) = context.id {
        scratch.extend_from_slice(b",\"id\":");
        serde_json::to_writer(&mut *scratch, id).expect("a string serialises");
    }
    if context.no_id {
        scratch.extend_from_slice(b",\"no_id\":true");
    }
    if let Some(raw) = context.raw {
        scratch.extend_from_slice(b",\"raw\":");
        serde_json::to_writer(&mut *scratch, raw).expect("a string serialises");
    }
    scratch.push(b'}');
    let additional_data = std::str::from_utf8(scratch).expect("serde_json writes UTF-8");
    fb::Metadata::create(builder, progress_token, Some(additional_data))
}

/// `root` as a size-prefixed buffer with the file identifier.
fn finish<T>(root: &impl planus::WriteAsOffset<T>) -> Vec<u8> {
    let mut builder = planus::Builder::new();
    let mut out = Vec::new();
    finish_into(&mut builder, root, &mut out);
    out
}

/// Appends `root`, built in `builder`, to `out` as a size-prefixed buffer
/// with the file identifier.
fn finish_into<T>(builder: &mut planus::Builder, root: impl planus::WriteAsOffset<T>, out: &mut Vec<u8>) {
    let buffer = builder.finish(root, Some(FILE_IDENTIFIER));
    let start = out.len();
    out.extend_from_slice(&(buffer.len() as u32).to_le_bytes());
    out.extend_from_slice(buffer);
    standard_header(&mut out[start + 4..]);
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
