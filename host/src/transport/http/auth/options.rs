//! The options of authorization: which issuers' tokens are taken, with
//! which keys and scopes.

use std::time::Duration;

use mcp_wit_protocol::auth::{DEFAULT_ALGORITHMS, DescribedResource, ScopePolicy};

use super::keys::{KeyOptions, KeySource};

/// How the server checks who calls it.
#[derive(Debug, Clone)]
pub struct AuthOptions {
    /// The server's resource identifier: the canonical URL clients reach its
    /// MCP endpoint at (e.g. `https://mcp.example.com/mcp`). Tokens must name
    /// it in `aud`. `None`: `http://<bound address>/mcp`, allowed only on a
    /// loopback address.
    pub resource: Option<String>,
    /// The authorization servers (issuer identifiers) whose tokens are taken.
    pub issuers: Vec<String>,
    /// Where the keys that verify tokens come from.
    pub keys: KeySource,
    /// How those keys are kept and fetched.
    pub key_options: KeyOptions,
    /// The scopes the server and each tool, prompt and resource need.
    pub scopes: ScopePolicy,
    /// Accepted signature algorithms (JOSE names). Only asymmetric ones:
    /// keys are public.
    pub algorithms: Vec<String>,
    /// Tolerated difference between the issuer's clock and this one.
    pub clock_skew: Duration,
    /// Lists (tools, prompts, resources) leave out what the caller lacks
    /// the scopes to use. Off by default: a client that sees a tool can ask
    /// for the scope it needs when it calls it (step-up).
    pub filter_lists: bool,
    /// What each served router (by its component's label) describes of the
    /// authorization it expects: its default scopes join `scopes_supported`
    /// after [`Self::scopes`]' (advertised, never required); its issuers are
    /// not trusted for that, nor is its resource identifier taken: each one
    /// that differs from these options' is logged as a warning at start.
    pub described: Vec<(String, Vec<DescribedResource>)>,
}

impl AuthOptions {
    /// Tokens from `issuers`, verified with keys from `keys`.
    pub fn new(issuers: impl IntoIterator<Item = impl Into<String>>, keys: KeySource) -> Self {
        AuthOptions { issuers: issuers.into_iter().map(Into::into).collect(), keys, ..AuthOptions::default() }
    }

    /// The resource identifier (see [`AuthOptions::resource`]).
    pub fn resource(mut self, resource: impl Into<String>) -> Self {
        self.resource = Some(resource.into());
        self
    }

    /// The scopes requests need.
    pub fn scopes(mut self, scopes: ScopePolicy) -> Self {
        self.scopes = scopes;
        self
    }

    /// How keys are kept and fetched.
    pub fn key_options(mut self, key_options: KeyOptions) -> Self {
        self.key_options = key_options;
        self
    }

    /// What the router of `component` describes (see
    /// [`AuthOptions::described`]).
    pub fn described_by(mut self, component: impl Into<String>, described: Vec<DescribedResource>) -> Self {
        self.described.push((component.into(), described));
        self
    }
}

impl Default for AuthOptions {
    fn default() -> Self {
        AuthOptions {
            resource: None,
            issuers: Vec::new(),
            keys: KeySource::default(),
            key_options: KeyOptions::default(),
            scopes: ScopePolicy::default(),
            algorithms: DEFAULT_ALGORITHMS.iter().map(|a| a.to_string()).collect(),
            clock_skew: Duration::from_secs(60),
            filter_lists: false,
            described: Vec::new(),
        }
    }
}
