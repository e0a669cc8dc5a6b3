//! The settings of authorization (`[auth]` in `mcp-wit.toml`): the server
//! as an OAuth 2.1 resource server.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use mcp_wit::auth::{OperationKind, ScopePolicy, ScopeRule, parse_scope_rule};
use mcp_wit::transport::http::{AuthOptions, KeyOptions, KeySource};

use crate::units;

/// Authorization over HTTP: the server as an OAuth 2.1 resource server.
/// Flags `--auth-NAME`; `[auth]` in the file, the same names without
/// `--auth-`. Off unless an issuer is given.
#[derive(clap::Args, Debug, Default, Clone, Deserialize)]
#[command(next_help_heading = "Authorization (HTTP)")]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct AuthSettings {
    /// Take access tokens issued by this authorization server (its issuer
    /// URL); repeatable. Turns authorization on: every request to the MCP
    /// endpoints then needs `Authorization: Bearer <token>`.
    #[arg(long = "auth-issuer", value_name = "URL")]
    pub issuer: Vec<String>,
    /// The server's resource identifier: the URL clients reach its MCP
    /// endpoint at (e.g. https://mcp.example.com/mcp); tokens must name it in
    /// `aud` [default: http://ADDR/mcp, on a loopback address only].
    #[arg(long = "auth-resource", value_name = "URL")]
    pub resource: Option<String>,
    /// Verify tokens with the JWKS at this URL (https, or http to a loopback
    /// address) [default: the `jwks_uri` of each issuer's metadata].
    #[arg(long = "auth-jwks-url", value_name = "URL", conflicts_with = "jwks_file")]
    pub jwks_url: Option<String>,
    /// Verify tokens with the JWKS in this file (read again when a token
    /// names a key it lacks).
    #[arg(long = "auth-jwks-file", value_name = "FILE")]
    pub jwks_file: Option<PathBuf>,
    /// A scope every request needs; repeatable.
    #[arg(long = "auth-scope", value_name = "SCOPE")]
    pub scope: Vec<String>,
    /// Scopes the tools matching GLOB need too (`*`, `?`), e.g.
    /// `write_*=files:write`; several scopes space-separated; repeatable.
    #[arg(long = "auth-tool-scope", value_name = "GLOB=SCOPES")]
    pub tool_scope: Vec<String>,
    /// Scopes the prompts matching GLOB need too; repeatable.
    #[arg(long = "auth-prompt-scope", value_name = "GLOB=SCOPES")]
    pub prompt_scope: Vec<String>,
    /// Scopes reading (or subscribing to) the resources whose URI matches
    /// GLOB needs too; repeatable.
    #[arg(long = "auth-resource-scope", value_name = "GLOB=SCOPES")]
    pub resource_scope: Vec<String>,
    /// A scope that implies others (`admin=files:write files:read`):
    /// holding it is holding them; repeatable.
    #[arg(long = "auth-scope-implies", value_name = "SCOPE=SCOPES")]
    pub scope_implies: Vec<String>,
    /// Accept tokens signed with this algorithm only; repeatable [default:
    /// RS256 RS384 RS512 PS256 PS384 PS512 ES256 ES384 EdDSA].
    #[arg(long = "auth-algorithm", value_name = "ALG")]
    pub algorithm: Vec<String>,
    /// Tolerated clock difference with the issuer for `exp` and `nbf`
    /// [default: 60s].
    #[arg(long = "auth-clock-skew", value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub clock_skew: Option<Duration>,
    /// How long fetched keys are used before they are fetched again
    /// [default: 10m].
    #[arg(long = "auth-keys-refresh", value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub keys_refresh: Option<Duration>,
    /// The shortest time between two key fetches that tokens cause (a key id
    /// not held, or keys that could not be fetched) [default: 10s].
    #[arg(long = "auth-keys-cooldown", value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub keys_cooldown: Option<Duration>,
    /// The longest wait for the issuer's metadata or keys [default: 5s].
    #[arg(long = "auth-fetch-timeout", value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub fetch_timeout: Option<Duration>,
    /// Leave out of tools/prompts/resources lists what the caller lacks the
    /// scopes to use [default: false: lists show everything, and a call asks
    /// for the scope it needs].
    #[arg(long = "auth-filter-lists", value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub filter_lists: Option<bool>,
}

