//! Pull and push: a registry client with the settings a command line gives
//! it (plain HTTP for named hosts, credentials, a timeout per operation,
//! bounded retries of reads), over the [`Store`].

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::task::{Context, Poll};
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
    /// Credentials for every registry, instead of the Docker config's.
    pub credentials: Option<Credentials>,
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
    client: Client,
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
        let config = ClientConfig {
            protocol,
            // A registry that accepts and never answers is caught by the
            // timeout around each operation; this one is for the connection.
            connect_timeout: Some(Duration::from_secs(10)),
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
        Ok(Registry { client: Client::new(config), store, options, credentials: Default::default() })
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
        let auth = self.auth(reference.registry()).await?;
        let image = reference.oci();
        let (manifest_bytes, _) = self
            .read(reference, "its manifest", || self.client.pull_manifest_raw(image, &auth, &ACCEPTED_MANIFEST_TYPES))
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
        let config_bytes = self.blob(&pinned, &manifest.config.digest, manifest.config.size, &auth).await?;
        let config = manifest.check_config(&config_bytes).map_err(|e| e.for_reference(reference))?;
        if !self.store.has_blob(&manifest.layer.digest) {
            let layer = self.blob(&pinned, &manifest.layer.digest, manifest.layer.size, &auth).await?;
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

    /// A blob of `pinned`'s repository, at most its descriptor's `size`
    /// (and [`RegistryOptions::max_size`]) bytes, checked against `digest`.
    async fn blob(
        &self,
        pinned: &ComponentRef,
        digest: &str,
        size: i64,
        auth: &RegistryAuth,
    ) -> Result<Vec<u8>, RegistryError> {
        let limit = (size.max(0) as u64).min(self.options.max_size) as usize;
        let descriptor = oci_client::manifest::OciDescriptor {
            digest: digest.to_owned(),
            size,
            ..oci_client::manifest::OciDescriptor::default()
        };
        self.client.store_auth_if_needed(pinned.oci().resolve_registry(), auth).await;
        let bytes = self
            .read(pinned, "a blob", || async {
                let mut out = CappedBuffer { bytes: Vec::with_capacity(limit), limit };
                self.client.pull_blob(pinned.oci(), &descriptor, &mut out).await?;
                Ok(out.bytes)
            })
            .await?;
        let actual = sha256_digest(&bytes);
        if actual != digest {
            return Err(RegistryError::DigestMismatch { expected: digest.to_owned(), actual });
        }
        Ok(bytes)
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
        let auth = self.auth(reference.registry()).await?;
        let image = reference.oci();
        self.write(reference, "authenticate", || async {
            self.client.auth(image, &auth, RegistryOperation::Push).await.map(drop)
        })
        .await?;
        let config_digest = sha256_digest(&artifact.config);
        for (what, data, digest) in
            [("the config", &artifact.config[..], &config_digest), ("the component", wasm, &artifact.layer_digest)]
        {
            let present = self.read(reference, what, || self.client.blob_exists(image, digest)).await?;
            if !present {
                self.write(reference, what, || self.client.push_blob(image, data.to_vec(), digest)).await?;
            }
        }
        let content_type = http::HeaderValue::from_static(MANIFEST_MEDIA_TYPE);
        self.write(reference, "the manifest", || {
            self.client.push_manifest_raw(image, artifact.manifest.clone(), content_type.clone())
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

    /// A read, under the timeout, tried again on transient failures.
    async fn read<T, F, Fut>(&self, reference: &ComponentRef, what: &str, operation: F) -> Result<T, RegistryError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, OciDistributionError>>,
    {
        self.attempt(reference, what, 1 + self.options.retries, operation).await
    }

    /// A write, under the timeout, tried once.
    async fn write<T, F, Fut>(&self, reference: &ComponentRef, what: &str, operation: F) -> Result<T, RegistryError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, OciDistributionError>>,
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
        Fut: Future<Output = Result<T, OciDistributionError>>,
    {
        let mut wait = Duration::from_millis(250);
        for attempt in 1..=tries {
            let failure = match tokio::time::timeout(self.options.timeout, operation()).await {
                Ok(Ok(value)) => return Ok(value),
                Ok(Err(error)) => RegistryError::from_oci(reference, what, error),
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

/// Whether `registry` (`HOST[:PORT]`) is on this machine.
fn is_loopback(registry: &str) -> bool {
    let host = match registry.strip_prefix('[') {
        // `[::1]:5000`
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => registry.rsplit_once(':').map_or(registry, |(host, _)| host),
    };
    host == "localhost" || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// A buffer that refuses to grow past `limit`: a registry that sends more
/// than the descriptor said fails the pull instead of filling memory.
struct CappedBuffer {
    bytes: Vec<u8>,
    limit: usize,
}

impl tokio::io::AsyncWrite for CappedBuffer {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        if this.bytes.len() + data.len() > this.limit {
            let message = format!("the registry sent more than the {} bytes it described", this.limit);
            return Poll::Ready(Err(std::io::Error::other(message)));
        }
        this.bytes.extend_from_slice(data);
        Poll::Ready(Ok(data.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
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
