//! The on-disk compile cache.
//!
//! Compiling a component takes tens to hundreds of milliseconds; loading a
//! compiled one takes about a millisecond. Entries live under the user's
//! cache directory, named by the component's hash and the engine's
//! compatibility hash (wasmtime version, target, settings), so an engine
//! never loads code compiled for another. Each entry carries a checksum of
//! its payload: a corrupt, truncated or foreign file is recompiled with a
//! warning, never loaded.

use std::hash::Hasher;
use std::io::Write;
use std::path::{Path, PathBuf};

use wasmtime::Engine;
use wasmtime::component::Component;

const MAGIC: &[u8; 8] = b"MCPWIT\x01\x00";
const HEADER: usize = MAGIC.len() + blake3::OUT_LEN;

/// A directory of compiled components.
#[derive(Debug, Clone)]
pub struct CompileCache {
    dir: PathBuf,
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

impl CompileCache {
    /// A cache in `dir` (created on first store).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        CompileCache { dir: dir.into() }
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
    pub fn entry_path(&self, engine: &Engine, wasm: &[u8]) -> PathBuf {
        let mut engine_hash = Blake3Hasher(blake3::Hasher::new());
        std::hash::Hash::hash(&engine.precompile_compatibility_hash(), &mut engine_hash);
        let engine_hash = engine_hash.0.finalize();
        let wasm_hash = blake3::hash(wasm);
        self.dir.join(format!("{}-{}.cwasm", wasm_hash.to_hex(), &engine_hash.to_hex()[..16]))
    }

    /// The compiled component for `wasm`: from the cache when a sound entry
    /// exists, else compiled (and stored; a store failure only warns).
    pub fn load_or_compile<C: Compiled>(&self, engine: &Engine, wasm: &[u8]) -> wasmtime::Result<(C, CacheOutcome)> {
        let path = self.entry_path(engine, wasm);
        let mut outcome = CacheOutcome::Compiled;
        match std::fs::read(&path) {
            Ok(entry) => match self.load_entry(engine, &entry) {
                Ok(component) => return Ok((component, CacheOutcome::Hit)),
                Err(why) => {
                    tracing::warn!(path = %path.display(), "unusable compile cache entry ({why}); recompiling");
                    outcome = CacheOutcome::Replaced;
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => tracing::warn!(path = %path.display(), "cannot read compile cache entry: {e}"),
        }
        let component = C::compile(engine, wasm)?;
        if let Err(e) = self.store(&path, &component) {
            tracing::warn!(dir = %self.dir.display(), "cannot write to the compile cache: {e:#}");
        }
        Ok((component, outcome))
    }

    fn load_entry<C: Compiled>(&self, engine: &Engine, entry: &[u8]) -> Result<C, String> {
        if entry.len() < HEADER || &entry[..MAGIC.len()] != MAGIC {
            return Err("not an mcp-wit cache entry".into());
        }
        let (checksum, payload) = entry[MAGIC.len()..].split_at(blake3::OUT_LEN);
        if blake3::hash(payload).as_bytes() != checksum {
            return Err("checksum mismatch".into());
        }
        // SAFETY: the payload is byte for byte what `Component::serialize`
        // wrote for this engine configuration (checksum above; the file name
        // carries the engine's compatibility hash, and `deserialize` checks
        // it again).
        unsafe { C::deserialize(engine, payload) }.map_err(|e| format!("{e:#}"))
    }

    fn store<C: Compiled>(&self, path: &Path, component: &C) -> wasmtime::Result<()> {
        let payload = component.serialize()?;
        std::fs::create_dir_all(&self.dir)?;
        // Write then rename: readers never see a half-written entry.
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(MAGIC)?;
        file.write_all(blake3::hash(&payload).as_bytes())?;
        file.write_all(&payload)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)?;
        Ok(())
    }
}

/// Feeds `Hash` output into blake3 (stable across runs, unlike `DefaultHasher`).
/// What the cache holds: a component, or a core module (an Extism plugin).
pub trait Compiled: Sized {
    /// Compiles `wasm`.
    fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Self>;
    /// The machine code, to store.
    fn serialize(&self) -> wasmtime::Result<Vec<u8>>;
    /// Machine code this engine wrote.
    ///
    /// # Safety
    ///
    /// As [`Component::deserialize`]: the bytes are run as machine code.
    unsafe fn deserialize(engine: &Engine, bytes: &[u8]) -> wasmtime::Result<Self>;
}

impl Compiled for Component {
    fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Self> {
        Component::new(engine, wasm)
    }

    fn serialize(&self) -> wasmtime::Result<Vec<u8>> {
        Component::serialize(self)
    }

    unsafe fn deserialize(engine: &Engine, bytes: &[u8]) -> wasmtime::Result<Self> {
        // SAFETY: forwarded to the caller.
        unsafe { Component::deserialize(engine, bytes) }
    }
}

impl Compiled for wasmtime::Module {
    fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Self> {
        wasmtime::Module::new(engine, wasm)
    }

    fn serialize(&self) -> wasmtime::Result<Vec<u8>> {
        wasmtime::Module::serialize(self)
    }

    unsafe fn deserialize(engine: &Engine, bytes: &[u8]) -> wasmtime::Result<Self> {
        // SAFETY: forwarded to the caller.
        unsafe { wasmtime::Module::deserialize(engine, bytes) }
    }
}

struct Blake3Hasher(blake3::Hasher);

impl Hasher for Blake3Hasher {
    fn finish(&self) -> u64 {
        let hash = self.0.finalize();
        u64::from_le_bytes(hash.as_bytes()[..8].try_into().unwrap())
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}
