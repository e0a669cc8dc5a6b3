//! Components from OCI registries: what names one ([`ComponentSource`],
//! [`ComponentRef`]), the Wasm OCI artifact layout ([`layout`]), a client
//! that pulls and pushes it ([`Registry`]) over a content-addressed store
//! ([`Store`]), and who the client is at a registry ([`Credentials`]).
//!
//! A command resolves a reference to a file in the store before anything
//! loads it; the runtime only ever sees files.

mod client;
mod credentials;
mod error;
mod files;
pub mod layout;
mod oci_error;
mod pull_policy;
mod reference;
mod signatures;
mod snapshot;
mod store;
mod tls;
mod wire;

pub use client::{Pulled, Pushed, Registry, RegistryOptions};
pub use credentials::Credentials;
pub use error::RegistryError;
pub use files::read_regular_file;
pub use pull_policy::PullPolicy;
pub use reference::{ComponentRef, ComponentSource, SCHEME};
pub use signatures::{
    FoundSignature, KeyPair, MAX_KEY_FILE, MAX_TRUST_ROOT_FILE, Trust, TrustRoot, Verified, generate_key_pair,
};
pub use store::Store;
pub use tls::install_crypto_provider;
