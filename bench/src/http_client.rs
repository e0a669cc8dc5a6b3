//! One MCP session on its own HTTP/1.1 connection (hyper's client): what
//! the HTTP load run and the chaos driver open.

use std::borrow::Cow;
use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, bail, ensure};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HOST, HeaderValue};
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde::Deserialize;

use crate::PROTOCOL_VERSION;
use crate::mcp::{Answer, Era, MODERN_VERSION, call_body, check_echo};

/// How a server framed an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framing {
    /// One `application/json` body.
    Json,
    /// A `text/event-stream` body.
    Sse,
}

impl Framing {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Framing::Json => "json",
            Framing::Sse => "sse",
        }
    }
}

/// One session on its own HTTP/1.1 connection.
pub(crate) struct Client {
    pub(crate) index: usize,
    era: Era,
    /// The echo tool's name.
    tool: Arc<str>,
    sender: SendRequest<Full<Bytes>>,
    host: HeaderValue,
    /// `Authorization`, when the server wants a token.
    authorization: Option<HeaderValue>,
    session: Option<HeaderValue>,
    /// The framing of the last answer to a call.
    pub(crate) framing: Option<Framing>,
    expected: String,
}

/// A response, read to its end.
pub(crate) struct Reply {
    pub(crate) status: StatusCode,
    session: Option<HeaderValue>,
    framing: Option<Framing>,
    pub(crate) body: Bytes,
}

impl Client {
    /// Connects, then (legacy) `initialize` and `notifications/initialized`.
    pub(crate) async fn open(
        addr: SocketAddr,
        era: Era,
        index: usize,
        tool: Arc<str>,
        authorization: Option<HeaderValue>,
    ) -> anyhow::Result<Self> {
        let stream = tokio::net::TcpStream::connect(addr).await.with_context(|| format!("cannot connect to {addr}"))?;
        stream.set_nodelay(true)?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(async move {
            // Ends when the client is dropped or the server closes.
            let _ = connection.await;
        });
        let host = HeaderValue::from_str(&addr.to_string())?;
        let mut client = Client {
            index,
            era,
            tool,
            sender,
            host,
            authorization,
            session: None,
            framing: None,
            expected: String::with_capacity(32),
        };
        if era.is_modern() {
            return Ok(client);
        }

        let initialize = format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{PROTOCOL_VERSION}","capabilities":{{}},"clientInfo":{{"name":"mcp-wit-loadgen","version":"{}"}}}}}}"#,
            env!("CARGO_PKG_VERSION")
        );
        let reply = client.post(initialize).await.context("`initialize`")?;
        ensure!(
            reply.status == StatusCode::OK,
            "`initialize` answered {}: {}",
            reply.status,
            String::from_utf8_lossy(&reply.body)
        );
        client.session = Some(reply.session.clone().with_context(|| {
            format!("the `initialize` answer has no Mcp-Session-Id: {}", String::from_utf8_lossy(&reply.body))
        })?);
        let found = messages(&reply)?.into_iter().any(|message| {
            #[derive(Deserialize)]
            struct InitAnswer<'a> {
                id: Option<u64>,
                #[serde(borrow)]
                result: Option<InitResult<'a>>,
            }
            #[derive(Deserialize)]
            #[serde(rename_all = "camelCase")]
            struct InitResult<'a> {
                #[serde(borrow)]
                protocol_version: Cow<'a, str>,
            }
            matches!(
                serde_json::from_slice::<InitAnswer>(&message),
                Ok(InitAnswer { id: Some(0), result: Some(result) }) if !result.protocol_version.is_empty()
            )
        });
        ensure!(found, "no `initialize` result in: {}", String::from_utf8_lossy(&reply.body));

        let reply = client
            .post(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into())
            .await
            .context("`notifications/initialized`")?;
        ensure!(reply.status.is_success(), "`notifications/initialized` answered {}", reply.status);
        Ok(client)
    }

    /// One echo call, checked.
    pub(crate) async fn call(&mut self, id: u64) -> anyhow::Result<()> {
        self.expected.clear();
        {
            use std::fmt::Write as _;
            write!(self.expected, "session {} echo {id}", self.index).expect("writing to a String");
        }
        let body = call_body(self.era, id, &self.tool, &self.expected);
        let reply = self.post(body).await?;
        ensure!(
            reply.status == StatusCode::OK,
            "the server answered {}: {}",
            reply.status,
            String::from_utf8_lossy(&reply.body)
        );
        self.framing = reply.framing;
        for message in messages(&reply)? {
            let answer: Answer = serde_json::from_slice(&message)
                .with_context(|| format!("not a JSON-RPC message: {}", String::from_utf8_lossy(&message)))?;
            if let Some(error) = answer.error {
                bail!("the call failed: {}", error.get());
            }
            match answer.id {
                Some(answered) if answered == id => return check_echo(&answer, &self.expected),
                Some(other) => bail!("an answer to id {other}, expected {id}"),
                None => continue, // a notification
            }
        }
        bail!("no answer to id {id} in: {}", String::from_utf8_lossy(&reply.body))
    }

    /// A call of `tool` (without arguments): the first message of its
    /// answer, unchecked.
    pub(crate) async fn call_raw(&mut self, id: u64, tool: &str) -> anyhow::Result<Vec<u8>> {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{}}}}}}"#
        );
        let reply = self.post(body).await?;
        ensure!(reply.status == StatusCode::OK, "`{tool}` was answered {}", reply.status);
        let first = messages(&reply)?.into_iter().next().context("an empty answer")?;
        Ok(first.into_owned())
    }

    /// POSTs one JSON-RPC message to `/mcp` and reads the whole response.
    async fn post(&mut self, body: String) -> anyhow::Result<Reply> {
        let tool = self.tool.clone();
        self.post_as(body, "tools/call", &tool).await
    }

    /// Posts `body`, a 2026-07-28 request of `method` naming `name` (its
    /// `Mcp-Name`), with the headers a modern client sends.
    pub(crate) async fn post_as(&mut self, body: String, method: &str, name: &str) -> anyhow::Result<Reply> {
        let mut request = Request::builder()
            .method(Method::POST)
            .uri("/mcp")
            .header(HOST, self.host.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream");
        if let Some(session) = &self.session {
            request =
                request.header("mcp-session-id", session.clone()).header("mcp-protocol-version", PROTOCOL_VERSION);
        }
        if let Some(authorization) = &self.authorization {
            request = request.header(AUTHORIZATION, authorization.clone());
        }
        if self.era.is_modern() {
            request = request
                .header("mcp-protocol-version", MODERN_VERSION)
                .header("mcp-method", method)
                .header("mcp-name", name);
        }
        let request = request.body(Full::new(Bytes::from(body)))?;
        self.sender.ready().await.context("the connection closed")?;
        let response = self.sender.send_request(request).await?;
        let (parts, body) = response.into_parts();
        let framing = parts.headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).and_then(|media| {
            let media = media.trim_start();
            if media.starts_with("application/json") {
                Some(Framing::Json)
            } else if media.starts_with("text/event-stream") {
                Some(Framing::Sse)
            } else {
                None
            }
        });
        let body = body.collect().await.context("reading the response body")?.to_bytes();
        Ok(Reply { status: parts.status, session: parts.headers.get("mcp-session-id").cloned(), framing, body })
    }
}

