//! cosign signatures, made and checked in process (no `cosign` binary): a
//! component's digest signed by a key (`cosign sign --key`), or by an
//! identity a certificate authority vouched for (keyless: Fulcio's
//! certificate, Rekor's inclusion promise), read from the `.sig` tag and
//! from OCI referrers (cosign v3 bundles) by sigstore-rs.
//!
//! Keyless checks are our own constraint ([`KeylessIdentity`]): sigstore-rs'
//! certificate-subject verifiers accept a layer whose signature the
//! certificate's key never made, so identity and signature are checked on
//! the same layer here.

use std::collections::BTreeMap;
use std::path::Path;

use sigstore::cosign::bundle_content::BundleContent;
use sigstore::cosign::signature_layers::CertificateSubject;
use sigstore::cosign::verification_constraint::{PublicKeyVerifier, VerificationConstraint};
use sigstore::cosign::{ClientBuilder, CosignCapabilities, SignatureLayer};
use sigstore::crypto::{CosignVerificationKey, Signature};
use sigstore::registry::{Auth, ClientConfig, ClientProtocol, OciReference};
use sigstore::trust::ManualTrustRoot;

use crate::layout::MANIFEST_MEDIA_TYPE;
use crate::reference::ComponentRef;
use crate::snapshot::{SIMPLE_SIGNING, Served};
use crate::wire::Limit;
use crate::{Registry, RegistryError};

/// The largest key file read (a PEM key or certificate is a few KiB).
pub const MAX_KEY_FILE: u64 = 64 << 10;

/// The largest `trusted_root.json` read (the public instance's is under
/// 10 KiB; a private deployment's with years of rotated keys stays far
/// below this).
pub const MAX_TRUST_ROOT_FILE: u64 = 4 << 20;

/// Whose signature a component needs.
#[derive(Clone)]
pub enum Trust {
    /// A signature by this public key (a `cosign.pub`).
    Key {
        /// Where the key was read from, for messages.
        name: String,
        /// The key (PEM).
        pem: Vec<u8>,
    },
    /// A keyless signature: a certificate for `identity` (an e-mail address
    /// or a URI, e.g. a CI workflow's) from `issuer` (the OIDC issuer that
    /// vouched for it), chained to `root`, with a transparency-log entry
    /// signed by one of its logs.
    Identity {
        /// The certificate's subject, exactly.
        identity: String,
        /// The OIDC issuer, exactly.
        issuer: String,
        /// Certificate authorities and transparency logs.
        root: TrustRoot,
    },
}

impl std::fmt::Debug for Trust {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl Trust {
    /// Reads a public key file (a regular file of at most
    /// [`MAX_KEY_FILE`] bytes).
    pub fn key(path: &Path) -> Result<Trust, RegistryError> {
        let pem = crate::read_regular_file(path, MAX_KEY_FILE)
            .map_err(|e| RegistryError::Trust(format!("cannot read the key {}: {e}", path.display())))?;
        CosignVerificationKey::try_from_pem(&pem).map_err(|e| {
            RegistryError::Trust(format!(
                "{} is not a public key in PEM (as `cosign generate-key-pair` writes): {e}",
                path.display()
            ))
        })?;
        Ok(Trust::Key { name: path.display().to_string(), pem })
    }

    /// What it asks for, for messages.
    pub fn describe(&self) -> String {
        match self {
            Trust::Key { name, .. } => format!("a signature by the key {name}"),
            Trust::Identity { identity, issuer, .. } => {
                format!("a keyless signature by {identity} (issuer {issuer})")
            }
        }
    }
}

/// Certificate authorities and transparency-log keys for keyless
/// signatures, from a Sigstore `trusted_root.json` (the public instance's,
/// or a private deployment's).
#[derive(Clone)]
pub struct TrustRoot {
    certificates: Vec<Vec<u8>>,
    /// Log id (hex) → public key (DER).
    logs: BTreeMap<String, Vec<u8>>,
}

impl TrustRoot {
    /// The public Sigstore instance's (Fulcio and Rekor), as pinned in this
    /// crate (`sigstore/trusted_root.json`).
    pub fn public() -> TrustRoot {
        Self::from_bytes("the public Sigstore trust root", include_bytes!("../sigstore/trusted_root.json"))
            .expect("the pinned trust root reads")
    }

