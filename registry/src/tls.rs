//! The TLS crypto provider of the process.

/// Makes ring the process's TLS crypto provider, unless one is installed
/// already. With this crate linked, rustls has two providers built in
/// (sigstore's crypto needs aws-lc-rs) and refuses to pick one: every TLS
/// client built without naming its provider (reqwest's here, and
/// `wasmtime-wasi-http`'s for guests' outgoing HTTPS) then panics. A binary
/// calls this first thing; [`Registry::new`](crate::Registry::new) calls it too.
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
