//! The server as an OAuth 2.1 resource server: its metadata, the tokens it
//! takes and the answers that refuse the others.

use std::net::SocketAddr;

use axum::http::header::{CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE};
use axum::http::{HeaderMap, HeaderValue, Uri};
use axum::response::Response;

use mcp_wit_protocol::auth::{
    AuthRefusal, Caller, DescribedResource, Operation, RefusalKind, ResourceMetadata, ScopePolicy, SharedCaller,
    TokenRules, bearer_token, check_scopes,
};

use super::options::AuthOptions;
use super::token_cache::Validator;
use crate::transport::http::wire::{self, TRANSPORT_ERROR};

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
    pub(super) fn has_operation_rules(&self) -> bool {
        self.scopes.has_rules()
    }

    pub(super) fn unauthenticated(&self, why: &str) -> Response {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::http::auth::{KeySource, METADATA_PATH};

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
