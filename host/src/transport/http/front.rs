//! The front door of a server [`HttpServer`](super::HttpServer) runs: every
//! request on its connections comes here first.
//!
//! An MCP client's own requests (`POST`, `GET` and `DELETE` on `/mcp`, with
//! no `Origin`: not from a browser) pass the `Host` check and, when the
//! server authenticates, the token check, and go straight to their handler. Everything else (browsers, which need CORS; HTTP+SSE;
//! probes; a server with a tap) goes through the axum [`Router`], with its
//! layers, exactly as an app embedding [`axum_router`](super::axum_router)
//! serves it.
//!
//! Why: axum boxes and clones each route's service, and every layer's, on
//! each request; on an echo call that was about a quarter of the server's
//! allocations, for layers that do nothing to these requests (CORS without
//! an `Origin` only adds `Vary`, which is added here; the handler reads the
//! body within the size limit itself). BENCHMARKS.md has the measurement.

use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::Router;
use axum::body::Body;
use axum::http::header::{ORIGIN, VARY};
use axum::http::{HeaderMap, HeaderValue, Method, Request};
use axum::response::Response;
use hyper::body::Incoming;
use tower::ServiceExt;

use super::auth::{ClientAddr, RequestCaller};
use super::connections::{self, Tracked};
use super::kept_future::{DynKeptFuture, KeptFuture};
use super::state::ServerState;
use super::{mcp, wire};

/// What CORS answers a request without `Origin` with: caches must not hand
/// its response to a browser's request.
const VARY_CORS: HeaderValue =
    HeaderValue::from_static("origin, access-control-request-method, access-control-request-headers");

/// The service of every connection (see the module's documentation).
#[derive(Clone)]
pub(super) struct Front {
    server: Arc<ServerState>,
    router: Router,
    /// Whether `/mcp` requests may skip the router (not when a tap must see
    /// every message).
    direct: bool,
    /// The client at the other end of the connection.
    peer: Option<IpAddr>,
    /// The connection, busy while a request is answered.
    connection: Option<Arc<Tracked>>,
}

impl Front {
    /// In front of `router`, the server's full axum router.
    pub(super) fn new(server: Arc<ServerState>, router: Router) -> Self {
        let direct = server.options.tap.is_none();
        Front { server, router, direct, peer: None, connection: None }
    }

    /// The service of `connection`, from `peer`.
    pub(super) fn for_connection(&self, peer: IpAddr, connection: Arc<Tracked>) -> Self {
        Front { peer: Some(peer), connection: Some(connection), ..self.clone() }
    }

    /// Whether `request` goes straight to its handler.
    fn goes_direct<B>(&self, request: &Request<B>) -> bool {
        self.direct
            && request.uri().path() == "/mcp"
            && matches!(*request.method(), Method::POST | Method::GET | Method::DELETE)
            && !request.headers().contains_key(ORIGIN)
    }
}

impl tower::Service<Request<Incoming>> for Front {
    type Response = Response;
    type Error = Infallible;
    type Future = DynKeptFuture<Result<Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: Request<Incoming>) -> Self::Future {
        // Busy until the response is written: an idle connection may be
        // closed to make room for another.
        let busy = self.connection.as_ref().map(|connection| connection.busy());
        let keep_busy = move |response: Response| match busy {
            Some(busy) => response.map(|body| connections::busy_until_written(body, busy)),
            None => response,
        };
        if !self.goes_direct(&request) {
            request.extensions_mut().insert(ClientAddr(self.peer));
            let answered = self.router.clone().oneshot(request.map(Body::new));
            return KeptFuture::new(|| async move { answered.await.map(keep_busy) }).into_dyn();
        }
        let target = request.uri().authority().map(|a| a.as_str());
        if let Err(refusal) = self.server.security.check_request(target, request.headers()) {
            let refused = Ok(keep_busy(wire::refused(refusal)));
            return KeptFuture::new(|| std::future::ready(refused)).into_dyn();
        }
        let server = self.server.clone();
        let peer = self.peer;
        let (parts, body) = request.into_parts();
        KeptFuture::new(move || async move {
            let caller = match &server.auth {
                None => RequestCaller(None, peer),
                Some(auth) => match auth.authenticate(&parts.headers, &parts.uri).await {
                    Ok(caller) => RequestCaller(Some(caller), peer),
                    Err(refusal) => return Ok(with_vary_in_request_map(refusal, parts.headers)),
                },
            };
            let response = mcp::serve(&server, &caller, parts.method, &parts.headers, body).await;
            Ok(keep_busy(with_vary_in_request_map(response, parts.headers)))
        })
        .into_dyn()
    }
}

/// `response` with `Vary`, its headers moved into the request's map, which
/// has room for as many as the client sends. Why: hyper hands a response's
/// map, emptied, to the connection's next request; a response's own is sized
/// for its two or three headers, so hyper grew it again for every request (a
/// new table, the old one freed). Moving the few headers costs less
/// (`bench/results/2026-12-03-header-map`).
fn with_vary_in_request_map(mut response: Response, mut request_headers: HeaderMap) -> Response {
    request_headers.clear();
    request_headers.extend(std::mem::take(response.headers_mut()));
    request_headers.append(VARY, VARY_CORS);
    *response.headers_mut() = request_headers;
    response
}

#[cfg(test)]
mod tests {
    use axum::http::header::LINK;

    use super::*;

    #[test]
    fn a_response_keeps_its_headers_in_the_requests_map() {
        let names =
            ["host", "content-type", "accept", "content-length", "mcp-protocol-version", "mcp-method", "mcp-name"];
        let mut request = HeaderMap::new();
        for (i, name) in names.into_iter().enumerate() {
            request.insert(name, HeaderValue::from(i));
        }
        let room = request.capacity();
        let mut response = wire::json(b"{}".to_vec());
        response.headers_mut().append(LINK, HeaderValue::from_static("<a>"));
        response.headers_mut().append(LINK, HeaderValue::from_static("<b>"));

        let response = with_vary_in_request_map(response, request);
        let headers: Vec<_> =
            response.headers().iter().map(|(name, value)| (name.as_str(), value.to_str().unwrap())).collect();
        let vary = VARY_CORS;
        let vary = vary.to_str().unwrap();
        assert_eq!(headers, [("content-type", "application/json"), ("link", "<a>"), ("link", "<b>"), ("vary", vary)]);
        // Room for the next request's headers, which hyper reads into it.
        assert!(response.headers().capacity() >= room, "{} < {room}", response.headers().capacity());
    }
}
