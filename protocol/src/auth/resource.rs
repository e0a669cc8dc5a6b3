//! The wire of an OAuth 2.1 resource server, as MCP's Authorization section
//! has it (RFC 9728, RFC 6750): where the Protected Resource Metadata is and
//! what it says, where a request's token is (the `Authorization` header,
//! never the query string), and the `WWW-Authenticate` challenge of each
//! refusal. Every HTTP server of the project answers with these.

use http::header::AUTHORIZATION;
use http::{HeaderMap, StatusCode, Uri};

use super::caller::Caller;
use super::scopes::{DescribedResource, Operation, ScopePolicy};
use super::token::{same_issuer, same_resource};

/// The path of the Protected Resource Metadata (RFC 9728).
pub const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// A resource server's identity: its resource identifier and its metadata.
#[derive(Debug, Clone)]
pub struct ResourceMetadata {
    resource: String,
    /// Where the metadata is (`resource_metadata` in challenges).
    metadata_url: String,
    /// The resource's path under [`METADATA_PATH`] (empty for a root resource).
    suffix: String,
    document: Vec<u8>,
}

impl ResourceMetadata {
    /// The metadata of `resource` (an absolute URL without a fragment),
    /// protected by `issuers`, using the scopes of `scopes`.
    pub fn new(resource: &str, issuers: &[String], scopes: &ScopePolicy) -> Result<ResourceMetadata, String> {
        Self::advertising(resource, issuers, scopes, &[])
    }

    /// As [`Self::new`], `scopes_supported` also naming `advertised` (after
    /// the policy's scopes; see [`ScopePolicy::supported`]), which no request
    /// needs: e.g. the default scopes the served routers describe.
    pub fn advertising(
        resource: &str,
        issuers: &[String],
        scopes: &ScopePolicy,
        advertised: &[&str],
    ) -> Result<ResourceMetadata, String> {
        let resource = resource.trim_end_matches('/').to_string();
        let uri: Uri = resource.parse().map_err(|e| format!("the resource {resource:?} is not a URL: {e}"))?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(format!("the resource {resource:?} must be an absolute URL"));
        };
        if resource.contains('#') {
            return Err(format!("the resource {resource:?} must not have a fragment"));
        }
        let suffix = uri.path().trim_end_matches('/').to_string();
        let metadata_url = format!("{scheme}://{authority}{METADATA_PATH}{suffix}");
        let mut document = serde_json::json!({
            "resource": resource,
            "authorization_servers": issuers,
            "bearer_methods_supported": ["header"],
        });
        let supported = scopes.supported(advertised.iter().copied());
        if !supported.is_empty() {
            document["scopes_supported"] = serde_json::json!(supported);
        }
        let document = serde_json::to_vec(&document).expect("metadata serialises");
        Ok(ResourceMetadata { resource, metadata_url, suffix, document })
    }

    /// The resource identifier tokens must name.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The paths the metadata is served at: [`METADATA_PATH`], and that
    /// followed by the resource's path.
    pub fn paths(&self) -> Vec<String> {
        let mut paths = vec![METADATA_PATH.to_string()];
        if !self.suffix.is_empty() {
            paths.push(format!("{METADATA_PATH}{}", self.suffix));
        }
        paths
    }

    /// Whether `path` is one of [`Self::paths`].
    pub fn is_metadata_path(&self, path: &str) -> bool {
        path.strip_prefix(METADATA_PATH).is_some_and(|rest| rest.is_empty() || rest == self.suffix)
    }

    /// The document (`application/json`).
    pub fn document(&self) -> &[u8] {
        &self.document
    }

    /// The `WWW-Authenticate` value of a refusal.
    pub fn challenge(&self, refusal: &AuthRefusal) -> String {
        challenge(&self.metadata_url, refusal.error_code().map(|code| (code, refusal.reason())), &refusal.scopes)
    }
}

impl DescribedResource {
    /// The issuers it names that are not among `accepted` (a trailing slash
    /// apart, as tokens' issuers are compared).
    pub fn foreign_issuers<'d>(&'d self, accepted: &[String]) -> Vec<&'d str> {
        let accepted = |issuer: &str| accepted.iter().any(|a| same_issuer(a, issuer));
        self.issuers.iter().map(String::as_str).filter(|issuer| !accepted(issuer)).collect()
    }

    /// Whether its resource indicator names `metadata`'s resource as a
    /// token's audience would (one that names none names any).
    pub fn names_resource(&self, metadata: &ResourceMetadata) -> bool {
        let Ok(resource) = metadata.resource.parse::<Uri>() else { return false };
        self.resource_indicator.is_empty() || same_resource(&self.resource_indicator, &resource)
    }
}

/// Why a request is refused, and what it would need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthRefusal {
    /// What went wrong.
    pub kind: RefusalKind,
    /// The scopes to ask for (`scope` in the challenge).
    pub scopes: Vec<String>,
}

