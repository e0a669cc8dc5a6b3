//! Pull and push: a registry client with the settings a command line gives
//! it (plain HTTP for named hosts, credentials, a timeout per operation,
//! bounded retries of reads), over the [`Store`].

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::time::Duration;

use oci_client::client::{ClientConfig, ClientProtocol};
use oci_client::errors::OciDistributionError;
use oci_client::secrets::RegistryAuth;
use oci_client::{Client, RegistryOperation};

use crate::credentials::{self, Credentials};
use crate::layout::{
    ACCEPTED_MANIFEST_TYPES, Annotations, Artifact, MANIFEST_MEDIA_TYPE, WasmConfig, WasmManifest, sha256_digest,
};
use crate::reference::ComponentRef;
use crate::store::Store;
use crate::wire::{Limit, Wire, host_of, is_loopback_host, not_found};
use crate::{PullPolicy, RegistryError};

/// How a registry is reached.
#[derive(Debug, Clone)]
pub struct RegistryOptions {
    /// Registries (`HOST:PORT`, as references write them) reached over
    /// plain HTTP. Loopback hosts only, unless [`Self::insecure_remote`].
    pub insecure_registries: Vec<String>,
    /// Allows plain HTTP to hosts that are not loopback (credentials and
    /// components then travel in clear text).
    pub insecure_remote: bool,
    /// Credentials for the registry they name (see
    /// [`Credentials::bound_to`]), instead of the Docker config's; unbound
    /// ones go nowhere.
    pub credentials: Option<Credentials>,
    /// Hosts a registry's token service may be on, besides the registry's
    /// own, for credentials to be sent there (as a registry's
    /// `WWW-Authenticate: Bearer realm=…` names it).
    pub token_hosts: Vec<String>,
    /// Certificate authorities (PEM) trusted for registries' TLS besides
    /// the system's: a private registry's.
    pub extra_roots: Vec<Vec<u8>>,
    /// How long one registry operation (a manifest, a blob) may take.
    pub timeout: Duration,
    /// How many times a failed read is tried again (connection errors,
    /// timeouts, 5xx), waiting longer each time; pushes are not.
    pub retries: u32,
    /// The largest component accepted.
    pub max_size: u64,
}

impl Default for RegistryOptions {
    fn default() -> Self {
        RegistryOptions {
            insecure_registries: Vec::new(),
            insecure_remote: false,
            credentials: None,
            token_hosts: Vec::new(),
            extra_roots: Vec::new(),
            timeout: Duration::from_secs(120),
            retries: 2,
            max_size: 256 << 20,
        }
    }
}

/// A component pulled (or found in the store).
#[derive(Debug, Clone)]
pub struct Pulled {
    /// The reference pinned to the manifest's digest.
    pub pinned: ComponentRef,
    /// The manifest's digest.
    pub digest: String,
    /// The `.wasm` in the store.
    pub path: PathBuf,
    /// The artifact's config.
    pub config: WasmConfig,
    /// Whether the registry was asked (`false`: served from the store).
    pub fetched: bool,
}

/// A pushed component.
#[derive(Debug, Clone)]
pub struct Pushed {
    /// The reference pinned to the manifest's digest.
    pub pinned: ComponentRef,
    /// The manifest's digest.
    pub digest: String,
}

/// A registry client over a store.
pub struct Registry {
    /// Writes (pushes), with what [`Wire::authorize`] granted.
    client: Client,
    /// Reads, capped, and every token exchange.
    wire: Wire,
    store: Store,
    options: RegistryOptions,
    /// Each registry's credentials, looked up once: a Docker credential
    /// helper is a process to run, and a verified pull needs them twice.
    credentials: tokio::sync::Mutex<HashMap<String, RegistryAuth>>,
}