    /// Reads a `trusted_root.json` file (a regular file of at most
    /// [`MAX_TRUST_ROOT_FILE`] bytes).
    pub fn from_file(path: &Path) -> Result<TrustRoot, RegistryError> {
        let text = crate::read_regular_file(path, MAX_TRUST_ROOT_FILE)
            .map_err(|e| RegistryError::Trust(format!("cannot read the trust root {}: {e}", path.display())))?;
        Self::from_bytes(&path.display().to_string(), &text)
    }

    /// Reads `trusted_root.json`: `certificateAuthorities[].certChain.certificates[].rawBytes`
    /// and `tlogs[].{logId.keyId, publicKey.rawBytes}` (base64).
    fn from_bytes(name: &str, text: &[u8]) -> Result<TrustRoot, RegistryError> {
        let invalid = |why: String| RegistryError::Trust(format!("{name} is not a trusted_root.json: {why}"));
        let root: serde_json::Value = serde_json::from_slice(text).map_err(|e| invalid(e.to_string()))?;
        let decode = |text: &serde_json::Value| -> Result<Vec<u8>, RegistryError> {
            use base64::Engine;
            let text = text.as_str().ok_or_else(|| invalid("a value that should be base64 is not text".into()))?;
            base64::engine::general_purpose::STANDARD.decode(text).map_err(|e| invalid(format!("bad base64: {e}")))
        };
        let mut certificates = Vec::new();
        for authority in root["certificateAuthorities"].as_array().into_iter().flatten() {
            for certificate in authority["certChain"]["certificates"].as_array().into_iter().flatten() {
                certificates.push(decode(&certificate["rawBytes"])?);
            }
        }
        let mut logs = BTreeMap::new();
        for log in root["tlogs"].as_array().into_iter().flatten() {
            let id = crate::layout::hex(&decode(&log["logId"]["keyId"])?);
            logs.insert(id, decode(&log["publicKey"]["rawBytes"])?);
        }
        if certificates.is_empty() || logs.is_empty() {
            return Err(invalid("it names no certificate authority or no transparency log".into()));
        }
        Ok(TrustRoot { certificates, logs })
    }

    fn manual(&self) -> ManualTrustRoot<'_> {
        ManualTrustRoot {
            fulcio_certs: self.certificates.iter().map(|der| der.as_slice().into()).collect(),
            rekor_keys: self.logs.clone(),
            ctfe_keys: BTreeMap::new(),
        }
    }
}

/// What a component's signatures proved.
#[derive(Debug, Clone)]
pub struct Verified {
    /// The manifest digest the signatures are over.
    pub digest: String,
    /// How many signatures were found.
    pub signatures: usize,
    /// What was required of them, satisfied.
    pub by: String,
}

/// One signature found, as `mcp-wit verify` lists them.
#[derive(Debug, Clone)]
pub struct FoundSignature {
    /// The certificate's identity and issuer, for a keyless one whose
    /// certificate the trust root vouches for; `None` for a keyed one (or an
    /// untrusted certificate).
    pub identity: Option<(String, Option<String>)>,
    /// Whether a transparency-log entry of this signature came with it.
    pub logged: bool,
}

/// A keyless constraint that checks, on one layer, the certificate's
/// identity and issuer **and** that its key made the layer's signature.
#[derive(Debug)]
struct KeylessIdentity {
    identity: String,
    issuer: String,
}

