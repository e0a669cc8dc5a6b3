//! `wasi:http/incoming-handler`: Streamable HTTP without sessions, one
//! request per instance as engines run them. A 2026-07-28 request climbs the
//! same validation ladder as on `mcp-wit serve --http` (the core's
//! [`mcp_wit_protocol::http`] rules) and is served on its own; a 2025 request
//! is served as `mcp-wit serve --http --stateless` serves it (no session:
//! initialized from its `MCP-Protocol-Version` header). GET and DELETE, which
//! only sessions use, are 405, but for the health checks of load balancers
//! (`GET /healthz`, `GET /readyz`).

use std::cell::Cell;
use std::io::Write;
use std::sync::Arc;

use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use mcp_wit_protocol::auth::{AuthRefusal, Caller, RefusalKind};
use mcp_wit_protocol::envelope::{self, Envelope};
use mcp_wit_protocol::http::{
    Framing,
    self as rules, EVENT_STREAM, JSON, McpHeaders, PostedMessage, Refusal, RequestSubject, check_headers,
    check_param_headers, header_mismatch, outcome_status, rejection, write_event,
};
use mcp_wit_protocol::jsonrpc::{Message, RpcError};
use mcp_wit_protocol::{Method, Outcome, Routers, Session, block_on};
use serde_json::value::RawValue;
use wasip2::http::types::{
    Fields, IncomingRequest, Method as HttpMethod, OutgoingBody, OutgoingResponse, ResponseOutparam,
};
use wasip2::io::streams::StreamError;

use crate::Adapter;
use crate::auth::{AuthSetting, ResourceServer};
use crate::mcp_wit::adapter::request_caller;
use crate::mcp_wit::extension::caller::Identity;
use crate::router::Imported;
use crate::settings::{Settings, StateKeySetting};

/// What an instance reads once: an engine may serve many requests with one
/// instance (`wasmtime serve --max-instance-reuse-count`), and the
/// environment does not change under it, nor does what the router said of
/// itself (its capabilities, its tools' schemas), which the routers keep
/// learnt for the requests after, as `mcp-wit serve` keeps them for its
/// process. Nothing of a request is kept: its caller is set anew for each.
struct Instance {
    settings: Settings,
    auth: AuthSetting,
    routers: Routers<Imported>,
    /// Whether the caller cell holds a caller (set by the last request).
    caller_set: Cell<bool>,
}

impl Instance {
    /// The log first, before anything that may warn.
    fn start() -> Instance {
        crate::log::install();
        Instance {
            settings: Settings::from_env().over_http(),
            // Only HTTP authenticates (stdio is whoever started the component).
            auth: AuthSetting::from_env(),
            routers: Routers::from(Imported),
            caller_set: Cell::new(false),
        }
    }
}

thread_local! {
    static INSTANCE: Instance = Instance::start();
}

impl wasip2::exports::http::incoming_handler::Guest for Adapter {
    fn handle(request: IncomingRequest, out: ResponseOutparam) {
        let answer = INSTANCE.with(|instance| answer(&request, instance));
        send(out, answer);
    }
}

/// The content type of the health checks' answers.
const TEXT: &str = "text/plain; charset=utf-8";

/// An HTTP answer.
struct Answer {
    status: StatusCode,
    content_type: Option<&'static str>,
    /// Further headers (`Allow`, `WWW-Authenticate`, `Retry-After`).
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn json(status: StatusCode, body: Vec<u8>) -> Self {
        Answer { status, content_type: Some(JSON), headers: Vec::new(), body }
    }

    fn empty(status: StatusCode) -> Self {
        Answer { status, content_type: None, headers: Vec::new(), body: Vec::new() }
    }

    fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    /// A request authorization refuses, with its challenge.
    fn unauthorized(server: &ResourceServer, refusal: &AuthRefusal) -> Self {
        eprintln!(
            "adapter: refused a request: {} {}: {}",
            refusal.status().as_u16(),
            refusal.error_code().unwrap_or("unauthenticated"),
            refusal.reason()
        );
        let answer = Answer::refused(Refusal::new(refusal.status(), refusal.message()));
        match refusal.kind {
            RefusalKind::KeysUnavailable(_) => answer.with_header("retry-after", "5"),
            _ => answer.with_header("www-authenticate", server.metadata.challenge(refusal)),
        }
    }