/// The JSON-RPC messages in a response body: the body itself for JSON, the
/// data of each event (that has data) for SSE.
pub(crate) fn messages(reply: &Reply) -> anyhow::Result<Vec<Cow<'_, [u8]>>> {
    match reply.framing {
        Some(Framing::Json) => Ok(vec![Cow::Borrowed(&reply.body[..])]),
        Some(Framing::Sse) => Ok(sse_data(&reply.body)),
        None => bail!("a response that is neither application/json nor text/event-stream"),
    }
}

/// The data of each SSE event in `body` (events without data, such as a
/// priming event or a keep-alive comment, are skipped). Several `data:` lines
/// of one event are joined with `\n`.
fn sse_data(body: &[u8]) -> Vec<Cow<'_, [u8]>> {
    let mut events = Vec::new();
    let mut data: Option<Cow<'_, [u8]>> = None;
    for line in body.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            events.extend(data.take().filter(|d| !d.is_empty()));
            continue;
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(at) => (&line[..at], &line[at + 1..]),
            None => (line, &line[line.len()..]),
        };
        if field != b"data" {
            continue; // a comment, `event:`, `id:` or `retry:`
        }
        let value = value.strip_prefix(b" ").unwrap_or(value);
        data = Some(match data.take() {
            None => Cow::Borrowed(value),
            Some(previous) => {
                let mut joined = previous.into_owned();
                joined.push(b'\n');
                joined.extend_from_slice(value);
                Cow::Owned(joined)
            }
        });
    }
    events.extend(data.filter(|d| !d.is_empty()));
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sse_events() {
        let body = b"id: 0\nretry: 3000\ndata: \n\n: keep-alive\n\nevent: message\ndata: {\"a\":1}\n\ndata: x\r\ndata: y\r\n\r\ndata:{}";
        let events = sse_data(body);
        let events: Vec<&[u8]> = events.iter().map(|e| e.as_ref()).collect();
        assert_eq!(events, [&b"{\"a\":1}"[..], b"x\ny", b"{}"]);
    }
}
