//! MCP 2026-07-28 ("modern") requests: the envelope every request carries in
//! `params._meta`, the errors it can earn, and the cache hints of results.
//!
//! A modern request stands alone: its protocol version, the client's
//! capabilities and the log level it wants travel with it, and nothing is
//! learnt from earlier requests. A request whose `_meta` names a protocol
//! version makes a modern claim; one without is legacy traffic, served by
//! the `initialize`-negotiated session as before.

use std::borrow::Cow;
use std::sync::LazyLock;

use memchr::memmem;
use serde::Deserialize;
use serde_json::json;
use serde_json::value::RawValue;

use crate::jsonrpc::{RpcError, borrowed_text, code};
use crate::params::{LogLevel, RequestMeta};
use crate::version::ProtocolVersion;

/// `_meta` key of a request's protocol version (its presence is the modern claim).
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key of the client's capabilities for this request.
pub(crate) const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key of the client's name and version.
pub(crate) const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key of the least severe log level the client wants for this request.
pub(crate) const LOG_LEVEL_KEY: &str = "io.modelcontextprotocol/logLevel";
/// `_meta` key of the server's name and version on results.
pub(crate) const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
/// `_meta` key naming the `subscriptions/listen` request a notification belongs to.
pub(crate) const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";

/// The envelope of a modern request.
#[derive(Debug, Clone)]
pub struct Envelope {
    /// The protocol version the request names, as sent (it may be one the
    /// server does not serve: see [`Envelope::version`]); a revision this
    /// build knows is not copied.
    pub requested_version: Cow<'static, str>,
    /// The client's capabilities for this request: a JSON object.
    pub client_capabilities: Box<RawValue>,
    /// The client's `Implementation` object, when sent.
    pub client_info: Option<Box<RawValue>>,
    /// The least severe level of `notifications/message` the client wants
    /// for this request; none without it.
    pub log_level: Option<LogLevel>,
}

#[derive(Deserialize)]
struct ParamsMeta<'a> {
    #[serde(borrow, rename = "_meta", default)]
    meta: Option<&'a RawValue>,
}

/// The params with their `_meta` read as [`RequestMeta`] in the same pass.
#[derive(Deserialize)]
struct ParamsKeys<'a> {
    #[serde(borrow, rename = "_meta", default)]
    meta: Option<RequestMeta<'a>>,
}

impl Envelope {
    /// Whether its client declared extension `id`
    /// (`clientCapabilities.extensions`).
    pub fn client_declares(&self, id: &str) -> bool {
        crate::client::ClientCapabilities::read(&self.client_capabilities).extension(id).is_some()
    }