    fn refused(refusal: Refusal) -> Self {
        Answer::json(refusal.status, refusal.body())
    }

    /// A request refused before the router saw it, echoing its id.
    fn rejected(id: &RawValue, error: RpcError) -> Self {
        let (status, body) = rejection(id, &error);
        Answer::json(status, body)
    }
}

fn answer(request: &IncomingRequest, instance: &Instance) -> Answer {
    let Instance { settings, auth, routers, caller_set } = instance;
    // Each of these is a call into the engine: made once.
    let method = request.method();
    let target = request.path_with_query().unwrap_or_default();
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (target.as_str(), None),
    };
    // For load balancers' health checks, as on `mcp-wit serve --http`: an
    // instance that runs this far can serve (the engine drains on its own).
    if matches!(method, HttpMethod::Get) && matches!(path, "/healthz" | "/readyz") {
        return Answer { status: StatusCode::OK, content_type: Some(TEXT), headers: Vec::new(), body: b"ok\n".to_vec() };
    }
    let headers = header_map(request);
    if let Err(refusal) = settings.security.check(&headers) {
        return Answer::refused(refusal);
    }
    if let StateKeySetting::Broken(why) = &settings.state_key {
        let why = format!("Internal Server Error: this server's state key setting cannot work: {why}");
        return Answer::refused(Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, why));
    }
    let auth = match auth {
        AuthSetting::Off => None,
        AuthSetting::Broken(why) => {
            let why = format!("Internal Server Error: this server's authorization settings cannot work: {why}");
            return Answer::refused(Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, why));
        }
        AuthSetting::On(server) => Some(server.as_ref()),
    };
    // The Protected Resource Metadata is for clients without a token yet.
    if let Some(server) = auth
        && matches!(method, HttpMethod::Get)
        && server.metadata.is_metadata_path(path)
    {
        return Answer::json(StatusCode::OK, server.metadata.document().to_vec());
    }
    let caller = match auth {
        None => None,
        Some(server) => match server.authenticate(&headers, query) {
            Ok(caller) => Some(caller),
            Err(refusal) => return Answer::unauthorized(server, &refusal),
        },
    };
    match method {
        HttpMethod::Post => {}
        _ => {
            let refusal = Refusal::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "Method not allowed: this server keeps no sessions, so it has no stream to open or end; POST each request",
            );
            return Answer::refused(refusal).with_header("allow", "POST");
        }
    }
    let framing = match rules::negotiate(&headers, settings.json_response) {
        Ok(framing) => framing,
        Err(refusal) => return Answer::refused(refusal),
    };
    let body = match read_body(request, settings.max_message_size) {
        Ok(body) => body,
        Err(answer) => return answer,
    };
    let (initialize, message) = match rules::classify(&body) {
        PostedMessage::Invalid(error) => return Answer::json(StatusCode::BAD_REQUEST, error),
        // Nothing to answer without a session: notifications and responses
        // are accepted and dropped (2026-07-28 has none over HTTP).
        PostedMessage::Accepted { .. } => return Answer::empty(StatusCode::ACCEPTED),
        PostedMessage::Request { initialize, message } => (initialize, message),
    };
    let Message::Request { id, method, params } = &message else { unreachable!("classified as a request") };
    // What the request does to a named tool, prompt or resource may need
    // more scopes: checked before the router sees it.
    if let (Some(server), Some(caller)) = (auth, &caller)
        && server.scopes.has_rules()
        && let Err(refusal) = server.allow(caller, RequestSubject::of(method, params.as_deref()).operation(method))
    {
        return Answer::unauthorized(server, &refusal);
    }
    let mut options = settings.session.clone();
    if let Some(server) = auth.filter(|server| server.filter_lists) {
        options.list_filter = Some(server.scopes.clone());
    }
    let mut session = Session::new(routers.clone(), options);
    // The router hears its caller (`mcp-wit:extension/caller`); a
    // 2026-07-28 `requestState` is bound to it.
    // A call into the caller cell, made only when its value changes (an
    // instance may serve many unauthenticated requests in a row).
    if caller.is_some() || caller_set.get() {
        request_caller::set(caller.as_ref().map(identity).as_ref());
        caller_set.set(caller.is_some());
    }
    session.set_caller(caller.map(Arc::new));
    let (out, refused) = match Envelope::read(params.as_deref()) {
        Ok(Some(envelope)) => match modern(&headers, &mut session, id, method, params.as_deref(), &envelope) {
            Ok((out, outcome)) => (out, outcome_status(outcome)),
            Err(error) => return Answer::rejected(id, error),
        },
        Ok(None) if !rules::header_is_modern(&headers) => match legacy(&headers, &mut session, initialize, &body) {
            Ok(out) => (out, None),
            Err(refusal) => return Answer::refused(refusal),
        },
        Ok(None) if initialize => {
            let error = header_mismatch(
                "`initialize` is a 2025 request, but MCP-Protocol-Version names 2026-07-28 (send the 2025 revision, or no initialize at all)",
            );
            return Answer::rejected(id, error);
        }
        Ok(None) => return Answer::rejected(id, envelope::missing_envelope("MCP-Protocol-Version names 2026-07-28")),
        Err(error) => return Answer::rejected(id, error),
    };
    respond(out, refused, framing)
}

