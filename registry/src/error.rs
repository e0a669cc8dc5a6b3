//! Why a component could not be pulled or pushed.

use std::path::PathBuf;
use std::time::Duration;

/// Why a component could not be pulled or pushed.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// The text is not a reference.
    #[error(
        "`{reference}` is not a registry reference: {why} (expected oci://REGISTRY/REPOSITORY:TAG or …@sha256:DIGEST)"
    )]
    Reference {
        /// The text.
        reference: String,
        /// What is wrong with it.
        why: String,
    },
    /// Pushing something that is not WebAssembly.
    #[error("the file is not WebAssembly (neither a component nor a core module)")]
    NotWasm,
    /// A component that does not parse.
    #[error("{0}")]
    Invalid(String),
    /// What the reference names is not one Wasm artifact.
    #[error("{0}")]
    NotAWasmArtifact(String),
    /// Bytes that do not hash to the digest that names them.
    #[error("content does not match its digest: expected {expected}, got {actual}")]
    DigestMismatch {
        /// The digest named.
        expected: String,
        /// The digest of what came.
        actual: String,
    },
    /// A component over the size limit.
    #[error("the component is {size} bytes, over the limit of {limit}")]
    TooLarge {
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// `--pull never` and not in the store.
    #[error("{0} is not in the local store, and pulling is off (--pull never): pull it first with `mcp-wit pull {0}`")]
    NotInStore(String),
    /// Plain HTTP to a host that is not loopback.
    #[error(
        "--insecure-registry {0}: plain HTTP is for registries on this machine; for another host, add \
         --insecure-remote (credentials and components then cross the network unencrypted)"
    )]
    InsecureRemote(String),
    /// The credentials could not be found.
    #[error("cannot get credentials for {registry}: {why}")]
    Credentials {
        /// The registry.
        registry: String,
        /// Why.
        why: String,
    },
    /// The registry refused or failed.
    #[error("{reference}: {what}: {message}")]
    Registry {
        /// The reference.
        reference: String,
        /// What was being done.
        what: String,
        /// What the registry or the connection said, with a hint.
        message: String,
        /// Whether trying again may help (connection errors, 5xx).
        transient: bool,
        /// Whether the registry was not reached at all.
        unreachable: bool,
    },
    /// An operation that took too long.
    #[error("{reference}: {what}: no answer within {} s (--registry-timeout)", after.as_secs())]
    Timeout {
        /// The reference.
        reference: String,
        /// What was being done.
        what: String,
        /// The timeout.
        after: Duration,
    },
    /// A key or trust root that cannot be used.
    #[error("{0}")]
    Trust(String),
    /// A component whose signatures do not satisfy what is required.
    #[error("{reference}: refused: {why}")]
    Unverified {
        /// The reference, pinned to the digest checked.
        reference: String,
        /// What was found instead.
        why: String,
    },
    /// The store could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Store {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl RegistryError {
    /// Whether trying again may help.
    pub(crate) fn is_transient(&self) -> bool {
        match self {
            RegistryError::Registry { transient, .. } => *transient,
            RegistryError::Timeout { .. } => true,
            _ => false,
        }
    }

    /// Whether the registry could not be reached (as opposed to refusing).
    pub(crate) fn is_unreachable(&self) -> bool {
        matches!(self, RegistryError::Registry { unreachable: true, .. } | RegistryError::Timeout { .. })
    }
}