impl Registry {
    /// A client keeping what it pulls in `store`. Refuses plain HTTP to a
    /// host that is not loopback unless `insecure_remote` allows it.
    pub fn new(store: Store, options: RegistryOptions) -> Result<Registry, RegistryError> {
        for registry in &options.insecure_registries {
            if !options.insecure_remote && !is_loopback(registry) {
                return Err(RegistryError::InsecureRemote(registry.clone()));
            }
        }
        crate::install_crypto_provider();
        let protocol = match options.insecure_registries.is_empty() {
            true => ClientProtocol::Https,
            false => ClientProtocol::HttpsExcept(options.insecure_registries.clone()),
        };
        // A registry that accepts and never answers is caught by the timeout
        // around each operation; this one is for the connection.
        let connect_timeout = Duration::from_secs(10);
        let wire = Wire::new(
            options.insecure_registries.clone(),
            options.token_hosts.clone(),
            &options.extra_roots,
            connect_timeout,
        )?;
        let config = ClientConfig {
            protocol,
            connect_timeout: Some(connect_timeout),
            user_agent: concat!("mcp-wit/", env!("CARGO_PKG_VERSION")),
            extra_root_certificates: options
                .extra_roots
                .iter()
                .map(|pem| oci_client::client::Certificate {
                    encoding: oci_client::client::CertificateEncoding::Pem,
                    data: pem.clone(),
                })
                .collect(),
            ..ClientConfig::default()
        };
        Ok(Registry { client: Client::new(config), wire, store, options, credentials: Default::default() })
    }

    /// The store it keeps artifacts in.
    pub fn store(&self) -> &Store {
        &self.store
    }

    pub(crate) fn options(&self) -> &RegistryOptions {
        &self.options
    }

    /// The credentials for `registry` (see [`credentials::for_registry`]),
    /// looked up on first use.
    pub(crate) async fn auth(&self, registry: &str) -> Result<RegistryAuth, RegistryError> {
        let mut known = self.credentials.lock().await;
        if let Some(auth) = known.get(registry) {
            return Ok(auth.clone());
        }
        let auth = credentials::for_registry(registry, self.options.credentials.as_ref()).await?;
        known.insert(registry.to_owned(), auth.clone());
        Ok(auth)
    }

    /// What to present to `reference`'s registry to read (or, with `push`,
    /// write) its repository, its credentials exchanged as it asks (see
    /// [`Wire::authorize`]).
    pub(crate) async fn grant(&self, reference: &ComponentRef, push: bool) -> Result<RegistryAuth, RegistryError> {
        let credentials = self.auth(reference.registry()).await?;
        self.read(reference, "authenticate", || self.wire.authorize(reference, &credentials, push)).await
    }

    pub(crate) fn wire(&self) -> &Wire {
        &self.wire
    }

    /// The component `reference` names, from the store or the registry as
    /// `policy` says (see [`PullPolicy`]), checked to be one Wasm artifact
    /// whose layer hashes to its digest.
    pub async fn pull(&self, reference: &ComponentRef, policy: PullPolicy) -> Result<Pulled, RegistryError> {
        let cached = match reference.digest() {
            Some(digest) => Some(digest.to_owned()),
            None => self.store.tag(reference),
        };
        let offline = matches!((policy, reference.digest()), (PullPolicy::Never, _) | (PullPolicy::Missing, Some(_)));
        if offline {
            if let Some(pulled) = cached.as_deref().and_then(|digest| self.stored(reference, digest)) {
                return Ok(pulled);
            }
            if policy == PullPolicy::Never {
                return Err(RegistryError::NotInStore(reference.to_string()));
            }
        }
        match self.fetch(reference).await {
            Ok(pulled) => Ok(pulled),
            // A tag the registry cannot be asked about now: the digest it
            // had last, said loudly, rather than no server at all.
            Err(error) if policy == PullPolicy::Missing && error.is_unreachable() => {
                let pulled = cached.as_deref().and_then(|digest| self.stored(reference, digest));
                let Some(pulled) = pulled else { return Err(error) };
                tracing::warn!(
                    reference = %reference,
                    digest = %pulled.digest,
                    "the registry cannot be reached ({error}); serving the digest this tag had when last pulled"
                );
                Ok(pulled)
            }
            Err(error) => Err(error),
        }
    }

    /// The stored artifact of manifest `digest`, when all of it is there
    /// intact.
    fn stored(&self, reference: &ComponentRef, digest: &str) -> Option<Pulled> {
        let manifest = self.store.manifest(digest)?;
        let manifest = WasmManifest::parse(&manifest, None, self.options.max_size).ok()?;
        let config = std::fs::read(self.store.blob_path(&manifest.config.digest)).ok()?;
        if sha256_digest(&config) != manifest.config.digest || !self.store.has_blob(&manifest.layer.digest) {
            return None;
        }
        let config = manifest.check_config(&config).ok()?;
        Some(Pulled {
            pinned: reference.pinned(digest),
            digest: digest.to_owned(),
            path: self.store.blob_path(&manifest.layer.digest),
            config,
            fetched: false,
        })
    }

