//! How answers are delivered: the buffer each message is written into, as a
//! whole JSON-RPC response or as the bare result an in-process caller takes,
//! and the [`Outbox`] it goes to.

use serde::Serialize;
use serde_json::value::RawValue;

use super::stamp::Stamp;
use crate::jsonrpc::{self, RpcError};

/// Output buffer capacity kept between messages.
const RETAINED_BUFFER: usize = 1 << 20;

/// Receives the serialised messages a session produces, in order.
pub trait Outbox {
    /// One complete JSON-RPC message (no trailing newline).
    fn send(&mut self, message: &[u8]);
}

impl Outbox for Vec<Vec<u8>> {
    fn send(&mut self, message: &[u8]) {
        self.push(message.to_vec());
    }
}

/// Where the answer being built is written, and in which shape.
pub(super) struct Output {
    buf: Vec<u8>,
    /// Whether answers are written as whole JSON-RPC responses or as bare
    /// results (for in-process callers, see [`Session::call`](super::Session::call)).
    envelope: bool,
}

impl Output {
    pub(super) fn new() -> Self {
        Output { buf: Vec::with_capacity(1024), envelope: true }
    }

    /// Answers are written bare (`true`, for an in-process caller) or as
    /// whole responses (`false`, the default).
    pub(super) fn set_bare(&mut self, bare: bool) {
        self.envelope = !bare;
    }

    /// The message written last.
    pub(super) fn written(&self) -> &[u8] {
        &self.buf
    }

    /// Writes the answer to request `id`: a whole response, or the bare
    /// result.
    pub(super) fn write_answer<T: Serialize>(&mut self, id: &RawValue, result: &T) -> Result<(), serde_json::Error> {
        if self.envelope {
            jsonrpc::write_result(&mut self.buf, id, result)
        } else {
            self.buf.clear();
            serde_json::to_writer(&mut self.buf, result)
        }
    }

    /// Writes the answer with `stamp` added to its result: spliced into the
    /// bytes written (the result is the last member of a response, so its
    /// closing brace is the last but one byte), else merged as a `Value`.
    pub(super) fn write_stamped<T: Serialize>(
        &mut self,
        id: &RawValue,
        result: &T,
        stamp: &Stamp,
    ) -> Result<(), serde_json::Error> {
        self.write_answer(id, result)?;
        let close = self.buf.len().saturating_sub(if self.envelope { 2 } else { 1 });
        if stamp.splice(&mut self.buf, close) {
            return Ok(());
        }
        let stamped = stamp.apply(result)?;
        self.write_answer(id, &stamped)
    }

    /// Sends the answer written last.
    pub(super) fn send<O: Outbox + ?Sized>(&self, out: &mut O) {
        out.send(&self.buf);
    }

    /// Writes a whole response to request `id` and sends it.
    pub(super) fn send_result<T: Serialize, O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        result: &T,
        out: &mut O,
    ) -> Result<(), serde_json::Error> {
        jsonrpc::write_result(&mut self.buf, id, result)?;
        out.send(&self.buf);
        Ok(())
    }

    pub(super) fn notify<P: Serialize, O: Outbox + ?Sized>(&mut self, method: &str, params: &P, out: &mut O) {
        match jsonrpc::write_notification(&mut self.buf, method, params) {
            Ok(()) => out.send(&self.buf),
            Err(e) => tracing::warn!("cannot serialise a {method} notification: {e}"),
        }
    }

    pub(super) fn send_error<O: Outbox + ?Sized>(&mut self, id: Option<&RawValue>, error: &RpcError, out: &mut O) {
        jsonrpc::write_error(&mut self.buf, id, error);
        out.send(&self.buf);
    }

    /// Lets go of a huge answer's buffer once it is sent (and reported).
    pub(super) fn recycle(&mut self) {
        if self.buf.capacity() > RETAINED_BUFFER {
            // One huge result must not pin its size for the session's life.
            self.buf = Vec::with_capacity(1024);
        }
    }

    /// Takes the bare result written last.
    pub(super) fn take(&mut self) -> Vec<u8> {
        std::mem::replace(&mut self.buf, Vec::with_capacity(1024))
    }
}
