//! The CNCF Wasm OCI artifact layout (tag-group-runtime's
//! `wasm-oci-artifact`), as wkg, Wassette, wasmCloud and Spin's `wasm`
//! pulls read it: an OCI image manifest whose config has the media type
//! [`CONFIG_MEDIA_TYPE`] (`os`, `layerDigests`, the component's imports and
//! exports) and whose one layer is the `.wasm` ([`LAYER_MEDIA_TYPE`]).
//!
//! Written here rather than taken from `oci-wasm`: that crate's value is
//! this struct and a media-type check, and it would bring a second
//! generation of the wasm-tools crates (and tie oci-client to an older
//! version).

use std::collections::BTreeMap;

use oci_client::manifest::{OciDescriptor, OciImageManifest};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::RegistryError;

/// The config's media type.
pub const CONFIG_MEDIA_TYPE: &str = "application/vnd.wasm.config.v0+json";
/// The one layer's media type.
pub const LAYER_MEDIA_TYPE: &str = "application/wasm";
/// The manifest's media type (OCI image manifest).
pub const MANIFEST_MEDIA_TYPE: &str = "application/vnd.oci.image.manifest.v1+json";
/// A multi-platform index, which a Wasm artifact is not.
const INDEX_MEDIA_TYPES: [&str; 2] =
    ["application/vnd.oci.image.index.v1+json", "application/vnd.docker.distribution.manifest.list.v2+json"];
/// What a registry may answer for a manifest: the accepted type, and those
/// refused with a reason rather than a 404.
pub const ACCEPTED_MANIFEST_TYPES: [&str; 4] = [
    MANIFEST_MEDIA_TYPE,
    "application/vnd.docker.distribution.manifest.v2+json",
    INDEX_MEDIA_TYPES[0],
    INDEX_MEDIA_TYPES[1],
];

/// The config blob (`application/vnd.wasm.config.v0+json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WasmConfig {
    /// When the artifact was made (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    /// Who made it.
    #[serde(default)]
    pub author: Option<String>,
    /// Always `wasm`.
    pub architecture: String,
    /// `wasip2` for a component, `wasip1` for a core module.
    pub os: String,
    /// The digests of the layers, in order.
    #[serde(default)]
    pub layer_digests: Vec<String>,
    /// A component's imports and exports (none for a core module).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component: Option<ComponentInfo>,
}

/// A component's world as names, for tools that pick artifacts by them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComponentInfo {
    /// Fully qualified export names (`wasix:mcp/router@25.3.26`).
    pub exports: Vec<String>,
    /// Fully qualified import names.
    pub imports: Vec<String>,
    /// The world's name, when known.
    #[serde(default)]
    pub target: Option<String>,
}

/// Descriptive annotations of a pushed artifact
/// (`org.opencontainers.image.*`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotations {
    /// `org.opencontainers.image.title`.
    pub title: Option<String>,
    /// `org.opencontainers.image.version`.
    pub version: Option<String>,
    /// `org.opencontainers.image.source` (a URL).
    pub source: Option<String>,
    /// `org.opencontainers.image.description`.
    pub description: Option<String>,
}

impl Annotations {
    fn to_map(&self, created: Option<&str>) -> BTreeMap<String, String> {
        let fields = [
            ("title", self.title.as_deref()),
            ("version", self.version.as_deref()),
            ("source", self.source.as_deref()),
            ("description", self.description.as_deref()),
            ("created", created),
        ];
        fields
            .into_iter()
            .filter_map(|(key, value)| Some((format!("org.opencontainers.image.{key}"), value?.to_owned())))
            .collect()
    }
}

/// `sha256:` and the hexadecimal SHA-256 of `bytes`.
pub fn sha256_digest(bytes: &[u8]) -> String {
    format!("sha256:{}", hex(&Sha256::digest(bytes)))
}

/// `bytes` in lowercase hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut text, byte| {
        let _ = write!(text, "{byte:02x}");
        text
    })
}

/// What an artifact made of `wasm` is pushed as: its config blob, and its
/// manifest's bytes (JSON as written here: its digest is theirs).
pub struct Artifact {
    /// The config blob.
    pub config: Vec<u8>,
    /// The manifest, as sent.
    pub manifest: Vec<u8>,
    /// The layer's digest.
    pub layer_digest: String,
}