    /// Resolves `reference` at the registry, then fetches what the store
    /// lacks, by digest.
    async fn fetch(&self, reference: &ComponentRef) -> Result<Pulled, RegistryError> {
        let auth = self.grant(reference, false).await?;
        let path = format!("manifests/{}", reference.digest().or(reference.tag()).unwrap_or("latest"));
        let accept = ACCEPTED_MANIFEST_TYPES.join(", ");
        let what = "its manifest";
        let manifest_bytes = self
            .read(reference, what, || async {
                let found = self.wire.get(reference, &path, &accept, &auth, Limit::Manifest, what).await?;
                found.ok_or_else(|| not_found(reference, what))
            })
            .await?;
        // The digest of the bytes received (and checked against the pinned
        // one): what the store and every later step are keyed by.
        let digest = sha256_digest(&manifest_bytes);
        if let Some(pinned) = reference.digest()
            && pinned != digest
        {
            return Err(RegistryError::DigestMismatch { expected: pinned.to_owned(), actual: digest });
        }
        // A tag that still names what the store holds: nothing more to fetch
        // (a server's every start resolves its tags).
        if let Some(stored) = self.stored(reference, &digest) {
            if reference.digest().is_none() {
                self.store.set_tag(reference, &digest)?;
            }
            tracing::info!(reference = %reference, %digest, "resolved; already in the local store");
            return Ok(Pulled { fetched: true, ..stored });
        }
        let manifest = WasmManifest::parse(&manifest_bytes, None, self.options.max_size)
            .map_err(|e| e.for_reference(reference))?;
        let pinned = reference.pinned(&digest);
        let config = (manifest.config.digest.as_str(), manifest.config.size);
        let config_bytes = self.blob(&pinned, config, Limit::MANIFEST, &auth, "its config").await?;
        let config = manifest.check_config(&config_bytes).map_err(|e| e.for_reference(reference))?;
        if !self.store.has_blob(&manifest.layer.digest) {
            let layer = (manifest.layer.digest.as_str(), manifest.layer.size);
            let layer = self.blob(&pinned, layer, self.options.max_size, &auth, "the component").await?;
            self.store.put_blob(&manifest.layer.digest, &layer)?;
        }
        self.store.put_blob(&manifest.config.digest, &config_bytes)?;
        self.store.put_manifest(&digest, &manifest_bytes)?;
        if reference.digest().is_none() {
            self.store.set_tag(reference, &digest)?;
        }
        tracing::info!(reference = %reference, %digest, "pulled");
        Ok(Pulled { path: self.store.blob_path(&manifest.layer.digest), pinned, digest, config, fetched: true })
    }

    /// A blob of `pinned`'s repository, `(digest, size)` as its
    /// descriptor says, refused over `most` bytes (see [`Wire::blob`]).
    pub(crate) async fn blob(
        &self,
        pinned: &ComponentRef,
        descriptor: (&str, i64),
        most: u64,
        auth: &RegistryAuth,
        what: &str,
    ) -> Result<Vec<u8>, RegistryError> {
        self.read(pinned, what, || self.wire.blob(pinned, descriptor, most, auth, what)).await
    }

    /// Pushes `wasm` as `reference` (a tag, or none: then it is pushed by
    /// digest only), made at `created`, with `annotations`; stores it too,
    /// so serving its digest needs no pull.
    pub async fn push(
        &self,
        wasm: &[u8],
        reference: &ComponentRef,
        created: Option<String>,
        annotations: &Annotations,
    ) -> Result<Pushed, RegistryError> {
        if wasm.len() as u64 > self.options.max_size {
            return Err(RegistryError::TooLarge { size: wasm.len() as u64, limit: self.options.max_size });
        }
        let artifact = Artifact::new(wasm, created, annotations)?;
        let digest = sha256_digest(&artifact.manifest);
        if let Some(pinned) = reference.digest()
            && pinned != digest
        {
            return Err(RegistryError::DigestMismatch { expected: pinned.to_owned(), actual: digest });
        }
        let auth = self.grant(reference, true).await?;
        let image = reference.oci();
        let blobs = [("the config", &artifact.config[..]), ("the component", wasm)];
        self.push_blobs(reference, image, &auth, &blobs).await?;
        let config_digest = sha256_digest(&artifact.config);
        let content_type = http::HeaderValue::from_static(MANIFEST_MEDIA_TYPE);
        self.write(reference, "the manifest", || {
            let pushed = self.client.push_manifest_raw(image, artifact.manifest.clone(), content_type.clone());
            oci(reference, "the manifest", pushed)
        })
        .await?;
        self.store.put_blob(&artifact.layer_digest, wasm)?;
        self.store.put_blob(&config_digest, &artifact.config)?;
        self.store.put_manifest(&digest, &artifact.manifest)?;
        if reference.digest().is_none() {
            self.store.set_tag(reference, &digest)?;
        }
        Ok(Pushed { pinned: reference.pinned(&digest), digest })
    }

