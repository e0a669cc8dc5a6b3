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

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use mcp_wit_protocol::auth::{Algorithm, VerifyingKey, find_key, parse_jwks};
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
            let found = find_key(&held.keys, kid, alg).is_ok();
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
        match find_key(&held.keys, kid, alg) {
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

/// The largest JWKS file read: a key set of a few dozen keys is tens of KiB.
const MAX_JWKS_FILE: u64 = 1 << 20;

fn read_file(path: &Path) -> Result<Vec<VerifyingKey>, String> {
    let text = crate::runtime::read_regular_file(path, MAX_JWKS_FILE, "a JSON Web Key Set", "a key set may have")
        .map_err(|e| format!("cannot read the JWKS file {}: {e}", path.display()))?;
    parse_jwks(&text).map_err(|e| format!("{}: {e}", path.display()))
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
}