    /// Reads the envelope of a request's `params`: `None` when the request
    /// makes no modern claim (legacy traffic), -32602 when it makes one with
    /// a missing or malformed envelope.
    pub fn read(params: Option<&RawValue>) -> Result<Option<Envelope>, RpcError> {
        let Some(params) = params.filter(|p| may_claim(p)) else { return Ok(None) };
        // One pass reads `_meta`'s keys; only when that fails is `_meta`
        // read apart, to tell a malformed envelope from no envelope.
        let keys = match serde_json::from_str::<ParamsKeys<'_>>(params.get()) {
            Ok(ParamsKeys { meta: Some(keys) }) => keys,
            Ok(ParamsKeys { meta: None }) => return Ok(None),
            Err(_) => {
                let meta = match serde_json::from_str::<ParamsMeta<'_>>(params.get()) {
                    Ok(ParamsMeta { meta: Some(meta) }) => meta,
                    // The key was elsewhere in the params (say, in a tool argument).
                    Ok(ParamsMeta { meta: None }) | Err(_) => return Ok(None),
                };
                serde_json::from_str(meta.get())
                    .map_err(|e| envelope_error(format!("`_meta` must be an object: {e}"), json!({ "key": "_meta" })))?
            }
        };
        Envelope::from_meta(&keys)
    }

    /// The envelope among the keys of a request's `_meta`, read with the
    /// rest of its params: `None` when they make no modern claim, -32602
    /// when they make one with a missing or malformed envelope.
    pub(crate) fn from_meta(keys: &RequestMeta<'_>) -> Result<Option<Envelope>, RpcError> {
        let Some(version) = keys.protocol_version else { return Ok(None) };
        let requested_version = borrowed_text(&mut serde_json::Deserializer::from_str(version.get()))
            .ok()
            .flatten()
            .ok_or_else(|| malformed(PROTOCOL_VERSION_KEY, "must be a string such as \"2026-07-28\""))?;
        let requested_version = match ProtocolVersion::parse(&requested_version) {
            Some(known) => Cow::Borrowed(known.as_str()),
            None => Cow::Owned(requested_version.into_owned()),
        };
        let client_capabilities = match keys.client_capabilities {
            None => {
                return Err(envelope_error(
                    format!("`_meta` lacks `{CLIENT_CAPABILITIES_KEY}` (send `{{}}` for none)"),
                    json!({ "missing": [CLIENT_CAPABILITIES_KEY] }),
                ));
            }
            Some(caps) if caps.get().starts_with('{') => caps.to_owned(),
            Some(_) => return Err(malformed(CLIENT_CAPABILITIES_KEY, "must be an object")),
        };
        let client_info = match keys.client_info {
            None => None,
            Some(info) if info.get().starts_with('{') => Some(info.to_owned()),
            Some(_) => return Err(malformed(CLIENT_INFO_KEY, "must be an object with `name` and `version`")),
        };
        let log_level = match keys.log_level {
            None => None,
            Some(level) => Some(serde_json::from_str::<LogLevel>(level.get()).map_err(|_| {
                malformed(
                    LOG_LEVEL_KEY,
                    "must be one of debug, info, notice, warning, error, critical, alert, emergency",
                )
            })?),
        };
        Ok(Some(Envelope { requested_version, client_capabilities, client_info, log_level }))
    }

    /// The served revision the request names, or -32022 naming the ones served.
    pub fn version(&self) -> Result<ProtocolVersion, RpcError> {
        ProtocolVersion::parse(&self.requested_version)
            .filter(|v| v.is_modern())
            .ok_or_else(|| unsupported_version(&self.requested_version))
    }
}

/// Whether `params` may make a modern claim: they name the protocol
/// version key somewhere. Legacy traffic pays for this one substring
/// search, not a parse.
pub(crate) fn may_claim(params: &RawValue) -> bool {
    // Built once: building a searcher costs more than searching a small request.
    static CLAIM: LazyLock<memmem::Finder<'static>> = LazyLock::new(|| memmem::Finder::new(PROTOCOL_VERSION_KEY));
    CLAIM.find(params.get().as_bytes()).is_some()
}

/// The modern revisions, as `server/discover` lists them and -32022 names them.
pub(crate) fn supported_versions() -> Vec<&'static str> {
    ProtocolVersion::MODERN.iter().map(|v| v.as_str()).collect()
}

/// -32022 for a request naming `requested`, a revision not served modern.
pub(crate) fn unsupported_version(requested: &str) -> RpcError {
    RpcError {
        code: code::UNSUPPORTED_PROTOCOL_VERSION,
        message: format!(
            "Unsupported protocol version {requested:?}: this server serves {} per request (2025 clients: send `initialize`)",
            supported_versions().join(", ")
        ),
        data: Some(json!({ "supported": supported_versions(), "requested": requested })),
    }
}

/// -32602 for a request without the envelope where one is required.
pub fn missing_envelope(why: &str) -> RpcError {
    envelope_error(
        format!("{why}: `params._meta` must carry `{PROTOCOL_VERSION_KEY}` and `{CLIENT_CAPABILITIES_KEY}`"),
        json!({ "missing": [PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY] }),
    )
}

fn malformed(key: &str, problem: &str) -> RpcError {
    envelope_error(format!("`{key}` {problem}"), json!({ "key": key, "problem": problem }))
}

fn envelope_error(message: String, envelope: serde_json::Value) -> RpcError {
    RpcError {
        code: code::INVALID_PARAMS,
        message: format!("Invalid params: {message}"),
        data: Some(json!({ "envelope": envelope })),
    }
}

/// Who may reuse a cached result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CacheScope {
    /// Any client (the result does not depend on who asked).
    #[default]
    Public,
    /// Only the client that asked (e.g. results that depend on authorization).
    Private,
}

impl CacheScope {
    /// The wire form: `"public"` or `"private"`.
    pub fn as_str(self) -> &'static str {
        match self {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        }
    }
}