    /// Pushes to `image` (of `reference`'s repository) each of `blobs`
    /// (what it is, its bytes) it does not hold yet, as `auth` allows.
    pub(crate) async fn push_blobs(
        &self,
        reference: &ComponentRef,
        image: &oci_client::Reference,
        auth: &RegistryAuth,
        blobs: &[(&str, &[u8])],
    ) -> Result<(), RegistryError> {
        // oci-client keeps `auth` (a token: see `grant`) for the requests
        // that follow.
        self.write(reference, "authenticate", || {
            oci(reference, "authenticate", async {
                self.client.auth(image, auth, RegistryOperation::Push).await.map(drop)
            })
        })
        .await?;
        for (what, data) in blobs {
            let digest = sha256_digest(data);
            let present =
                self.read(reference, what, || oci(reference, what, self.client.blob_exists(image, &digest))).await?;
            if !present {
                self.write(reference, what, || {
                    oci(reference, what, self.client.push_blob(image, data.to_vec(), &digest))
                })
                .await?;
            }
        }
        Ok(())
    }

    /// The client pushes go through.
    pub(crate) fn client(&self) -> &Client {
        &self.client
    }

    /// A read, under the timeout, tried again on transient failures.
    pub(crate) async fn read<T, F, Fut>(
        &self,
        reference: &ComponentRef,
        what: &str,
        operation: F,
    ) -> Result<T, RegistryError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, RegistryError>>,
    {
        self.attempt(reference, what, 1 + self.options.retries, operation).await
    }

    /// A write, under the timeout, tried once.
    pub(crate) async fn write<T, F, Fut>(
        &self,
        reference: &ComponentRef,
        what: &str,
        operation: F,
    ) -> Result<T, RegistryError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, RegistryError>>,
    {
        self.attempt(reference, what, 1, operation).await
    }

    async fn attempt<T, F, Fut>(
        &self,
        reference: &ComponentRef,
        what: &str,
        tries: u32,
        operation: F,
    ) -> Result<T, RegistryError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, RegistryError>>,
    {
        let mut wait = Duration::from_millis(250);
        for attempt in 1..=tries {
            let failure = match tokio::time::timeout(self.options.timeout, operation()).await {
                Ok(Ok(value)) => return Ok(value),
                Ok(Err(error)) => error,
                Err(_) => RegistryError::Timeout {
                    reference: reference.to_string(),
                    what: what.to_owned(),
                    after: self.options.timeout,
                },
            };
            if attempt == tries || !failure.is_transient() {
                return Err(failure);
            }
            tracing::warn!(reference = %reference, "{failure}; trying again in {} ms", wait.as_millis());
            tokio::time::sleep(wait).await;
            wait *= 4;
        }
        unreachable!("the loop returns on its last try")
    }
}

/// oci-client's `operation`, its error named for `reference` and `what`.
async fn oci<T>(
    reference: &ComponentRef,
    what: &str,
    operation: impl Future<Output = Result<T, OciDistributionError>>,
) -> Result<T, RegistryError> {
    operation.await.map_err(|e| RegistryError::from_oci(reference, what, e))
}

/// Whether `registry` (`HOST[:PORT]`) is on this machine.
fn is_loopback(registry: &str) -> bool {
    is_loopback_host(host_of(registry))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_is_for_loopback_unless_allowed() {
        for local in ["127.0.0.1:5000", "localhost:5000", "localhost", "[::1]:5000", "127.0.0.2"] {
            assert!(is_loopback(local), "{local}");
        }
        for remote in ["registry.example:5000", "10.0.0.1:5000", "[2001:db8::1]:5000"] {
            assert!(!is_loopback(remote), "{remote}");
        }
        let dir = tempfile::tempdir().unwrap();
        let options =
            RegistryOptions { insecure_registries: vec!["registry.example:5000".into()], ..RegistryOptions::default() };
        let refused = Registry::new(Store::new(dir.path()), options.clone()).err().unwrap().to_string();
        assert!(refused.contains("registry.example:5000") && refused.contains("--insecure-remote"), "{refused}");
        assert!(Registry::new(Store::new(dir.path()), RegistryOptions { insecure_remote: true, ..options }).is_ok());
    }
}
