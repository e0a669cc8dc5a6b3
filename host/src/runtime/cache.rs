//! The on-disk compile cache.
//!
//! Compiling a component takes tens to hundreds of milliseconds; loading a
//! compiled one takes about a millisecond. Entries live under the user's
//! cache directory, named by the component's hash and the engine's
//! compatibility hash (wasmtime version, target, settings), so an engine
//! never loads code compiled for another. Each entry carries a checksum of
//! its payload: a corrupt, truncated or foreign file is recompiled with a
//! warning, never loaded.
//!
//! An entry is what wasmtime serialized (an ELF image), then a trailer: a
//! magic number naming the format, the payload's length and its blake3
//! hash. The payload starts the file so that wasmtime can map the entry
//! instead of reading it ([`Compiled::deserialize_file`]): the code is paged
//! in as it runs, and the linear memories' initial images (tens of MB for an
//! interpreter's pre-initialised heap) are mapped copy-on-write from the
//! file rather than copied into fresh memory at every start. A file is
//! hashed as it is read, a piece at a time: neither the `.wasm` nor the
//! entry is ever held whole. What a cached start learnt of either file (the
//! `.wasm`'s hash, that the entry's checksum holds) is noted with the file's
//! fingerprint (see `file_notes`): while neither changes, a start reads
//! neither.
//!
//! A build without the `compiler` feature reads the cache and never writes
//! it. Wasmtime gives the compatibility hash only to engines that compile,
//! so such a build tries the entries named by the component's hash, and
//! wasmtime loads the one compiled for its settings (it checks the target,
//! the compiler's flags, the engine's tunables and features).

use std::fs::File;
use std::io::{Read, Seek};
use std::path::{Path, PathBuf};

use wasmtime::Engine;
use wasmtime::component::Component;

#[cfg(feature = "compiler")]
use super::cache_entry::write_entry;
use super::cache_entry::{MAGIC, Unusable, hash_read, load_entry};
use super::file_notes::{FileNotes, SETTLED};
use super::load::MAX_GUEST_FILE;

// Public at `runtime::cache`, where it has always been.
pub use super::cache_entry::Compiled;

/// A directory of compiled components.
#[derive(Debug, Clone)]
pub struct CompileCache {
    dir: PathBuf,
    /// How long a file stays unchanged before what is known of it is noted.
    settled: std::time::Duration,
}

/// How a component was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheOutcome {
    /// Loaded from the cache.
    Hit,
    /// Compiled and stored.
    Compiled,
    /// The entry was unusable; recompiled and replaced.
    Replaced,
}

/// What the cache held for a guest file (see [`CompileCache::hit_for_file`]).
pub(super) enum FileHit {
    Component(Component),
    #[cfg(feature = "extism")]
    Plugin(wasmtime::Module),
}

