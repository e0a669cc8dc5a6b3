//! The keys tokens are verified with: a JWKS from a file, from a URL, or
//! from the URL each issuer's metadata names (`jwks_uri`), kept and
//! refreshed.
//!
//! - Keys are used for [`KeyOptions::refresh_after`]; after that the next
//!   token fetches them again. A failed fetch keeps the keys held: a JWKS
//!   endpoint that is down or slow costs one bounded wait per refresh, and
//!   tokens signed with held keys keep working.
//! - A token naming a key id not held fetches the keys once more (rotation),
//!   unless a fetch was tried less than [`KeyOptions::refetch_cooldown`]
//!   ago: a stream of made-up key ids costs at most one fetch per cooldown,
//!   and so does an issuer that is down.
//! - One fetch at a time per key set; requests that need it wait for it.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde::Deserialize;

use super::fetch::{self, FetchUrl};

/// Where verification keys come from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum KeySource {
    /// From each issuer: its metadata (`/.well-known/oauth-authorization-server`,
    /// else `/.well-known/openid-configuration`) names its `jwks_uri`.
    #[default]
    Discover,
    /// A JWKS at this URL (`https`, or `http` to a loopback address), for
    /// every issuer.
    Url(String),
    /// A JWKS file, for every issuer; read at start, and again when a token
    /// names a key it lacks.
    File(PathBuf),
}

/// How keys are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyOptions {
    /// How long fetched keys are used before they are fetched again.
    pub refresh_after: Duration,
    /// The shortest time between two fetches that tokens cause (a key id
    /// not held, keys that could not be fetched).
    pub refetch_cooldown: Duration,
    /// The longest wait for one fetch (metadata and JWKS each).
    pub fetch_timeout: Duration,
}

impl Default for KeyOptions {
    fn default() -> Self {
        KeyOptions {
            refresh_after: Duration::from_secs(600),
            refetch_cooldown: Duration::from_secs(10),
            fetch_timeout: Duration::from_secs(5),
        }
    }
}

/// Why no key verifies a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyError {
    /// The token's key is not among the issuer's keys: the token is invalid.
    Unknown(String),
    /// The issuer's keys cannot be had now (never fetched, and the fetch
    /// failed): the server cannot tell.
    Unavailable(String),
}

/// One key of a set.
pub struct VerifyingKey {
    kid: Option<String>,
    /// The algorithm the JWKS pins the key to, if it does.
    alg: Option<Algorithm>,
    /// The key.
    pub key: DecodingKey,
}

impl VerifyingKey {
    fn fits(&self, alg: Algorithm) -> bool {
        self.key.family() == alg.family() && self.alg.is_none_or(|pinned| pinned == alg)
    }
}

/// Where one set's JWKS is.
#[derive(Debug, Clone)]
enum Location {
    Url(FetchUrl),
    File(PathBuf),
    /// Named by this issuer's metadata.
    Issuer(String),
}

/// The keys of one issuer (or of all, for a URL or a file).
pub struct KeySet {
    location: Location,
    options: KeyOptions,
    held: RwLock<Held>,
    /// One fetch at a time.
    fetching: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct Held {
    keys: Vec<Arc<VerifyingKey>>,
    /// When the keys held were fetched.
    fetched: Option<Instant>,
    /// When a fetch was last tried, and why it failed if it did.
    attempted: Option<(Instant, Option<String>)>,
    /// The `jwks_uri` an issuer's metadata named.
    jwks_uri: Option<FetchUrl>,
}

impl KeySet {
    /// The set at `source` for `issuer`; a file is read now (an error says
    /// what is wrong with it).
    pub fn new(source: &KeySource, issuer: &str, options: KeyOptions) -> Result<KeySet, String> {
        let location = match source {
            KeySource::Discover => Location::Issuer(issuer.to_string()),
            KeySource::Url(url) => Location::Url(FetchUrl::parse(url).map_err(|e| format!("the JWKS URL {e}"))?),
            KeySource::File(path) => Location::File(path.clone()),
        };
        let set =
            KeySet { location, options, held: RwLock::new(Held::default()), fetching: tokio::sync::Mutex::new(()) };
        if let Location::File(path) = &set.location {
            let keys = read_file(path)?;
            let mut held = set.held_mut();
            held.keys = keys.into_iter().map(Arc::new).collect();
            held.fetched = Some(Instant::now());
        }
        Ok(set)
    }