/// The kinds of refusal, each with its status and error code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefusalKind {
    /// No token, or another scheme: 401 with no error code.
    Unauthenticated(String),
    /// A token where none belongs, or two of them: 400 `invalid_request`.
    InvalidRequest(String),
    /// A token that does not check out: 401 `invalid_token`.
    InvalidToken(String),
    /// A token without the scopes needed: 403 `insufficient_scope`.
    InsufficientScope(String),
    /// The issuer's keys cannot be had now: 503, try again.
    KeysUnavailable(String),
}

impl AuthRefusal {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self.kind {
            RefusalKind::Unauthenticated(_) | RefusalKind::InvalidToken(_) => StatusCode::UNAUTHORIZED,
            RefusalKind::InvalidRequest(_) => StatusCode::BAD_REQUEST,
            RefusalKind::InsufficientScope(_) => StatusCode::FORBIDDEN,
            RefusalKind::KeysUnavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// RFC 6750's error code, when there is one.
    pub fn error_code(&self) -> Option<&'static str> {
        match self.kind {
            RefusalKind::Unauthenticated(_) | RefusalKind::KeysUnavailable(_) => None,
            RefusalKind::InvalidRequest(_) => Some("invalid_request"),
            RefusalKind::InvalidToken(_) => Some("invalid_token"),
            RefusalKind::InsufficientScope(_) => Some("insufficient_scope"),
        }
    }

    /// Why, for the log and the client.
    pub fn reason(&self) -> &str {
        match &self.kind {
            RefusalKind::Unauthenticated(why)
            | RefusalKind::InvalidRequest(why)
            | RefusalKind::InvalidToken(why)
            | RefusalKind::InsufficientScope(why)
            | RefusalKind::KeysUnavailable(why) => why,
        }
    }

    /// The message of the JSON-RPC error body.
    pub fn message(&self) -> String {
        match &self.kind {
            RefusalKind::Unauthenticated(_) => "Unauthorized: send an OAuth access token".into(),
            RefusalKind::KeysUnavailable(_) => {
                "Service Unavailable: the authorization server's keys cannot be fetched; try again shortly".into()
            }
            _ => format!("{}: {}", self.status().canonical_reason().unwrap_or("Refused"), self.reason()),
        }
    }

    fn new(kind: RefusalKind, scopes: Vec<&str>) -> Self {
        AuthRefusal { kind, scopes: scopes.into_iter().map(str::to_string).collect() }
    }

    /// 401 without a usable token, asking for the server's scopes.
    pub fn unauthenticated(why: impl Into<String>, policy: &ScopePolicy) -> Self {
        Self::new(RefusalKind::Unauthenticated(why.into()), policy.needed(None))
    }

    /// 401 `invalid_token`, asking for the server's scopes.
    pub fn invalid_token(why: impl Into<String>, policy: &ScopePolicy) -> Self {
        Self::new(RefusalKind::InvalidToken(why.into()), policy.needed(None))
    }

    /// 503: the keys cannot be had.
    pub fn keys_unavailable(why: impl Into<String>) -> Self {
        Self::new(RefusalKind::KeysUnavailable(why.into()), Vec::new())
    }
}

/// The bearer token of a request with `headers` and `query`, or the
/// refusal: a token in the query string or two `Authorization` headers are
/// 400, none (or another scheme) 401.
pub fn bearer_token<'h>(
    headers: &'h HeaderMap,
    query: Option<&str>,
    policy: &ScopePolicy,
) -> Result<&'h str, AuthRefusal> {
    if query.is_some_and(|query| query.split('&').any(|pair| pair.starts_with("access_token="))) {
        let why = "access tokens are taken only from the Authorization header";
        return Err(AuthRefusal::new(RefusalKind::InvalidRequest(why.into()), Vec::new()));
    }
    let mut values = headers.get_all(AUTHORIZATION).iter();
    match (values.next(), values.next()) {
        (None, _) => Err(AuthRefusal::unauthenticated("no access token", policy)),
        (Some(_), Some(_)) => {
            let why = "more than one Authorization header";
            Err(AuthRefusal::new(RefusalKind::InvalidRequest(why.into()), Vec::new()))
        }
        (Some(value), None) => value
            .to_str()
            .ok()
            .and_then(bearer_of)
            .ok_or_else(|| AuthRefusal::unauthenticated("an Authorization header without a Bearer token", policy)),
    }
}

