//! Modern (MCP 2026-07-28) POSTs on `/mcp`: stateless, one message each.
//!
//! A request whose body carries the 2026-07-28 envelope is served on its
//! own ([`StatelessRequest`]), without a session: no `Mcp-Session-Id` is
//! minted or read, and any replica can answer it. Before the guest sees it, the request goes
//! through the spec's validation ladder, each rung with its own status:
//! envelope (400, -32602), header against body (400, -32020), revision
//! (400, -32022), standard headers present (400, -32020), method served
//! (404, -32601), `Mcp-Param-*` against the tool's `x-mcp-header` arguments
//! (400, -32020). Errors of the handler itself (an unknown tool, a guest
//! failure) are answered in-band with 200.
//!
//! The client closing the response stream cancels the request.
//! `subscriptions/listen` answers with an SSE stream that stays open (with
//! keep-alive comments) until the client leaves or the server shuts down,
//! when it gets its final result.

use std::sync::Arc;

use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::value::RawValue;

use super::ServerState;
use super::answer::{CancelOnDrop, Target, answer};
use super::auth::RequestCaller;
use super::sessions::ServerStream;
use super::sse;
use super::wire;
use mcp_wit_protocol::envelope;
use mcp_wit_protocol::http::{RequestSubject, check_headers, check_param_headers, header_mismatch, rejection};
use mcp_wit_protocol::jsonrpc::{Message, RpcError};
use mcp_wit_protocol::{Admitted, Method};

use crate::{Session, StatelessRequest};

pub use mcp_wit_protocol::http::{header_is_modern, is_modern_message};

/// What the modern path made of a POSTed request.
pub enum ModernOutcome {
    /// It is 2026-07-28 traffic (or claims to be): here is its answer,
    /// a refusal included.
    Answered(Response),
    /// It is 2025 traffic: the message, untouched, for a session.
    ForSession(Message),
}

/// Serves `message` (a request) if it is modern traffic. Before the guest
/// sees it, the request climbs the validation ladder, each refusal
/// answered at once with its status.
pub async fn serve(
    server: &Arc<ServerState>,
    caller: &RequestCaller,
    headers: &HeaderMap,
    message: Message,
    streaming: bool,
) -> ModernOutcome {
    use ModernOutcome::{Answered, ForSession};
    let Message::Request { id, method, params } = &message else { return ForSession(message) };
    let (named, envelope) = RequestSubject::with_envelope(method, params.as_deref());
    let envelope = match envelope {
        Ok(Some(envelope)) => envelope,
        Ok(None) if !header_is_modern(headers) => return ForSession(message),
        // A modern header on a body that makes no modern claim.
        Ok(None) if method == "initialize" => {
            return Answered(rejected(
                id,
                header_mismatch(
                    "`initialize` is a 2025 request, but MCP-Protocol-Version names 2026-07-28 (send the 2025 revision, or no initialize at all)",
                ),
            ));
        }
        Ok(None) => return Answered(rejected(id, envelope::missing_envelope("MCP-Protocol-Version names 2026-07-28"))),
        Err(error) => return Answered(rejected(id, error)),
    };
    if let Err(error) = check_headers(headers, method, &named, &envelope) {
        return Answered(rejected(id, error));
    }
    if Method::parse(method) == Some(Method::Listen) {
        // The one request that outlives itself: served on a session.
        let mut session = server.session(caller);
        return Answered(match session.admit(method, &envelope).await {
            Ok(admitted) => listen(server, session, admitted, message).await,
            Err(error) => rejected(id, error),
        });
    }
    let mut request = server.stateless_request(caller);
    request.set_transport_context(trace_context(headers));
    let admitted = match request.admit(method, &envelope).await {
        Ok(admitted) => admitted,
        Err(error) => return Answered(rejected(id, error)),
    };
    if admitted.method() == Method::CallTool
        && let Err(error) = check_param_values(headers, &named, &mut request).await
    {
        return Answered(rejected(id, error));
    }
    let guard = CancelOnDrop::new(request.canceller(), id.get());
    let target = Target::Stateless { request: Box::new(request), admitted };
    Answered(answer(server, target, message, streaming, None, Some(guard)).await)
}

/// The answer to a request refused at the edge, echoing its id.
fn rejected(id: &RawValue, error: RpcError) -> Response {
    let (status, body) = rejection(id, &error);
    let mut response = wire::json(body);
    *response.status_mut() = status;
    response
}

/// `Mcp-Param-{Name}` against the arguments of a `tools/call` (see
/// [`check_param_headers`]): which arguments to check comes from the tool's
/// declaration, which the routers learnt.
async fn check_param_values(
    headers: &HeaderMap,
    call: &RequestSubject<'_>,
    request: &mut StatelessRequest,
) -> Result<(), RpcError> {
    let Some(tool) = call.tool() else { return Ok(()) };
    let declared = request.header_arguments(tool).await?;
    check_param_headers(headers, call, declared)
}

/// `subscriptions/listen`: the acknowledgement, then keep-alive comments;
/// at shutdown the request's final result ends the stream.
async fn listen(server: &Arc<ServerState>, mut session: Session, admitted: Admitted, message: Message) -> Response {
    let mut shutdown = server.shutdown.subscribe();
    let keep_alive = server.options.keep_alive;
    let stream = Arc::new(ServerStream::default());
    let (tx, rx) = stream.open(sse::CHANNEL_CAPACITY);
    session.set_sink(Some(stream));
    tokio::spawn(async move {
        let mut out: Vec<Vec<u8>> = Vec::new();
        if let Message::Request { id, params, .. } = &message {
            let _ = session.handle_admitted_async(id, admitted, params.as_deref(), &mut out).await;
        }
        for json in out {
            if tx.send(sse::message(&json)).await.is_err() {
                return;
            }
        }
        if session.open_subscriptions() == 0 {
            return;
        }
        let shutting_down = async move { shutdown.wait_for(|&down| down).await.is_ok() };
        let ended = tokio::select! {
            down = shutting_down => down,
            () = tx.closed() => false,
        };
        if !ended {
            tracing::debug!("a listening client left");
            return;
        }
        let mut end: Vec<Vec<u8>> = Vec::new();
        session.end_subscriptions(&mut end);
        for json in end {
            let _ = tx.send(sse::message(&json)).await;
        }
    });
    wire::event_stream(sse::body(Vec::new(), Some(rx), keep_alive, None, (), None))
}

/// The W3C trace context of the HTTP headers, if any.
fn trace_context(headers: &HeaderMap) -> Option<mcp_wit_protocol::observe::TraceContext> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let traceparent = header("traceparent")?;
    Some(mcp_wit_protocol::observe::TraceContext { traceparent: Some(traceparent), tracestate: header("tracestate") })
}
