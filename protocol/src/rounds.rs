//! Multi-round-trip requests (2026-07-28): a router's question in a modern
//! request ends the round with an `input_required` result; the client's
//! retry brings the answers, and the request is served again from the start,
//! each question answered from them in turn.
//!
//! The answers of earlier rounds travel in `requestState`, which the client
//! must echo unchanged: it is signed (HMAC-SHA256 under the server's
//! [`StateKey`]), bound to the method, to a digest of the request's params
//! and, when requests are authenticated, to the caller (issuer and
//! subject), and expires. State that fails any of these checks is -32602,
//! never trusted.
//!
//! A state carries the client's own answers and nothing of the server's, so
//! that a client gains nothing from one that it could not get by starting
//! over and answering alike. Still, each is honoured once by the process
//! that checks it (`UsedStates`): what a router did on one answer is not
//! done again on a copy of it. Only the answers to questions the router
//! asked travel on: a retry's answers to anything else are dropped, and a
//! state is at most [`MAX_STATE_LEN`] bytes.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use crate::auth::Caller;
use crate::jsonrpc::RpcError;
use crate::method::Method;

/// How long a `requestState` is honoured after it was issued, unless the
/// session options say otherwise.
pub(crate) const DEFAULT_STATE_TTL: Duration = Duration::from_secs(600);

/// The prefix of every state this version issues.
const STATE_VERSION: &str = "v1.";

/// The longest `requestState` this server issues or reads, in bytes: the
/// answers of a request's rounds, which the client chose, travel in it on
/// every retry.
pub const MAX_STATE_LEN: usize = 1024 * 1024;

/// How many used states a process remembers at once, each until it
/// expires, so as to honour each once; past that the soonest to expire is
/// forgotten first.
pub(crate) const MAX_REMEMBERED_STATES: usize = 65_536;

/// Who holds the [`StateKey`]: whether the client's retry of a round, which
/// may reach any instance of the server, reaches one that can check it.
#[derive(Clone, Debug, Default)]
pub enum StateKeySharing {
    /// Every instance a retry may reach holds it: one process, or replicas
    /// given the same key (`--state-key-file`).
    #[default]
    Shared,
    /// This instance alone holds it, and a retry may reach another (an
    /// engine's instances, each drawing its own). A round is then refused
    /// with -32603 rather than sealed with a key no other instance could
    /// check; `remedy` says what the operator sets to share one.
    ThisInstanceOnly {
        /// What to set, e.g. the setting naming a key file.
        remedy: Arc<str>,
    },
}

impl StateKeySharing {
    /// The refusal of a round that could not be resumed, if this is
    /// [`StateKeySharing::ThisInstanceOnly`].
    pub fn refusal(&self) -> Option<RpcError> {
        match self {
            StateKeySharing::Shared => None,
            StateKeySharing::ThisInstanceOnly { remedy } => Some(RpcError::internal(format!(
                "the router asked the client a question, but this server cannot resume the request with the answer: \
                 its instances share no key to sign `requestState` with ({remedy})"
            ))),
        }
    }
}

/// The key `requestState` is signed with. Replicas behind one load balancer
/// must share it (a state issued by one is then honoured by all); by default
/// each process draws its own.
#[derive(Clone)]
pub struct StateKey(Arc<[u8]>);

impl std::fmt::Debug for StateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StateKey(…)")
    }
}

impl StateKey {
    /// At least this many bytes of key.
    pub const MIN_LEN: usize = 32;

    /// A key of 32 bytes from the operating system's random source.
    pub fn random() -> Self {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("the operating system has no random source");
        StateKey(Arc::from(&bytes[..]))
    }

    /// A key from `bytes`, which must be at least [`Self::MIN_LEN`] long.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        if bytes.len() < Self::MIN_LEN {
            return Err(format!(
                "a state key needs at least {} bytes, got {} (e.g. `head -c 32 /dev/urandom > key`)",
                Self::MIN_LEN,
                bytes.len()
            ));
        }
        Ok(StateKey(Arc::from(bytes)))
    }

    fn mac(&self) -> Hmac<Sha256> {
        Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes keys of any length")
    }
}