impl CompileCache {
    /// A cache in `dir` (created on first store).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        CompileCache { dir: dir.into(), settled: SETTLED }
    }

    /// Where what was learnt of the files read is noted.
    fn notes(&self) -> FileNotes {
        FileNotes::new(self.dir.join("notes"), self.settled)
    }

    /// `$XDG_CACHE_HOME/mcp-wit`, else `~/.cache/mcp-wit`.
    pub fn default_dir() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_CACHE_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))?;
        Some(base.join("mcp-wit"))
    }

    /// The directory entries are kept in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The entry file for `wasm` under `engine`.
    #[cfg(feature = "compiler")]
    pub fn entry_path(&self, engine: &Engine, wasm: &[u8]) -> PathBuf {
        self.entry_path_for(engine, &blake3::hash(wasm))
    }

    /// The entry file for the `.wasm` whose blake3 hash is `wasm_hash`.
    #[cfg(feature = "compiler")]
    fn entry_path_for(&self, engine: &Engine, wasm_hash: &blake3::Hash) -> PathBuf {
        let mut engine_hash = Blake3Hasher(blake3::Hasher::new());
        std::hash::Hash::hash(&engine.precompile_compatibility_hash(), &mut engine_hash);
        // The entry's format is part of what the name stands for.
        std::hash::Hash::hash(MAGIC, &mut engine_hash);
        let engine_hash = engine_hash.0.finalize();
        self.dir.join(format!("{}-{}.cwasm", wasm_hash.to_hex(), &engine_hash.to_hex()[..16]))
    }

    /// The entries that may hold the code of the `.wasm` whose blake3 hash
    /// is `wasm_hash`, for any engine: those named by the hash, in order.
    #[cfg(any(test, not(feature = "compiler")))]
    fn entries_named_for(&self, wasm_hash: &blake3::Hash) -> Vec<PathBuf> {
        let prefix = format!("{}-", wasm_hash.to_hex());
        let Ok(listing) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        let mut entries: Vec<PathBuf> = listing
            .filter_map(|entry| entry.ok())
            .filter(|entry| {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                name.starts_with(&prefix) && name.ends_with(".cwasm")
            })
            .map(|entry| entry.path())
            .collect();
        entries.sort();
        entries
    }

    /// The sound entry for the `.wasm` whose blake3 hash is `wasm_hash`,
    /// loaded for `engine`.
    fn find_entry<C: Compiled>(
        &self,
        engine: &Engine,
        wasm_hash: &blake3::Hash,
        notes: &FileNotes,
    ) -> Result<C, Unusable> {
        #[cfg(feature = "compiler")]
        return load_entry(engine, &self.entry_path_for(engine, wasm_hash), notes);
        #[cfg(not(feature = "compiler"))]
        return self.find_entry_named(engine, wasm_hash, notes);
    }

    /// [`Self::find_entry`] without the engine's compatibility hash: the
    /// first entry named by `wasm_hash` that wasmtime loads for `engine`.
    /// When none does, why the last one tried did not.
    #[cfg(any(test, not(feature = "compiler")))]
    fn find_entry_named<C: Compiled>(
        &self,
        engine: &Engine,
        wasm_hash: &blake3::Hash,
        notes: &FileNotes,
    ) -> Result<C, Unusable> {
        let mut why = Unusable::Missing;
        for path in self.entries_named_for(wasm_hash) {
            match load_entry(engine, &path, notes) {
                Ok(compiled) => return Ok(compiled),
                Err(unusable) => why = unusable,
            }
        }
        Err(why)
    }

    /// The compiled component for `wasm`: from the cache when a sound entry
    /// exists, else compiled (and stored; a store failure only warns).
    #[cfg(feature = "compiler")]
    pub fn load_or_compile<C: Compiled>(&self, engine: &Engine, wasm: &[u8]) -> wasmtime::Result<(C, CacheOutcome)> {
        let path = self.entry_path(engine, wasm);
        let mut outcome = CacheOutcome::Compiled;
        match load_entry(engine, &path, &self.notes()) {
            Ok(compiled) => return Ok((compiled, CacheOutcome::Hit)),
            Err(Unusable::Missing) => {}
            Err(Unusable::Unreadable(e)) => {
                tracing::warn!(path = %path.display(), "cannot read compile cache entry: {e}")
            }
            Err(Unusable::Unsound(why)) => {
                tracing::warn!(path = %path.display(), "unusable compile cache entry ({why}); recompiling");
                outcome = CacheOutcome::Replaced;
            }
        }
        let component = C::compile(engine, wasm)?;
        if let Err(e) = self.store(&path, &component) {
            tracing::warn!(dir = %self.dir.display(), "cannot write to the compile cache: {e:#}");
        }
        Ok((component, outcome))
    }

    /// The sound entry for `wasm`; else `None` when there is none, or why
    /// the one there is was refused (a build that compiles nothing reports it).
    #[cfg(not(feature = "compiler"))]
    pub(super) fn entry_for<C: Compiled>(&self, engine: &Engine, wasm: &[u8]) -> Result<C, Option<String>> {
        self.find_entry(engine, &blake3::hash(wasm), &self.notes()).map_err(|unusable| match unusable {
            Unusable::Missing => None,
            Unusable::Unreadable(e) => Some(format!("cannot read it: {e}")),
            Unusable::Unsound(why) => Some(why),
        })
    }

    /// The sound entry for `wasm`, if there is one (nothing is compiled or
    /// reported: [`Self::load_or_compile`] does that).
    #[cfg(feature = "compiler")]
    pub(super) fn hit<C: Compiled>(&self, engine: &Engine, wasm: &[u8]) -> Option<C> {
        self.find_entry(engine, &blake3::hash(wasm), &self.notes()).ok()
    }

    /// The sound entry for the guest file at `path` (a component, or a core
    /// module for an Extism plugin), without reading the file into memory:
    /// it is hashed a piece at a time, and the entry is mapped. `None` for
    /// anything else (no entry, an unusable one, a file that is not a
    /// WebAssembly component or module, one that cannot be read): the caller
    /// then reads the file and loads it through [`Self::load_or_compile`],
    /// which compiles, replaces a bad entry and reports what is wrong.
    pub(super) fn hit_for_file(&self, engine: &Engine, path: &Path) -> Option<FileHit> {
        // Looked at before it is opened, as `read_guest_file` does: opening a
        // FIFO would wait for a writer.
        let meta = std::fs::metadata(path).ok()?;
        if !meta.is_file() || meta.len() > MAX_GUEST_FILE {
            return None;
        }
        let notes = self.notes();
        let name = FileNotes::name_of(&meta);
        let (component, wasm_hash) = match name.as_deref().and_then(|name| known_wasm(&notes, name, &meta)) {
            Some(known) => known,
            None => {
                let mut file = File::open(path).ok()?;
                let mut head = [0; 8];
                file.read_exact(&mut head).ok()?;
                let component = match super::load::check_is_component(&head) {
                    Ok(()) => true,
                    Err(crate::error::LoadError::CoreModule) if cfg!(feature = "extism") => false,
                    Err(_) => return None,
                };
                file.rewind().ok()?;
                let (wasm_hash, _) = hash_read(&mut file, MAX_GUEST_FILE).ok()?;
                if let Some(name) = &name {
                    // Noted with the fingerprint taken before the read: a
                    // change while it was read leaves a note that matches nothing.
                    notes.write(name, &meta, &[&[u8::from(component)][..], wasm_hash.as_bytes()].concat());
                }
                (component, wasm_hash)
            }
        };
        match component {
            true => self.find_entry(engine, &wasm_hash, &notes).ok().map(FileHit::Component),
            #[cfg(feature = "extism")]
            false => self.find_entry(engine, &wasm_hash, &notes).ok().map(FileHit::Plugin),
            #[cfg(not(feature = "extism"))]
            false => None,
        }
    }

    /// Whether an entry for the guest file at `path` is here, by what was
    /// noted of the file while it has not changed: the file is not read, the
    /// entry neither. For a caller that shows progress only for a load that
    /// compiles. A `false` may still load from here (a file not noted yet),
    /// and a `true` may still compile (an entry found unsound is replaced).
    pub fn holds_file(&self, engine: &Engine, path: &Path) -> bool {
        let Ok(meta) = std::fs::metadata(path) else { return false };
        let notes = self.notes();
        FileNotes::name_of(&meta)
            .and_then(|name| known_wasm(&notes, &name, &meta))
            .is_some_and(|(_, wasm_hash)| self.holds_entry_for(engine, &wasm_hash))
    }

    /// Whether an entry file for the `.wasm` whose hash is `wasm_hash` is here.
    fn holds_entry_for(&self, engine: &Engine, wasm_hash: &blake3::Hash) -> bool {
        #[cfg(feature = "compiler")]
        return self.entry_path_for(engine, wasm_hash).is_file();
        #[cfg(not(feature = "compiler"))]
        return {
            let _ = engine;
            !self.entries_named_for(wasm_hash).is_empty()
        };
    }

    #[cfg(feature = "compiler")]
    fn store<C: Compiled>(&self, path: &Path, component: &C) -> wasmtime::Result<()> {
        let payload = component.serialize()?;
        std::fs::create_dir_all(&self.dir)?;
        // Write then rename: readers never see a half-written entry, and an
        // entry is never changed in place (a loaded one is mapped).
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        write_entry(&tmp, &payload)?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    }

    /// Whether `material` (the bytes a check read, in order) passed `check`
    /// before, under this very build of the program: a check whose verdict
    /// depends only on its input (a tool's schemas are valid JSON Schema)
    /// is then not made again on every start. See [`mark_passed`](Self::mark_passed).
    pub fn passed(&self, check: &str, material: &[&[u8]]) -> bool {
        self.passed_path(check, material).is_some_and(|path| path.exists())
    }

    /// Notes that `material` passed `check` (see [`passed`](Self::passed)); a
    /// failure to note it only means the check is made again next time.
    pub fn mark_passed(&self, check: &str, material: &[&[u8]]) {
        let Some(path) = self.passed_path(check, material) else { return };
        let noted = path.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| File::create(&path));
        if let Err(e) = noted {
            tracing::debug!("cannot note a passed check in {}: {e}", path.display());
        }
    }

    /// The marker of `material` passing `check`: named by a hash of the
    /// program's build (its executable's size and time), the check and the
    /// material, so that another build checks again. `None` when the
    /// executable cannot be read (then nothing is remembered).
    fn passed_path(&self, check: &str, material: &[&[u8]]) -> Option<PathBuf> {
        let build = build_identity()?;
        let mut hasher = blake3::Hasher::new();
        hasher.update(MAGIC).update(&build);
        for part in std::iter::once(check.as_bytes()).chain(material.iter().copied()) {
            // Length-prefixed: parts cannot run into each other.
            hasher.update(&(part.len() as u64).to_le_bytes()).update(part);
        }
        Some(self.dir.join("passed").join(hasher.finalize().to_hex().as_str()))
    }
}

