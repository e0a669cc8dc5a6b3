//! MCP authorization on the HTTP transports: the server as an OAuth 2.1
//! resource server (MCP's Authorization section; RFC 9728, RFC 6750,
//! RFC 8707). Off unless [`HttpOptions::auth`](super::HttpOptions::auth) is
//! set; stdio is never authenticated (the spec leaves it to the
//! environment).
//!
//! When on, every request to an MCP endpoint (`/mcp`, `/sse`, `/messages`)
//! carries `Authorization: Bearer <token>`, a JWT that one of the accepted
//! issuers signed for this server ([`AuthOptions::resource`] in its `aud`),
//! still valid. Otherwise:
//!
//! | what | answer |
//! |---|---|
//! | no token, or another scheme | 401, `WWW-Authenticate: Bearer resource_metadata="…", scope="…"` |
//! | a token that does not check out | 401, the same with `error="invalid_token"` |
//! | a token in the query string | 400, `error="invalid_request"` |
//! | a token without the scopes the request needs | 403, `error="insufficient_scope"`, `scope` = what it needs |
//! | the issuer's keys cannot be fetched and none are held | 503 with `Retry-After` |
//!
//! The Protected Resource Metadata is served at
//! `/.well-known/oauth-protected-resource` and at the same path followed by
//! the resource's own path (`…/oauth-protected-resource/mcp`). Every refusal
//! is logged once, with its reason and never the token.
//!
//! What the served routers describe of the authorization they expect
//! ([`AuthOptions::described`]) is advice: their default scopes are
//! advertised in the metadata, and an issuer or a resource identifier that
//! differs from the server's is logged at start, never taken.

mod fetch;
mod keys;
mod token_cache;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::header::{CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::Response;

use mcp_wit_protocol::auth::{
    AuthRefusal, Caller, DescribedResource, Operation, RefusalKind, ResourceMetadata, ScopePolicy, SharedCaller,
    TokenRules, bearer_token, check_scopes,
};
pub use mcp_wit_protocol::auth::{DEFAULT_ALGORITHMS, METADATA_PATH};
use mcp_wit_protocol::http::RequestSubject;
use mcp_wit_protocol::jsonrpc::Message;

use super::ServerState;
use super::wire::{self, TRANSPORT_ERROR};
use crate::telemetry::metrics::Refusal;
pub use keys::{KeyOptions, KeySource};
use token_cache::Validator;

/// How the server checks who calls it.
#[derive(Debug, Clone)]
pub struct AuthOptions {
    /// The server's resource identifier: the canonical URL clients reach its
    /// MCP endpoint at (e.g. `https://mcp.example.com/mcp`). Tokens must name
    /// it in `aud`. `None`: `http://<bound address>/mcp`, allowed only on a
    /// loopback address.
    pub resource: Option<String>,
    /// The authorization servers (issuer identifiers) whose tokens are taken.
    pub issuers: Vec<String>,
    /// Where the keys that verify tokens come from.
    pub keys: KeySource,
    /// How those keys are kept and fetched.
    pub key_options: KeyOptions,
    /// The scopes the server and each tool, prompt and resource need.
    pub scopes: ScopePolicy,
    /// Accepted signature algorithms (JOSE names). Only asymmetric ones:
    /// keys are public.
    pub algorithms: Vec<String>,
    /// Tolerated difference between the issuer's clock and this one.
    pub clock_skew: Duration,
    /// Lists (tools, prompts, resources) leave out what the caller lacks
    /// the scopes to use. Off by default: a client that sees a tool can ask
    /// for the scope it needs when it calls it (step-up).
    pub filter_lists: bool,
    /// What each served router (by its component's label) describes of the
    /// authorization it expects: its default scopes join `scopes_supported`
    /// after [`Self::scopes`]' (advertised, never required); its issuers are
    /// not trusted for that, nor is its resource identifier taken: each one
    /// that differs from these options' is logged as a warning at start.
    pub described: Vec<(String, Vec<DescribedResource>)>,
}

impl AuthOptions {
    /// Tokens from `issuers`, verified with keys from `keys`.
    pub fn new(issuers: impl IntoIterator<Item = impl Into<String>>, keys: KeySource) -> Self {
        AuthOptions { issuers: issuers.into_iter().map(Into::into).collect(), keys, ..AuthOptions::default() }
    }

    /// The resource identifier (see [`AuthOptions::resource`]).
    pub fn resource(mut self, resource: impl Into<String>) -> Self {
        self.resource = Some(resource.into());
        self
    }

