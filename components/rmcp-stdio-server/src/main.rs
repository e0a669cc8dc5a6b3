//! An MCP server written with rmcp, serving JSON-RPC on its stdin and
//! stdout as a `wasi:cli` command: rmcp's `examples/wasi` in shape. The
//! tools are `components/rmcp-http-server`'s (`echo`, `add`, `fail`).
//!
//! tokio's own stdin needs a thread pool, which `wasm32-wasip2` has not: the
//! transport reads and writes the standard streams directly. A read blocks
//! the single-threaded runtime only when no request is being answered,
//! which is all a stdio server does then; while one is (rmcp may poll its
//! reader before its writer), the reader yields to the runtime instead.
//! rmcp's own `examples/wasi` polls its stdin in a loop, which costs a host
//! that gives the guest its thread back only at intervals a wait per
//! message.

use std::io::{Read, Write};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use rmcp::ServiceExt;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

#[path = "../../rmcp-http-server/src/calculator.rs"]
mod calculator;

fn main() {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_time().build().expect("a single-threaded runtime");
    runtime.block_on(async {
        let answering = Arc::new(AtomicUsize::new(0));
        let transport = (Stdin { answering: answering.clone() }, Stdout { answering });
        let server = calculator::Calculator.serve(transport).await.expect("the client initializes");
        // Ends when stdin does.
        let _ = server.waiting().await;
    });
}

/// The command's stdin, read blocking when no request is being answered.
struct Stdin {
    /// Requests read and not answered yet.
    answering: Arc<AtomicUsize>,
}

impl AsyncRead for Stdin {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        if self.answering.load(Ordering::Relaxed) > 0 {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let read = std::io::stdin().read(buf.initialize_unfilled())?;
        let requests = buf.initialize_unfilled()[..read].split(|b| *b == b'\n').filter(|line| is_request(line)).count();
        self.answering.store(requests, Ordering::Relaxed);
        buf.advance(read);
        Poll::Ready(Ok(()))
    }
}

/// The command's stdout, written blocking.
struct Stdout {
    answering: Arc<AtomicUsize>,
}

impl AsyncWrite for Stdout {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let written = std::io::stdout().write(buf)?;
        let answers = buf[..written].split(|b| *b == b'\n').filter(|line| is_response(line)).count();
        // One thread: a load and a store do not race.
        self.answering.store(self.answering.load(Ordering::Relaxed).saturating_sub(answers), Ordering::Relaxed);
        Poll::Ready(Ok(written))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(std::io::stdout().flush())
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// The fields of a JSON-RPC message that tell its kind.
#[derive(serde::Deserialize)]
struct Kind {
    id: Option<serde_json::Value>,
    method: Option<String>,
}

fn kind(line: &[u8]) -> Option<Kind> {
    serde_json::from_slice(line).ok()
}

fn is_request(line: &[u8]) -> bool {
    kind(line).is_some_and(|kind| kind.id.is_some() && kind.method.is_some())
}

fn is_response(line: &[u8]) -> bool {
    kind(line).is_some_and(|kind| kind.id.is_some() && kind.method.is_none())
}
