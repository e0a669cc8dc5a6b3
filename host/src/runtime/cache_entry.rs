//! One entry of the compile cache (see `cache`): what wasmtime serialized
//! (an ELF image, so that wasmtime can map it), then a trailer naming the
//! format, with the payload's length and blake3 hash; how one is written,
//! checked and loaded.

use std::fs::File;
#[cfg(feature = "compiler")]
use std::io::Write;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use wasmtime::Engine;
use wasmtime::component::Component;

use super::file_notes::FileNotes;

/// Marks the trailer of an entry in this format. Its last byte is the
/// format's version, which also goes into the entry's name (see
/// `CompileCache::entry_path`): entries of another format are never
/// looked at, let alone misread (version 1 put a header before the payload).
pub(super) const MAGIC: &[u8; 8] = b"MCPWIT\x00\x02";
/// After the payload: [`MAGIC`], the payload's length (u64, little-endian),
/// the payload's blake3 hash.
pub(super) const TRAILER: usize = MAGIC.len() + 8 + blake3::OUT_LEN;
/// How a payload starts: wasmtime's compiled code is an ELF image.
pub(super) const ELF: &[u8; 4] = b"\x7fELF";
/// Files are hashed through a buffer of this size, which stays in the CPU's
/// cache.
pub(super) const PIECE: usize = 256 << 10;

/// Why an entry was not loaded.
pub(super) enum Unusable {
    /// There is none.
    Missing,
    /// It could not be read.
    Unreadable(std::io::Error),
    /// It is not a sound entry for this engine: why.
    Unsound(String),
}

impl From<std::io::Error> for Unusable {
    fn from(error: std::io::Error) -> Self {
        match error.kind() {
            std::io::ErrorKind::NotFound => Unusable::Missing,
            // Shorter than its trailer says: truncated while the checksum was
            // being worked out.
            std::io::ErrorKind::UnexpectedEof => Unusable::Unsound("checksum mismatch (the entry is truncated)".into()),
            _ => Unusable::Unreadable(error),
        }
    }
}

/// Writes an entry holding `payload` to `path`, flushed to the disk.
#[cfg(feature = "compiler")]
pub(super) fn write_entry(path: &Path, payload: &[u8]) -> std::io::Result<()> {
    let mut file = File::create(path)?;
    file.write_all(payload)?;
    file.write_all(MAGIC)?;
    file.write_all(&(payload.len() as u64).to_le_bytes())?;
    file.write_all(blake3::hash(payload).as_bytes())?;
    file.sync_all()
}

/// The entry at `path`, checked (unless it was, unchanged since: see
/// `file_notes`) then mapped.
pub(super) fn load_entry<C: Compiled>(engine: &Engine, path: &Path, notes: &FileNotes) -> Result<C, Unusable> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(Unusable::Unsound("not a regular file".into()));
    }
    let name = path.file_name().map(|name| format!("{}.checked", name.to_string_lossy()));
    if name.as_deref().and_then(|name| notes.read(name, &meta)).is_none() {
        check_entry(&mut File::open(path)?)?;
        if let Some(name) = &name {
            notes.write(name, &meta, b"");
        }
    }
    // SAFETY: the payload is byte for byte what `Compiled::serialize` wrote
    // for this engine configuration (checksum above; the file name carries
    // the engine's compatibility hash, and wasmtime checks it again). Entries
    // are only ever replaced by a rename, never written in place, so the
    // mapped file does not change while the code runs; should the name be
    // renamed over between the check and the mapping, what takes its place
    // is another complete entry for the same component and engine.
    unsafe { C::deserialize_file(engine, path) }.map_err(|e| Unusable::Unsound(format!("{e:#}")))
}