    /// The scopes requests need.
    pub fn scopes(mut self, scopes: ScopePolicy) -> Self {
        self.scopes = scopes;
        self
    }

    /// How keys are kept and fetched.
    pub fn key_options(mut self, key_options: KeyOptions) -> Self {
        self.key_options = key_options;
        self
    }

    /// What the router of `component` describes (see
    /// [`AuthOptions::described`]).
    pub fn described_by(mut self, component: impl Into<String>, described: Vec<DescribedResource>) -> Self {
        self.described.push((component.into(), described));
        self
    }
}

impl Default for AuthOptions {
    fn default() -> Self {
        AuthOptions {
            resource: None,
            issuers: Vec::new(),
            keys: KeySource::default(),
            key_options: KeyOptions::default(),
            scopes: ScopePolicy::default(),
            algorithms: DEFAULT_ALGORITHMS.iter().map(|a| a.to_string()).collect(),
            clock_skew: Duration::from_secs(60),
            filter_lists: false,
            described: Vec::new(),
        }
    }
}

/// The resource server of one HTTP server: its rules, keys and metadata.
pub(crate) struct ResourceServer {
    metadata: ResourceMetadata,
    /// The metadata document, served without a copy.
    document: axum::body::Bytes,
    scopes: ScopePolicy,
    validator: Validator,
}

impl std::fmt::Debug for ResourceServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceServer").field("resource", &self.metadata.resource()).finish_non_exhaustive()
    }
}

impl ResourceServer {
    /// The resource server for a server listening on `bound`; the error says
    /// what to fix in `options`.
    pub fn new(options: &AuthOptions, bound: SocketAddr) -> Result<ResourceServer, String> {
        let resource = match &options.resource {
            Some(resource) => resource.clone(),
            None if bound.ip().is_loopback() => format!("http://{bound}/mcp"),
            None => {
                return Err(format!(
                    "authorization on {bound} needs the resource identifier: the URL clients reach the server \
                     at, e.g. https://mcp.example.com/mcp"
                ));
            }
        };
        let described = options.described.iter().flat_map(|(_, described)| described);
        let advertised: Vec<&str> =
            described.flat_map(|described| &described.default_scopes).map(String::as_str).collect();
        let metadata = ResourceMetadata::advertising(&resource, &options.issuers, &options.scopes, &advertised)?;
        for (component, described) in &options.described {
            warn_of_differences(component, described, &metadata, &options.issuers);
        }
        let rules = TokenRules::new(metadata.resource(), &options.issuers, &options.algorithms, options.clock_skew)?;
        let validator = Validator::new(rules, &options.keys, options.key_options)?;
        let document = axum::body::Bytes::copy_from_slice(metadata.document());
        Ok(ResourceServer { metadata, document, scopes: options.scopes.clone(), validator })
    }

    /// The paths the metadata is served at.
    pub fn metadata_paths(&self) -> Vec<String> {
        self.metadata.paths()
    }

    /// The Protected Resource Metadata document.
    pub fn metadata(&self) -> Response {
        let mut response = Response::new(axum::body::Body::from(self.document.clone()));
        response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        response
    }

    /// The caller of a request with `headers` and `uri`, or the answer that
    /// refuses it.
    pub async fn authenticate(&self, headers: &HeaderMap, uri: &Uri) -> Result<SharedCaller, Response> {
        let token = bearer_token(headers, uri.query(), &self.scopes).map_err(|refusal| self.refuse(&refusal, None))?;
        let caller =
            self.validator.validate(token, &self.scopes).await.map_err(|refusal| self.refuse(&refusal, None))?;
        self.allow(&caller, None)?;
        Ok(caller)
    }

    /// `Ok` when `caller` holds the scopes of `operation` (the server's when
    /// `None`); else the 403 that asks for them.
    pub fn allow(&self, caller: &Caller, operation: Option<Operation<'_>>) -> Result<(), Response> {
        check_scopes(&self.scopes, caller, operation).map_err(|refusal| self.refuse(&refusal, Some(caller)))
    }

    /// Whether any tool, prompt or resource needs more than the server's
    /// scopes (else [`Self::allow`] with an operation never refuses).
    fn has_operation_rules(&self) -> bool {
        self.scopes.has_rules()
    }

    fn unauthenticated(&self, why: &str) -> Response {
        self.refuse(&AuthRefusal::unauthenticated(why, &self.scopes), None)
    }