impl Artifact {
    /// The artifact of `wasm` (a component or a core module), made at
    /// `created` (RFC 3339; fixed by the caller so that the same file
    /// pushed twice is the same artifact).
    pub fn new(wasm: &[u8], created: Option<String>, annotations: &Annotations) -> Result<Artifact, RegistryError> {
        let layer_digest = sha256_digest(wasm);
        let (os, component) = match wasmparser::Parser::is_component(wasm) {
            true => ("wasip2", Some(component_info(wasm)?)),
            false if wasmparser::Parser::is_core_wasm(wasm) => ("wasip1", None),
            false => return Err(RegistryError::NotWasm),
        };
        let config = WasmConfig {
            created: created.clone(),
            author: None,
            architecture: "wasm".into(),
            os: os.into(),
            layer_digests: vec![layer_digest.clone()],
            component,
        };
        let config = serde_json::to_vec(&config).expect("the config serialises");
        let descriptor = |media_type: &str, digest: String, size: usize| OciDescriptor {
            media_type: media_type.into(),
            digest,
            size: size as i64,
            ..OciDescriptor::default()
        };
        let annotations = annotations.to_map(created.as_deref());
        let manifest = OciImageManifest {
            schema_version: 2,
            media_type: Some(MANIFEST_MEDIA_TYPE.into()),
            config: descriptor(CONFIG_MEDIA_TYPE, sha256_digest(&config), config.len()),
            layers: vec![descriptor(LAYER_MEDIA_TYPE, layer_digest.clone(), wasm.len())],
            annotations: (!annotations.is_empty()).then_some(annotations),
            ..OciImageManifest::default()
        };
        // serde_json, not oci-client's canonical writer, which leaves control
        // characters unescaped (a newline in a description makes the
        // registry refuse the manifest).
        let manifest = serde_json::to_vec(&manifest).expect("the manifest serialises");
        Ok(Artifact { config, manifest, layer_digest })
    }
}

/// The top-level import and export names of a component.
fn component_info(wasm: &[u8]) -> Result<ComponentInfo, RegistryError> {
    use wasmparser::{Parser, Payload};
    let mut info = ComponentInfo { exports: Vec::new(), imports: Vec::new(), target: None };
    let mut depth = 0usize;
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(|e| RegistryError::Invalid(format!("the component does not parse: {e}")))?;
        match payload {
            Payload::ModuleSection { .. } | Payload::ComponentSection { .. } => depth += 1,
            Payload::End(_) => depth = depth.saturating_sub(1),
            Payload::ComponentImportSection(section) if depth == 0 => {
                for import in section {
                    let import = import.map_err(|e| RegistryError::Invalid(e.to_string()))?;
                    info.imports.push(import.name.full_name().into_owned());
                }
            }
            Payload::ComponentExportSection(section) if depth == 0 => {
                for export in section {
                    let export = export.map_err(|e| RegistryError::Invalid(e.to_string()))?;
                    info.exports.push(export.name.full_name().into_owned());
                }
            }
            _ => {}
        }
    }
    Ok(info)
}

/// A pulled manifest that is a Wasm artifact: what to fetch.
#[derive(Debug, Clone)]
pub struct WasmManifest {
    /// The config blob's descriptor.
    pub config: OciDescriptor,
    /// The one layer's.
    pub layer: OciDescriptor,
    /// The manifest's annotations.
    pub annotations: BTreeMap<String, String>,
}

impl WasmManifest {
    /// Checks that `bytes` (of `media_type`, as the registry answered) are
    /// one Wasm artifact, refusing with a reason what is not: an index, a
    /// container image, several layers, a layer over `max_size`.
    pub fn parse(bytes: &[u8], media_type: Option<&str>, max_size: u64) -> Result<WasmManifest, RegistryError> {
        let refuse = |why: String| Err(RegistryError::NotAWasmArtifact(why));
        let value: serde_json::Value = serde_json::from_slice(bytes)
            .map_err(|e| RegistryError::NotAWasmArtifact(format!("its manifest is not JSON ({e})")))?;
        let declared = value.get("mediaType").and_then(|m| m.as_str()).or(media_type);
        if let Some(index) = declared.filter(|t| INDEX_MEDIA_TYPES.contains(t)) {
            return refuse(format!(
                "it is a multi-platform index ({index}), not one Wasm artifact: name one of its manifests by digest"
            ));
        }
        let manifest: OciImageManifest = serde_json::from_value(value)
            .map_err(|e| RegistryError::NotAWasmArtifact(format!("its manifest is not an image manifest ({e})")))?;
        if manifest.config.media_type != CONFIG_MEDIA_TYPE {
            return refuse(format!(
                "its config is `{}`, not `{CONFIG_MEDIA_TYPE}` (a container image or another kind of artifact)",
                manifest.config.media_type
            ));
        }
        let [layer] = &manifest.layers[..] else {
            return refuse(format!("it has {} layers; a Wasm artifact has one", manifest.layers.len()));
        };
        if layer.media_type != LAYER_MEDIA_TYPE {
            return refuse(format!("its layer is `{}`, not `{LAYER_MEDIA_TYPE}`", layer.media_type));
        }
        if layer.size < 0 || layer.size as u64 > max_size {
            return refuse(format!("its layer is {} bytes, over the limit of {max_size}", layer.size));
        }
        if !crate::reference::is_sha256_digest(&layer.digest) {
            return refuse(format!("its layer's digest `{}` is not a sha256 one", layer.digest));
        }
        Ok(WasmManifest {
            config: manifest.config.clone(),
            layer: layer.clone(),
            annotations: manifest.annotations.clone().unwrap_or_default(),
        })
    }