    fn held(&self) -> std::sync::RwLockReadGuard<'_, Held> {
        self.held.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn held_mut(&self) -> std::sync::RwLockWriteGuard<'_, Held> {
        self.held.write().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The key that verifies a token with header `kid` and `alg`.
    pub async fn key_for(&self, kid: Option<&str>, alg: Algorithm) -> Result<Arc<VerifyingKey>, KeyError> {
        let asked = Instant::now();
        let (fresh, found, may_refetch) = {
            let held = self.held();
            let fresh = held.fetched.is_some_and(|at| asked.duration_since(at) < self.options.refresh_after);
            let found = find(&held.keys, kid, alg).is_ok();
            let may_refetch = held
                .attempted
                .as_ref()
                .is_none_or(|(at, _)| asked.saturating_duration_since(*at) >= self.options.refetch_cooldown);
            (fresh, found, may_refetch)
        };
        // Stale or missing keys are fetched, but not more than once per
        // cooldown: while the issuer is down, requests are not each held up
        // by a fetch that is bound to fail.
        if (!fresh || !found) && may_refetch {
            self.refresh(asked).await;
        }
        let held = self.held();
        match find(&held.keys, kid, alg) {
            Ok(key) => Ok(key.clone()),
            Err(why) if held.keys.is_empty() => Err(KeyError::Unavailable(match &held.attempted {
                Some((_, Some(failure))) => failure.clone(),
                _ => why,
            })),
            Err(why) => Err(KeyError::Unknown(why)),
        }
    }

    /// Fetches the keys unless another request did since `asked`.
    async fn refresh(&self, asked: Instant) {
        let _one_at_a_time = self.fetching.lock().await;
        if self.held().attempted.as_ref().is_some_and(|(at, _)| *at >= asked) {
            return;
        }
        let outcome = self.fetch().await;
        let mut held = self.held_mut();
        let now = Instant::now();
        match outcome {
            Ok((keys, jwks_uri)) => {
                tracing::debug!(keys = keys.len(), "fetched the authorization server's keys");
                held.keys = keys.into_iter().map(Arc::new).collect();
                held.fetched = Some(now);
                held.jwks_uri = jwks_uri.or(held.jwks_uri.take());
                held.attempted = Some((now, None));
            }
            Err(failure) => {
                tracing::warn!(
                    held = held.keys.len(),
                    "cannot refresh the keys tokens are verified with: {failure}; the keys held stay in use"
                );
                held.attempted = Some((now, Some(failure)));
            }
        }
    }

    async fn fetch(&self) -> Result<(Vec<VerifyingKey>, Option<FetchUrl>), String> {
        let timeout = self.options.fetch_timeout;
        match &self.location {
            Location::File(path) => read_file(path).map(|keys| (keys, None)),
            Location::Url(url) => Ok((parse_jwks(&fetch::get(url, timeout).await?)?, None)),
            Location::Issuer(issuer) => {
                let known = self.held().jwks_uri.clone();
                let jwks_uri = match known {
                    Some(uri) => uri,
                    None => discover_jwks_uri(issuer, timeout).await?,
                };
                let keys = parse_jwks(&fetch::get(&jwks_uri, timeout).await?)?;
                Ok((keys, Some(jwks_uri)))
            }
        }
    }
}

/// The key of `keys` for a token whose header names `kid` and `alg`.
pub fn find<'k>(
    keys: &'k [Arc<VerifyingKey>],
    kid: Option<&str>,
    alg: Algorithm,
) -> Result<&'k Arc<VerifyingKey>, String> {
    match kid {
        Some(kid) => match keys.iter().find(|key| key.kid.as_deref() == Some(kid)) {
            Some(key) if key.fits(alg) => Ok(key),
            Some(_) => Err(format!("key {kid:?} is not a key for {alg:?}")),
            None => Err(format!("no key {kid:?} among the issuer's {} keys", keys.len())),
        },
        None => {
            let mut fitting = keys.iter().filter(|key| key.fits(alg));
            match (fitting.next(), fitting.next()) {
                (Some(key), None) => Ok(key),
                (None, _) => Err(format!("no {alg:?} key among the issuer's keys")),
                (Some(_), Some(_)) => Err("the token names no key id (`kid`) and several keys fit".into()),
            }
        }
    }
}