    /// The answer to a refusal, logged once (never with the token).
    fn refuse(&self, refusal: &AuthRefusal, caller: Option<&Caller>) -> Response {
        let status = refusal.status();
        match refusal.kind {
            RefusalKind::Unauthenticated(_) => {
                tracing::info!(reason = refusal.reason(), "refused a request: 401, authentication required");
            }
            RefusalKind::KeysUnavailable(_) => {
                tracing::warn!(reason = refusal.reason(), "refused a request: its token cannot be verified now");
            }
            _ => tracing::warn!(
                status = status.as_u16(),
                error = refusal.error_code(),
                reason = refusal.reason(),
                subject = caller.map(|c| c.subject.as_str()),
                client = caller.and_then(|c| c.client_id.as_deref()),
                "refused a request"
            ),
        }
        let mut response = wire::error(status, TRANSPORT_ERROR, refusal.message(), None);
        if let RefusalKind::KeysUnavailable(_) = refusal.kind {
            response.headers_mut().insert(RETRY_AFTER, HeaderValue::from_static("5"));
        } else {
            let value = HeaderValue::from_str(&self.metadata.challenge(refusal)).expect("a challenge is visible ASCII");
            response.headers_mut().insert(WWW_AUTHENTICATE, value);
        }
        response
    }

    /// The resource identifier tokens must name.
    #[cfg(test)]
    pub fn resource(&self) -> &str {
        self.metadata.resource()
    }
}

/// Warns, once per kind, of what `component`'s router describes that this
/// server does not do: an issuer it does not accept (the router is not taken
/// at its word: only the operator's issuers are), a resource identifier
/// other than its own (tokens must name the server's).
fn warn_of_differences(
    component: &str,
    described: &[DescribedResource],
    metadata: &ResourceMetadata,
    accepted: &[String],
) {
    let mut foreign: Vec<&str> = Vec::new();
    for issuer in described.iter().flat_map(|d| d.foreign_issuers(accepted)) {
        if !foreign.contains(&issuer) {
            foreign.push(issuer);
        }
    }
    if !foreign.is_empty() {
        tracing::warn!(
            component,
            "the router names the authorization server {}, which this server does not accept (it accepts {}); \
             tokens from it are refused: add it with --auth-issuer if it is to be trusted",
            foreign.join(", "),
            accepted.join(", "),
        );
    }
    let mut elsewhere: Vec<&str> = Vec::new();
    for described in described.iter().filter(|d| !d.names_resource(metadata)) {
        if !elsewhere.contains(&described.resource_indicator.as_str()) {
            elsewhere.push(&described.resource_indicator);
        }
    }
    if !elsewhere.is_empty() {
        tracing::warn!(
            component,
            "the router expects tokens for the resource {}, but this server's resource identifier is {}: tokens \
             must name the latter (--auth-resource sets it)",
            elsewhere.join(", "),
            metadata.resource(),
        );
    }
}

/// Who made a request, as the authentication layer found it (`None` when
/// the server does not authenticate), and the address it came from.
#[derive(Clone, Default)]
pub(crate) struct RequestCaller(pub Option<SharedCaller>, pub Option<IpAddr>);

/// The address of the client at the other end of a connection, which
/// every request on it carries (an extension the front inserts).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientAddr(pub Option<IpAddr>);

impl RequestCaller {
    /// The caller, when authenticated.
    pub fn get(&self) -> Option<&Caller> {
        self.0.as_deref()
    }

    /// Who holds sessions, for the cap per client: the principal when
    /// authenticated, else the address.
    pub fn client_key(&self) -> Option<Arc<str>> {
        match (&self.0, self.1) {
            (Some(caller), _) => Some(caller.principal_key().into()),
            (None, Some(addr)) => Some(addr.to_string().into()),
            (None, None) => None,
        }
    }
}

fn client_addr(extensions: &axum::http::Extensions) -> Option<IpAddr> {
    extensions.get::<ClientAddr>().and_then(|addr| addr.0)
}

/// Handlers read the caller [`require`] left; on a server that
/// authenticates, a request that did not pass it is refused, whatever route
/// it took.
impl FromRequestParts<Arc<ServerState>> for RequestCaller {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, server: &Arc<ServerState>) -> Result<Self, Response> {
        match (parts.extensions.get::<RequestCaller>(), &server.auth) {
            (Some(caller), _) => Ok(caller.clone()),
            (None, None) => Ok(RequestCaller(None, client_addr(&parts.extensions))),
            (None, Some(auth)) => Err(auth.unauthenticated("the request did not pass authentication")),
        }
    }
}

