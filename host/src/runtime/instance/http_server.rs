//! The link to a component that serves MCP over `wasi:http`: it exports
//! `wasi:http/incoming-handler@0.2` (as `mcp-wit wrap` writes them) or
//! `wasi:http/handler@0.3` (WASIp3). Each message is a POST to its handler,
//! in this process, without a socket; its answer JSON or an event stream.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use mcp_wit_protocol::jsonrpc::{Response, read_response};
use mcp_wit_protocol::{FaultKind, GuestFault, GuestResult};
use wasmtime::Store;
use wasmtime_wasi_http::WasiHttpView;
use wasmtime_wasi_http::p2::bindings::Proxy;
use wasmtime_wasi_http::p2::bindings::http::types::Scheme;
use wasmtime_wasi_http::p3::bindings::Service;

use super::fault::FaultFrom;
use super::fault::server_fault as fault;
use super::outgoing::Outgoing;
use crate::runtime::limits::CallView;
use crate::runtime::store::{StoreData, arm_call};

/// The revision whose requests stand alone.
const MODERN: &str = "2026-07-28";

/// A component's HTTP handler, of either WASI version.
pub(super) enum Handler {
    /// `wasi:http/incoming-handler@0.2`.
    P2(Proxy),
    /// `wasi:http/handler@0.3`, run on a store with the component model's
    /// concurrency.
    P3(Service),
}

/// What a handler answered: its response's head and whole body.
type Answer = (http::response::Parts, Bytes);

/// A component's HTTP handler, and what its session's messages carry.
pub(super) struct HttpLink {
    handler: Handler,
    /// The revision the session was opened at.
    version: Option<String>,
    /// The component's `Mcp-Session-Id`, once it gave one.
    session: Option<String>,
}

impl HttpLink {
    pub(super) fn new(handler: Handler) -> Self {
        HttpLink { handler, version: None, session: None }
    }

    /// POSTs `body` to the component's handler, as a client would; its
    /// status, session id and body. The handler's call runs under the
    /// call's limits, its body read while it writes it.
    async fn post(
        &mut self,
        store: &mut Store<StoreData>,
        message: Outgoing<'_>,
    ) -> GuestResult<(u16, Option<String>, String, Bytes)> {
        let mut request = http::Request::builder()
            .method(http::Method::POST)
            .uri("http://localhost/mcp")
            .header(http::header::HOST, "localhost")
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::ACCEPT, "application/json, text/event-stream");
        if let Some(version) = &self.version {
            request = request.header("mcp-protocol-version", version);
        }
        // A request that stands alone (2026-07-28, and the discovery that
        // finds it) names its revision, method and target in headers too.
        if self.version.as_deref().is_none_or(|version| version == MODERN) {
            let discover = message.method == "server/discover";
            if self.version.is_none() && discover {
                request = request.header("mcp-protocol-version", MODERN);
            }
            if self.version.is_some() || discover {
                request = request.header("mcp-method", message.method);
                if let Some(name) = message.target {
                    request = request.header("mcp-name", name);
                }
            }
        }
        let body = Full::new(Bytes::from(message.text));
        let request = request.body(body).map_err(|e| GuestFault::new(FaultKind::Trap, e.to_string()))?;
        arm_call(store);
        let (parts, body) = match &self.handler {
            Handler::P2(proxy) => handle_p2(proxy, store, request).await?,
            Handler::P3(service) => handle_p3(service, store, request).await?,
        };
        let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        let kind = header("content-type").unwrap_or_default();
        Ok((parts.status.as_u16(), header("mcp-session-id"), kind, body))
    }
}

/// A request handed to a WASIp2 handler, its answer read while it is
/// written.
async fn handle_p2(
    proxy: &Proxy,
    store: &mut Store<StoreData>,
    request: http::Request<Full<Bytes>>,
) -> GuestResult<Answer> {
    let handling = |e: wasmtime::Error| {
        GuestFault::new(FaultKind::Trap, format!("cannot hand the request to the component: {e:#}"))
    };
    let incoming = store.data_mut().http().new_incoming_request(Scheme::Http, request).map_err(handling)?;
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let outparam = store.data_mut().http().new_response_outparam(sender).map_err(handling)?;
    let handler = proxy.wasi_http_incoming_handler();
    let answer = async {
        let response = receiver.await.map_err(|_| "the component set no response".to_string())?;
        let response = response.map_err(|code| format!("the component answered with an error: {code:?}"))?;
        let (parts, body) = response.into_parts();
        let body = body.collect().await.map_err(|e| format!("cannot read the component's answer: {e:?}"))?;
        Ok::<_, String>((parts, body.to_bytes()))
    };
    // The body is read while the handler writes it; once the handler has
    // returned, nothing more will be written: a body it left open ends
    // the wait at the call's deadline, and a trap ends it at once.
    let (trapped, mut on_trap) = tokio::sync::watch::channel(false);
    let left = store.data().call_control().wait_controls().left;
    let calling = async {
        let called = handler.call_handle(&mut *store, incoming, outparam).await;
        if called.is_err() {
            let _ = trapped.send(true);
        }
        called
    };
    let reading = async {
        let trap = async {
            // Dropped without a trap: the answer alone ends the wait.
            if on_trap.wait_for(|trapped| *trapped).await.is_err() {
                std::future::pending::<()>().await;
            }
        };
        tokio::select! {
            answered = tokio::time::timeout(left, answer) => {
                answered.unwrap_or_else(|_| Err(LATE.to_string()))
            }
            () = trap => Err("the component trapped".to_string()),
        }
    };
    let (called, answered) = tokio::join!(calling, reading);
    called.map_err(|e| GuestFault::from_error("wasi:http/incoming-handler#handle", e, store.data()))?;
    answered.map_err(|message| GuestFault::new(FaultKind::Trap, message))
}

