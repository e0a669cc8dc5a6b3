//! What names a component in a registry: `oci://REGISTRY/REPO:TAG`,
//! `…@sha256:DIGEST`, or the same without `oci://` where a file path could
//! also be meant (see [`ComponentSource::parse`]).

use std::fmt;

use oci_client::Reference;

use crate::RegistryError;

/// The scheme that marks a reference where a path is also accepted.
pub const SCHEME: &str = "oci://";

/// A component in a registry, by tag or by digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentRef {
    inner: Reference,
}

impl ComponentRef {
    /// Parses `REGISTRY/REPO[:TAG][@sha256:DIGEST]` (with or without
    /// [`SCHEME`]). Without a tag or digest the tag is `latest`, as
    /// registries have it. A digest must be a sha256 one: that is what the
    /// cache is keyed by.
    pub fn parse(text: &str) -> Result<ComponentRef, RegistryError> {
        let bare = text.strip_prefix(SCHEME).unwrap_or(text);
        let invalid = |why: String| RegistryError::Reference { reference: text.to_owned(), why };
        if bare.is_empty() {
            return Err(invalid("it names no repository".into()));
        }
        let inner: Reference = bare.parse().map_err(|e| invalid(format!("{e}")))?;
        if let Some(digest) = inner.digest()
            && !is_sha256_digest(digest)
        {
            return Err(invalid(format!("the digest `{digest}` is not `sha256:` and 64 hexadecimal digits")));
        }
        Ok(ComponentRef { inner })
    }

    /// The registry's host (and port) as written (`docker.io` for Docker
    /// Hub).
    pub fn registry(&self) -> &str {
        self.inner.registry()
    }

    /// The repository (`example/my-tools`).
    pub fn repository(&self) -> &str {
        self.inner.repository()
    }

    /// The tag, when the reference has one.
    pub fn tag(&self) -> Option<&str> {
        self.inner.tag()
    }

    /// The digest (`sha256:…`), when the reference pins one.
    pub fn digest(&self) -> Option<&str> {
        self.inner.digest()
    }

    /// The same component pinned to `digest`, its tag dropped: what is
    /// pulled once a tag is resolved, so that the tag cannot move between
    /// resolving and pulling.
    pub fn pinned(&self, digest: &str) -> ComponentRef {
        let inner = Reference::with_digest(self.registry().into(), self.repository().into(), digest.into());
        ComponentRef { inner }
    }

    /// A short name for logs and labels: the repository's last segment
    /// (`my-tools` for `ghcr.io/example/my-tools:1.0`).
    pub fn short_name(&self) -> &str {
        self.repository().rsplit('/').next().unwrap_or(self.repository())
    }

    pub(crate) fn oci(&self) -> &Reference {
        &self.inner
    }
}

impl fmt::Display for ComponentRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.inner.whole())
    }
}

/// Where a component comes from: a file, or a registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ComponentSource {
    /// A local file (`.wasm`).
    File(std::path::PathBuf),
    /// A registry reference.
    Registry(ComponentRef),
}

impl ComponentSource {
    /// What `text` names, as every command that takes a component reads
    /// it: `oci://…` is always a reference; an existing file is a file;
    /// otherwise text shaped like `HOST/REPO:TAG` or `HOST/REPO@DIGEST`
    /// (a first segment with a `.` or `:`, or `localhost`) is a reference,
    /// and anything else a file (whose absence the loader reports).
    pub fn parse(text: &str) -> Result<ComponentSource, RegistryError> {
        if text.starts_with(SCHEME) {
            return ComponentRef::parse(text).map(ComponentSource::Registry);
        }
        let path = std::path::Path::new(text);
        if path.exists() || !looks_like_reference(text) {
            return Ok(ComponentSource::File(path.to_path_buf()));
        }
        ComponentRef::parse(text).map(ComponentSource::Registry)
    }
}

/// Whether `text` reads as `HOST/REPO` plus a tag or a digest.
fn looks_like_reference(text: &str) -> bool {
    let Some((host, rest)) = text.split_once('/') else { return false };
    let names_host = host.contains('.') || host.contains(':') || host == "localhost";
    let last = rest.rsplit('/').next().unwrap_or(rest);
    let tagged = last.contains(':') || last.contains('@');
    names_host && tagged && !text.ends_with(".wasm") && !text.contains(char::is_whitespace)
}

/// Whether `digest` is `sha256:` and 64 lowercase hexadecimal digits.
pub(crate) fn is_sha256_digest(digest: &str) -> bool {
    digest
        .strip_prefix("sha256:")
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIGEST: &str = "sha256:42bc22983f4b6a9d40f6e7e4c0c2f4e4b5f1c3a2d7e8f9a0b1c2d3e4f5a6b7c8";

    #[test]
    fn references_with_tags_digests_and_the_scheme() {
        let tagged = ComponentRef::parse("oci://ghcr.io/example/my-tools:1.0").unwrap();
        assert_eq!(
            (tagged.registry(), tagged.repository(), tagged.tag()),
            ("ghcr.io", "example/my-tools", Some("1.0"))
        );
        assert_eq!(tagged.short_name(), "my-tools");
        let pinned = ComponentRef::parse(&format!("127.0.0.1:5000/tools/echo@{DIGEST}")).unwrap();
        assert_eq!((pinned.registry(), pinned.digest()), ("127.0.0.1:5000", Some(DIGEST)));
        assert_eq!(tagged.pinned(DIGEST).to_string(), format!("ghcr.io/example/my-tools@{DIGEST}"));
        assert_eq!(ComponentRef::parse("oci://ghcr.io/example/x").unwrap().tag(), Some("latest"));
    }

    #[test]
    fn bad_references_say_why() {
        let sha512 = format!("oci://ghcr.io/x@sha512:{}", "ab".repeat(64));
        for (text, why) in [
            ("oci://", "names no repository"),
            ("oci://ghcr.io/x@sha256:abc", "invalid reference format"),
            (sha512.as_str(), "not `sha256:` and 64"),
            ("oci://ghcr.io/X Y:1", "invalid reference format"),
        ] {
            let error = ComponentRef::parse(text).unwrap_err().to_string();
            assert!(error.contains(text) && error.contains(why), "{text}: {error}");
        }
    }

    #[test]
    fn a_path_stays_a_path_unless_it_reads_as_a_reference() {
        let file = |text: &str| matches!(ComponentSource::parse(text).unwrap(), ComponentSource::File(_));
        assert!(file("router.wasm") && file("target/x.wasm") && file("dir/with:colon.wasm") && file("my-tools:1.0"));
        assert!(!file("ghcr.io/example/my-tools:1.0"));
        assert!(!file("localhost/tools/echo:1"));
        assert!(!file(&format!("127.0.0.1:5000/tools/echo@{DIGEST}")));
        assert!(!file("oci://router.wasm"));
    }
}