/// A 2026-07-28 request: the ladder, then the request on its own.
fn modern(
    headers: &HeaderMap,
    session: &mut Session<Imported>,
    id: &RawValue,
    method: &str,
    params: Option<&RawValue>,
    envelope: &Envelope,
) -> Result<(Vec<Vec<u8>>, Outcome), RpcError> {
    let named = RequestSubject::of(method, params);
    check_headers(&McpHeaders::read(headers), method, &named, envelope)?;
    let admitted = block_on(session.admit(method, envelope))?;
    if admitted.method() == Method::CallTool
        && let Some(tool) = named.tool()
    {
        let declared = block_on(session.header_arguments(tool))?;
        check_param_headers(headers, &named, declared)?;
    }
    let listen = admitted.method() == Method::Listen;
    let mut out = Vec::new();
    let outcome = block_on(session.handle_admitted_async(id, admitted, params, &mut out));
    if listen {
        // Nothing here can report a change (the router's client interface is
        // not served on engines): the stream is acknowledged and ended.
        session.end_subscriptions(&mut out);
    }
    Ok((out, outcome))
}

/// A 2025 request without a session, initialized from its header.
fn legacy(
    headers: &HeaderMap,
    session: &mut Session<Imported>,
    initialize: bool,
    body: &[u8],
) -> Result<Vec<Vec<u8>>, Refusal> {
    let version = rules::protocol_version(headers)?;
    if !initialize && let Err(error) = session.assume_initialized(version) {
        return Err(Refusal { status: StatusCode::INTERNAL_SERVER_ERROR, error });
    }
    let mut out = Vec::new();
    session.handle(body, &mut out);
    Ok(out)
}

/// The session's messages as the answer: the response alone as JSON when
/// the client takes it (see [`Framing::whole_as_json`]), else SSE events; a
/// 2026-07-28 refusal found while the router ran (`refused`) with its status.
fn respond(out: Vec<Vec<u8>>, refused: Option<StatusCode>, framing: Framing) -> Answer {
    if out.is_empty() {
        return Answer::empty(StatusCode::ACCEPTED);
    }
    if let Some(status) = refused {
        return Answer::json(status, out.into_iter().last().expect("a last message"));
    }
    if framing.whole_as_json(out.len()) {
        return Answer::json(StatusCode::OK, out.into_iter().last().expect("a last message"));
    }
    let mut body = Vec::new();
    for message in &out {
        write_event(&mut body, "message", None, message);
    }
    Answer { status: StatusCode::OK, content_type: Some(EVENT_STREAM), headers: Vec::new(), body }
}

