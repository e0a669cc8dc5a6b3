//! What a bearer token must be: a JWT signed with a key of an accepted
//! issuer, with an allowed asymmetric algorithm, issued for this server
//! (`aud`, compared as a resource identifier), within its validity (`exp`,
//! `nbf`, with clock skew), naming its subject.
//!
//! Checked in two steps so that finding the key, which may mean fetching it,
//! stays with the transport: [`TokenRules::read`] picks the issuer and the
//! key the header names, [`TokenRules::verify`] checks signature and claims.
//! The JOSE work is `jsonwebtoken`'s (RustCrypto backend: pure Rust, so the
//! rules build for wasm32 too).

use std::time::Duration;

use http::Uri;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, AlgorithmFamily, Validation};
use serde::Deserialize;

use super::caller::Caller;
use super::jwks::VerifyingKey;

/// The asymmetric JOSE algorithms, all accepted unless narrowed.
pub const DEFAULT_ALGORITHMS: &[&str] =
    &["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA"];

/// The accepted issuers, algorithms and audience of tokens.
#[derive(Debug, Clone)]
pub struct TokenRules {
    resource: Uri,
    issuers: Vec<String>,
    algorithms: Vec<Algorithm>,
    clock_skew: Duration,
}

/// A token's header, read before its key is found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenHeader {
    /// Its algorithm, one of those accepted.
    pub alg: Algorithm,
    /// The key id it names.
    pub kid: Option<String>,
    /// The accepted issuer it claims (verified with the signature), as an
    /// index into the issuers the rules were built with.
    pub issuer: usize,
}

/// A token that checked out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// Who it names.
    pub caller: Caller,
    /// Until when (Unix seconds, clock skew included) it may be taken again
    /// without another check.
    pub valid_until: u64,
}

