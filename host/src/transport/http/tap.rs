//! The HTTP transports' [`Tap`]: a layer that sees each request's body and
//! each message of its response (a JSON body, or every event of an SSE
//! stream) as they pass, and names the session they belong to.
//!
//! The session is the `Mcp-Session-Id` of the request or, for `initialize`,
//! of its response; the `sessionId` of an HTTP+SSE `/messages` post, or the
//! one a `/sse` stream announces in its `endpoint` event; a request with none
//! (a 2026-07-28 request, a stateless server's) is a session of its own,
//! `request-N`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use futures_util::StreamExt;

use super::ServerState;
use super::wire::SESSION_ID;
use crate::transport::Tap;

/// Numbers the requests that belong to no session.
static LONE_REQUESTS: AtomicU64 = AtomicU64::new(0);

/// The layer: taps the request's body, then the messages of its response.
pub(super) async fn tee(State(server): State<Arc<ServerState>>, request: Request, next: Next) -> Response {
    let Some(tap) = server.options.tap.clone() else { return next.run(request).await };
    let (parts, body) = request.into_parts();
    let named = session_of(&parts.headers).or_else(|| query_session(parts.uri.query()));
    let bytes = match axum::body::to_bytes(body, server.options.max_body_size).await {
        Ok(bytes) => bytes,
        Err(_) => return (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large").into_response(),
    };
    let response = next.run(Request::from_parts(parts, Body::from(bytes.clone()))).await;
    let session = named
        .or_else(|| session_of(response.headers()))
        .unwrap_or_else(|| format!("request-{}", LONE_REQUESTS.fetch_add(1, Ordering::Relaxed) + 1));
    if !bytes.is_empty() {
        tap.received(&session, trim(&bytes));
    }
    let kind = match response.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) {
        Some(t) if t.starts_with("text/event-stream") => Kind::Events,
        Some(t) if t.starts_with("application/json") => Kind::Json,
        _ => return response,
    };
    let (parts, body) = response.into_parts();
    let mut watcher = Watcher { tap, session, kind, pending: Vec::new() };
    let stream = body.into_data_stream().map(move |chunk| {
        if let Ok(bytes) = &chunk {
            watcher.feed(bytes);
        }
        chunk
    });
    Response::from_parts(parts, Body::from_stream(stream))
}

fn session_of(headers: &HeaderMap) -> Option<String> {
    headers.get(SESSION_ID).and_then(|v| v.to_str().ok()).map(str::to_owned)
}

/// `sessionId=…` of a query (HTTP+SSE `/messages?sessionId=…`).
fn query_session(query: Option<&str>) -> Option<String> {
    query?.split('&').find_map(|pair| pair.strip_prefix("sessionId=")).map(str::to_owned)
}

enum Kind {
    /// One JSON body: tapped whole when it ends.
    Json,
    /// An SSE stream: each event's data tapped when the event is complete.
    Events,
}

/// Watches a response body go by.
struct Watcher {
    tap: Tap,
    session: String,
    kind: Kind,
    /// What arrived of the message or event not yet complete.
    pending: Vec<u8>,
}

impl Watcher {
    fn feed(&mut self, chunk: &Bytes) {
        self.pending.extend_from_slice(chunk);
        if let Kind::Json = self.kind {
            return;
        }
        while let Some(end) = find(&self.pending, b"\n\n") {
            let event: Vec<u8> = self.pending.drain(..end + 2).collect();
            self.event(&event);
        }
    }

    /// One SSE event: its `data:` lines are a message, unless it is another
    /// kind of event (`endpoint`, which names a HTTP+SSE session).
    fn event(&mut self, event: &[u8]) {
        let mut kind: &[u8] = b"message";
        let mut data = Vec::new();
        for line in event.split(|b| *b == b'\n') {
            if let Some(value) = line.strip_prefix(b"event:") {
                kind = trim(value);
            } else if let Some(value) = line.strip_prefix(b"data:") {
                if !data.is_empty() {
                    data.push(b'\n');
                }
                data.extend_from_slice(value.strip_prefix(b" ").unwrap_or(value));
            }
        }
        match kind {
            b"message" if !trim(&data).is_empty() => self.tap.sent(&self.session, trim(&data)),
            b"endpoint" => {
                let endpoint = String::from_utf8_lossy(&data);
                if let Some(session) = query_session(endpoint.split_once('?').map(|(_, q)| q)) {
                    self.session = session;
                }
            }
            _ => {}
        }
    }
}

impl Drop for Watcher {
    /// A JSON body is complete when its stream ends.
    fn drop(&mut self) {
        if let Kind::Json = self.kind
            && !trim(&self.pending).is_empty()
        {
            self.tap.sent(&self.session, trim(&self.pending));
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|window| window == needle)
}

fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
    let end = bytes.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(start, |p| p + 1);
    &bytes[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Seen(Mutex<Vec<(String, String)>>);

    impl crate::transport::MessageTap for Arc<Seen> {
        fn received(&self, session: &str, message: &[u8]) {
            self.0.lock().unwrap().push((format!("in {session}"), String::from_utf8_lossy(message).into()));
        }
        fn sent(&self, session: &str, message: &[u8]) {
            self.0.lock().unwrap().push((format!("out {session}"), String::from_utf8_lossy(message).into()));
        }
    }

    #[test]
    fn events_split_across_chunks_are_tapped_whole_and_endpoints_name_the_session() {
        let seen = Arc::new(Seen::default());
        let mut watcher = Watcher {
            tap: Tap::new(seen.clone()),
            session: "request-1".into(),
            kind: Kind::Events,
            pending: Vec::new(),
        };
        for chunk in [
            &b"event: endpoint\ndata: /messages?sessionId=abc\n\n"[..],
            b"id: 0-0\nretry: 2000\ndata:\n\n",
            b"event: message\ndata: {\"jsonrpc\":",
            b"\"2.0\",\"id\":1,\"result\":{}}\n\n",
        ] {
            watcher.feed(&Bytes::copy_from_slice(chunk));
        }
        let seen = seen.0.lock().unwrap().clone();
        assert_eq!(seen, [("out abc".to_string(), r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_string())]);
    }
}