impl VerificationConstraint for KeylessIdentity {
    fn verify(&self, layer: &SignatureLayer) -> sigstore::errors::Result<bool> {
        let (Some(certificate), Some(signature)) = (&layer.certificate_signature, &layer.signature) else {
            return Ok(false);
        };
        let subject = match &certificate.subject {
            CertificateSubject::Email(subject) | CertificateSubject::Uri(subject) => subject,
        };
        if *subject != self.identity || certificate.issuer.as_deref() != Some(self.issuer.as_str()) {
            return Ok(false);
        }
        let signed = certificate
            .verification_key
            .verify_signature(Signature::Base64Encoded(signature.as_bytes()), &layer.raw_data);
        Ok(signed.is_ok() && layer.bundle.as_ref().is_some_and(|bundle| logs(bundle, signature, &layer.raw_data)))
    }
}

/// Whether a layer's transparency-log entry is that of its own signature
/// over its own payload. On the `.sig` path sigstore-rs checks only the
/// log's signature on the entry, and the entry's time is what makes the
/// certificate valid: any entry from the certificate's lifetime would do,
/// so a key that outlived its certificate could sign anything.
fn logs(bundle: &BundleContent, signature: &str, payload: &[u8]) -> bool {
    use base64::Engine;
    let bundle = match bundle {
        BundleContent::RekorBundle(bundle) => bundle,
        // Sigstore bundles (OCI referrers): sigstore-rs matches the entry
        // with the signature, the certificate and the payload.
        BundleContent::SigstoreBundle(_) => return true,
    };
    let base64 = base64::engine::general_purpose::STANDARD;
    let Some(body) = base64
        .decode(&bundle.payload.body)
        .ok()
        .and_then(|body| serde_json::from_slice::<serde_json::Value>(&body).ok())
    else {
        return false;
    };
    // A hashedrekord entry (or a rekord one, of older cosign): the signature
    // and the payload's hash.
    let spec = &body["spec"];
    let logged_signature = spec["signature"]["content"].as_str().and_then(|logged| base64.decode(logged).ok());
    let same_signature =
        logged_signature.is_some_and(|logged| base64.decode(signature).is_ok_and(|ours| ours == logged));
    let hash = &spec["data"]["hash"];
    let ours = crate::layout::sha256_digest(payload);
    same_signature && hash["algorithm"] == "sha256" && hash["value"].as_str() == ours.strip_prefix("sha256:")
}

impl Registry {
    /// A sigstore-rs client that reads signatures from `snapshot` (see
    /// [`crate::snapshot`]), checking them against `root` if any.
    fn cosign_client(
        &self,
        root: Option<&TrustRoot>,
        snapshot: &Served,
    ) -> Result<sigstore::cosign::Client, RegistryError> {
        let protocol = ClientProtocol::HttpsExcept(vec![snapshot.host.clone()]);
        let config = ClientConfig { protocol, ..ClientConfig::default() };
        let builder = ClientBuilder::default().with_oci_client_config(config);
        let manual = root.map(TrustRoot::manual);
        let builder = match &manual {
            Some(manual) => builder.with_trust_repository(manual).map_err(|e| RegistryError::Trust(e.to_string()))?,
            None => builder,
        };
        builder.build().map_err(|e| RegistryError::Trust(format!("cannot set up signature checks: {e}")))
    }

    /// The signatures of `pinned` (a reference with a digest), read with
    /// bounds ([`Self::signature_snapshot`]) and checked by sigstore-rs as
    /// far as `root` lets it. Signatures that cannot be read count as none.
    async fn signature_layers(
        &self,
        pinned: &ComponentRef,
        root: Option<&TrustRoot>,
    ) -> Result<Vec<SignatureLayer>, RegistryError> {
        let digest = pinned.digest().expect("signatures are read for a digest");
        let served = self.signature_snapshot(pinned).await?.serve(pinned.repository()).await?;
        let mut client = self.cosign_client(root, &served)?;
        let image: OciReference = format!("{}/{}@{digest}", served.host, pinned.repository())
            .parse()
            .map_err(|e| RegistryError::Reference { reference: pinned.to_string(), why: format!("{e}") })?;
        let timeout = self.options().timeout;
        match tokio::time::timeout(timeout, client.trusted_signature_layers(&Auth::Anonymous, &image)).await {
            Ok(Ok(layers)) => Ok(layers),
            Ok(Err(e)) => Err(RegistryError::Unverified {
                reference: pinned.to_string(),
                why: format!("its signatures cannot be read: {e}"),
            }),
            Err(_) => Err(RegistryError::Timeout {
                reference: pinned.to_string(),
                what: "its signatures".into(),
                after: timeout,
            }),
        }
    }

