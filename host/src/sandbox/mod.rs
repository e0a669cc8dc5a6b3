//! The sandbox a guest runs in: what WASI lets it see.
//!
//! Deny by default: a guest gets no filesystem, no environment, no sockets
//! and no stdin. Its stdout and stderr are captured (see [`guest_output`]) so
//! they can never corrupt a transport that uses the host's own stdout.
//! Grants ([`SandboxPolicyBuilder::env`], [`SandboxPolicyBuilder::dir`],
//! [`SandboxPolicyBuilder::allow_http`]) open exactly what the operator names.

pub mod guest_output;
pub mod outgoing_http;
mod policy;
pub mod policy_file;
pub mod requirements;
mod state;
pub mod symlinks;

pub use policy::{DirGrant, SandboxPolicy, SandboxPolicyBuilder};
pub use state::SandboxState;

/// The shortest secret value masked in guest output (see
/// [`SandboxPolicyBuilder::secret`]).
pub use crate::redact::MIN_REDACTED;