/// Middleware: authenticates every request to the MCP endpoints when the
/// server is a resource server, leaving its [`RequestCaller`].
pub(super) async fn require(State(server): State<Arc<ServerState>>, mut request: Request, next: Next) -> Response {
    let Some(auth) = &server.auth else { return next.run(request).await };
    let span = tracing::debug_span!(target: crate::telemetry::TRACE_TARGET, "authorize");
    let authenticated =
        tracing::Instrument::instrument(auth.authenticate(request.headers(), request.uri()), span).await;
    match authenticated {
        Ok(caller) => {
            let addr = client_addr(request.extensions());
            request.extensions_mut().insert(RequestCaller(Some(caller), addr));
            next.run(request).await
        }
        Err(refusal) => {
            let why = match refusal.status() {
                axum::http::StatusCode::FORBIDDEN => Refusal::Forbidden,
                _ => Refusal::Unauthorized,
            };
            crate::telemetry::metrics::refused(why);
            refusal
        }
    }
}

/// `Ok` unless authorization is on and `caller` lacks the scopes the tool,
/// prompt or resource `message` names needs: then the 403 that asks for
/// them. Checked before the guest sees the request.
pub(super) fn allow_operation(server: &ServerState, caller: &RequestCaller, message: &Message) -> Result<(), Response> {
    let (Some(auth), Some(caller), Message::Request { method, params, .. }) = (&server.auth, caller.get(), message)
    else {
        return Ok(());
    };
    if !auth.has_operation_rules() {
        return Ok(());
    }
    let named = RequestSubject::of(method, params.as_deref());
    auth.allow(caller, named.operation(method)).inspect_err(|_| crate::telemetry::metrics::refused(Refusal::Forbidden))
}

/// `GET /.well-known/oauth-protected-resource[/<path>]`.
pub(super) async fn metadata(State(server): State<Arc<ServerState>>) -> Response {
    match &server.auth {
        Some(auth) => auth.metadata(),
        None => wire::status(StatusCode::NOT_FOUND),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_options_that_cannot_work() {
        let loopback: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let public: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let url = |u: &str| KeySource::Url(u.into());
        let options = AuthOptions::new(["https://as.example"], url("https://as.example/jwks"));
        let server = ResourceServer::new(&options, loopback).unwrap();
        assert_eq!(server.resource(), "http://127.0.0.1:8080/mcp");
        assert_eq!(server.metadata_paths(), [METADATA_PATH, "/.well-known/oauth-protected-resource/mcp"]);
        assert!(ResourceServer::new(&options, public).unwrap_err().contains("resource identifier"));
        let no_issuer = AuthOptions { issuers: vec![], ..options.clone() };
        assert!(ResourceServer::new(&no_issuer, loopback).is_err());
        let hmac = AuthOptions { algorithms: vec!["HS256".into()], ..options.clone() };
        assert!(ResourceServer::new(&hmac, loopback).unwrap_err().contains("public keys"));
        let none = AuthOptions { algorithms: vec!["none".into()], ..options.clone() };
        assert!(ResourceServer::new(&none, loopback).is_err());
        let plain = AuthOptions::new(["https://as.example"], url("http://as.example/jwks"));
        assert!(ResourceServer::new(&plain, loopback).unwrap_err().contains("https"));
        let missing = AuthOptions::new(["https://as.example"], KeySource::File("/nonexistent/jwks.json".into()));
        assert!(ResourceServer::new(&missing, loopback).unwrap_err().contains("cannot read the JWKS file"));
        let root = options.clone().resource("https://mcp.example.com/");
        let server = ResourceServer::new(&root, public).unwrap();
        assert_eq!(server.metadata_paths(), [METADATA_PATH]);
    }

    #[test]
    fn advertises_the_scopes_routers_describe_without_requiring_them() {
        let loopback: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let described = DescribedResource {
            resource_indicator: "https://elsewhere.example/mcp".into(),
            issuers: vec!["https://router-issuer.example".into()],
            default_scopes: vec!["weather:read".into(), "mcp".into()],
        };
        let options = AuthOptions::new(["https://as.example"], KeySource::Url("https://as.example/jwks".into()))
            .scopes(ScopePolicy { required: vec!["mcp".into()], ..ScopePolicy::default() })
            .described_by("weather", vec![described]);
        let server = ResourceServer::new(&options, loopback).unwrap();
        let document: serde_json::Value = serde_json::from_slice(&server.document).unwrap();
        assert_eq!(document["scopes_supported"], serde_json::json!(["mcp", "weather:read"]));
        assert_eq!(document["authorization_servers"], serde_json::json!(["https://as.example"]));
        assert_eq!(server.scopes.needed(None), ["mcp"]);
    }
}