/// The caller as the router reads it.
fn identity(caller: &Caller) -> Identity {
    Identity {
        issuer: caller.issuer.clone(),
        subject: caller.subject.clone(),
        client_id: caller.client_id.clone(),
        scopes: caller.scopes.clone(),
    }
}

/// The request's headers in the `http` crate's map (invalid ones skipped).
/// The request's headers as the core's rules read them. `wasi:http` keeps
/// `Host` out of the fields (it is the request's authority): it is put back,
/// for the Host policy.
fn header_map(request: &IncomingRequest) -> HeaderMap {
    let entries = request.headers().entries();
    let mut map = HeaderMap::with_capacity(entries.len() + 1);
    for (name, value) in entries {
        if let (Ok(name), Ok(value)) = (HeaderName::try_from(name), HeaderValue::from_bytes(&value)) {
            map.append(name, value);
        }
    }
    if !map.contains_key(http::header::HOST)
        && let Some(authority) = request.authority()
        && let Ok(value) = HeaderValue::try_from(authority)
    {
        map.insert(http::header::HOST, value);
    }
    map
}

/// The whole body, at most `limit` bytes (413 beyond). Read in pieces as
/// large as the engine has ready, not in `Read::read_to_end`'s small
/// probes: each read is a call into the engine.
fn read_body(request: &IncomingRequest, limit: usize) -> Result<Vec<u8>, Answer> {
    let unreadable = |why: &str| {
        Answer::refused(Refusal::new(StatusCode::BAD_REQUEST, format!("Bad Request: cannot read the body: {why}")))
    };
    let incoming = request.consume().map_err(|()| unreadable("it was already taken"))?;
    let stream = incoming.stream().map_err(|()| unreadable("it has no stream"))?;
    let mut body = Vec::new();
    loop {
        let room = (limit + 1 - body.len()) as u64;
        match stream.blocking_read(room.min(READ_PIECE)) {
            Ok(piece) if body.is_empty() => body = piece,
            Ok(piece) => body.extend_from_slice(&piece),
            Err(StreamError::Closed) => break,
            Err(StreamError::LastOperationFailed(e)) => return Err(unreadable(&e.to_debug_string())),
        }
        if body.len() > limit {
            return Err(Answer::refused(Refusal::too_large(limit)));
        }
    }
    Ok(body)
}

/// The most one read asks the engine for.
const READ_PIECE: u64 = 1 << 20;

/// The most `blocking-write-and-flush` takes at once.
const ONE_WRITE: usize = 4096;

fn send(out: ResponseOutparam, answer: Answer) {
    let mut headers: Vec<(String, Vec<u8>)> = Vec::new();
    if let Some(content_type) = answer.content_type {
        headers.push(("content-type".into(), content_type.as_bytes().to_vec()));
        if content_type == EVENT_STREAM {
            headers.push(("cache-control".into(), b"no-cache".to_vec()));
        }
    }
    for (name, value) in answer.headers {
        headers.push((name.into(), value.into_bytes()));
    }
    let fields = Fields::from_list(&headers).expect("the adapter's own headers are valid");
    let response = OutgoingResponse::new(fields);
    response.set_status_code(answer.status.as_u16()).expect("a valid status");
    let body = response.body().expect("a fresh response has a body");
    ResponseOutparam::set(out, Ok(response));
    {
        let mut stream = body.write().expect("a fresh body has a stream");
        // Most answers fit in one write-and-flush (4096 bytes, one call into
        // the engine); `Write` takes the rest, waiting for room as the
        // engine allows.
        let written = match answer.body.len() <= ONE_WRITE {
            true => stream.blocking_write_and_flush(&answer.body).map_err(|e| format!("{e:?}")),
            false => {
                stream.write_all(&answer.body).and_then(|()| Write::flush(&mut stream)).map_err(|e| e.to_string())
            }
        };
        if let Err(e) = written {
            eprintln!("adapter: cannot write the answer: {e}");
        }
    }
    if let Err(e) = OutgoingBody::finish(body, None) {
        eprintln!("adapter: cannot finish the answer: {e:?}");
    }
}