/// What a handler whose answer outlasts the call is told.
const LATE: &str = "the component's answer did not end in time";

/// A request handed to a WASIp3 handler: its call and the body it streams
/// run in the store's concurrent event loop, which also runs the tasks the
/// handler spawned to write it. Tasks still running once the body has ended
/// go on in the next request's loop.
async fn handle_p3(
    service: &Service,
    store: &mut Store<StoreData>,
    request: http::Request<Full<Bytes>>,
) -> GuestResult<Answer> {
    let (request, request_io) = wasmtime_wasi_http::p3::Request::from_http(store.data_mut().http().hooks, request);
    let left = store.data().call_control().wait_controls().left;
    let served = store.run_concurrent(async |accessor| -> wasmtime::Result<Result<Answer, String>> {
        let response = match service.handle(accessor, request).await? {
            Ok(response) => response,
            Err(code) => return Ok(Err(format!("the component answered with an error: {code:?}"))),
        };
        let response = accessor.with(|mut access| response.into_http(&mut access, request_io))?;
        let (parts, body) = response.into_parts();
        Ok(match body.collect().await {
            Ok(body) => Ok((parts, body.to_bytes())),
            Err(e) => Err(format!("cannot read the component's answer: {e:?}")),
        })
    });
    match tokio::time::timeout(left, served).await {
        Err(_) => Err(GuestFault::new(FaultKind::Trap, LATE.to_string())),
        Ok(Err(e) | Ok(Err(e))) => Err(GuestFault::from_error("wasi:http/handler#handle", e, store.data())),
        Ok(Ok(Ok(answered))) => answered.map_err(|message| GuestFault::new(FaultKind::Trap, message)),
    }
}

impl HttpLink {
    pub(super) async fn send(
        &mut self,
        store: &mut Store<StoreData>,
        message: Outgoing<'_>,
        id: Option<u64>,
        label: &str,
    ) -> GuestResult<Option<Response>> {
        let (status, session, kind, body) = self.post(store, message).await?;
        if !(200..300).contains(&status) {
            let excerpt = String::from_utf8_lossy(&body[..body.len().min(300)]).into_owned();
            return Err(fault(label, format!("answered HTTP {status}: {excerpt}")));
        }
        if self.session.is_none() {
            self.session = session;
        }
        match id {
            None => Ok(None),
            Some(id) => answer_to(id, &kind, &body).map(Some).map_err(|why| fault(label, why)),
        }
    }

    pub(super) fn opened(&mut self, version: &str) {
        self.version = Some(version.to_string());
    }
}

/// The response to request `id` in a component's answer: one JSON message,
/// or an event stream whose `data:` lines carry messages (notifications and
/// requests of its own before it are passed over).
fn answer_to(id: u64, kind: &str, body: &[u8]) -> Result<Response, String> {
    let text = std::str::from_utf8(body).map_err(|_| "its answer is not UTF-8".to_string())?;
    if kind.starts_with("text/event-stream") {
        let mut data = String::new();
        for line in text.lines().chain([""]) {
            if let Some(rest) = line.strip_prefix("data:") {
                data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
                data.push('\n');
            } else if line.is_empty() && !data.is_empty() {
                match read_response(data.as_bytes()) {
                    Some(response) if response.id == Some(id) => return Ok(response.answer),
                    Some(_) => {}
                    None => {
                        serde_json::from_str::<serde::de::IgnoredAny>(&data)
                            .map_err(|e| format!("an event is not JSON: {e}"))?;
                    }
                }
                data.clear();
            }
        }
        return Err("its event stream ended without the response".into());
    }
    match read_response(body) {
        Some(response) if response.id == Some(id) => Ok(response.answer),
        Some(_) => Err("its answer is not the response to the request".into()),
        None => {
            serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| format!("its answer is not JSON: {e}"))?;
            Err("its answer is not the response to the request".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_response_is_found_in_json_and_in_an_event_stream() {
        let json = br#"{"jsonrpc":"2.0","id":3,"result":{}}"#;
        let result = |answer: Result<Response, String>| -> serde_json::Value {
            serde_json::from_str(answer.unwrap().unwrap().get()).unwrap()
        };
        assert_eq!(result(answer_to(3, "application/json", json)), json!({}));
        assert!(answer_to(4, "application/json", json).is_err());
        let stream = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n\
                      id: 7\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"ok\":true}}\n\n";
        assert_eq!(result(answer_to(3, "text/event-stream", stream.as_bytes()))["ok"], true);
        assert!(answer_to(3, "text/event-stream", b"data: {}\n\n").is_err());
    }
}
