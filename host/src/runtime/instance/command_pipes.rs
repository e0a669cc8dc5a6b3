//! A command's stdin and stdout as in-memory pipes to the host, each one
//! buffer and one waker: a chunk written on one side wakes the other
//! directly. wasmtime's own async pipe streams move every chunk through a
//! task of their own on another thread, which cost a stdio server about
//! half of its time per message (the shapes study, 2026-11-29).

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use wasmtime_wasi::cli::{IsTerminal, StdinStream, StdoutStream};
use wasmtime_wasi::p2::{InputStream, OutputStream, Pollable, StreamError, StreamResult};

use crate::sync::lock;

/// Bytes waiting in one direction, and who waits on them.
#[derive(Default)]
struct Buffer {
    bytes: VecDeque<u8>,
    /// The writer is gone: once the bytes are read, the end.
    closed: bool,
    /// Woken when bytes come or the writer goes.
    reader: Option<Waker>,
    /// Woken when room is made (the reader took bytes) or the reader goes.
    writer: Option<Waker>,
    /// The reader is gone: writes fail.
    abandoned: bool,
}

impl Buffer {
    /// Up to `size` bytes, the writer woken for the room made.
    fn take(&mut self, size: usize) -> Vec<u8> {
        let n = size.min(self.bytes.len());
        let taken = self.bytes.drain(..n).collect();
        if let Some(writer) = self.writer.take() {
            writer.wake();
        }
        taken
    }
}

/// One direction of a pipe, shared by its two ends.
#[derive(Clone)]
struct Shared {
    buffer: Arc<Mutex<Buffer>>,
    /// The most bytes held before a writer waits.
    capacity: usize,
}

impl Shared {
    fn new(capacity: usize) -> Self {
        Shared { buffer: Arc::default(), capacity }
    }

    /// Takes up to `size` bytes; `Ready(None)` at the end.
    fn poll_take(&self, cx: &mut Context<'_>, size: usize) -> Poll<Option<Vec<u8>>> {
        let mut buffer = lock(&self.buffer);
        if buffer.bytes.is_empty() {
            if buffer.closed {
                return Poll::Ready(None);
            }
            buffer.reader = Some(cx.waker().clone());
            return Poll::Pending;
        }
        Poll::Ready(Some(buffer.take(size)))
    }

    /// Takes up to `size` bytes without waiting (none if there are none).
    fn take_now(&self, size: usize) -> Result<Vec<u8>, StreamError> {
        let mut buffer = lock(&self.buffer);
        if buffer.bytes.is_empty() && buffer.closed {
            return Err(StreamError::Closed);
        }
        Ok(buffer.take(size))
    }

    /// Ready once there are bytes to read or the writer is gone.
    fn poll_readable(&self, cx: &mut Context<'_>) -> Poll<()> {
        let mut buffer = lock(&self.buffer);
        if !buffer.bytes.is_empty() || buffer.closed {
            return Poll::Ready(());
        }
        buffer.reader = Some(cx.waker().clone());
        Poll::Pending
    }

    /// Room for how many more bytes; an error once the reader is gone.
    fn room(&self) -> Result<usize, StreamError> {
        let buffer = lock(&self.buffer);
        if buffer.abandoned {
            return Err(StreamError::Closed);
        }
        Ok(self.capacity.saturating_sub(buffer.bytes.len()))
    }

    /// Ready once there is room, or the reader is gone.
    fn poll_writable(&self, cx: &mut Context<'_>) -> Poll<()> {
        let mut buffer = lock(&self.buffer);
        if buffer.abandoned || buffer.bytes.len() < self.capacity {
            return Poll::Ready(());
        }
        buffer.writer = Some(cx.waker().clone());
        Poll::Pending
    }

    /// Appends `bytes` (the caller checked the room) and wakes the reader.
    fn put(&self, bytes: &[u8]) -> Result<(), StreamError> {
        let mut buffer = lock(&self.buffer);
        if buffer.abandoned {
            return Err(StreamError::Closed);
        }
        buffer.bytes.extend(bytes);
        if let Some(reader) = buffer.reader.take() {
            reader.wake();
        }
        Ok(())
    }

    /// [`tokio::io::AsyncRead`] over this direction.
    fn poll_read_into(&self, cx: &mut Context<'_>, out: &mut tokio::io::ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        if let Some(bytes) = std::task::ready!(self.poll_take(cx, out.remaining())) {
            out.put_slice(&bytes);
        }
        Poll::Ready(Ok(()))
    }

    /// [`tokio::io::AsyncWrite`] over this direction; `gone` says who no
    /// longer reads.
    fn poll_write_from(&self, cx: &mut Context<'_>, bytes: &[u8], gone: &str) -> Poll<std::io::Result<usize>> {
        std::task::ready!(self.poll_writable(cx));
        let closed = |_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, gone.to_string());
        // Writable: there is room for one byte at least.
        let n = bytes.len().min(self.room().map_err(closed)?);
        self.put(&bytes[..n]).map_err(closed)?;
        Poll::Ready(Ok(n))
    }

    /// The writer's end goes: the reader reads what is left, then the end.
    fn close(&self) {
        let mut buffer = lock(&self.buffer);
        buffer.closed = true;
        if let Some(reader) = buffer.reader.take() {
            reader.wake();
        }
    }

    /// The reader's end goes: writes fail from now on.
    fn abandon(&self) {
        let mut buffer = lock(&self.buffer);
        buffer.abandoned = true;
        buffer.bytes.clear();
        if let Some(writer) = buffer.writer.take() {
            writer.wake();
        }
    }
}

