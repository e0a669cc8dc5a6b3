//! Validating a bearer token: a JWT signed with a held key of an accepted
//! issuer, with an allowed asymmetric algorithm, issued for this server
//! (`aud`), within its validity (`exp`, `nbf`, with clock skew), naming its
//! subject. Validated tokens are remembered until they expire, so a client
//! that reuses its token pays for the signature once.
//!
//! The JOSE work is `jsonwebtoken`'s (RustCrypto backend, pure Rust): the
//! most used JWT crate, with JWK support; verification keys are pinned to
//! their algorithm family, so an RSA key never verifies an HMAC token.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::http::Uri;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use serde::Deserialize;

use mcp_wit_protocol::auth::{Caller, SharedCaller};

use super::keys::{KeyError, KeyOptions, KeySet, KeySource};

/// Why a token is not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// The token is not valid here (401 `invalid_token`).
    Invalid(String),
    /// The issuer's keys cannot be had now (503).
    Unavailable(String),
}

/// What a token must be.
pub struct Validator {
    resource: Uri,
    algorithms: Vec<Algorithm>,
    clock_skew: Duration,
    /// Per accepted issuer, its keys (one shared set for a JWKS URL or file).
    issuers: Vec<(String, std::sync::Arc<KeySet>)>,
    cache: TokenCache,
}

impl Validator {
    /// Tokens for `resource` from `issuers`, verified with keys from
    /// `source`.
    pub fn new(
        resource: &str,
        issuers: &[String],
        source: &KeySource,
        key_options: KeyOptions,
        algorithms: Vec<Algorithm>,
        clock_skew: Duration,
    ) -> Result<Validator, String> {
        let resource: Uri = resource.parse().map_err(|e| format!("the resource {resource:?} is not a URL: {e}"))?;
        let shared = match source {
            KeySource::Discover => None,
            _ => Some(std::sync::Arc::new(KeySet::new(source, "", key_options)?)),
        };
        let issuers = issuers
            .iter()
            .map(|issuer| {
                let set = match &shared {
                    Some(set) => set.clone(),
                    None => std::sync::Arc::new(KeySet::new(source, issuer, key_options)?),
                };
                Ok((issuer.clone(), set))
            })
            .collect::<Result<_, String>>()?;
        Ok(Validator { resource, algorithms, clock_skew, issuers, cache: TokenCache::new(8192) })
    }

    /// The caller `token` names, once it checks out.
    pub async fn validate(&self, token: &str) -> Result<SharedCaller, Rejection> {
        let now = now_secs();
        if let Some(caller) = self.cache.get(token, now) {
            return Ok(caller);
        }
        let invalid = |why: String| Rejection::Invalid(why);
        let header = jsonwebtoken::decode_header(token).map_err(|e| invalid(format!("malformed token: {e}")))?;
        if !self.algorithms.contains(&header.alg) {
            return Err(invalid(format!("tokens signed with {:?} are not accepted", header.alg)));
        }
        // The issuer picks the keys; it is verified with the signature below.
        let unverified: Unverified = jsonwebtoken::dangerous::insecure_decode_claims(token)
            .map_err(|e| invalid(format!("malformed token claims: {e}")))?;
        // A trailing slash is the only difference tolerated: issuers are
        // written both ways.
        let same = |issuer: &str| issuer.trim_end_matches('/') == unverified.iss.trim_end_matches('/');
        let Some((_, keys)) = self.issuers.iter().find(|(issuer, _)| same(issuer)) else {
            return Err(invalid(format!("issuer {:?} is not one this server accepts", unverified.iss)));
        };
        let key = keys.key_for(header.kid.as_deref(), header.alg).await.map_err(|e| match e {
            KeyError::Unknown(why) => Rejection::Invalid(why),
            KeyError::Unavailable(why) => Rejection::Unavailable(why),
        })?;
        let mut validation = Validation::new(header.alg);
        validation.leeway = self.clock_skew.as_secs();
        validation.validate_nbf = true;
        // The audience is compared below, as a resource identifier.
        validation.validate_aud = false;
        validation.set_issuer(&[&unverified.iss]);
        validation.set_required_spec_claims(&["exp", "iss", "sub", "aud"]);
        let claims = jsonwebtoken::decode::<Claims>(token, &key.key, &validation)
            .map_err(|e| invalid(describe(e.kind())))?
            .claims;
        let audiences = match claims.aud {
            Audience::One(one) => vec![one],
            Audience::Many(many) => many,
        };
        if !audiences.iter().any(|aud| same_resource(aud, &self.resource)) {
            return Err(invalid(format!(
                "the token was issued for {audiences:?}, not for this server ({})",
                self.resource
            )));
        }
        let scopes: Vec<String> = match (claims.scope, claims.scp) {
            (Some(scope), _) => scope.split_ascii_whitespace().map(str::to_string).collect(),
            (None, Some(ScopeList::List(list))) => list,
            (None, Some(ScopeList::Text(text))) => text.split_ascii_whitespace().map(str::to_string).collect(),
            (None, None) => Vec::new(),
        };
        let caller = SharedCaller::new(Caller::new(claims.iss, claims.sub, claims.client_id.or(claims.azp), scopes));
        self.cache.insert(token, caller.clone(), claims.exp.saturating_add(validation.leeway));
        Ok(caller)
    }
}

