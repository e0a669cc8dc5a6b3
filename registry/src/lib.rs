//! Components from OCI registries: what names one ([`ComponentSource`],
//! [`ComponentRef`]), the Wasm OCI artifact layout ([`layout`]), a client
//! that pulls and pushes it ([`Registry`]) over a content-addressed store
//! ([`Store`]), and who the client is at a registry ([`Credentials`]).
//!
//! A command resolves a reference to a file in the store before anything
//! loads it; the runtime only ever sees files.

mod client;
mod credentials;
mod files;
pub mod layout;
mod reference;
mod signatures;
mod snapshot;
mod store;
mod wire;

use std::path::PathBuf;
use std::time::Duration;

use oci_client::errors::{OciDistributionError, OciErrorCode};

pub use client::{Pulled, Pushed, Registry, RegistryOptions};
pub use credentials::Credentials;
pub use files::read_regular_file;
pub use reference::{ComponentRef, ComponentSource, SCHEME};
pub use signatures::{FoundSignature, MAX_KEY_FILE, MAX_TRUST_ROOT_FILE, Trust, TrustRoot, Verified};
pub use store::Store;

/// Makes ring the process's TLS crypto provider, unless one is installed
/// already. With this crate linked, rustls has two providers built in
/// (sigstore's crypto needs aws-lc-rs) and refuses to pick one: every TLS
/// client built without naming its provider (reqwest's here, and
/// `wasmtime-wasi-http`'s for guests' outgoing HTTPS) then panics. A binary
/// calls this first thing; [`Registry::new`] calls it too.
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

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
    fn is_transient(&self) -> bool {
        match self {
            RegistryError::Registry { transient, .. } => *transient,
            RegistryError::Timeout { .. } => true,
            _ => false,
        }
    }

    /// Whether the registry could not be reached (as opposed to refusing).
    fn is_unreachable(&self) -> bool {
        matches!(self, RegistryError::Registry { unreachable: true, .. } | RegistryError::Timeout { .. })
    }

    /// A refusal of the artifact, naming the reference.
    fn for_reference(self, reference: &ComponentRef) -> RegistryError {
        match self {
            RegistryError::NotAWasmArtifact(why) => {
                RegistryError::NotAWasmArtifact(format!("{reference} is not a Wasm component artifact: {why}"))
            }
            other => other,
        }
    }

    /// oci-client's error, with the cause it buries and a hint.
    fn from_oci(reference: &ComponentRef, what: &str, error: OciDistributionError) -> RegistryError {
        let (mut transient, mut unreachable) = (false, false);
        let message = match &error {
            OciDistributionError::RequestError(e) => {
                let failed = wire::request_failed(e);
                (transient, unreachable) = (failed.transient, failed.unreachable);
                let text = failed.message;
                // A status the registry answered: only 5xx may pass.
                if let Some(status) = e.status() {
                    transient = status.is_server_error();
                    if matches!(status.as_u16(), 401 | 403) {
                        return RegistryError::Registry {
                            reference: reference.to_string(),
                            what: what.to_owned(),
                            message: unauthorized(reference, &format!("the registry answered {status}")),
                            transient: false,
                            unreachable: false,
                        };
                    }
                }
                text
            }
            OciDistributionError::ServerError { code, message, .. } => {
                transient = *code >= 500;
                format!("the registry answered {code}: {message}")
            }
            OciDistributionError::UnauthorizedError { .. } | OciDistributionError::AuthenticationFailure(_) => {
                unauthorized(reference, &error.to_string())
            }
            OciDistributionError::ImageManifestNotFoundError(_) => "no such tag or digest in the repository".into(),
            OciDistributionError::RegistryError { envelope, .. } => {
                let codes: Vec<String> =
                    envelope.errors.iter().map(|e| format!("{} ({})", e.message, code_name(&e.code))).collect();
                if envelope
                    .errors
                    .iter()
                    .any(|e| matches!(e.code, OciErrorCode::ManifestUnknown | OciErrorCode::NameUnknown))
                {
                    format!("no such tag, digest or repository: {}", codes.join("; "))
                } else if envelope
                    .errors
                    .iter()
                    .any(|e| matches!(e.code, OciErrorCode::Unauthorized | OciErrorCode::Denied))
                {
                    unauthorized(reference, &codes.join("; "))
                } else {
                    codes.join("; ")
                }
            }
            _ => format!("{error}"),
        };
        RegistryError::Registry {
            reference: reference.to_string(),
            what: what.to_owned(),
            message,
            transient,
            unreachable,
        }
    }
}

/// A refusal of the credentials (or their absence), with what to do.
fn unauthorized(reference: &ComponentRef, said: &str) -> String {
    format!(
        "not authorized ({said}): log in with `docker login {0}`, or pass --registry-auth {0}=USER:PASSWORD",
        reference.registry()
    )
}

fn code_name(code: &OciErrorCode) -> String {
    format!("{code:?}")
}