    /// Checks the config blob against the manifest: it names the same
    /// layer (when it names any).
    pub fn check_config(&self, config: &[u8]) -> Result<WasmConfig, RegistryError> {
        let config: WasmConfig = serde_json::from_slice(config)
            .map_err(|e| RegistryError::NotAWasmArtifact(format!("its config is not a Wasm config ({e})")))?;
        if !config.layer_digests.is_empty() && config.layer_digests != [self.layer.digest.clone()] {
            return Err(RegistryError::NotAWasmArtifact(format!(
                "its config names the layers {:?}, its manifest {}",
                config.layer_digests, self.layer.digest
            )));
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smallest component: the preamble alone.
    const COMPONENT: &[u8] = b"\0asm\x0d\0\x01\0";
    const MODULE: &[u8] = b"\0asm\x01\0\0\0";

    #[test]
    fn an_artifact_reads_back_as_a_wasm_manifest() {
        let annotations =
            Annotations { title: Some("echo".into()), description: Some("two\nlines".into()), ..Default::default() };
        let artifact = Artifact::new(COMPONENT, Some("2026-11-27T00:00:00Z".into()), &annotations).unwrap();
        let manifest = WasmManifest::parse(&artifact.manifest, None, 1 << 20).unwrap();
        assert_eq!(manifest.layer.digest, sha256_digest(COMPONENT));
        assert_eq!(manifest.config.digest, sha256_digest(&artifact.config));
        assert_eq!(manifest.annotations["org.opencontainers.image.description"], "two\nlines");
        assert_eq!(manifest.annotations["org.opencontainers.image.created"], "2026-11-27T00:00:00Z");
        let config = manifest.check_config(&artifact.config).unwrap();
        assert_eq!((config.os.as_str(), config.component.unwrap().exports.len()), ("wasip2", 0));
        // The same file and time: the same bytes, so the same digest.
        let again = Artifact::new(COMPONENT, Some("2026-11-27T00:00:00Z".into()), &annotations).unwrap();
        assert_eq!(again.manifest, artifact.manifest);
        let module = Artifact::new(MODULE, None, &Annotations::default()).unwrap();
        assert!(String::from_utf8(module.config).unwrap().contains(r#""os":"wasip1""#));
        assert!(matches!(Artifact::new(b"not wasm", None, &Annotations::default()), Err(RegistryError::NotWasm)));
    }

    #[test]
    fn what_is_not_one_wasm_artifact_is_refused_with_its_reason() {
        let artifact = Artifact::new(COMPONENT, None, &Annotations::default()).unwrap();
        let mut manifest: serde_json::Value = serde_json::from_slice(&artifact.manifest).unwrap();
        let refused = |value: &serde_json::Value, max: u64| {
            WasmManifest::parse(&serde_json::to_vec(value).unwrap(), None, max).unwrap_err().to_string()
        };
        assert!(refused(&manifest, 4).contains("over the limit of 4"));
        let index = serde_json::json!({ "schemaVersion": 2, "mediaType": INDEX_MEDIA_TYPES[0], "manifests": [] });
        assert!(refused(&index, 1 << 20).contains("multi-platform index"));
        manifest["config"]["mediaType"] = "application/vnd.oci.image.config.v1+json".into();
        assert!(refused(&manifest, 1 << 20).contains("container image"));
        manifest["config"]["mediaType"] = CONFIG_MEDIA_TYPE.into();
        let layer = manifest["layers"][0].clone();
        manifest["layers"] = serde_json::json!([layer, layer]);
        assert!(refused(&manifest, 1 << 20).contains("2 layers"));
        manifest["layers"] = serde_json::json!([layer]);
        manifest["layers"][0]["mediaType"] = "application/vnd.oci.image.layer.v1.tar+gzip".into();
        assert!(refused(&manifest, 1 << 20).contains("its layer is"));
        let parsed = WasmManifest::parse(&artifact.manifest, None, 1 << 20).unwrap();
        let mut other = serde_json::from_slice::<WasmConfig>(&artifact.config).unwrap();
        other.layer_digests = vec![sha256_digest(b"other")];
        let error = parsed.check_config(&serde_json::to_vec(&other).unwrap()).unwrap_err().to_string();
        assert!(error.contains("its config names the layers"), "{error}");
    }
}