    /// Checks that `pinned` (a reference with a digest) carries a signature
    /// `trust` accepts; the refusal says what was found instead.
    pub async fn verify(&self, pinned: &ComponentRef, trust: &Trust) -> Result<Verified, RegistryError> {
        let digest = pinned.digest().expect("signatures are checked on a digest").to_owned();
        let root = match trust {
            Trust::Identity { root, .. } => Some(root),
            Trust::Key { .. } => None,
        };
        let layers = self.signature_layers(pinned, root).await?;
        let refuse = |why: String| RegistryError::Unverified { reference: pinned.to_string(), why };
        if layers.is_empty() {
            return Err(refuse(format!("it is not signed: no cosign signature for {digest}")));
        }
        let constraint: Box<dyn VerificationConstraint> = match trust {
            Trust::Key { pem, name } => Box::new(
                PublicKeyVerifier::try_from(pem)
                    .map_err(|e| RegistryError::Trust(format!("the key {name} cannot check signatures: {e}")))?,
            ),
            Trust::Identity { identity, issuer, .. } => {
                Box::new(KeylessIdentity { identity: identity.clone(), issuer: issuer.clone() })
            }
        };
        let satisfied = layers.iter().any(|layer| constraint.verify(layer).unwrap_or(false));
        if !satisfied {
            return Err(refuse(format!(
                "none of its {} signature(s) is {}{}",
                layers.len(),
                trust.describe(),
                describe_found(&found(&layers))
            )));
        }
        Ok(Verified { digest, signatures: layers.len(), by: trust.describe() })
    }

    /// The signatures `pinned` carries, as far as `root` (if any) lets
    /// their certificates be read.
    pub async fn signatures(
        &self,
        pinned: &ComponentRef,
        root: Option<&TrustRoot>,
    ) -> Result<Vec<FoundSignature>, RegistryError> {
        Ok(found(&self.signature_layers(pinned, root).await?))
    }

    /// Signs `pinned` (a reference with a digest) with a cosign private key
    /// (`cosign.key`, encrypted with `password`), adding the signature to
    /// its `.sig` tag as `cosign sign --key` does: every layer already there
    /// (keyless ones with their certificates and log bundles) is kept as it
    /// was. Returns that tag.
    pub async fn sign(&self, pinned: &ComponentRef, key: &[u8], password: &[u8]) -> Result<String, RegistryError> {
        use sigstore::cosign::constraint::{Constraint, PrivateKeySigner};
        use sigstore::crypto::signing_key::SigStoreKeyPair;
        let digest = pinned.digest().expect("a signature is made over a digest").to_owned();
        let bad_key = |e: sigstore::errors::SigstoreError| {
            RegistryError::Trust(format!(
                "cannot read the private key ({e}); it must be a cosign key (`cosign generate-key-pair`) and \
                 COSIGN_PASSWORD its password"
            ))
        };
        let pair = SigStoreKeyPair::from_encrypted_pem(key, password).map_err(bad_key)?;
        let signer = pair.to_sigstore_signer(&sigstore::crypto::SigningScheme::default()).map_err(bad_key)?;
        let image: OciReference = pinned
            .to_string()
            .parse()
            .map_err(|e| RegistryError::Reference { reference: pinned.to_string(), why: format!("{e}") })?;
        let mut layer = SignatureLayer::new_unsigned(&image, &digest).map_err(|e| RegistryError::Registry {
            reference: pinned.to_string(),
            what: "signing".into(),
            message: e.to_string(),
            transient: false,
            unreachable: false,
        })?;
        let signed = PrivateKeySigner::new_with_signer(signer).add_constraint(&mut layer);
        let signature = match (signed, &layer.signature) {
            (Ok(true), Some(signature)) => signature.clone(),
            (Err(e), _) => return Err(RegistryError::Trust(format!("cannot sign with the key: {e}"))),
            _ => return Err(RegistryError::Trust("the key made no signature".into())),
        };
        let auth = self.grant(pinned, true).await?;
        let tag = format!("{}.sig", digest.replace(':', "-"));
        let what = "its signatures";
        let path = format!("manifests/{tag}");
        let existing = self
            .read(pinned, what, || self.wire().get(pinned, &path, MANIFEST_MEDIA_TYPE, &auth, Limit::Manifest, what))
            .await?;
        let signatures = SignatureManifest::with(existing.as_deref(), &layer.raw_data, &signature)
            .map_err(|why| RegistryError::NotAWasmArtifact(format!("{pinned}: its signature tag {tag}: {why}")))?;
        let target = oci_client::Reference::with_tag(
            pinned.oci().registry().to_owned(),
            pinned.oci().repository().to_owned(),
            tag.clone(),
        );
        self.push_signatures(pinned, &target, &auth, &signatures).await?;
        Ok(format!("{}/{}:{tag}", pinned.registry(), pinned.repository()))
    }
}