impl Default for StateKey {
    /// One random key per process, shared by every session of it.
    fn default() -> Self {
        static KEY: std::sync::OnceLock<StateKey> = std::sync::OnceLock::new();
        KEY.get_or_init(StateKey::random).clone()
    }
}

/// What a state carries.
#[derive(Serialize, Deserialize)]
struct Sealed {
    /// The method it was issued for.
    m: String,
    /// The digest of the request's params it was issued for.
    d: String,
    /// Expiry, in seconds since the Unix epoch.
    e: u64,
    /// The answers of the rounds so far, by key.
    a: BTreeMap<String, Box<RawValue>>,
    /// The keys of the questions the round this state ends asked: the only
    /// answers its retry may bring.
    #[serde(default)]
    q: BTreeSet<String>,
    /// A random name of this state, by which its use is remembered.
    n: String,
    /// A digest of the caller it was issued to, when requests are
    /// authenticated (a digest: the state is readable by the client).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    p: Option<String>,
}

/// The answers a modern request brings: those of earlier rounds (from its
/// verified `requestState`) and those of the last one (`inputResponses`).
/// Serialisable so that a round travels with a relayed link
/// ([`crate::client::RelayedLink`]) to a router in another component.
#[derive(Clone, Serialize, Deserialize)]
pub struct Round {
    #[serde(with = "method_name")]
    method: Method,
    digest: String,
    answers: BTreeMap<String, Box<RawValue>>,
    caller: Option<String>,
}

impl Round {
    /// Reads the round a request of `method` with `params`, made by
    /// `caller` (when authenticated), is in, checking its `requestState` with
    /// `key`; -32602 for state that was tampered with, expired, used
    /// before, or issued for another request or another caller, and for
    /// malformed `inputResponses`. Answers to questions the state's round
    /// did not ask (all of them, without a state) are dropped.
    pub fn read(
        key: &StateKey,
        method: Method,
        params: Option<&RawValue>,
        caller: Option<&Caller>,
    ) -> Result<Round, RpcError> {
        #[derive(Deserialize)]
        struct Retry<'a> {
            // Present, even as `null` (which is malformed, not absent).
            #[serde(default, borrow, rename = "inputResponses", deserialize_with = "present")]
            input_responses: Option<&'a RawValue>,
            #[serde(default, rename = "requestState")]
            request_state: Option<String>,
        }
        let retry = match params {
            Some(params) => serde_json::from_str::<Retry<'_>>(params.get())
                .map_err(|e| RpcError::invalid_params(format!("`inputResponses`/`requestState`: {e}")))?,
            None => Retry { input_responses: None, request_state: None },
        };
        let digest = params_digest(params)?;
        let caller = caller.map(caller_digest);
        let responses = match retry.input_responses {
            Some(responses) => {
                let responses: BTreeMap<String, Box<RawValue>> = serde_json::from_str(responses.get())
                    .map_err(|e| RpcError::invalid_params(format!("`inputResponses` must map keys to results: {e}")))?;
                // Each is a result object; which kind is checked when its
                // question is asked again.
                if let Some((key, _)) = responses.iter().find(|(_, answer)| !answer.get().starts_with('{')) {
                    return Err(RpcError::invalid_params(format!("`inputResponses.{key}` must be a result object")));
                }
                responses
            }
            None => BTreeMap::new(),
        };
        let (mut answers, asked) = match &retry.request_state {
            Some(state) => {
                let sealed = open(key, state, method, &digest, caller.as_deref())?;
                UsedStates::global().claim(&sealed.n, sealed.e)?;
                (sealed.a, sealed.q)
            }
            // Nothing was asked: answers without a state answer nothing,
            // and the router asks its questions anew.
            None => (BTreeMap::new(), BTreeSet::new()),
        };
        let (kept, dropped): (BTreeMap<_, _>, BTreeMap<_, _>) =
            responses.into_iter().partition(|(key, _)| asked.contains(key));
        if !dropped.is_empty() {
            // Counted, not named: the keys are the client's text.
            tracing::debug!(dropped = dropped.len(), "dropping answers to questions never asked");
        }
        answers.extend(kept);
        Ok(Round { method, digest, answers, caller })
    }

    /// Every answer, by key.
    pub fn answers(&self) -> BTreeMap<&str, &RawValue> {
        self.answers.iter().map(|(key, answer)| (key.as_str(), answer.as_ref())).collect()
    }

    /// The answer given to the question keyed `key`, if any.
    pub fn answer(&self, key: &str) -> Option<&RawValue> {
        self.answers.get(key).map(AsRef::as_ref)
    }

    /// The `requestState` of the next round, signed and honoured for `ttl`
    /// (whole seconds, at least one): the answers this run of the request
    /// used (`answered`, by key; any other is dropped), and the keys of the
    /// questions it asks now (`asking`). -32602 when it would be longer than
    /// [`MAX_STATE_LEN`].
    pub fn seal<'k>(
        &self,
        key: &StateKey,
        ttl: Duration,
        answered: impl IntoIterator<Item = &'k str>,
        asking: impl IntoIterator<Item = &'k str>,
    ) -> Result<String, RpcError> {
        let expiry = now_secs().saturating_add(ttl.as_secs().max(1));
        let answers = answered
            .into_iter()
            .filter_map(|k| self.answers.get_key_value(k).map(|(k, answer)| (k.clone(), answer.clone())))
            .collect();
        self.seal_until(key, expiry, answers, asking.into_iter().map(str::to_owned).collect())
    }

    /// The state, honoured until `expiry` (seconds since the Unix epoch).
    fn seal_until(
        &self,
        key: &StateKey,
        expiry: u64,
        answers: BTreeMap<String, Box<RawValue>>,
        asking: BTreeSet<String>,
    ) -> Result<String, RpcError> {
        let mut nonce = [0u8; 16];
        getrandom::fill(&mut nonce).expect("the operating system has no random source");
        let sealed = Sealed {
            m: self.method.as_str().to_owned(),
            d: self.digest.clone(),
            e: expiry,
            a: answers,
            q: asking,
            n: URL_SAFE_NO_PAD.encode(nonce),
            p: self.caller.clone(),
        };
        let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&sealed).expect("a state serialises"));
        let mut mac = key.mac();
        mac.update(payload.as_bytes());
        let tag = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
        let state = format!("{STATE_VERSION}{payload}.{tag}");
        if state.len() > MAX_STATE_LEN {
            return Err(RpcError::invalid_params(format!(
                "the answers to this request's questions make a `requestState` of {} bytes, over the limit of \
                 {MAX_STATE_LEN}; start the request over and answer with less",
                state.len()
            )));
        }
        Ok(state)
    }
}