/// Whether a guest file whose notes are `name` is a component, and its
/// hash, as noted while it has not changed.
fn known_wasm(notes: &FileNotes, name: &str, meta: &std::fs::Metadata) -> Option<(bool, blake3::Hash)> {
    let facts = notes.read(name, meta)?;
    let (&kind, hash) = facts.split_first()?;
    Some((kind == 1, blake3::Hash::from_bytes(hash.try_into().ok()?)))
}

/// Feeds `Hash` output into blake3 (stable across runs, unlike `DefaultHasher`).
#[cfg(feature = "compiler")]
struct Blake3Hasher(blake3::Hasher);

#[cfg(feature = "compiler")]
impl std::hash::Hasher for Blake3Hasher {
    fn finish(&self) -> u64 {
        let hash = self.0.finalize();
        u64::from_le_bytes(hash.as_bytes()[..8].try_into().unwrap())
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

/// What tells this build of the program from another: its executable's size
/// and modification time, read once.
fn build_identity() -> Option<[u8; 24]> {
    static IDENTITY: std::sync::OnceLock<Option<[u8; 24]>> = std::sync::OnceLock::new();
    *IDENTITY.get_or_init(|| {
        let meta = std::fs::metadata(std::env::current_exe().ok()?).ok()?;
        let modified = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
        let mut identity = [0; 24];
        identity[..8].copy_from_slice(&meta.len().to_le_bytes());
        identity[8..16].copy_from_slice(&modified.as_secs().to_le_bytes());
        identity[16..20].copy_from_slice(&modified.subsec_nanos().to_le_bytes());
        Some(identity)
    })
}

#[cfg(test)]
mod tests {
    use super::super::cache_entry::{ELF, PIECE, TRAILER};
    use super::*;

    /// The smallest core module: its header alone.
    const EMPTY_MODULE: &[u8] = b"\0asm\x01\0\0\0";

    /// A directory of its own under the system's temporary one, removed on drop.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir().join(format!("mcp-wit-cache-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn why(result: Result<wasmtime::Module, Unusable>) -> String {
        match result {
            Ok(_) => "loaded".into(),
            Err(Unusable::Missing) => "missing".into(),
            Err(Unusable::Unreadable(e)) => format!("unreadable: {e}"),
            Err(Unusable::Unsound(why)) => why,
        }
    }

    #[test]
    fn an_entry_is_the_payload_then_its_trailer_and_is_mapped_back() {
        let dir = TempDir::new("roundtrip");
        let cache = CompileCache::new(&dir.0);
        let engine = Engine::default();
        let (_, outcome) = cache.load_or_compile::<wasmtime::Module>(&engine, EMPTY_MODULE).unwrap();
        assert_eq!(outcome, CacheOutcome::Compiled);
        let path = cache.entry_path(&engine, EMPTY_MODULE);
        let entry = std::fs::read(&path).unwrap();
        // wasmtime maps the file itself: its image starts the file.
        assert!(entry.starts_with(ELF));
        let (payload, trailer) = entry.split_at(entry.len() - TRAILER);
        assert_eq!(&trailer[..MAGIC.len()], MAGIC);
        assert_eq!(trailer[MAGIC.len()..][..8], (payload.len() as u64).to_le_bytes());
        assert_eq!(&trailer[MAGIC.len() + 8..], blake3::hash(payload).as_bytes());
        let (_, outcome) = cache.load_or_compile::<wasmtime::Module>(&engine, EMPTY_MODULE).unwrap();
        assert_eq!(outcome, CacheOutcome::Hit);
    }

    #[test]
    fn without_the_compatibility_hash_the_entry_for_the_engine_is_found_among_those_of_the_wasm() {
        let dir = TempDir::new("named");
        let cache = CompileCache::new(&dir.0);
        let engine = Engine::default();
        // Other tunables: wasmtime refuses each engine's code in the other.
        let other = Engine::new(wasmtime::Config::new().epoch_interruption(true)).unwrap();
        let hash = blake3::hash(EMPTY_MODULE);
        let find = |engine: &Engine| why(cache.find_entry_named(engine, &hash, &cache.notes()));
        assert_eq!(find(&engine), "missing");
        cache.load_or_compile::<wasmtime::Module>(&other, EMPTY_MODULE).unwrap();
        assert!(find(&engine).contains("epoch"), "only the other engine's entry: {}", find(&engine));
        cache.load_or_compile::<wasmtime::Module>(&engine, EMPTY_MODULE).unwrap();
        assert_eq!((find(&engine), find(&other)), ("loaded".into(), "loaded".into()));
        assert_eq!(cache.entries_named_for(&hash).len(), 2);
        assert!(cache.entries_named_for(&blake3::hash(b"another")).is_empty());
    }

    #[test]
    fn a_changed_byte_a_cut_or_another_format_is_refused_before_mapping() {
        let dir = TempDir::new("refused");
        let cache = CompileCache::new(&dir.0);
        let engine = Engine::default();
        cache.load_or_compile::<wasmtime::Module>(&engine, EMPTY_MODULE).unwrap();
        let path = cache.entry_path(&engine, EMPTY_MODULE);
        let good = std::fs::read(&path).unwrap();
        let payload = wasmtime::Module::new(&engine, EMPTY_MODULE).unwrap().serialize().unwrap();
        let mut flipped = good.clone();
        flipped[good.len() / 3] ^= 1;
        let mut version_1 = b"MCPWIT\x01\x00".to_vec();
        version_1.extend_from_slice(blake3::hash(&payload).as_bytes());
        version_1.extend_from_slice(&payload);
        for (what, bytes, expected) in [
            ("a byte of the payload", flipped, "checksum mismatch"),
            ("the first half", good[..good.len() / 2].to_vec(), "checksum mismatch (the entry is truncated)"),
            ("without its trailer", payload.clone(), "checksum mismatch (the entry is truncated)"),
            ("the previous format", version_1, "not an mcp-wit cache entry"),
            ("not an entry", b"not compiled".to_vec(), "not an mcp-wit cache entry"),
        ] {
            std::fs::write(&path, bytes).unwrap();
            assert_eq!(why(load_entry(&engine, &path, &cache.notes())), expected, "{what}");
        }
        std::fs::write(&path, &good).unwrap();
        assert_eq!(why(load_entry(&engine, &path, &cache.notes())), "loaded");
        assert_eq!(why(load_entry(&engine, &dir.0.join("none.cwasm"), &cache.notes())), "missing");
    }

    #[test]
    fn a_file_read_a_piece_at_a_time_hashes_as_its_bytes() {
        let bytes: Vec<u8> = (0..3 * PIECE + 17).map(|i| (i * 7 % 251) as u8).collect();
        let (hash, read) = hash_read(&mut &bytes[..], bytes.len() as u64).unwrap();
        assert_eq!((hash, read), (blake3::hash(&bytes), bytes.len() as u64));
        assert!(hash_read(&mut &bytes[..], bytes.len() as u64 - 1).is_err(), "longer than the limit");
    }

    #[cfg(feature = "extism")]
    #[test]
    fn a_guest_file_with_an_entry_is_a_hit_without_being_read_whole() {
        let dir = TempDir::new("file-hit");
        let cache = CompileCache::new(dir.0.join("cache"));
        let engine = Engine::default();
        std::fs::create_dir_all(&dir.0).unwrap();
        let wasm = dir.0.join("empty.wasm");
        std::fs::write(&wasm, EMPTY_MODULE).unwrap();
        assert!(cache.hit_for_file(&engine, &wasm).is_none(), "no entry yet");
        cache.load_or_compile::<wasmtime::Module>(&engine, EMPTY_MODULE).unwrap();
        assert!(matches!(cache.hit_for_file(&engine, &wasm), Some(FileHit::Plugin(_))));
        // Not WebAssembly: left to the usual path, which says what is wrong.
        std::fs::write(&wasm, b"text").unwrap();
        assert!(cache.hit_for_file(&engine, &wasm).is_none());
        assert!(cache.hit_for_file(&engine, &dir.0).is_none(), "a directory");
    }

    #[cfg(unix)]
    const EMPTY_COMPONENT: &[u8] = b"\0asm\x0d\0\x01\0";

    /// A cache that notes files at once, and `a.wasm` beside it holding
    /// [`EMPTY_COMPONENT`].
    #[cfg(unix)]
    fn component_file(name: &str) -> (TempDir, CompileCache, Engine, PathBuf) {
        let dir = TempDir::new(name);
        let cache = CompileCache { dir: dir.0.join("cache"), settled: std::time::Duration::ZERO };
        std::fs::create_dir_all(&dir.0).unwrap();
        let wasm = dir.0.join("a.wasm");
        std::fs::write(&wasm, EMPTY_COMPONENT).unwrap();
        (dir, cache, Engine::default(), wasm)
    }

    #[cfg(unix)]
    #[test]
    fn what_is_noted_of_the_files_holds_while_they_are_unchanged_only() {
        let (dir, cache, engine, wasm) = component_file("noted");
        cache.load_or_compile::<Component>(&engine, EMPTY_COMPONENT).unwrap();
        for time in ["hashed and noted", "as noted"] {
            assert!(matches!(cache.hit_for_file(&engine, &wasm), Some(FileHit::Component(_))), "{time}");
        }
        assert_eq!(std::fs::read_dir(dir.0.join("cache/notes")).unwrap().count(), 2, "the file's and the entry's");
        // Later writes get other change times (timestamps are coarser than
        // a nanosecond).
        let later = || std::thread::sleep(std::time::Duration::from_millis(20));
        later();
        std::fs::write(&wasm, [EMPTY_COMPONENT, b"\0\x01\0"].concat()).unwrap();
        assert!(cache.hit_for_file(&engine, &wasm).is_none(), "another component, not compiled yet");
        later();
        std::fs::write(&wasm, EMPTY_COMPONENT).unwrap();
        let entry = cache.entry_path(&engine, EMPTY_COMPONENT);
        let mut corrupt = std::fs::read(&entry).unwrap();
        corrupt[ELF.len()] ^= 1;
        std::fs::write(&entry, corrupt).unwrap();
        assert!(cache.hit_for_file(&engine, &wasm).is_none(), "the entry changed in place: checked again");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_is_held_once_noted_with_an_entry_and_not_after_it_changes() {
        let (dir, cache, engine, wasm) = component_file("holds");
        assert!(!cache.holds_file(&engine, &wasm), "nothing noted, no entry");
        cache.load_or_compile::<Component>(&engine, EMPTY_COMPONENT).unwrap();
        assert!(!cache.holds_file(&engine, &wasm), "an entry, but the file is not noted yet");
        assert!(cache.hit_for_file(&engine, &wasm).is_some());
        assert!(cache.holds_file(&engine, &wasm), "noted by the hit");
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&wasm, [EMPTY_COMPONENT, b"\0\x01\0"].concat()).unwrap();
        assert!(!cache.holds_file(&engine, &wasm), "changed since it was noted");
        assert!(!cache.holds_file(&engine, &dir.0.join("none.wasm")), "no such file");
    }

    #[test]
    fn a_passed_check_is_remembered_for_the_same_material_and_check_only() {
        let dir = TempDir::new("passed");
        let cache = CompileCache::new(&dir.0);
        let schemas: [&[u8]; 2] = [br#"{"type":"object"}"#, b""];
        assert!(!cache.passed("schemas", &schemas));
        cache.mark_passed("schemas", &schemas);
        assert!(cache.passed("schemas", &schemas));
        // Another check of the same bytes, or the same bytes cut otherwise,
        // passed nothing.
        assert!(!cache.passed("other", &schemas));
        assert!(!cache.passed("schemas", &[br#"{"type":"object"}"#]));
        assert!(!cache.passed("schemas", &[br#"{"type":"obj"#, br#"ect"}"#]));
    }
}
