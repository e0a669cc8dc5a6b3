//! Validating a bearer token by the protocol's [`TokenRules`] with a held
//! key of its issuer. Validated tokens are remembered until they expire, so
//! a client that reuses its token pays for the signature once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use mcp_wit_protocol::auth::{AuthRefusal, ScopePolicy, SharedCaller, TokenRules};

use super::keys::{KeyError, KeyOptions, KeySet, KeySource};

/// What a token must be, and the keys to check it with.
pub struct Validator {
    rules: TokenRules,
    /// Per accepted issuer (in the rules' order), its keys (one shared set
    /// for a JWKS URL or file).
    keys: Vec<Arc<KeySet>>,
    cache: TokenCache,
}

impl Validator {
    /// Tokens as `rules` says, verified with keys from `source`.
    pub fn new(rules: TokenRules, source: &KeySource, key_options: KeyOptions) -> Result<Validator, String> {
        let shared = match source {
            KeySource::Discover => None,
            _ => Some(Arc::new(KeySet::new(source, "", key_options)?)),
        };
        let keys = rules
            .issuers()
            .iter()
            .map(|issuer| match &shared {
                Some(set) => Ok(set.clone()),
                None => Ok(Arc::new(KeySet::new(source, issuer, key_options)?)),
            })
            .collect::<Result<_, String>>()?;
        Ok(Validator { rules, keys, cache: TokenCache::new(8192) })
    }

    /// The caller `token` names, once it checks out; else why not, with
    /// the scopes of `policy`'s server to ask for.
    pub async fn validate(&self, token: &str, policy: &ScopePolicy) -> Result<SharedCaller, AuthRefusal> {
        if let Some(caller) = self.cache.get(token, now_secs()) {
            return Ok(caller);
        }
        let invalid = |why: String| AuthRefusal::invalid_token(why, policy);
        let header = self.rules.read(token).map_err(invalid)?;
        let key = self.keys[header.issuer].key_for(header.kid.as_deref(), header.alg).await.map_err(|e| match e {
            KeyError::Unknown(why) => invalid(why),
            KeyError::Unavailable(why) => AuthRefusal::keys_unavailable(why),
        })?;
        let verified = self.rules.verify(token, &header, &key).map_err(invalid)?;
        let caller = SharedCaller::new(verified.caller);
        self.cache.insert(token, caller.clone(), verified.valid_until);
        Ok(caller)
    }
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
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
    use mcp_wit_protocol::auth::Caller;

    use super::*;

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
