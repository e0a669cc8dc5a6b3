//! Small files named on the command line (keys, trust roots, certificate
//! authorities): read with a bound, and only when they are regular files. A
//! device or a FIFO given by mistake (or by someone who can set the flags)
//! would otherwise be read for ever: `/dev/zero` fills memory.

use std::io::{Error, ErrorKind, Read};
use std::path::Path;

/// The bytes of `path`, a regular file of at most `limit` bytes; the error
/// says which of the two it is not.
pub fn read_regular_file(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let not_regular = || {
        Error::new(ErrorKind::InvalidInput, "not a regular file (a directory, device or pipe): give the file itself")
    };
    // Checked before opening (opening a FIFO waits for a writer), and again
    // on what was opened, in case the path changed in between.
    if !std::fs::metadata(path)?.is_file() {
        return Err(not_regular());
    }
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    let too_large =
        || Error::new(ErrorKind::InvalidData, format!("larger than the {limit} bytes such a file may have"));
    if meta.len() > limit {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // A file that grows while it is read stops at the bound all the same.
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_fifos_directories_and_large_files_are_refused_with_what_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        for path in [Path::new("/dev/zero"), &fifo, dir.path()] {
            let error = read_regular_file(path, 1024).unwrap_err().to_string();
            assert!(error.contains("not a regular file"), "{}: {error}", path.display());
        }
        let large = dir.path().join("large");
        std::fs::write(&large, vec![b'x'; 1025]).unwrap();
        let error = read_regular_file(&large, 1024).unwrap_err().to_string();
        assert!(error.contains("larger than the 1024 bytes"), "{error}");
        std::fs::write(&large, b"small").unwrap();
        assert_eq!(read_regular_file(&large, 1024).unwrap(), b"small");
    }
}
