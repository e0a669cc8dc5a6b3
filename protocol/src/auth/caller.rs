//! Who calls: the identity an access token carries.

use std::collections::BTreeSet;
use std::sync::Arc;

/// The authenticated caller of a request: what its access token says
/// (serialisable: a task kept for replicas carries its caller).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Caller {
    /// The authorization server that issued the token (`iss`).
    pub issuer: String,
    /// Whom the token was issued for (`sub`).
    pub subject: String,
    /// The OAuth client the token was issued to (`client_id`, else `azp`).
    pub client_id: Option<String>,
    /// The scopes the token grants, sorted, each once.
    pub scopes: Vec<String>,
}

impl Caller {
    /// A caller granted `scopes` (any order, duplicates dropped).
    pub fn new(
        issuer: impl Into<String>,
        subject: impl Into<String>,
        client_id: Option<String>,
        scopes: impl IntoIterator<Item = String>,
    ) -> Self {
        let scopes: BTreeSet<String> = scopes.into_iter().collect();
        Caller { issuer: issuer.into(), subject: subject.into(), client_id, scopes: scopes.into_iter().collect() }
    }

    /// Whether `other` is the same principal (issuer and subject): what a
    /// session and a `requestState` are bound to. The client and the scopes
    /// may change as tokens are refreshed or stepped up.
    pub fn same_principal(&self, other: &Caller) -> bool {
        self.issuer == other.issuer && self.subject == other.subject
    }

    /// Whether the token names `scope` itself.
    pub fn names_scope(&self, scope: &str) -> bool {
        self.scopes.binary_search_by(|s| s.as_str().cmp(scope)).is_ok()
    }

    /// A stable text naming the principal, for binding state to it.
    pub fn principal_key(&self) -> String {
        // Issuers are URLs and cannot hold a newline: the pair reads back
        // unambiguously.
        format!("{}\n{}", self.issuer, self.subject)
    }
}

/// The caller of a request, shared by everything that serves it.
pub type SharedCaller = Arc<Caller>;
