//! How sessions share a component's instances: the settings an operator
//! picks ([`InstanceMode`], [`InstanceReuse`]) and their defaults.

use std::time::Duration;

/// How guest instances map onto sessions and requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InstanceMode {
    /// One instance per session: guest state lives across a session's calls.
    /// A stdio connection is one session in both eras; a 2026-07-28 HTTP
    /// request is a session of its own.
    #[default]
    PerSession,
    /// A fresh instance per call: no state survives a call.
    PerRequest,
    /// One instance per authenticated principal (issuer and subject), shared
    /// by all its sessions and requests, calls serialised on it. Calls
    /// without a caller are served as [`InstanceMode::PerSession`].
    PerCaller,
    /// One instance for all sessions, calls serialised on it.
    Shared,
}

/// How long a principal's instance ([`InstanceMode::PerCaller`]) waits for
/// its next call before it goes, unless the component sets its own
/// [`LoadedRouter::with_instance_idle_timeout`](super::LoadedRouter::with_instance_idle_timeout).
pub const DEFAULT_CALLER_IDLE: Duration = Duration::from_secs(600);

/// Default for [`InstanceReuse::max_kept`].
pub const DEFAULT_MAX_KEPT: usize = 256;

/// Default for how many principals keep an instance in
/// [`InstanceMode::PerCaller`].
pub const DEFAULT_MAX_CALLERS: usize = 1024;

/// How long a handed-back instance waits for reuse when the component sets
/// no idle timeout of its own.
pub(super) const WARM_IDLE: Duration = Duration::from_secs(60);

/// Instances handed back for reuse, like `wasmtime serve
/// --max-instance-reuse-count`: once a session ([`InstanceMode::PerSession`])
/// or a call ([`InstanceMode::PerRequest`]) is done with its instance, the
/// next one of the same principal (or, unauthenticated, any unauthenticated
/// one) may get it, guest state and all, until it has served `max_uses`.
/// An instance that faulted, or whose call was abandoned, is never handed
/// back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstanceReuse {
    /// Sessions (or calls) one instance serves before it is dropped; 1 (the
    /// default) turns reuse off.
    pub max_uses: u32,
    /// Most instances kept waiting for reuse; the oldest go first.
    pub max_kept: usize,
}

impl Default for InstanceReuse {
    fn default() -> Self {
        InstanceReuse { max_uses: 1, max_kept: DEFAULT_MAX_KEPT }
    }
}
