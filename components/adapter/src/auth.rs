//! The adapter as an OAuth 2.1 resource server, as `mcp-wit serve --http
//! --auth-issuer` is one (the protocol's [`mcp_wit_protocol::auth`] rules),
//! for engines where each request is an instance of its own: nothing
//! survives a request, so keys cannot be fetched and kept. They come with
//! the settings instead: the JWKS document itself, or a file the engine
//! mounts (rotation: publish the new key beside the old one, then update
//! the setting). Every token is verified on every request.
//!
//! Settings (WASI environment; on when `MCP_WIT_AUTH_ISSUERS` is set):
//!
//! - `MCP_WIT_AUTH_ISSUERS`: the authorization servers whose tokens are
//!   taken (comma list).
//! - `MCP_WIT_AUTH_RESOURCE`: the URL clients reach the server at (the
//!   engine's address is not known inside), which tokens must name in `aud`.
//! - `MCP_WIT_AUTH_JWKS` (the document) or `MCP_WIT_AUTH_JWKS_FILE` (a path
//!   in the component's filesystem): the issuers' public keys.
//! - `MCP_WIT_AUTH_SCOPES`: scopes every request needs (space list).
//! - `MCP_WIT_AUTH_TOOL_SCOPES`, `MCP_WIT_AUTH_PROMPT_SCOPES`,
//!   `MCP_WIT_AUTH_RESOURCE_SCOPES`, `MCP_WIT_AUTH_SCOPE_IMPLIES`:
//!   `GLOB=SCOPES` rules, `;`-separated, as the `--auth-*-scope` flags.
//! - `MCP_WIT_AUTH_ALGORITHMS` (comma list), `MCP_WIT_AUTH_CLOCK_SKEW`
//!   (seconds, default 60), `MCP_WIT_AUTH_FILTER_LISTS=1`.
//!
//! Settings that cannot work refuse every request (500, saying what to
//! fix): a server asked to authenticate never serves without.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use http::HeaderMap;
use mcp_wit_protocol::auth::{
    AuthRefusal, Caller, Operation, OperationKind, ResourceMetadata, ScopePolicy, ScopeRule, TokenRules, VerifyingKey,
    check_scopes, find_key, parse_jwks, parse_scope_rule,
};

use crate::settings::list;

/// What the environment asks for.
pub enum AuthSetting {
    /// No authorization: every request is served.
    Off,
    /// Requests need a token.
    On(Box<ResourceServer>),
    /// Authorization is asked for but cannot work: why.
    Broken(String),
}

/// The rules, keys and metadata of the resource server.
pub struct ResourceServer {
    pub metadata: ResourceMetadata,
    rules: TokenRules,
    keys: Vec<VerifyingKey>,
    pub scopes: Arc<ScopePolicy>,
    pub filter_lists: bool,
}

impl AuthSetting {
    /// From the environment (see the module's documentation).
    pub fn from_env() -> AuthSetting {
        let issuers = list("MCP_WIT_AUTH_ISSUERS", ',');
        if issuers.is_empty() {
            return AuthSetting::Off;
        }
        match ResourceServer::from_env(issuers) {
            Ok(server) => AuthSetting::On(Box::new(server)),
            Err(why) => {
                eprintln!("adapter: authorization cannot work, every request is refused: {why}");
                AuthSetting::Broken(why)
            }
        }
    }
}