impl AuthSettings {
    pub(super) fn over(self, lower: AuthSettings) -> AuthSettings {
        let add = |lower: Vec<String>, upper: Vec<String>| [lower, upper].concat();
        // One source of keys: the upper level's, whichever it names.
        let (jwks_url, jwks_file) = match (self.jwks_url, self.jwks_file) {
            (None, None) => (lower.jwks_url, lower.jwks_file),
            upper => upper,
        };
        AuthSettings {
            issuer: add(lower.issuer, self.issuer),
            resource: self.resource.or(lower.resource),
            jwks_url,
            jwks_file,
            scope: add(lower.scope, self.scope),
            tool_scope: add(lower.tool_scope, self.tool_scope),
            prompt_scope: add(lower.prompt_scope, self.prompt_scope),
            resource_scope: add(lower.resource_scope, self.resource_scope),
            scope_implies: add(lower.scope_implies, self.scope_implies),
            algorithm: if self.algorithm.is_empty() { lower.algorithm } else { self.algorithm },
            clock_skew: self.clock_skew.or(lower.clock_skew),
            keys_refresh: self.keys_refresh.or(lower.keys_refresh),
            keys_cooldown: self.keys_cooldown.or(lower.keys_cooldown),
            fetch_timeout: self.fetch_timeout.or(lower.fetch_timeout),
            filter_lists: self.filter_lists.or(lower.filter_lists),
        }
    }

    /// The first authorization setting given, as its flag (authorization
    /// needs an issuer, and HTTP).
    pub fn given(&self) -> Option<&'static str> {
        [
            ("--auth-issuer", !self.issuer.is_empty()),
            ("--auth-resource", self.resource.is_some()),
            ("--auth-jwks-url", self.jwks_url.is_some()),
            ("--auth-jwks-file", self.jwks_file.is_some()),
            ("--auth-scope", !self.scope.is_empty()),
            ("--auth-tool-scope", !self.tool_scope.is_empty()),
            ("--auth-prompt-scope", !self.prompt_scope.is_empty()),
            ("--auth-resource-scope", !self.resource_scope.is_empty()),
            ("--auth-scope-implies", !self.scope_implies.is_empty()),
            ("--auth-algorithm", !self.algorithm.is_empty()),
            ("--auth-clock-skew", self.clock_skew.is_some()),
            ("--auth-keys-refresh", self.keys_refresh.is_some()),
            ("--auth-keys-cooldown", self.keys_cooldown.is_some()),
            ("--auth-fetch-timeout", self.fetch_timeout.is_some()),
            ("--auth-filter-lists", self.filter_lists.is_some()),
        ]
        .into_iter()
        .find_map(|(flag, given)| given.then_some(flag))
    }

    /// The authorization options, or `None` when off; the error says which
    /// setting is wrong.
    pub fn options(&self) -> Result<Option<AuthOptions>, String> {
        if self.issuer.is_empty() {
            return match self.given() {
                Some(flag) => {
                    Err(format!("{flag} needs --auth-issuer (the authorization server whose tokens to take)"))
                }
                None => Ok(None),
            };
        }
        let keys = match (&self.jwks_url, &self.jwks_file) {
            (Some(url), _) => KeySource::Url(url.clone()),
            (None, Some(file)) => KeySource::File(file.clone()),
            (None, None) => KeySource::Discover,
        };
        let rules = |flag: &str, kind: OperationKind, given: &[String]| {
            given
                .iter()
                .map(|rule| {
                    let (pattern, scopes) = split_rule(flag, rule)?;
                    Ok(ScopeRule { kind, pattern, scopes })
                })
                .collect::<Result<Vec<_>, String>>()
        };
        let mut scope_rules = rules("--auth-tool-scope", OperationKind::Tool, &self.tool_scope)?;
        scope_rules.extend(rules("--auth-prompt-scope", OperationKind::Prompt, &self.prompt_scope)?);
        scope_rules.extend(rules("--auth-resource-scope", OperationKind::Resource, &self.resource_scope)?);
        let mut implies = BTreeMap::new();
        for rule in &self.scope_implies {
            let (scope, implied) = split_rule("--auth-scope-implies", rule)?;
            implies.entry(scope).or_insert_with(Vec::new).extend(implied);
        }
        let defaults = AuthOptions::default();
        let key_defaults = KeyOptions::default();
        Ok(Some(AuthOptions {
            resource: self.resource.clone(),
            issuers: self.issuer.clone(),
            keys,
            key_options: KeyOptions {
                refresh_after: self.keys_refresh.unwrap_or(key_defaults.refresh_after),
                refetch_cooldown: self.keys_cooldown.unwrap_or(key_defaults.refetch_cooldown),
                fetch_timeout: self.fetch_timeout.unwrap_or(key_defaults.fetch_timeout),
            },
            scopes: ScopePolicy { required: self.scope.clone(), rules: scope_rules, implies },
            algorithms: if self.algorithm.is_empty() { defaults.algorithms } else { self.algorithm.clone() },
            clock_skew: self.clock_skew.unwrap_or(defaults.clock_skew),
            filter_lists: self.filter_lists.unwrap_or(defaults.filter_lists),
            // Filled in once the routers are loaded.
            described: Vec::new(),
        }))
    }
}

/// `NAME=SCOPE SCOPE…` → (`NAME`, the scopes), the error naming `flag`.
fn split_rule(flag: &str, rule: &str) -> Result<(String, Vec<String>), String> {
    parse_scope_rule(rule).map_err(|e| format!("{flag} {rule:?}: {e}"))
}