fn read_file(path: &PathBuf) -> Result<Vec<VerifyingKey>, String> {
    let text = std::fs::read(path).map_err(|e| format!("cannot read the JWKS file {}: {e}", path.display()))?;
    parse_jwks(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The signing keys of a JWKS document; keys of other kinds (encryption,
/// symmetric, unknown types) are left out.
pub fn parse_jwks(bytes: &[u8]) -> Result<Vec<VerifyingKey>, String> {
    #[derive(Deserialize)]
    struct Document {
        keys: Vec<serde_json::Value>,
    }
    let document: Document =
        serde_json::from_slice(bytes).map_err(|e| format!("not a JWKS (a JSON object with `keys`): {e}"))?;
    let mut keys = Vec::new();
    for value in document.keys {
        let Ok(jwk) = serde_json::from_value::<Jwk>(value) else { continue };
        if matches!(jwk.common.public_key_use, Some(PublicKeyUse::Encryption | PublicKeyUse::Other(_))) {
            continue;
        }
        let Ok(key) = DecodingKey::from_jwk(&jwk) else { continue };
        if key.family() == jsonwebtoken::AlgorithmFamily::Hmac {
            // A shared secret has no place in a public key set.
            continue;
        }
        let alg = jwk.common.key_algorithm.and_then(|alg| alg.to_string().parse::<Algorithm>().ok());
        keys.push(VerifyingKey { kid: jwk.common.key_id, alg, key });
    }
    Ok(keys)
}

/// The `jwks_uri` of `issuer`'s metadata (RFC 8414, then OpenID Connect
/// Discovery), whose `issuer` must be `issuer` itself.
async fn discover_jwks_uri(issuer: &str, timeout: Duration) -> Result<FetchUrl, String> {
    #[derive(Deserialize)]
    struct Metadata {
        issuer: String,
        jwks_uri: Option<String>,
    }
    let base = FetchUrl::parse(issuer).map_err(|e| format!("the issuer {e}"))?;
    let base = base.as_str();
    let (origin, path) = split_origin(&base);
    let mut candidates = vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}/.well-known/openid-configuration{path}"),
    ];
    if !path.is_empty() {
        candidates.push(format!("{origin}{path}/.well-known/openid-configuration"));
    }
    let mut failures = Vec::new();
    for candidate in &candidates {
        let url = FetchUrl::parse(candidate)?;
        let metadata = match fetch::get(&url, timeout).await {
            Ok(body) => body,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let metadata: Metadata =
            serde_json::from_slice(&metadata).map_err(|e| format!("{candidate} is not issuer metadata: {e}"))?;
        if metadata.issuer.trim_end_matches('/') != issuer.trim_end_matches('/') {
            return Err(format!("{candidate} names issuer {:?}, not {issuer:?}", metadata.issuer));
        }
        let jwks_uri = metadata.jwks_uri.ok_or_else(|| format!("{candidate} names no `jwks_uri`"))?;
        return FetchUrl::parse(&jwks_uri).map_err(|e| format!("the `jwks_uri` {e}"));
    }
    Err(format!("cannot discover the keys of issuer {issuer}: {}", failures.join("; ")))
}

/// `https://as.example/tenant/` → (`https://as.example`, `/tenant`).
fn split_origin(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(slash) => (&url[..after_scheme + slash], url[after_scheme + slash..].trim_end_matches('/')),
        None => (url, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_an_issuer_into_origin_and_path() {
        assert_eq!(split_origin("https://as.example/"), ("https://as.example", ""));
        assert_eq!(split_origin("https://as.example"), ("https://as.example", ""));
        assert_eq!(split_origin("https://as.example/t1/"), ("https://as.example", "/t1"));
    }

    #[test]
    fn keeps_only_signing_keys() {
        let jwks = br#"{"keys":[
            {"kty":"oct","k":"c2VjcmV0","kid":"hmac"},
            {"kty":"EC","crv":"P-256","kid":"enc","use":"enc",
             "x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
            {"kty":"EC","crv":"P-256","kid":"sig","alg":"ES256",
             "x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
            {"kty":"unknown","kid":"future"}
        ]}"#;
        let keys: Vec<Arc<VerifyingKey>> = parse_jwks(jwks).unwrap().into_iter().map(Arc::new).collect();
        assert_eq!(keys.len(), 1);
        assert!(find(&keys, Some("sig"), Algorithm::ES256).is_ok());
        assert!(find(&keys, None, Algorithm::ES256).is_ok());
        assert!(find(&keys, Some("sig"), Algorithm::ES384).is_err());
        assert!(find(&keys, Some("sig"), Algorithm::RS256).is_err());
        assert!(find(&keys, Some("hmac"), Algorithm::HS256).is_err());
        assert!(parse_jwks(b"[]").is_err());
    }
}