/// Checks that `file` is an entry in this format whose payload matches its
/// checksum.
pub(super) fn check_entry(file: &mut File) -> Result<(), Unusable> {
    let len = file.metadata()?.len();
    let mut head = [0; ELF.len()];
    if len < ELF.len() as u64 || file.read_exact(&mut head).is_err() || &head != ELF {
        return Err(Unusable::Unsound("not an mcp-wit cache entry".into()));
    }
    let truncated = || Unusable::Unsound("checksum mismatch (the entry is truncated)".into());
    let payload_len = len.checked_sub(TRAILER as u64).filter(|&n| n >= ELF.len() as u64).ok_or_else(truncated)?;
    let mut trailer = [0; TRAILER];
    file.seek(SeekFrom::Start(payload_len))?;
    file.read_exact(&mut trailer)?;
    let (magic, rest) = trailer.split_at(MAGIC.len());
    let (stated_len, checksum) = rest.split_at(8);
    if magic != MAGIC || u64::from_le_bytes(stated_len.try_into().expect("8 bytes")) != payload_len {
        return Err(truncated());
    }
    file.rewind()?;
    let (hash, read) = hash_read(&mut Read::by_ref(file).take(payload_len), payload_len)?;
    if read != payload_len {
        return Err(truncated());
    }
    if hash.as_bytes() != checksum {
        return Err(Unusable::Unsound("checksum mismatch".into()));
    }
    Ok(())
}

/// The blake3 hash of what `reader` gives (at most `limit` bytes, else an
/// error), and how many bytes that was, read a piece at a time: the bytes
/// pass through a small buffer instead of a heap copy of the whole file,
/// whose page faults and copy cost more than the hash itself.
pub(super) fn hash_read(reader: &mut impl Read, limit: u64) -> std::io::Result<(blake3::Hash, u64)> {
    let mut hasher = blake3::Hasher::new();
    let mut buffer = vec![0; PIECE];
    let mut total = 0u64;
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        total += n as u64;
        if total > limit {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "longer than expected"));
        }
        hasher.update(&buffer[..n]);
    }
    Ok((hasher.finalize(), total))
}

/// What the cache holds: a component, or a core module (an Extism plugin).
pub trait Compiled: Sized {
    /// Compiles `wasm`.
    #[cfg(feature = "compiler")]
    fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Self>;
    /// The machine code, to store.
    #[cfg(feature = "compiler")]
    fn serialize(&self) -> wasmtime::Result<Vec<u8>>;
    /// Machine code this engine wrote.
    ///
    /// # Safety
    ///
    /// As [`Component::deserialize`]: the bytes are run as machine code.
    unsafe fn deserialize(engine: &Engine, bytes: &[u8]) -> wasmtime::Result<Self>;
    /// Machine code this engine wrote, in the file at `path`; mapped rather
    /// than read where the type allows (by default, read then
    /// [`Self::deserialize`]d).
    ///
    /// # Safety
    ///
    /// As [`Component::deserialize_file`]: the file is run as machine code,
    /// and must not change while the result lives.
    unsafe fn deserialize_file(engine: &Engine, path: &Path) -> wasmtime::Result<Self> {
        let bytes = std::fs::read(path)?;
        // SAFETY: forwarded to the caller.
        unsafe { Self::deserialize(engine, &bytes) }
    }
}

impl Compiled for Component {
    #[cfg(feature = "compiler")]
    fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Self> {
        Component::new(engine, wasm)
    }

    #[cfg(feature = "compiler")]
    fn serialize(&self) -> wasmtime::Result<Vec<u8>> {
        Component::serialize(self)
    }

    unsafe fn deserialize(engine: &Engine, bytes: &[u8]) -> wasmtime::Result<Self> {
        // SAFETY: forwarded to the caller.
        unsafe { Component::deserialize(engine, bytes) }
    }

    unsafe fn deserialize_file(engine: &Engine, path: &Path) -> wasmtime::Result<Self> {
        // SAFETY: forwarded to the caller.
        unsafe { Component::deserialize_file(engine, path) }
    }
}

impl Compiled for wasmtime::Module {
    #[cfg(feature = "compiler")]
    fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Self> {
        wasmtime::Module::new(engine, wasm)
    }

    #[cfg(feature = "compiler")]
    fn serialize(&self) -> wasmtime::Result<Vec<u8>> {
        wasmtime::Module::serialize(self)
    }

    unsafe fn deserialize(engine: &Engine, bytes: &[u8]) -> wasmtime::Result<Self> {
        // SAFETY: forwarded to the caller.
        unsafe { wasmtime::Module::deserialize(engine, bytes) }
    }

    unsafe fn deserialize_file(engine: &Engine, path: &Path) -> wasmtime::Result<Self> {
        // SAFETY: forwarded to the caller.
        unsafe { wasmtime::Module::deserialize_file(engine, path) }
    }
}
