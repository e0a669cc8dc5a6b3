//! A component's signatures read with bounds, then shown to sigstore-rs
//! from memory. sigstore-rs reads the `.sig` manifest, the referrers and
//! every signature layer whole from whatever registry it is pointed at,
//! and builds its checked signature layers only from what it read itself
//! (no public way in with bytes read elsewhere). So the registry is read
//! here, each answer capped, each layer checked against its declared size
//! and digest as it arrives, and sigstore-rs reads that copy from a
//! loopback listener that lives as long as the check: what it verifies is
//! exactly what was read with bounds.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;

use oci_client::secrets::RegistryAuth;

use crate::layout::MANIFEST_MEDIA_TYPE;
use crate::reference::ComponentRef;
use crate::wire::Limit;
use crate::{Registry, RegistryError};

/// The most signature layers (or referrers) read for one component.
pub(crate) const MAX_SIGNATURES: usize = 64;

/// The most a signature layer (a simple-signing payload, some 300 bytes;
/// a Sigstore bundle, some 10 KiB) or its manifest's config may have.
pub(crate) const MAX_SIGNATURE_LAYER: u64 = 256 << 10;

/// A cosign simple-signing layer's media type.
pub(crate) const SIMPLE_SIGNING: &str = "application/vnd.dev.cosign.simplesigning.v1+json";
/// A Sigstore bundle's media type (cosign v3, as an OCI referrer).
const BUNDLE: &str = "application/vnd.dev.sigstore.bundle.v0.3+json";
const INDEX: &str = "application/vnd.oci.image.index.v1+json";
const MANIFESTS: &str = "application/vnd.oci.image.manifest.v1+json, \
                         application/vnd.docker.distribution.manifest.v2+json, application/vnd.oci.image.index.v1+json";

/// What was read: the path under `/v2/REPOSITORY/` → what is answered.
#[derive(Default)]
pub(crate) struct Snapshot {
    files: HashMap<String, File>,
}

/// An answer: its content type, its bytes, its digest (the
/// `Docker-Content-Digest` header).
#[derive(Clone)]
struct File {
    kind: String,
    bytes: Vec<u8>,
    digest: String,
}

impl File {
    fn new(kind: &str, bytes: Vec<u8>) -> File {
        File { kind: kind.to_owned(), digest: crate::layout::sha256_digest(&bytes), bytes }
    }

    /// A manifest, typed as it says.
    fn manifest(bytes: &[u8]) -> File {
        let value: serde_json::Value = serde_json::from_slice(bytes).unwrap_or_default();
        File::new(value["mediaType"].as_str().unwrap_or(MANIFEST_MEDIA_TYPE), bytes.to_vec())
    }
}