/// An OCI image manifest's media type, as cosign writes `.sig` manifests.
/// The annotation holding a layer's signature (base64).
const SIGNATURE_ANNOTATION: &str = "dev.cosignproject.cosign/signature";

/// A `.sig` manifest with one more signature, and the blobs it needs.
struct SignatureManifest {
    manifest: Vec<u8>,
    media_type: String,
    /// Blobs the manifest names that may not be in the repository yet: the
    /// new layer's payload, and the config of a new manifest.
    blobs: Vec<Vec<u8>>,
}

impl SignatureManifest {
    /// `existing` (the tag's manifest, if any) with a layer of `payload`
    /// signed by `signature` appended; everything else in it kept as it was
    /// (other layers' annotations: certificates, chains, log bundles).
    fn with(existing: Option<&[u8]>, payload: &[u8], signature: &str) -> Result<SignatureManifest, String> {
        let layer = serde_json::json!({
            "mediaType": SIMPLE_SIGNING,
            "size": payload.len(),
            "digest": crate::layout::sha256_digest(payload),
            "annotations": { SIGNATURE_ANNOTATION: signature },
        });
        let mut blobs = vec![payload.to_vec()];
        let manifest = match existing {
            Some(bytes) => {
                let mut manifest: serde_json::Value =
                    serde_json::from_slice(bytes).map_err(|e| format!("not a manifest: {e}"))?;
                let layers = manifest
                    .get_mut("layers")
                    .and_then(serde_json::Value::as_array_mut)
                    .ok_or("not an image manifest with layers")?;
                layers.push(layer);
                manifest
            }
            None => {
                let config = b"{}".to_vec();
                let manifest = serde_json::json!({
                    "schemaVersion": 2,
                    "mediaType": MANIFEST_MEDIA_TYPE,
                    "config": {
                        "mediaType": "application/vnd.oci.image.config.v1+json",
                        "size": config.len(),
                        "digest": crate::layout::sha256_digest(&config),
                    },
                    "layers": [layer],
                });
                blobs.push(config);
                manifest
            }
        };
        let media_type = manifest["mediaType"].as_str().unwrap_or(MANIFEST_MEDIA_TYPE).to_owned();
        Ok(SignatureManifest {
            manifest: serde_json::to_vec(&manifest).expect("JSON values serialise"),
            media_type,
            blobs,
        })
    }
}

