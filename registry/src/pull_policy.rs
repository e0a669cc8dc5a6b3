//! When the registry is asked.

/// When the registry is asked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PullPolicy {
    /// Always: the tag (or digest) is looked up at the registry, and what
    /// the store lacks fetched.
    Always,
    /// A digest already in the store is served from it with no request; a
    /// tag is resolved at the registry (falling back, with a warning, to
    /// the digest it had last when the registry cannot be reached).
    #[default]
    Missing,
    /// Never: only what the store holds (a tag as it resolved last).
    Never,
}