impl TokenRules {
    /// Tokens for `resource` (a URL) from `issuers`, signed with one of
    /// `algorithms` (JOSE names; [`DEFAULT_ALGORITHMS`] when empty). The
    /// error says what to fix: symmetric algorithms and `none` are refused,
    /// since the keys are public.
    pub fn new(
        resource: &str,
        issuers: &[String],
        algorithms: &[String],
        clock_skew: Duration,
    ) -> Result<TokenRules, String> {
        if issuers.is_empty() {
            return Err("authorization needs at least one issuer (the authorization server's URL)".into());
        }
        let resource: Uri = resource.parse().map_err(|e| format!("the resource {resource:?} is not a URL: {e}"))?;
        let names: Vec<&str> = match algorithms {
            [] => DEFAULT_ALGORITHMS.to_vec(),
            names => names.iter().map(String::as_str).collect(),
        };
        let algorithms = names
            .into_iter()
            .map(|name| match name.parse::<Algorithm>() {
                Ok(alg) if alg.family() != AlgorithmFamily::Hmac => Ok(alg),
                Ok(_) => Err(format!("{name} is not accepted: tokens are verified with public keys")),
                Err(_) => Err(format!("{name:?} is not a JOSE signature algorithm")),
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(TokenRules { resource, issuers: issuers.to_vec(), algorithms, clock_skew })
    }

    /// The accepted issuers, in the order [`TokenHeader::issuer`] counts.
    pub fn issuers(&self) -> &[String] {
        &self.issuers
    }

    /// The header of `token` and the accepted issuer it claims; the error
    /// says why the token is not taken.
    pub fn read(&self, token: &str) -> Result<TokenHeader, String> {
        let header = jsonwebtoken::decode_header(token).map_err(|e| format!("malformed token: {e}"))?;
        if !self.algorithms.contains(&header.alg) {
            return Err(format!("tokens signed with {:?} are not accepted", header.alg));
        }
        // The issuer picks the keys; it is verified with the signature.
        let unverified: Unverified = jsonwebtoken::dangerous::insecure_decode_claims(token)
            .map_err(|e| format!("malformed token claims: {e}"))?;
        let Some(issuer) = self.issuers.iter().position(|issuer| same_issuer(issuer, &unverified.iss)) else {
            return Err(format!("issuer {:?} is not one this server accepts", unverified.iss));
        };
        Ok(TokenHeader { alg: header.alg, kid: header.kid, issuer })
    }

    /// `token`, whose header is `header`, verified with `key` now; the
    /// error says why it is not taken.
    pub fn verify(&self, token: &str, header: &TokenHeader, key: &VerifyingKey) -> Result<Verified, String> {
        let mut validation = Validation::new(header.alg);
        validation.leeway = self.clock_skew.as_secs();
        validation.validate_nbf = true;
        // The audience is compared below, as a resource identifier.
        validation.validate_aud = false;
        validation.set_required_spec_claims(&["exp", "iss", "sub", "aud"]);
        let claims = jsonwebtoken::decode::<Claims>(token, key.decoding_key(), &validation)
            .map_err(|e| describe(e.kind()))?
            .claims;
        // The issuer the key was picked by, now under the signature.
        if !same_issuer(&self.issuers[header.issuer], &claims.iss) {
            return Err("the token's issuer is not accepted".into());
        }
        // The subject names the principal sessions and instances belong to:
        // an empty one would make every such token one principal.
        if claims.sub.trim().is_empty() {
            return Err("the token's subject (`sub`) is empty: it must name who the token was issued to".into());
        }
        let audiences = match claims.aud {
            Audience::One(one) => vec![one],
            Audience::Many(many) => many,
        };
        if !audiences.iter().any(|aud| same_resource(aud, &self.resource)) {
            return Err(format!("the token was issued for {audiences:?}, not for this server ({})", self.resource));
        }
        let scopes: Vec<String> = match (claims.scope, claims.scp) {
            (Some(scope), _) => scope.split_ascii_whitespace().map(str::to_string).collect(),
            (None, Some(ScopeList::List(list))) => list,
            (None, Some(ScopeList::Text(text))) => text.split_ascii_whitespace().map(str::to_string).collect(),
            (None, None) => Vec::new(),
        };
        Ok(Verified {
            caller: Caller::new(claims.iss, claims.sub, claims.client_id.or(claims.azp), scopes),
            valid_until: claims.exp.saturating_add(validation.leeway),
        })
    }
}

/// A trailing slash is the only difference tolerated: issuers are written
/// both ways.
pub(super) fn same_issuer(accepted: &str, claimed: &str) -> bool {
    accepted.trim_end_matches('/') == claimed.trim_end_matches('/')
}

fn describe(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (`nbf`)".into(),
        ErrorKind::InvalidSignature => "the token's signature does not verify".into(),
        ErrorKind::InvalidAlgorithm => "the token's algorithm does not fit its key".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
        other => format!("invalid token: {other:?}"),
    }
}

/// Whether `audience` names `resource`: scheme and host compare without
/// case, a default port equals no port, and an empty path equals `/`.
pub(super) fn same_resource(audience: &str, resource: &Uri) -> bool {
    let Ok(audience) = audience.parse::<Uri>() else { return false };
    let port = |uri: &Uri| {
        uri.port_u16().or(match uri.scheme_str().map(str::to_ascii_lowercase).as_deref() {
            Some("https") => Some(443),
            Some("http") => Some(80),
            _ => None,
        })
    };
    let path = |uri: &Uri| uri.path().trim_end_matches('/').to_string();
    let text_eq = |a: Option<&str>, b: Option<&str>| match (a, b) {
        (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
        (a, b) => a == b,
    };
    text_eq(audience.scheme_str(), resource.scheme_str())
        && text_eq(audience.host(), resource.host())
        && port(&audience) == port(resource)
        && path(&audience) == path(resource)
        && audience.query() == resource.query()
}

#[derive(Deserialize)]
struct Unverified {
    iss: String,
}

#[derive(Deserialize)]
struct Claims {
    iss: String,
    sub: String,
    aud: Audience,
    exp: u64,
    #[serde(default)]
    scope: Option<String>,
    #[serde(default)]
    scp: Option<ScopeList>,
    #[serde(default)]
    client_id: Option<String>,
    #[serde(default)]
    azp: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Audience {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ScopeList {
    Text(String),
    List(Vec<String>),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_resource_identifiers() {
        let resource: Uri = "https://mcp.example.com/mcp".parse().unwrap();
        assert!(same_resource("https://mcp.example.com/mcp", &resource));
        assert!(same_resource("HTTPS://MCP.Example.com:443/mcp/", &resource));
        assert!(!same_resource("https://mcp.example.com/other", &resource));
        assert!(!same_resource("https://evil.example.com/mcp", &resource));
        assert!(!same_resource("http://mcp.example.com/mcp", &resource));
        assert!(!same_resource("https://mcp.example.com:8443/mcp", &resource));
        let root: Uri = "https://mcp.example.com".parse().unwrap();
        assert!(same_resource("https://mcp.example.com/", &root));
        assert!(!same_resource("not a url", &root));
    }

    #[test]
    fn refuses_algorithms_that_cannot_work() {
        let issuers = ["https://as.example".to_string()];
        let rules = |algs: &[&str]| {
            let algs: Vec<String> = algs.iter().map(|a| a.to_string()).collect();
            TokenRules::new("https://mcp.example.com/mcp", &issuers, &algs, Duration::ZERO)
        };
        assert!(rules(&[]).is_ok());
        assert!(rules(&["HS256"]).unwrap_err().contains("public keys"));
        assert!(rules(&["none"]).is_err());
        assert!(TokenRules::new("https://m/mcp", &[], &[], Duration::ZERO).is_err());
    }
}