/// The host's end of a command's stdin: what it writes, the command reads.
pub(super) struct StdinWriter(Shared);

/// The host's end of a command's stdout: what the command writes, it reads.
pub(super) struct StdoutReader(Shared);

/// The command's stdin, as WASI takes it.
#[derive(Clone)]
pub(super) struct PipeStdin(Shared);

/// The command's stdout, as WASI takes it.
#[derive(Clone)]
pub(super) struct PipeStdout(Shared);

/// A command's stdin and stdout, each holding up to `capacity` bytes, and
/// the host's ends of them.
pub(super) fn pipes(capacity: usize) -> (PipeStdin, StdinWriter, PipeStdout, StdoutReader) {
    let (stdin, stdout) = (Shared::new(capacity), Shared::new(capacity));
    (PipeStdin(stdin.clone()), StdinWriter(stdin), PipeStdout(stdout.clone()), StdoutReader(stdout))
}

impl Drop for StdinWriter {
    fn drop(&mut self) {
        self.0.close();
    }
}

impl Drop for StdoutReader {
    fn drop(&mut self) {
        self.0.abandon();
    }
}

impl tokio::io::AsyncWrite for StdinWriter {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, bytes: &[u8]) -> Poll<std::io::Result<usize>> {
        self.0.poll_write_from(cx, bytes, "the command no longer reads its stdin")
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.0.close();
        Poll::Ready(Ok(()))
    }
}

impl tokio::io::AsyncRead for StdoutReader {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        self.0.poll_read_into(cx, out)
    }
}

impl IsTerminal for PipeStdin {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl IsTerminal for PipeStdout {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdinStream for PipeStdin {
    fn p2_stream(&self) -> Box<dyn InputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncRead + Send + Sync> {
        Box::new(self.clone())
    }
}

impl StdoutStream for PipeStdout {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for PipeStdin {
    async fn ready(&mut self) {
        std::future::poll_fn(|cx| self.0.poll_readable(cx)).await
    }
}

impl InputStream for PipeStdin {
    fn read(&mut self, size: usize) -> StreamResult<Bytes> {
        self.0.take_now(size).map(Bytes::from)
    }
}

impl tokio::io::AsyncRead for PipeStdin {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        self.0.poll_read_into(cx, out)
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for PipeStdout {
    async fn ready(&mut self) {
        std::future::poll_fn(|cx| self.0.poll_writable(cx)).await
    }
}

impl OutputStream for PipeStdout {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        self.0.put(&bytes)
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        self.0.room()
    }
}

impl tokio::io::AsyncWrite for PipeStdout {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, bytes: &[u8]) -> Poll<std::io::Result<usize>> {
        self.0.poll_write_from(cx, bytes, "the host no longer reads")
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.0.close();
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// The guest's non-blocking read.
    fn take(stdin: &mut PipeStdin, size: usize) -> StreamResult<Bytes> {
        InputStream::read(stdin, size)
    }

    #[tokio::test]
    async fn bytes_cross_each_way_and_an_end_is_seen() {
        let (mut stdin, mut writer, mut stdout, mut reader) = pipes(8);
        writer.write_all(b"ping\n").await.unwrap();
        Pollable::ready(&mut stdin).await;
        assert_eq!(&take(&mut stdin, 64).unwrap()[..], b"ping\n");
        assert!(take(&mut stdin, 64).unwrap().is_empty(), "nothing more yet");

        assert_eq!(stdout.check_write().unwrap(), 8);
        OutputStream::write(&mut stdout, Bytes::from_static(b"pong\n")).unwrap();
        let mut line = [0u8; 5];
        reader.read_exact(&mut line).await.unwrap();
        assert_eq!(&line, b"pong\n");

        // A full pipe makes its writer wait; reading makes room.
        OutputStream::write(&mut stdout, Bytes::from_static(b"12345678")).unwrap();
        assert_eq!(stdout.check_write().unwrap(), 0);
        let mut some = [0u8; 4];
        reader.read_exact(&mut some).await.unwrap();
        assert_eq!(stdout.check_write().unwrap(), 4);

        // The host's ends go: stdin ends after what is left, stdout refuses.
        writer.write_all(b"last").await.unwrap();
        drop(writer);
        assert_eq!(&take(&mut stdin, 64).unwrap()[..], b"last");
        assert!(matches!(take(&mut stdin, 64), Err(StreamError::Closed)));
        drop(reader);
        assert!(matches!(stdout.check_write(), Err(StreamError::Closed)));
    }
}
