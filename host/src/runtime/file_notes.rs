//! What the compile cache learnt of a file, noted with the file's
//! fingerprint (device, inode, size, modification and change times), so a
//! cached start need not read the file again while it is unchanged: the
//! `.wasm`'s hash and kind, and that an entry's checksum was verified.
//!
//! A note is written only once the file has settled ([`SETTLED`] after its
//! last change, by its change time, which no program can set back): a later
//! write to it, or a new file on its inode, then has another change time,
//! and the note no longer matches (the racy case git's index guards against
//! the same way). A note carries its own checksum; one that is torn, corrupt
//! or of another format is ignored, and the file is read as before.

use std::fs::Metadata;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// How long after its last change a file's facts are noted: longer than any
/// file system's timestamp granularity (FAT's is 2 s).
pub(super) const SETTLED: Duration = Duration::from_secs(5);

/// Marks a note of this format.
const MAGIC: &[u8; 8] = b"MCPWITN\x01";
/// Device, inode, size, then the modification and change times (seconds,
/// nanoseconds).
const FINGERPRINT: usize = 8 * 7;
/// The checksum after the note's content (a truncated blake3 hash).
const CHECKSUM: usize = 16;

/// Notes kept in `dir`, written only for files settled since `settled`.
pub(super) struct FileNotes {
    dir: PathBuf,
    settled: Duration,
}

impl FileNotes {
    pub(super) fn new(dir: PathBuf, settled: Duration) -> Self {
        FileNotes { dir, settled }
    }

    /// What was noted as `name` for the file whose metadata is `meta`, if
    /// the file has not changed since.
    pub(super) fn read(&self, name: &str, meta: &Metadata) -> Option<Vec<u8>> {
        let fingerprint = fingerprint(meta)?;
        let note = std::fs::read(self.dir.join(name)).ok()?;
        let (content, checksum) = note.split_at_checked(note.len().checked_sub(CHECKSUM)?)?;
        if checksum != &blake3::hash(content).as_bytes()[..CHECKSUM] {
            return None;
        }
        let rest = content.strip_prefix(MAGIC.as_slice())?.strip_prefix(fingerprint.as_slice())?;
        Some(rest.to_vec())
    }

    /// Notes `facts` as `name` for the file whose metadata is `meta`, when
    /// it has settled; a failure only means the file is read next time.
    pub(super) fn write(&self, name: &str, meta: &Metadata, facts: &[u8]) {
        let Some(fingerprint) = fingerprint(meta).filter(|_| settled(meta, self.settled)) else { return };
        let mut note = Vec::with_capacity(MAGIC.len() + FINGERPRINT + facts.len() + CHECKSUM);
        note.extend_from_slice(MAGIC);
        note.extend_from_slice(&fingerprint);
        note.extend_from_slice(facts);
        let checksum = blake3::hash(&note);
        note.extend_from_slice(&checksum.as_bytes()[..CHECKSUM]);
        // Write then rename: a reader sees the old note or the new one.
        let path = self.dir.join(name);
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let written = std::fs::create_dir_all(&self.dir)
            .and_then(|()| std::fs::write(&tmp, &note))
            .and_then(|()| std::fs::rename(&tmp, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            tracing::debug!("cannot note what is known of a file in {}: {e}", path.display());
        }
    }

    /// A name for the notes of the file `meta` describes: its device and
    /// inode, whatever path it was reached by.
    pub(super) fn name_of(meta: &Metadata) -> Option<String> {
        let fingerprint = fingerprint(meta)?;
        Some(blake3::hash(&fingerprint[..16]).to_hex()[..32].to_string())
    }

    #[cfg(test)]
    pub(super) fn dir(&self) -> &std::path::Path {
        &self.dir
    }
}

/// Whether the file last changed at least `margin` ago.
fn settled(meta: &Metadata, margin: Duration) -> bool {
    let Some((seconds, nanos)) = change_time(meta) else { return false };
    let Ok(seconds) = u64::try_from(seconds) else { return false };
    let changed = SystemTime::UNIX_EPOCH + Duration::new(seconds, nanos);
    SystemTime::now().duration_since(changed).is_ok_and(|age| age >= margin)
}

#[cfg(unix)]
fn change_time(meta: &Metadata) -> Option<(i64, u32)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.ctime(), u32::try_from(meta.ctime_nsec()).ok()?))
}

#[cfg(not(unix))]
fn change_time(_: &Metadata) -> Option<(i64, u32)> {
    None
}

/// What tells this version of the file from any other; `None` where the
/// platform does not say (then nothing is noted).
#[cfg(unix)]
fn fingerprint(meta: &Metadata) -> Option<[u8; FINGERPRINT]> {
    use std::os::unix::fs::MetadataExt;
    let parts = [
        meta.dev(),
        meta.ino(),
        meta.size(),
        meta.mtime() as u64,
        meta.mtime_nsec() as u64,
        meta.ctime() as u64,
        meta.ctime_nsec() as u64,
    ];
    let mut fingerprint = [0; FINGERPRINT];
    for (slot, part) in fingerprint.as_chunks_mut::<8>().0.iter_mut().zip(parts) {
        slot.copy_from_slice(&part.to_le_bytes());
    }
    Some(fingerprint)
}

#[cfg(not(unix))]
fn fingerprint(_: &Metadata) -> Option<[u8; FINGERPRINT]> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mcp-wit-notes-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_note_holds_while_the_file_is_unchanged_and_only_then() {
        let dir = temp("holds");
        let file = dir.join("a.wasm");
        std::fs::write(&file, b"one").unwrap();
        let notes = FileNotes::new(dir.join("notes"), Duration::ZERO);
        let meta = std::fs::metadata(&file).unwrap();
        let name = FileNotes::name_of(&meta).unwrap();
        assert_eq!(notes.read(&name, &meta), None, "nothing noted yet");
        notes.write(&name, &meta, b"facts");
        assert_eq!(notes.read(&name, &std::fs::metadata(&file).unwrap()).as_deref(), Some(&b"facts"[..]));
        // Rewritten in place, even to the same size: its change time moved.
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&file, b"two").unwrap();
        let changed = std::fs::metadata(&file).unwrap();
        assert_eq!(FileNotes::name_of(&changed).unwrap(), name, "same inode");
        assert_eq!(notes.read(&name, &changed), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unsettled_file_or_a_damaged_note_is_read_again() {
        let dir = temp("unsettled");
        let file = dir.join("a.wasm");
        std::fs::write(&file, b"one").unwrap();
        let meta = std::fs::metadata(&file).unwrap();
        let name = FileNotes::name_of(&meta).unwrap();
        // Changed just now: not noted by default.
        let patient = FileNotes::new(dir.join("notes"), SETTLED);
        patient.write(&name, &meta, b"facts");
        assert_eq!(patient.read(&name, &meta), None);
        let notes = FileNotes::new(dir.join("notes"), Duration::ZERO);
        notes.write(&name, &meta, b"facts");
        let path = notes.dir().join(&name);
        let good = std::fs::read(&path).unwrap();
        for damaged in [good[..good.len() - 1].to_vec(), { good.iter().map(|b| b ^ 1).collect() }, Vec::new()] {
            std::fs::write(&path, damaged).unwrap();
            assert_eq!(notes.read(&name, &meta), None);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
