//! The stdio transport: newline-delimited JSON-RPC on stdin/stdout.
//!
//! One connection is one session. The loop reads a line, hands it to the
//! session and buffers the answers; output is flushed only once no more input
//! is already waiting, so a pipelining client gets its answers in batches
//! (few system calls) while a one-at-a-time client gets each answer at once.

use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

use crate::protocol::jsonrpc::{self, RpcError};
use crate::protocol::{Outbox, Session};

/// Default for [`StdioOptions::max_message_size`]: 8 MiB.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 8 * 1024 * 1024;

/// Settings of the stdio transport.
#[derive(Debug, Clone)]
pub struct StdioOptions {
    /// Longest accepted message in bytes; a longer line is skipped unread and
    /// answered with -32600.
    pub max_message_size: usize,
}

impl Default for StdioOptions {
    fn default() -> Self {
        StdioOptions { max_message_size: DEFAULT_MAX_MESSAGE_SIZE }
    }
}

/// Serves `session` on the process's stdin and stdout until stdin closes.
pub fn serve_stdio(session: &mut Session, options: &StdioOptions) -> io::Result<()> {
    serve(session, io::stdin().lock(), io::stdout().lock(), options)
}

/// Serves `session` over any byte streams until `input` ends.
pub fn serve<R: Read, W: Write>(session: &mut Session, input: R, output: W, options: &StdioOptions) -> io::Result<()> {
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let mut out = LineOutbox { writer: BufWriter::with_capacity(64 * 1024, output), error: None };
    let mut line = Vec::with_capacity(4096);
    let mut scratch = Vec::new();
    loop {
        match read_line(&mut reader, &mut line, options.max_message_size)? {
            Line::Eof => break,
            Line::Message => {
                let message = trim(&line);
                if !message.is_empty() {
                    session.handle(message, &mut out);
                }
            }
            Line::TooLarge(size) => {
                let error = RpcError::invalid_request(format!(
                    "message of {size} bytes exceeds the limit of {} bytes",
                    options.max_message_size
                ));
                jsonrpc::write_error(&mut scratch, None, &error);
                out.send(&scratch);
            }
        }
        if let Some(e) = out.error.take() {
            return Err(e);
        }
        if reader.buffer().is_empty() {
            out.writer.flush()?;
        }
    }
    out.writer.flush()
}

struct LineOutbox<W: Write> {
    writer: BufWriter<W>,
    error: Option<io::Error>,
}

impl<W: Write> Outbox for LineOutbox<W> {
    fn send(&mut self, message: &[u8]) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.writer.write_all(message).and_then(|()| self.writer.write_all(b"\n")) {
            self.error = Some(e);
        }
    }
}

enum Line {
    Eof,
    Message,
    /// The line was longer than allowed; its size in bytes.
    TooLarge(usize),
}

/// Reads one `\n`-terminated line into `line`, never holding more than
/// `max` bytes of it in memory.
fn read_line<R: Read>(reader: &mut BufReader<R>, line: &mut Vec<u8>, max: usize) -> io::Result<Line> {
    line.clear();
    let mut size = 0usize;
    let mut too_large = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(match (size, too_large) {
                (0, _) => Line::Eof,
                (_, true) => Line::TooLarge(size),
                (_, false) => Line::Message,
            });
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(pos) => (&available[..pos], Some(pos + 1)),
            None => (available, None),
        };
        size += chunk.len();
        if size > max {
            too_large = true;
            line.clear();
        } else {
            line.extend_from_slice(chunk);
        }
        let consumed = done.unwrap_or(available.len());
        reader.consume(consumed);
        if done.is_some() {
            return Ok(if too_large { Line::TooLarge(size) } else { Line::Message });
        }
    }
}

fn trim(line: &[u8]) -> &[u8] {
    let end = line.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |p| p + 1);
    let start = line[..end].iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(end);
    &line[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_and_skips_oversized_ones() {
        let input = b"short\n0123456789abc\nlast";
        let mut reader = BufReader::with_capacity(4, &input[..]);
        let mut line = Vec::new();
        assert!(matches!(read_line(&mut reader, &mut line, 8).unwrap(), Line::Message));
        assert_eq!(line, b"short");
        assert!(matches!(read_line(&mut reader, &mut line, 8).unwrap(), Line::TooLarge(13)));
        assert!(matches!(read_line(&mut reader, &mut line, 8).unwrap(), Line::Message));
        assert_eq!(line, b"last");
        assert!(matches!(read_line(&mut reader, &mut line, 8).unwrap(), Line::Eof));
    }
}