/// The token of `Bearer <token>` (the scheme in any case).
fn bearer_of(text: &str) -> Option<&str> {
    let (scheme, token) = text.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// `Ok` when `caller` holds the scopes `operation` needs (the server's when
/// `None`); else the 403 that asks for all of them (step-up).
pub fn check_scopes(
    policy: &ScopePolicy,
    caller: &Caller,
    operation: Option<Operation<'_>>,
) -> Result<(), AuthRefusal> {
    let missing = policy.missing(caller, operation);
    if missing.is_empty() {
        return Ok(());
    }
    let what = match operation {
        Some(operation) => format!("{:?} {:?} needs scope {}", operation.kind, operation.name, missing.join(" ")),
        None => format!("this server needs scope {}", missing.join(" ")),
    };
    Err(AuthRefusal::new(RefusalKind::InsufficientScope(what), policy.needed(operation)))
}

/// A `WWW-Authenticate: Bearer …` value (RFC 6750 §3, RFC 9728 §5.1).
fn challenge(metadata_url: &str, error: Option<(&str, &str)>, scopes: &[String]) -> String {
    let mut value = format!("Bearer resource_metadata=\"{}\"", quoted(metadata_url));
    if !scopes.is_empty() {
        value.push_str(&format!(", scope=\"{}\"", quoted(&scopes.join(" "))));
    }
    if let Some((code, description)) = error {
        value.push_str(&format!(", error=\"{code}\", error_description=\"{}\"", quoted(description)));
    }
    value
}

/// `text` as the inside of a quoted string of the characters RFC 6750
/// allows there (visible ASCII and space, without `"` and `\`).
fn quoted(text: &str) -> String {
    text.chars().map(|c| if (c == ' ' || c.is_ascii_graphic()) && c != '"' && c != '\\' { c } else { '?' }).collect()
}

#[cfg(test)]
mod tests {
    use http::HeaderValue;

    use super::*;

    #[test]
    fn builds_challenges() {
        let url = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
        assert_eq!(
            challenge(url, None, &["files:read".into()]),
            format!("Bearer resource_metadata=\"{url}\", scope=\"files:read\"")
        );
        assert_eq!(
            challenge(url, Some(("insufficient_scope", "needs \"x\" — now")), &["a".into(), "b".into()]),
            format!(
                "Bearer resource_metadata=\"{url}\", scope=\"a b\", error=\"insufficient_scope\", \
                 error_description=\"needs ?x? ? now\""
            )
        );
    }

    #[test]
    fn reads_bearer_tokens() {
        assert_eq!(bearer_of("Bearer abc.def"), Some("abc.def"));
        assert_eq!(bearer_of("bearer abc"), Some("abc"));
        assert_eq!(bearer_of("Basic dXNlcjpwdw=="), None);
        assert_eq!(bearer_of("Bearer "), None);
        assert_eq!(bearer_of("Bearer"), None);
        let mut headers = HeaderMap::new();
        fn status(headers: &HeaderMap, query: Option<&str>) -> Result<String, StatusCode> {
            bearer_token(headers, query, &ScopePolicy::default()).map(str::to_string).map_err(|r| r.status())
        }
        assert_eq!(status(&headers, None), Err(StatusCode::UNAUTHORIZED));
        headers.append(AUTHORIZATION, HeaderValue::from_static("Bearer t"));
        assert_eq!(status(&headers, None), Ok("t".into()));
        assert_eq!(status(&headers, Some("a=1&access_token=t")), Err(StatusCode::BAD_REQUEST));
        headers.append(AUTHORIZATION, HeaderValue::from_static("Bearer u"));
        assert_eq!(status(&headers, None), Err(StatusCode::BAD_REQUEST));
    }

    #[test]
    fn places_the_metadata() {
        let issuers = ["https://as.example".to_string()];
        let metadata =
            ResourceMetadata::new("https://mcp.example.com/mcp/", &issuers, &ScopePolicy::default()).unwrap();
        assert_eq!(metadata.resource(), "https://mcp.example.com/mcp");
        assert_eq!(metadata.paths(), [METADATA_PATH, "/.well-known/oauth-protected-resource/mcp"]);
        assert!(metadata.is_metadata_path("/.well-known/oauth-protected-resource/mcp"));
        assert!(!metadata.is_metadata_path("/.well-known/oauth-protected-resource/other"));
        let root = ResourceMetadata::new("https://mcp.example.com/", &issuers, &ScopePolicy::default()).unwrap();
        assert_eq!(root.paths(), [METADATA_PATH]);
        assert!(ResourceMetadata::new("/mcp", &issuers, &ScopePolicy::default()).is_err());
        assert!(ResourceMetadata::new("https://m.example/mcp#f", &issuers, &ScopePolicy::default()).is_err());
    }

    #[test]
    fn compares_what_a_router_describes_with_the_server() {
        let accepted = ["https://as.example/".to_string()];
        let policy = ScopePolicy { required: vec!["mcp".into()], ..ScopePolicy::default() };
        let metadata =
            ResourceMetadata::advertising("https://mcp.example.com/mcp", &accepted, &policy, &["w:read", "mcp"])
                .unwrap();
        let document: serde_json::Value = serde_json::from_slice(metadata.document()).unwrap();
        assert_eq!(document["scopes_supported"], serde_json::json!(["mcp", "w:read"]));
        let described = DescribedResource {
            resource_indicator: "HTTPS://mcp.example.com:443/mcp/".into(),
            issuers: vec!["https://as.example".into(), "https://other.example".into()],
            default_scopes: vec!["w:read".into()],
        };
        assert_eq!(described.foreign_issuers(&accepted), ["https://other.example"]);
        assert!(described.names_resource(&metadata));
        let elsewhere = DescribedResource { resource_indicator: "https://elsewhere.example/mcp".into(), ..described };
        assert!(!elsewhere.names_resource(&metadata));
        assert!(DescribedResource::default().names_resource(&metadata));
    }
}
