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
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::Response;
use bytes::Bytes;
use futures_util::StreamExt;

use super::state::ServerState;
use super::wire;
use crate::transport::Tap;

/// Numbers the requests that belong to no session.
static LONE_REQUESTS: AtomicU64 = AtomicU64::new(0);

/// The layer: taps the request's body, then the messages of its response.
pub(super) async fn tee(State(server): State<Arc<ServerState>>, request: Request, next: Next) -> Response {
    let Some(tap) = server.options.tap.clone() else { return next.run(request).await };
    let (parts, body) = request.into_parts();
    let named = session_of(&parts.headers).or_else(|| query_session(parts.uri.query()));
    let options = &server.options;
    let bytes = match wire::read_body(body, options.max_body_size, options.body_timeout).await {
        Ok(bytes) => bytes,
        Err(refused) => return refused,
    };
    // A message of a known session is tapped before it is handled, so that
    // it comes before what it causes (on an HTTP+SSE stream, say).
    if let Some(session) = &named
        && !bytes.is_empty()
    {
        tap.received(session, bytes.trim_ascii());
    }
    let response = next.run(Request::from_parts(parts, Body::from(bytes.clone()))).await;
    let session = match named {
        Some(session) => session,
        None => {
            let session = session_of(response.headers())
                .unwrap_or_else(|| format!("request-{}", LONE_REQUESTS.fetch_add(1, Ordering::Relaxed) + 1));
            if !bytes.is_empty() {
                tap.received(&session, bytes.trim_ascii());
            }
            session
        }
    };
    let content_type = response.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    match content_type {
        Some(t) if t.starts_with("text/event-stream") => {
            let (parts, body) = response.into_parts();
            let mut watcher = Watcher { tap, session, pending: Vec::new() };
            let stream = body.into_data_stream().map(move |chunk| {
                if let Ok(bytes) = &chunk {
                    watcher.feed(bytes);
                }
                chunk
            });
            Response::from_parts(parts, Body::from_stream(stream))
        }
        Some(t) if t.starts_with("application/json") => {
            // A JSON answer is whole already: tapped, and given back as it was.
            let (parts, body) = response.into_parts();
            let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap_or_default();
            if !bytes.trim_ascii().is_empty() {
                tap.sent(&session, bytes.trim_ascii());
            }
            Response::from_parts(parts, Body::from(bytes))
        }
        _ => response,
    }
}

fn session_of(headers: &HeaderMap) -> Option<String> {
    wire::session_id(headers).ok().flatten().map(str::to_owned)
}

/// `sessionId=…` of a query (HTTP+SSE `/messages?sessionId=…`).
fn query_session(query: Option<&str>) -> Option<String> {
    query?.split('&').find_map(|pair| pair.strip_prefix("sessionId=")).map(str::to_owned)
}

/// Watches an SSE response body go by.
struct Watcher {
    tap: Tap,
    session: String,
    /// What arrived of the event not yet complete.
    pending: Vec<u8>,
}

impl Watcher {
    fn feed(&mut self, chunk: &Bytes) {
        self.pending.extend_from_slice(chunk);
        while let Some(end) = memchr::memmem::find(&self.pending, b"\n\n") {
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
                kind = value.trim_ascii();
            } else if let Some(value) = line.strip_prefix(b"data:") {
                if !data.is_empty() {
                    data.push(b'\n');
                }
                data.extend_from_slice(value.strip_prefix(b" ").unwrap_or(value));
            }
        }
        match kind {
            b"message" if !data.trim_ascii().is_empty() => self.tap.sent(&self.session, data.trim_ascii()),
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
        let mut watcher = Watcher { tap: Tap::new(seen.clone()), session: "request-1".into(), pending: Vec::new() };
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
