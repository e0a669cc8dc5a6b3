//! The content-addressed store of pulled artifacts, under the compile
//! cache's directory (`<cache>/oci/`), so one directory holds what was
//! pulled and what it compiled to:
//!
//! ```text
//! oci/blobs/sha256/<hex>                         layers and configs, by digest
//! oci/manifests/sha256/<hex>                     manifests, by digest (as the registry sent them)
//! oci/tags/<registry>/<repository>/<tag>         the digest a tag resolved to last
//! ```
//!
//! Every file is written under a temporary name and renamed into place, and
//! every read is checked against its digest, so a torn or edited file is
//! never taken for the artifact (it is fetched again, or refused offline).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::RegistryError;
use crate::layout::sha256_digest;
use crate::reference::{ComponentRef, is_sha256_digest};

/// The store at a directory.
#[derive(Debug, Clone)]
pub struct Store {
    root: PathBuf,
}

impl Store {
    /// The store under `cache_dir` (its `oci/` subdirectory).
    pub fn new(cache_dir: &Path) -> Store {
        Store { root: cache_dir.join("oci") }
    }

    /// Where the blob of `digest` is (whether or not it is there).
    pub fn blob_path(&self, digest: &str) -> PathBuf {
        self.by_digest("blobs", digest)
    }

    fn by_digest(&self, kind: &str, digest: &str) -> PathBuf {
        debug_assert!(is_sha256_digest(digest), "{digest}");
        self.root.join(kind).join("sha256").join(digest.trim_start_matches("sha256:"))
    }

    /// Whether the blob of `digest` is stored intact (hashed again: a cached
    /// component is checked before it runs).
    pub fn has_blob(&self, digest: &str) -> bool {
        std::fs::read(self.blob_path(digest)).is_ok_and(|bytes| sha256_digest(&bytes) == digest)
    }

    /// Stores `bytes` as the blob they hash to; `expected` is refused if they
    /// do not.
    pub fn put_blob(&self, expected: &str, bytes: &[u8]) -> Result<PathBuf, RegistryError> {
        self.put_checked("blobs", expected, bytes)
    }

    /// The manifest of `digest`, when stored intact.
    pub fn manifest(&self, digest: &str) -> Option<Vec<u8>> {
        std::fs::read(self.by_digest("manifests", digest)).ok().filter(|bytes| sha256_digest(bytes) == digest)
    }

    /// Stores a manifest under the digest it hashes to, refused if that is
    /// not `expected`.
    pub fn put_manifest(&self, expected: &str, bytes: &[u8]) -> Result<(), RegistryError> {
        self.put_checked("manifests", expected, bytes).map(drop)
    }

    /// The digest `reference`'s tag resolved to when last resolved here.
    pub fn tag(&self, reference: &ComponentRef) -> Option<String> {
        let text = std::fs::read_to_string(self.tag_path(reference)?).ok()?;
        let digest = text.trim();
        is_sha256_digest(digest).then(|| digest.to_owned())
    }

    /// Records that `reference`'s tag resolved to `digest`.
    pub fn set_tag(&self, reference: &ComponentRef, digest: &str) -> Result<(), RegistryError> {
        let Some(path) = self.tag_path(reference) else { return Ok(()) };
        write_atomically(&path, format!("{digest}\n").as_bytes())
    }

    fn tag_path(&self, reference: &ComponentRef) -> Option<PathBuf> {
        let tag = reference.tag()?;
        // The parser allows no `..`, `/` or NUL in these; checked again
        // because they become a path.
        let parts = [reference.registry(), reference.repository(), tag];
        if parts.iter().any(|p| p.split('/').any(|s| s.is_empty() || s == "." || s == "..")) {
            return None;
        }
        let mut path = self.root.join("tags").join(reference.registry());
        path.extend(reference.repository().split('/'));
        Some(path.join(tag))
    }

    fn put_checked(&self, kind: &str, expected: &str, bytes: &[u8]) -> Result<PathBuf, RegistryError> {
        let actual = sha256_digest(bytes);
        if actual != expected {
            return Err(RegistryError::DigestMismatch { expected: expected.to_owned(), actual });
        }
        let path = self.by_digest(kind, expected);
        write_atomically(&path, bytes)?;
        Ok(path)
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over
/// `path`: a reader sees the old file or the new one, never half of one.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), RegistryError> {
    let io = |e: std::io::Error| RegistryError::Store { path: path.to_owned(), source: e };
    let dir = path.parent().expect("store paths have a parent");
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut temporary = tempfile_in(dir).map_err(io)?;
    temporary.1.write_all(bytes).map_err(io)?;
    drop(temporary.1);
    std::fs::rename(&temporary.0, path).map_err(|e| {
        let _ = std::fs::remove_file(&temporary.0);
        io(e)
    })
}

/// A new file in `dir` with a name no other writer picks (the process id and
/// a counter).
fn tempfile_in(dir: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    loop {
        let name = format!(".tmp-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let path = dir.join(name);
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blobs_manifests_and_tags_round_trip_and_damage_is_seen() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path());
        let digest = sha256_digest(b"component");
        assert!(!store.has_blob(&digest));
        let path = store.put_blob(&digest, b"component").unwrap();
        assert!(store.has_blob(&digest) && path.starts_with(dir.path().join("oci/blobs/sha256")));
        let wrong = store.put_blob(&digest, b"something else").unwrap_err().to_string();
        assert!(wrong.contains(&digest), "{wrong}");
        std::fs::write(&path, b"edited").unwrap();
        assert!(!store.has_blob(&digest), "an edited blob is not taken");

        store.put_manifest(&digest, b"component").unwrap();
        assert_eq!(store.manifest(&digest).as_deref(), Some(&b"component"[..]));
        let reference = ComponentRef::parse("oci://127.0.0.1:5000/tools/echo:1.0").unwrap();
        assert_eq!(store.tag(&reference), None);
        store.set_tag(&reference, &digest).unwrap();
        assert_eq!(store.tag(&reference), Some(digest.clone()));
        assert!(dir.path().join("oci/tags/127.0.0.1:5000/tools/echo/1.0").exists());
    }
}