impl Registry {
    /// Pushes `signatures`' blobs that are missing, then its manifest to
    /// `target` (the `.sig` tag).
    async fn push_signatures(
        &self,
        pinned: &ComponentRef,
        target: &oci_client::Reference,
        auth: &oci_client::secrets::RegistryAuth,
        signatures: &SignatureManifest,
    ) -> Result<(), RegistryError> {
        let what = "pushing the signature";
        let blobs: Vec<(&str, &[u8])> = signatures.blobs.iter().map(|blob| (what, &blob[..])).collect();
        self.push_blobs(pinned, target, auth, &blobs).await?;
        let content_type = http::HeaderValue::from_str(&signatures.media_type)
            .map_err(|e| RegistryError::NotAWasmArtifact(format!("{pinned}: its signature tag's media type: {e}")))?;
        self.write(pinned, what, || async {
            let pushed =
                self.client().push_manifest_raw(target, signatures.manifest.clone(), content_type.clone()).await;
            pushed.map(drop).map_err(|e| RegistryError::from_oci(pinned, what, e))
        })
        .await
    }
}

fn found(layers: &[SignatureLayer]) -> Vec<FoundSignature> {
    layers
        .iter()
        .map(|layer| FoundSignature {
            identity: layer.certificate_signature.as_ref().map(|certificate| {
                let subject = match &certificate.subject {
                    CertificateSubject::Email(subject) | CertificateSubject::Uri(subject) => subject.clone(),
                };
                (subject, certificate.issuer.clone())
            }),
            logged: match (&layer.bundle, &layer.signature) {
                (Some(bundle), Some(signature)) => logs(bundle, signature, &layer.raw_data),
                _ => false,
            },
        })
        .collect()
}

/// `: found …` for a refusal.
fn describe_found(found: &[FoundSignature]) -> String {
    let identities: Vec<String> = found
        .iter()
        .filter_map(|f| f.identity.as_ref())
        .map(|(subject, issuer)| format!("{subject} ({})", issuer.as_deref().unwrap_or("no issuer")))
        .collect();
    let keyed = found.iter().filter(|f| f.identity.is_none()).count();
    let mut parts = Vec::new();
    if keyed > 0 {
        parts.push(format!("{keyed} by a key (or a certificate the trust root does not vouch for)"));
    }
    if !identities.is_empty() {
        parts.push(format!("keyless by {}", identities.join(", ")));
    }
    if parts.is_empty() { String::new() } else { format!(" (found: {})", parts.join("; ")) }
}

/// A new cosign key pair, as `cosign generate-key-pair` makes it.
pub struct KeyPair {
    /// The private key, ECDSA P-256, encrypted with the password it was
    /// made with (`ENCRYPTED SIGSTORE PRIVATE KEY`, PEM): what
    /// [`Registry::sign`] and `cosign sign --key` take.
    pub private_pem: zeroize::Zeroizing<String>,
    /// The public key (PEM): what [`Trust::key`] and `cosign verify --key`
    /// take.
    pub public_pem: String,
}

/// Makes a [`KeyPair`], its private key encrypted with `password` (cosign
/// reads an empty one as none).
pub fn generate_key_pair(password: &[u8]) -> Result<KeyPair, RegistryError> {
    use sigstore::crypto::SigningScheme;
    let failed = |e: sigstore::errors::SigstoreError| RegistryError::Trust(format!("cannot make a key pair: {e}"));
    let signer = SigningScheme::ECDSA_P256_SHA256_ASN1.create_signer().map_err(failed)?;
    let pair = signer.to_sigstore_keypair().map_err(failed)?;
    Ok(KeyPair {
        private_pem: pair.private_key_to_encrypted_pem(password).map_err(failed)?,
        public_pem: pair.public_key_to_pem().map_err(failed)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pinned_public_root_reads_and_a_bad_one_says_why() {
        let public = TrustRoot::public();
        assert!(public.certificates.len() >= 2 && public.logs.len() >= 2);
        // Rekor's log id is the hex SHA-256 of its key.
        assert!(public.logs.keys().all(|id| id.len() == 64));
        let error = TrustRoot::from_bytes("x.json", br#"{"tlogs": []}"#).err().unwrap().to_string();
        assert!(error.contains("x.json") && error.contains("no certificate authority"), "{error}");
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("cosign.pub");
        std::fs::write(&key, "not a key").unwrap();
        let error = Trust::key(&key).err().unwrap().to_string();
        assert!(error.contains("not a public key in PEM"), "{error}");
    }
}