/// A field that is there, whatever its value (`null` included).
/// A [`Method`] by its name.
mod method_name {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::method::Method;

    pub fn serialize<S: Serializer>(method: &Method, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(method.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Method, D::Error> {
        let name = <&str>::deserialize(deserializer)?;
        Method::parse(name).ok_or_else(|| serde::de::Error::custom(format!("no method is named {name:?}")))
    }
}

fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}

/// What `state` carries, once its size, signature, expiry, method and params
/// digest check out.
fn open(key: &StateKey, state: &str, method: Method, digest: &str, caller: Option<&str>) -> Result<Sealed, RpcError> {
    let invalid =
        |why: &str| RpcError::invalid_params(format!("`requestState` {why}; start the request over without it"));
    if state.len() > MAX_STATE_LEN {
        return Err(invalid(&format!(
            "is {} bytes, longer than any this server issues ({MAX_STATE_LEN})",
            state.len()
        )));
    }
    let rest = state.strip_prefix(STATE_VERSION).ok_or_else(|| invalid("is not one this server issued"))?;
    let (payload, tag) = rest.split_once('.').ok_or_else(|| invalid("is not one this server issued"))?;
    let tag = URL_SAFE_NO_PAD.decode(tag).map_err(|_| invalid("failed its integrity check"))?;
    let mut mac = key.mac();
    mac.update(payload.as_bytes());
    mac.verify_slice(&tag).map_err(|_| invalid("failed its integrity check"))?;
    let bytes = URL_SAFE_NO_PAD.decode(payload).map_err(|_| invalid("failed its integrity check"))?;
    let sealed: Sealed = serde_json::from_slice(&bytes).map_err(|_| invalid("failed its integrity check"))?;
    if sealed.e < now_secs() {
        return Err(invalid("has expired"));
    }
    if sealed.m != method.as_str() || sealed.d != digest {
        return Err(invalid("was issued for another request (method or params differ)"));
    }
    if sealed.p.as_deref() != caller {
        return Err(invalid("was issued to another caller"));
    }
    Ok(sealed)
}

/// The states a process has honoured, each remembered until it expires, so
/// that none is honoured twice: a copy of a retry, replayed, is refused.
///
/// Only this process knows them: replicas sharing a key (and an engine's
/// instances, each of its own) each remember their own, so a copy sent to
/// another is honoured there once more. That is harmless by design: a state
/// carries nothing but the client's own answers, bound to its request and
/// caller, so a replay does only what starting over and answering alike
/// would do. At most [`MAX_REMEMBERED_STATES`] are remembered; past that the
/// soonest to expire is forgotten first.
struct UsedStates {
    /// By name, each state's expiry (seconds since the Unix epoch).
    used: Mutex<HashMap<String, u64>>,
    capacity: usize,
}

impl UsedStates {
    fn with_capacity(capacity: usize) -> Self {
        UsedStates { used: Mutex::new(HashMap::new()), capacity }
    }