impl ResourceServer {
    fn from_env(issuers: Vec<String>) -> Result<ResourceServer, String> {
        let resource = std::env::var("MCP_WIT_AUTH_RESOURCE").map_err(|_| {
            "set MCP_WIT_AUTH_RESOURCE to the URL clients reach the server at, e.g. https://mcp.example.com/mcp"
                .to_string()
        })?;
        let jwks = match (std::env::var("MCP_WIT_AUTH_JWKS"), std::env::var("MCP_WIT_AUTH_JWKS_FILE")) {
            (Ok(document), _) => parse_jwks(document.as_bytes()).map_err(|e| format!("MCP_WIT_AUTH_JWKS: {e}"))?,
            (Err(_), Ok(path)) => {
                let document = std::fs::read(&path).map_err(|e| {
                    format!("cannot read the JWKS file {path} (MCP_WIT_AUTH_JWKS_FILE; is its directory mounted?): {e}")
                })?;
                parse_jwks(&document).map_err(|e| format!("{path}: {e}"))?
            }
            (Err(_), Err(_)) => {
                return Err("set MCP_WIT_AUTH_JWKS to the issuers' JWKS document (or MCP_WIT_AUTH_JWKS_FILE to a \
                            file holding it): keys cannot be fetched where each request stands alone"
                    .into());
            }
        };
        if jwks.is_empty() {
            return Err("the JWKS holds no signing key".into());
        }
        let clock_skew = match std::env::var("MCP_WIT_AUTH_CLOCK_SKEW") {
            Ok(text) => Duration::from_secs(
                text.trim()
                    .parse()
                    .map_err(|_| format!("MCP_WIT_AUTH_CLOCK_SKEW={text:?} is not a number of seconds"))?,
            ),
            Err(_) => Duration::from_secs(60),
        };
        let scopes = scope_policy()?;
        let metadata = ResourceMetadata::new(&resource, &issuers, &scopes)?;
        let algorithms = list("MCP_WIT_AUTH_ALGORITHMS", ',');
        let rules = TokenRules::new(metadata.resource(), &issuers, &algorithms, clock_skew)?;
        let filter_lists = std::env::var("MCP_WIT_AUTH_FILTER_LISTS").is_ok_and(|v| v == "1" || v == "true");
        Ok(ResourceServer { metadata, rules, keys: jwks, scopes: Arc::new(scopes), filter_lists })
    }

    /// The caller of a request with `headers` and `query`, holding the
    /// server's scopes; else the refusal.
    pub fn authenticate(&self, headers: &HeaderMap, query: Option<&str>) -> Result<Caller, AuthRefusal> {
        let token = mcp_wit_protocol::auth::bearer_token(headers, query, &self.scopes)?;
        let invalid = |why: String| AuthRefusal::invalid_token(why, &self.scopes);
        let header = self.rules.read(token).map_err(invalid)?;
        let key = find_key(&self.keys, header.kid.as_deref(), header.alg).map_err(invalid)?;
        let caller = self.rules.verify(token, &header, key).map_err(invalid)?.caller;
        check_scopes(&self.scopes, &caller, None)?;
        Ok(caller)
    }

    /// `Ok` when `caller` may perform `operation`; else the 403.
    pub fn allow(&self, caller: &Caller, operation: Option<Operation<'_>>) -> Result<(), AuthRefusal> {
        check_scopes(&self.scopes, caller, operation)
    }
}

/// The scopes from `MCP_WIT_AUTH_SCOPES` and the rule settings.
fn scope_policy() -> Result<ScopePolicy, String> {
    let mut policy =
        ScopePolicy { required: list("MCP_WIT_AUTH_SCOPES", ' '), rules: Vec::new(), implies: BTreeMap::new() };
    for (name, kind) in [
        ("MCP_WIT_AUTH_TOOL_SCOPES", OperationKind::Tool),
        ("MCP_WIT_AUTH_PROMPT_SCOPES", OperationKind::Prompt),
        ("MCP_WIT_AUTH_RESOURCE_SCOPES", OperationKind::Resource),
    ] {
        for rule in list(name, ';') {
            let (pattern, scopes) = parse_scope_rule(&rule).map_err(|e| format!("{name} {rule:?}: {e}"))?;
            policy.rules.push(ScopeRule { kind, pattern, scopes });
        }
    }
    for rule in list("MCP_WIT_AUTH_SCOPE_IMPLIES", ';') {
        let (scope, implied) =
            parse_scope_rule(&rule).map_err(|e| format!("MCP_WIT_AUTH_SCOPE_IMPLIES {rule:?}: {e}"))?;
        policy.implies.entry(scope).or_default().extend(implied);
    }
    Ok(policy)
}