/// The freshness hint modern list, read and discover results carry
/// (`ttlMs`, `cacheScope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheHint {
    /// How long a client may reuse the result, in milliseconds.
    pub ttl_ms: u64,
    /// Who may reuse it.
    pub scope: CacheScope,
}

/// Default for [`CacheHint::ttl_ms`]: one minute.
pub(crate) const DEFAULT_CACHE_TTL_MS: u64 = 60_000;

impl Default for CacheHint {
    fn default() -> Self {
        CacheHint { ttl_ms: DEFAULT_CACHE_TTL_MS, scope: CacheScope::Public }
    }
}

impl CacheHint {
    /// The hint of a result merged from two sources: the shorter life, and
    /// private if either is.
    pub fn merge(self, other: CacheHint) -> CacheHint {
        let scope = if self.scope == CacheScope::Private || other.scope == CacheScope::Private {
            CacheScope::Private
        } else {
            CacheScope::Public
        };
        CacheHint { ttl_ms: self.ttl_ms.min(other.ttl_ms), scope }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(params: &str) -> Result<Option<Envelope>, RpcError> {
        let raw = RawValue::from_string(params.to_string()).unwrap();
        Envelope::read(Some(&raw))
    }

    #[test]
    fn reads_the_envelope() {
        let env = read(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
            "io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},
            "io.modelcontextprotocol/logLevel":"info"},"name":"x"}"#,
        )
        .unwrap()
        .unwrap();
        assert_eq!(env.version().unwrap(), ProtocolVersion::V2026_07_28);
        assert_eq!(env.log_level, Some(LogLevel::Info));
        assert_eq!(env.client_info.as_deref().map(RawValue::get), Some(r#"{"name":"c","version":"1"}"#));
    }

    #[test]
    fn legacy_traffic_makes_no_claim() {
        assert!(read(r#"{"name":"x"}"#).unwrap().is_none());
        assert!(read(r#"{"arguments":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#).unwrap().is_none());
        assert!(read(r#"{"_meta":{"progressToken":1}}"#).unwrap().is_none());
    }

    #[test]
    fn bad_envelopes_are_invalid_params() {
        let missing = read(r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#).unwrap_err();
        assert_eq!(missing.code, code::INVALID_PARAMS);
        assert_eq!(missing.data.unwrap()["envelope"]["missing"][0], CLIENT_CAPABILITIES_KEY);
        for bad in [
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":7,"io.modelcontextprotocol/clientCapabilities":{}}}"#,
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}}"#,
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}"#,
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":"me"}}"#,
        ] {
            assert_eq!(read(bad).unwrap_err().code, code::INVALID_PARAMS, "{bad}");
        }
    }

    /// The version as sent, escaped or not, known or not.
    #[test]
    fn the_requested_version_is_read_as_sent() {
        let envelope = |version: &str| {
            let params = format!(
                r#"{{"_meta":{{"io.modelcontextprotocol/protocolVersion":{version},"io.modelcontextprotocol/clientCapabilities":{{}}}}}}"#
            );
            read(&params).unwrap().unwrap()
        };
        assert_eq!(envelope(r#""2026-07-28""#).requested_version, "2026-07-28");
        assert_eq!(envelope(r#""2026\u002d07-28""#).version().unwrap(), ProtocolVersion::V2026_07_28);
        assert_eq!(envelope(r#""tab\there""#).requested_version, "tab\there");
        assert_eq!(envelope(r#""1900-01-01""#).requested_version, "1900-01-01");
    }

    #[test]
    fn unknown_versions_name_the_served_ones() {
        for requested in ["1900-01-01", "2025-11-25"] {
            let params = format!(
                r#"{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"{requested}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}"#
            );
            let error = read(&params).unwrap().unwrap().version().unwrap_err();
            assert_eq!(error.code, code::UNSUPPORTED_PROTOCOL_VERSION);
            assert_eq!(error.data.unwrap(), json!({ "supported": ["2026-07-28"], "requested": requested }));
        }
    }

    #[test]
    fn merged_hints_take_the_stricter() {
        let public = CacheHint { ttl_ms: 5_000, scope: CacheScope::Public };
        let private = CacheHint { ttl_ms: 9_000, scope: CacheScope::Private };
        assert_eq!(public.merge(private), CacheHint { ttl_ms: 5_000, scope: CacheScope::Private });
    }
}
