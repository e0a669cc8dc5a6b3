//! Recording files: written a record at a time by [`RecordWriter`] (or, off
//! the request path, by [`crate::Recorder`]), read whole and checked by
//! [`read`].

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use planus::ReadAsRoot;

use crate::codec::{self, Record, Transport};
use crate::generated::mcp::fb;
use crate::layout::FILE_IDENTIFIER;

/// Appends records to a new recording file.
pub struct RecordWriter {
    file: BufWriter<File>,
}

impl RecordWriter {
    /// Creates (or empties) the file at `path` and writes its header:
    /// `transport`.
    pub fn create(path: &Path, transport: &Transport) -> io::Result<Self> {
        let file = File::create(path)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot create the recording {}: {e}", path.display())))?;
        let mut writer = RecordWriter { file: BufWriter::with_capacity(64 * 1024, file) };
        writer.file.write_all(&codec::encode_transport(transport))?;
        writer.file.flush()?;
        Ok(writer)
    }

    /// Appends `record` (buffered: see [`Self::flush`]).
    pub fn append(&mut self, record: &Record) -> io::Result<()> {
        self.file.write_all(&codec::encode_message(record))
    }

    /// Appends buffers already encoded (size-prefixed, as
    /// [`crate::encode_message`] makes them).
    pub fn write_encoded(&mut self, buffers: &[u8]) -> io::Result<()> {
        self.file.write_all(buffers)
    }

    /// Writes what is buffered to the file.
    pub fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// A recording, read back.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    /// How the server was reached.
    pub transport: Transport,
    /// Every complete record, in the order written.
    pub records: Vec<Record>,
    /// Where an incomplete last record starts, if the file ends inside one
    /// (the server stopped while writing it): it is left out.
    pub truncated_at: Option<u64>,
}

/// Why bytes are not a recording, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: {what}")]
pub struct ReadError {
    /// Where the buffer at fault starts (its size prefix).
    pub offset: u64,
    /// What is wrong with it.
    pub what: String,
}

/// Reads and checks a whole recording: every buffer's size, identifier and
/// FlatBuffers tree.
pub fn read(bytes: &[u8]) -> Result<Recording, ReadError> {
    let mut offset = 0;
    let (header, next) = match buffer_at(bytes, offset)? {
        Some(found) => found,
        None => {
            return Err(ReadError {
                offset: 0,
                what: format!(
                    "not an .mcp recording: {} bytes, too few for its header (a size-prefixed `Transport` buffer)",
                    bytes.len()
                ),
            });
        }
    };
    let transport = fb::TransportRef::read_as_root(header)
        .and_then(fb::Transport::try_from)
        .map_err(|e| ReadError { offset: 0, what: format!("the header is not a valid `Transport` buffer: {e}") })?;
    let transport = codec::decode_transport(transport);
    offset = next;
    let mut records = Vec::new();
    let truncated_at = loop {
        if offset == bytes.len() {
            break None;
        }
        let Some((buffer, next)) = buffer_at(bytes, offset)? else { break Some(offset as u64) };
        let at = offset as u64;
        let message = fb::MessageRef::read_as_root(buffer)
            .and_then(fb::Message::try_from)
            .map_err(|e| ReadError { offset: at, what: format!("not a valid `Message` buffer: {e}") })?;
        let record = codec::decode_message(message).map_err(|what| ReadError { offset: at, what })?;
        records.push(record);
        offset = next;
    };
    Ok(Recording { transport, records, truncated_at })
}

/// The buffer whose size prefix is at `offset` and where the next starts;
/// `None` when the file ends inside it.
fn buffer_at(bytes: &[u8], offset: usize) -> Result<Option<(&[u8], usize)>, ReadError> {
    let Some(prefix) = bytes.get(offset..offset + 4) else { return Ok(None) };
    let size = u32::from_le_bytes(prefix.try_into().expect("4 bytes")) as usize;
    let start = offset + 4;
    let Some(buffer) = bytes.get(start..start + size) else { return Ok(None) };
    let identifier = buffer.get(4..8);
    if identifier != Some(&FILE_IDENTIFIER[..]) {
        let what = if offset == 0 {
            "not an .mcp recording: its first buffer has no `MCPP` file identifier".to_string()
        } else {
            format!("a buffer of {size} bytes without the `MCPP` file identifier (the file is corrupt here)")
        };
        return Err(ReadError { offset: offset as u64, what });
    }
    Ok(Some((buffer, start + size)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Direction;
    use serde_json::json;

    /// A recording of two messages, written to a file named after `test`.
    fn recording(test: &str) -> Vec<u8> {
        let path = std::env::temp_dir().join(format!("mcp-wit-record-{test}-{}.mcp", std::process::id()));
        let mut writer = RecordWriter::create(&path, &Transport::Stdio { buffer_size: 8192 }).unwrap();
        for (i, direction) in [Direction::In, Direction::Out].into_iter().enumerate() {
            let message = json!({ "jsonrpc": "2.0", "id": 1, "method": "ping", "params": { "i": i } });
            writer.append(&Record { session: "stdio".into(), direction, at_micros: i as u64, message }).unwrap();
        }
        writer.flush().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::remove_file(path).unwrap();
        bytes
    }

    #[test]
    fn reads_back_what_was_written() {
        let read = read(&recording("reads_back_what_was_written")).unwrap();
        assert_eq!(read.transport, Transport::Stdio { buffer_size: 8192 });
        assert_eq!(read.records.len(), 2);
        assert_eq!(read.records[1].direction, Direction::Out);
        assert_eq!(read.truncated_at, None);
    }

    #[test]
    fn a_cut_tail_is_left_out_and_said() {
        let bytes = recording("a_cut_tail_is_left_out_and_said");
        let whole = read(&bytes).unwrap();
        for cut in 1..40 {
            let cut_short = read(&bytes[..bytes.len() - cut]).unwrap();
            assert_eq!(cut_short.records, whole.records[..1], "cut by {cut}");
            assert!(cut_short.truncated_at.is_some());
        }
    }

    #[test]
    fn what_is_not_a_recording_is_refused_with_where() {
        let error = read(b"{\"jsonrpc\":\"2.0\"}\n").unwrap_err();
        assert!(error.what.contains("not an .mcp recording"), "{error}");
        assert_eq!(read(b"").unwrap_err().offset, 0);
        let mut bytes = recording("what_is_not_a_recording_is_refused_with_where");
        let second = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize + 4;
        bytes[second + 8] = b'X';
        let error = read(&bytes).unwrap_err();
        assert_eq!(error.offset, second as u64, "{error}");
        assert!(error.what.contains("MCPP"), "{error}");
    }

    #[test]
    fn no_corruption_panics() {
        // Every byte of a recording flipped in turn, and every cut: an
        // error, a shorter recording or the same one, never a panic.
        let bytes = recording("no_corruption_panics");
        for i in 0..bytes.len() {
            for flip in [0x01, 0x80, 0xff] {
                let mut corrupt = bytes.clone();
                corrupt[i] ^= flip;
                let _ = read(&corrupt);
            }
        }
    }
}
