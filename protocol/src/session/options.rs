//! The settings a session, or a request served on its own, is created with.

use std::sync::Arc;
use std::time::Duration;

use crate::auth::ScopePolicy;
use crate::executor::Offload;
use crate::observe::Observer;
use crate::rounds::{StateKey, StateKeySharing};

/// Default for [`SessionOptions::validation_budget`]: 1 s (schemas that are
/// not hostile to their input check a call in well under a millisecond).
pub const DEFAULT_VALIDATION_BUDGET: Duration = Duration::from_secs(1);

/// Default for [`SessionOptions::max_output`]: 16 MiB.
pub const DEFAULT_MAX_OUTPUT: usize = 16 << 20;

/// Settings a session is created with.
#[derive(Clone)]
pub struct SessionOptions {
    /// Page size for list results; `None` returns every item in one page.
    pub page_size: Option<usize>,
    /// Largest result a guest may produce, in serialised bytes; a larger one
    /// is replaced by -32603 (nothing partial is sent).
    pub max_output: usize,
    /// Signs the `requestState` of 2026-07-28 rounds (one random key per
    /// process by default).
    pub state_key: StateKey,
    /// Whether every instance a client's retry may reach holds `state_key`;
    /// when only this one does, a round is refused, not sealed.
    pub state_key_sharing: StateKeySharing,
    /// How long a round's `requestState` is honoured: the time a client has
    /// to answer its questions (whole seconds).
    pub state_ttl: Duration,
    /// When set, the tools, prompts and resources lists of an authenticated
    /// caller leave out what it lacks the scopes to use (unauthenticated
    /// sessions see everything).
    pub list_filter: Option<Arc<ScopePolicy>>,
    /// Whether a tool's arguments are checked against its input schema
    /// before the guest runs (a failure is a tool error naming why).
    pub validate_input: bool,
    /// How long checking one call's arguments against its tool's input
    /// schema may take, from when the call asks (waiting for a thread
    /// counts): past it the call is refused with a tool error saying so.
    pub validation_budget: Duration,
    /// Where argument checks run: on its threads when set (the host's
    /// bounded pool), else on the thread serving the request.
    pub offload: Option<Arc<dyn Offload>>,
    /// Told of every request and of every 2025 session's end (logs,
    /// metrics, traces); none by default.
    pub observer: Option<Arc<dyn Observer>>,
    /// Whether the transport serves the tasks extension (`tasks/*`), which
    /// `server/discover` then advertises; off by default.
    pub serve_tasks: bool,
}

impl std::fmt::Debug for SessionOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionOptions")
            .field("page_size", &self.page_size)
            .field("max_output", &self.max_output)
            .field("state_key_sharing", &self.state_key_sharing)
            .field("state_ttl", &self.state_ttl)
            .field("list_filter", &self.list_filter)
            .field("validate_input", &self.validate_input)
            .field("validation_budget", &self.validation_budget)
            .field("offload", &self.offload.is_some())
            .field("observer", &self.observer.is_some())
            .field("serve_tasks", &self.serve_tasks)
            .finish_non_exhaustive()
    }
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions {
            page_size: None,
            max_output: DEFAULT_MAX_OUTPUT,
            state_key: StateKey::default(),
            state_key_sharing: StateKeySharing::Shared,
            state_ttl: crate::rounds::DEFAULT_STATE_TTL,
            list_filter: None,
            validate_input: true,
            validation_budget: DEFAULT_VALIDATION_BUDGET,
            offload: None,
            observer: None,
            serve_tasks: false,
        }
    }
}