fn describe(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (`nbf`)".into(),
        ErrorKind::InvalidSignature => "the token's signature does not verify".into(),
        ErrorKind::InvalidIssuer => "the token's issuer is not accepted".into(),
        ErrorKind::InvalidAlgorithm => "the token's algorithm does not fit its key".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
        other => format!("invalid token: {other:?}"),
    }
}

/// Whether `audience` names `resource`: scheme and host compare without
/// case, a default port equals no port, and an empty path equals `/`.
fn same_resource(audience: &str, resource: &Uri) -> bool {
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

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
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

/// Validated tokens, until they expire. Bounded: when full, the expired
/// ones go, and if none had, all of them (they are validated again).
/// Looked up on every request: hashed with foldhash (randomly seeded) rather
/// than SipHash, which cost 1,500 instructions a call on a 250-byte token.
struct TokenCache {
    entries: Mutex<Entries>,
    capacity: usize,
}

type Entries = HashMap<Box<str>, (SharedCaller, u64), foldhash::fast::RandomState>;

impl TokenCache {
    fn new(capacity: usize) -> Self {
        TokenCache { entries: Mutex::new(Entries::default()), capacity }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn get(&self, token: &str, now: u64) -> Option<SharedCaller> {
        let mut entries = self.entries();
        match entries.get(token) {
            Some((caller, until)) if now <= *until => Some(caller.clone()),
            Some(_) => {
                entries.remove(token);
                None
            }
            None => None,
        }
    }

    fn insert(&self, token: &str, caller: SharedCaller, until: u64) {
        let mut entries = self.entries();
        if entries.len() >= self.capacity {
            let now = now_secs();
            entries.retain(|_, (_, until)| now <= *until);
            if entries.len() >= self.capacity {
                entries.clear();
            }
        }
        entries.insert(token.into(), (caller, until));
    }
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
    fn the_cache_forgets_expired_tokens() {
        let cache = TokenCache::new(2);
        let caller = SharedCaller::new(Caller::new("i", "s", None, []));
        cache.insert("a", caller.clone(), 100);
        assert!(cache.get("a", 100).is_some());
        assert!(cache.get("a", 101).is_none());
        assert!(cache.get("a", 50).is_none(), "an expired entry is gone");
        cache.insert("b", caller.clone(), u64::MAX);
        cache.insert("c", caller.clone(), u64::MAX);
        cache.insert("d", caller, u64::MAX);
        assert!(cache.get("d", 0).is_some());
    }
}