    /// The process's own.
    fn global() -> &'static UsedStates {
        static USED: std::sync::OnceLock<UsedStates> = std::sync::OnceLock::new();
        USED.get_or_init(|| UsedStates::with_capacity(MAX_REMEMBERED_STATES))
    }

    /// Records the use of the state named `name`, honoured until `expiry`;
    /// -32602 if it was used before.
    fn claim(&self, name: &str, expiry: u64) -> Result<(), RpcError> {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        if used.contains_key(name) {
            return Err(RpcError::invalid_params(
                "`requestState` was used already: each is honoured once; retry with the state of the latest \
                 `input_required` result, or start the request over without one",
            ));
        }
        if used.len() >= self.capacity {
            let now = now_secs();
            used.retain(|_, expires| *expires >= now);
        }
        if used.len() >= self.capacity
            && let Some(soonest) = used.iter().min_by_key(|(_, expires)| **expires).map(|(name, _)| name.clone())
        {
            used.remove(&soonest);
        }
        used.insert(name.to_owned(), expiry);
        Ok(())
    }
}

/// What a state keeps of its caller: a digest of issuer and subject.
fn caller_digest(caller: &Caller) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(caller.principal_key().as_bytes()))
}

/// A digest of what identifies a request: its params without `_meta` and
/// the retry's own fields, keys sorted, so a client's re-serialisation
/// matches.
fn params_digest(params: Option<&RawValue>) -> Result<String, RpcError> {
    let mut value = match params {
        Some(params) => serde_json::from_str::<serde_json::Value>(params.get())
            .map_err(|e| RpcError::invalid_params(format!("params: {e}")))?,
        None => serde_json::Value::Null,
    };
    if let Some(object) = value.as_object_mut() {
        for key in ["_meta", "inputResponses", "requestState"] {
            object.remove(key);
        }
    }
    let canonical = serde_json::to_vec(&value).expect("a JSON value serialises");
    Ok(Sha256::digest(&canonical).iter().map(|b| format!("{b:02x}")).collect())
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.into()).unwrap()
    }

    fn round_with_state(key: &StateKey, params: &str) -> Result<Round, RpcError> {
        Round::read(key, Method::CallTool, Some(&raw(params)), None)
    }

    #[test]
    fn a_key_of_one_instance_refuses_rounds_naming_the_remedy() {
        assert!(StateKeySharing::Shared.refusal().is_none());
        let alone = StateKeySharing::ThisInstanceOnly { remedy: "set KEY_FILE on every replica".into() };
        let refusal = alone.refusal().unwrap();
        assert_eq!(refusal.code, crate::jsonrpc::code::INTERNAL_ERROR);
        assert!(refusal.message.ends_with("share no key to sign `requestState` with (set KEY_FILE on every replica)"));
    }

    /// The state of a round of `round` that used the answers `answered` and
    /// asks `asking`.
    fn sealed(key: &StateKey, round: &Round, answered: &[&str], asking: &[&str]) -> String {
        round.seal(key, DEFAULT_STATE_TTL, answered.iter().copied(), asking.iter().copied()).unwrap()
    }

    #[test]
    fn a_state_carries_the_answers_to_the_next_round() {
        let key = StateKey::random();
        let first = round_with_state(&key, r#"{"name":"t"}"#).unwrap();
        let state = sealed(&key, &first, &[], &["a"]);
        let retry =
            format!(r#"{{"name":"t","inputResponses":{{"a":{{"action":"accept"}}}},"requestState":"{state}"}}"#);
        let second = round_with_state(&key, &retry).unwrap();
        assert_eq!(second.answer("a").map(RawValue::get), Some(r#"{"action":"accept"}"#));
        let state = sealed(&key, &second, &["a"], &["b"]);
        // The retry sends its arguments in another order, and only the new answer.
        let retry =
            format!(r#"{{"inputResponses":{{"b":{{"action":"decline"}}}},"name":"t","requestState":"{state}"}}"#);
        let third = round_with_state(&key, &retry).unwrap();
        assert_eq!(third.answer("a").map(RawValue::get), Some(r#"{"action":"accept"}"#));
        assert_eq!(third.answer("b").map(RawValue::get), Some(r#"{"action":"decline"}"#));
    }

    #[test]
    fn answers_without_a_state_answer_nothing() {
        let key = StateKey::random();
        let round = round_with_state(&key, r#"{"name":"t","inputResponses":{"q1":{"action":"accept"}}}"#).unwrap();
        assert!(round.answers().is_empty(), "nothing was asked: the router asks again");
    }

    #[test]
    fn answers_to_questions_never_asked_are_dropped_and_not_carried_on() {
        let key = StateKey::random();
        let state = sealed(&key, &round_with_state(&key, r#"{"name":"t"}"#).unwrap(), &[], &["q1"]);
        let unasked = format!(r#""x{{}}":{{"pad":"{}"}}"#, "z".repeat(1000));
        let answers = (0..50).map(|i| unasked.replace("{}", &i.to_string())).collect::<Vec<_>>().join(",");
        let retry = format!(
            r#"{{"name":"t","requestState":"{state}","inputResponses":{{"q1":{{"action":"accept"}},{answers}}}}}"#
        );
        let round = round_with_state(&key, &retry).unwrap();
        assert_eq!(round.answers().into_keys().collect::<Vec<_>>(), ["q1"]);
        // The next state carries the answers the run used, nothing else.
        let next = sealed(&key, &round, &["q1", "x1"], &["q2"]);
        assert!(next.len() < 1000, "{} bytes", next.len());
    }

    #[test]
    fn a_state_is_honoured_once() {
        let key = StateKey::random();
        let state = sealed(&key, &round_with_state(&key, r#"{"name":"t"}"#).unwrap(), &[], &["q1"]);
        let retry =
            format!(r#"{{"name":"t","requestState":"{state}","inputResponses":{{"q1":{{"action":"accept"}}}}}}"#);
        assert!(round_with_state(&key, &retry).is_ok());
        let error = round_with_state(&key, &retry).err().unwrap();
        assert_eq!(error.code, -32602);
        assert!(error.message.contains("`requestState` was used already"), "{}", error.message);
    }

    #[test]
    fn used_states_are_bounded_forgetting_the_soonest_to_expire() {
        let used = UsedStates::with_capacity(2);
        let later = now_secs() + 100;
        used.claim("a", later + 1).unwrap();
        used.claim("b", later).unwrap();
        assert!(used.claim("a", later + 1).is_err());
        used.claim("c", later + 2).unwrap();
        let remembered = used.used.lock().unwrap();
        assert_eq!(remembered.len(), 2);
        assert!(remembered.contains_key("a") && remembered.contains_key("c"), "b expires first");
    }

    #[test]
    fn a_state_is_bounded_in_size() {
        let key = StateKey::random();
        let state = sealed(&key, &round_with_state(&key, r#"{"name":"t"}"#).unwrap(), &[], &["q1"]);
        let big = format!(r#"{{"action":"accept","content":{{"text":"{}"}}}}"#, "a".repeat(MAX_STATE_LEN));
        let retry = format!(r#"{{"name":"t","requestState":"{state}","inputResponses":{{"q1":{big}}}}}"#);
        let round = round_with_state(&key, &retry).unwrap();
        let error = round.seal(&key, DEFAULT_STATE_TTL, ["q1"], ["q2"]).err().unwrap();
        assert_eq!(error.code, -32602);
        assert!(error.message.contains("over the limit of 1048576"), "{}", error.message);
        let long = format!("v1.{}", "a".repeat(MAX_STATE_LEN));
        let error = round_with_state(&key, &format!(r#"{{"name":"t","requestState":"{long}"}}"#)).err().unwrap();
        assert!(error.message.contains("longer than any this server issues"), "{}", error.message);
    }

    #[test]
    fn tampered_foreign_and_mismatched_states_are_refused() {
        let key = StateKey::random();
        let state = sealed(&key, &round_with_state(&key, r#"{"name":"t"}"#).unwrap(), &[], &[]);
        let refused = |params: String| round_with_state(&key, &params).err().map(|e| (e.code, e.message));
        let (code, message) = refused(format!(r#"{{"name":"t","requestState":"{state}-TAMPERED"}}"#)).unwrap();
        assert_eq!(code, -32602);
        assert!(message.contains("failed its integrity check"), "{message}");
        let (_, message) = refused(format!(r#"{{"name":"other","requestState":"{state}"}}"#)).unwrap();
        assert!(message.contains("issued for another request"), "{message}");
        let other = StateKey::random();
        let foreign = sealed(&other, &round_with_state(&other, r#"{"name":"t"}"#).unwrap(), &[], &[]);
        let (_, message) = refused(format!(r#"{{"name":"t","requestState":"{foreign}"}}"#)).unwrap();
        assert!(message.contains("failed its integrity check"), "{message}");
        assert!(refused(r#"{"name":"t","requestState":"garbage"}"#.into()).is_some());
        assert!(refused(r#"{"name":"t","inputResponses":[1]}"#.into()).is_some());
        assert!(refused(r#"{"name":"t","inputResponses":null}"#.into()).is_some());
        let (_, message) = refused(r#"{"name":"t","inputResponses":{"k":12345}}"#.into()).unwrap();
        assert_eq!(message, "Invalid params: `inputResponses.k` must be a result object");
    }

    #[test]
    fn an_expired_state_is_refused() {
        let key = StateKey::random();
        let round = round_with_state(&key, r#"{"name":"t"}"#).unwrap();
        let retry = |state: String| round_with_state(&key, &format!(r#"{{"name":"t","requestState":"{state}"}}"#));
        let until = |expiry| round.seal_until(&key, expiry, BTreeMap::new(), BTreeSet::new()).unwrap();
        assert!(retry(until(now_secs())).is_ok(), "honoured through its last second");
        let error = retry(until(now_secs() - 1)).err().unwrap();
        assert_eq!(error.code, -32602);
        assert!(error.message.contains("has expired; start the request over without it"), "{}", error.message);
    }

    #[test]
    fn a_state_is_bound_to_its_caller() {
        let key = StateKey::random();
        let alice = Caller::new("https://as.example", "alice", None, ["a".to_string()]);
        let alice_stepped_up = Caller::new("https://as.example", "alice", Some("c".into()), ["a".into(), "b".into()]);
        let bob = Caller::new("https://as.example", "bob", None, []);
        let read =
            |caller: Option<&Caller>, params: &str| Round::read(&key, Method::CallTool, Some(&raw(params)), caller);
        let state = sealed(&key, &read(Some(&alice), r#"{"name":"t"}"#).unwrap(), &[], &[]);
        let retry = format!(r#"{{"name":"t","requestState":"{state}"}}"#);
        assert!(read(Some(&alice_stepped_up), &retry).is_ok());
        for other in [Some(&bob), None] {
            let error = read(other, &retry).err().unwrap();
            assert!(error.message.contains("issued to another caller"), "{}", error.message);
        }
        let anonymous = sealed(&key, &read(None, r#"{"name":"t"}"#).unwrap(), &[], &[]);
        let retry = format!(r#"{{"name":"t","requestState":"{anonymous}"}}"#);
        assert!(read(Some(&alice), &retry).is_err(), "a state issued to no one is no one else's");
    }

    #[test]
    fn short_keys_are_refused() {
        assert!(StateKey::from_bytes(&[0; 31]).is_err());
        assert!(StateKey::from_bytes(&[0; 32]).is_ok());
    }
}