/// A [`Snapshot`] served on `127.0.0.1`, until dropped.
pub(crate) struct Served {
    /// `127.0.0.1:PORT`, as a registry.
    pub(crate) host: String,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Registry {
    /// `pinned`'s signature artifacts (its `.sig` tag, its referrers),
    /// each read with its bound.
    pub(crate) async fn signature_snapshot(&self, pinned: &ComponentRef) -> Result<Snapshot, RegistryError> {
        let digest = pinned.digest().expect("signatures are read for a digest");
        let auth = self.grant(pinned, false).await?;
        let mut snapshot = Snapshot::default();
        // The component's own manifest: sigstore-rs asks for its digest.
        let own = self.store().manifest(digest).unwrap_or_default();
        let own = File { digest: digest.to_owned(), ..File::new(MANIFEST_MEDIA_TYPE, own) };
        snapshot.files.insert(format!("manifests/{digest}"), own);
        let tag = format!("manifests/{}.sig", digest.replace(':', "-"));
        if let Some(manifest) = self.manifest_if_any(pinned, &tag, &auth).await? {
            self.read_layers(pinned, &manifest, SIMPLE_SIGNING, &auth, &mut snapshot).await?;
            snapshot.files.insert(tag, File::manifest(&manifest));
        }
        // The referrers API, else its tag schema (`sha256-HEX`), as
        // sigstore-rs asks.
        let mut index = None;
        for path in [format!("referrers/{digest}"), format!("manifests/{}", digest.replace(':', "-"))] {
            if let Some(found) = self.manifest_if_any(pinned, &path, &auth).await? {
                index = Some((path, found));
                break;
            }
        }
        if let Some((path, index)) = index {
            let entries = entries(&index, "manifests");
            if entries.len() > MAX_SIGNATURES {
                return Err(too_many(pinned, "referrers", entries.len()));
            }
            for (referrer, _, _) in entries {
                let referrer_path = format!("manifests/{referrer}");
                let Some(manifest) = self.manifest_if_any(pinned, &referrer_path, &auth).await? else { continue };
                if crate::layout::sha256_digest(&manifest) != referrer {
                    continue;
                }
                self.read_layers(pinned, &manifest, BUNDLE, &auth, &mut snapshot).await?;
                snapshot.files.insert(referrer_path, File::manifest(&manifest));
            }
            snapshot.files.insert(path, File::new(INDEX, index));
        }
        Ok(snapshot)
    }

    async fn manifest_if_any(
        &self,
        pinned: &ComponentRef,
        path: &str,
        auth: &RegistryAuth,
    ) -> Result<Option<Vec<u8>>, RegistryError> {
        let what = "its signatures";
        self.read(pinned, what, || self.wire().get(pinned, path, MANIFESTS, auth, Limit::Manifest, what)).await
    }

    /// The config and the `media_type` layers of `manifest`, each at most
    /// [`MAX_SIGNATURE_LAYER`] bytes and checked against its descriptor.
    async fn read_layers(
        &self,
        pinned: &ComponentRef,
        manifest: &[u8],
        media_type: &str,
        auth: &RegistryAuth,
        snapshot: &mut Snapshot,
    ) -> Result<(), RegistryError> {
        let layers = entries(manifest, "layers");
        if layers.len() > MAX_SIGNATURES {
            return Err(too_many(pinned, "signature layers", layers.len()));
        }
        let value: serde_json::Value = serde_json::from_slice(manifest).unwrap_or_default();
        let config = value["config"]["digest"].as_str().map(|d| (d.to_owned(), value["config"]["size"].as_i64()));
        let wanted = layers.into_iter().filter(|(_, kind, _)| kind == media_type).map(|(d, _, size)| (d, size));
        for (digest, size) in config.into_iter().chain(wanted) {
            let path = format!("blobs/{digest}");
            if snapshot.files.contains_key(&path) {
                continue;
            }
            let descriptor = (digest.as_str(), size.unwrap_or(-1));
            let bytes = self.blob(pinned, descriptor, MAX_SIGNATURE_LAYER, auth, "a signature layer").await?;
            snapshot.files.insert(path, File::new("application/octet-stream", bytes));
        }
        Ok(())
    }
}

/// Each `(digest, mediaType, size)` of `manifest`'s `field` array.
fn entries(manifest: &[u8], field: &str) -> Vec<(String, String, Option<i64>)> {
    let value: serde_json::Value = serde_json::from_slice(manifest).unwrap_or_default();
    let Some(list) = value[field].as_array() else { return Vec::new() };
    list.iter()
        .filter_map(|entry| {
            let digest = entry["digest"].as_str().filter(|d| crate::reference::is_sha256_digest(d))?;
            Some((
                digest.to_owned(),
                entry["mediaType"].as_str().unwrap_or_default().to_owned(),
                entry["size"].as_i64(),
            ))
        })
        .collect()
}

fn too_many(pinned: &ComponentRef, what: &str, count: usize) -> RegistryError {
    RegistryError::Unverified {
        reference: pinned.to_string(),
        why: format!("its signatures cannot be read: {count} {what}, more than the {MAX_SIGNATURES} read"),
    }
}

impl Snapshot {
    /// Serves the snapshot as `repository` of a registry on `127.0.0.1`.
    pub(crate) async fn serve(self, repository: &str) -> Result<Served, RegistryError> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| RegistryError::Trust(format!("cannot set up the signature check: {e}")))?;
        let host = listener
            .local_addr()
            .map_err(|e| RegistryError::Trust(format!("cannot set up the signature check: {e}")))?
            .to_string();
        let prefix = format!("/v2/{repository}/");
        let files = Arc::new(self.files);
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (files, prefix) = (files.clone(), prefix.clone());
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                        let found = match request.uri().path() {
                            "/v2/" => Some(File::new("application/json", b"{}".to_vec())),
                            path => path.strip_prefix(&prefix).and_then(|path| files.get(path)).cloned(),
                        };
                        async move { Ok::<_, Infallible>(answer(found)) }
                    });
                    let io = hyper_util::rt::TokioIo::new(stream);
                    let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await;
                });
            }
        });
        Ok(Served { host, task })
    }
}

fn answer(found: Option<File>) -> hyper::Response<http_body_util::Full<bytes::Bytes>> {
    let mut response = hyper::Response::builder();
    let body = match found {
        Some(File { kind, bytes, digest }) => {
            response = response.header("content-type", kind).header("docker-content-digest", digest);
            bytes
        }
        None => {
            response = response.status(404).header("content-type", "application/json");
            br#"{"errors":[{"code":"MANIFEST_UNKNOWN","message":"not found"}]}"#.to_vec()
        }
    };
    response.body(http_body_util::Full::new(bytes::Bytes::from(body))).expect("a valid response")
}
