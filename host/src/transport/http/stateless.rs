//! 2026-07-28 requests on `/mcp`: stateless, one message each, classified
//! as such by [`Post::read`](mcp_wit_protocol::http::Post::read) and served here alone.
//!
//! A request whose body carries the 2026-07-28 envelope is served on its
//! own ([`StatelessRequest`]), without a session: no `Mcp-Session-Id` is
//! minted or read, and any replica can answer it. Before the guest sees it, the request goes
//! through the spec's validation ladder, each rung with its own status; the
//! rungs that need only the body and the headers were climbed as it was read
//! (`Post::read`): envelope (400, -32602), header against body (400, -32020),
//! revision (400, -32022), standard headers present (400, -32020); then here
//! the scopes (403, with authorization), method served
//! (404, -32601), `Mcp-Param-*` against the tool's `x-mcp-header` arguments
//! (400, -32020). Errors of the handler itself (an unknown tool, a guest
//! failure) are answered in-band with 200.
//!
//! The client closing the response stream cancels the request.
//! `subscriptions/listen` answers with an SSE stream that stays open (with
//! keep-alive comments) until the client leaves or the server shuts down,
//! when it gets its final result.

use std::sync::Arc;

use axum::http::{HeaderMap, HeaderName};
use axum::response::Response;

use super::answer::{Target, answer};
use super::auth::{self, RequestCaller};
use super::sessions::ServerStream;
use super::sse;
use super::state::ServerState;
use super::tasks;
use super::wire::{self, rejected};
use mcp_wit_protocol::http::{Framing, PostedRequest, RequestSubject, StatelessPost, check_param_headers};
use mcp_wit_protocol::jsonrpc::{Message, RpcError};
use mcp_wit_protocol::tasks::{TASKS_EXTENSION, TaskMethod, missing_tasks_extension};
use mcp_wit_protocol::{Admitted, Method};

use crate::tasks::TaskDecision;
use crate::{Session, StatelessRequest};

/// Serves a 2026-07-28 request. Before the guest sees it, the request
/// climbs the rest of the validation ladder, each refusal answered at once
/// with its status (a refusal of the rungs `Post::read` climbed comes after
/// the scopes, as it always did).
pub(super) async fn serve(
    server: &Arc<ServerState>,
    caller: &RequestCaller,
    headers: &HeaderMap,
    post: StatelessPost<'_>,
    framing: Framing,
) -> Response {
    let StatelessPost { request, subject, envelope } = post;
    let PostedRequest { id, method, params } = &request;
    if let Err(refused) = auth::allow_operation(server, caller, method, *params, Some(&subject)) {
        return refused;
    }
    let envelope = match envelope {
        Ok(envelope) => envelope,
        Err(error) => return rejected(id, error),
    };
    if let Some(task_method) = TaskMethod::parse(method)
        && let Some(tasks) = &server.tasks
    {
        return tasks::serve_method(server, tasks, caller, task_method, id, *params, &envelope).await;
    }
    if Method::parse(method) == Some(Method::Listen) {
        // The one request that outlives itself: served on a session.
        let mut session = server.session(caller);
        return match session.admit(method, &envelope).await {
            Ok(admitted) => listen(server, session, admitted, request.to_message()).await,
            Err(error) => rejected(id, error),
        };
    }
    let mut stateless = server.served_request(caller);
    stateless.set_transport_context(trace_context(headers));
    let admitted = match stateless.admit(method, &envelope).await {
        Ok(admitted) => admitted,
        Err(error) => return rejected(id, error),
    };
    if admitted.method() == Method::CallTool
        && let Err(error) = check_param_values(headers, &subject, &mut stateless).await
    {
        return rejected(id, error);
    }
    if let Some(tasks) = &server.tasks
        && admitted.method() == Method::CallTool
    {
        let tool = subject.tool().unwrap_or_default();
        match tasks.options().policies.decide(tool, admitted.client_declares(TASKS_EXTENSION)) {
            TaskDecision::Plain => {}
            TaskDecision::Refuse => return rejected(id, missing_tasks_extension(&format!("tool `{tool}`"))),
            TaskDecision::MayBecomeTask { after, required } => {
                let request = ((*id).to_owned(), params.map(ToOwned::to_owned));
                let answer = (framing, trace_context(headers));
                let stateless = stateless.into_request();
                return tasks::call(tasks, caller, stateless, admitted, request, (after, required), answer).await;
            }
        }
    }
    // The call's params as `Post::read` read them: not read again.
    if admitted.method() == Method::CallTool
        && let Some(call) = subject.read_call()
    {
        stateless.set_read_call(call);
    }
    let canceller = stateless.canceller();
    let (id, params) = ((*id).to_owned(), params.map(ToOwned::to_owned));
    let target = Target::Stateless { request: stateless, admitted, id, params };
    answer(server, target, framing, None, Some(canceller)).await
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
    // Named once: a name given as text is parsed at every lookup.
    static TRACEPARENT: HeaderName = HeaderName::from_static("traceparent");
    static TRACESTATE: HeaderName = HeaderName::from_static("tracestate");
    let header = |name: &HeaderName| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let traceparent = header(&TRACEPARENT)?;
    Some(mcp_wit_protocol::observe::TraceContext { traceparent: Some(traceparent), tracestate: header(&TRACESTATE) })
}
