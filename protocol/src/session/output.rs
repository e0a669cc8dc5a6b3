//! Writing a session's answers: results under the output cap, errors and
//! notifications.

use serde::Serialize;
use serde_json::value::RawValue;

use super::exchange::Exchange;
use crate::jsonrpc::{self, RpcError};
use crate::router::{Router, RouterComponent};

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

impl<C: RouterComponent> Exchange<C> {
    /// Writes the answer to request `id` into the session's buffer (a whole
    /// response, or the bare result for in-process callers), or fails with
    /// -32603 when it exceeds the output cap.
    pub(super) fn reply<T: Serialize>(&mut self, id: &RawValue, result: &T) -> Result<(), RpcError> {
        self.reply_after(id, result, 0)
    }

    /// [`Self::reply`] for a result that comes after `sent_before` bytes of
    /// notifications it made (a tool's progress): they count against the
    /// output cap too.
    pub(super) fn reply_after<T: Serialize>(
        &mut self,
        id: &RawValue,
        result: &T,
        sent_before: usize,
    ) -> Result<(), RpcError> {
        let written = match self.stamp.take() {
            Some(stamp) => {
                let written = self.write_stamped(id, result, &stamp);
                self.stamp = Some(stamp);
                written
            }
            None => self.write_answer(id, result),
        };
        match written {
            Ok(()) if self.buf.len() + sent_before > self.options.max_output => {
                let error = match sent_before {
                    0 => RpcError::internal(format!(
                        "the result of {} bytes exceeds the output limit of {} bytes",
                        self.buf.len(),
                        self.options.max_output
                    )),
                    _ => RpcError::internal(format!(
                        "the result of {} bytes and its progress notifications of {sent_before} bytes exceed the \
                         output limit of {} bytes",
                        self.buf.len(),
                        self.options.max_output
                    )),
                };
                tracing::warn!("{}; the instance is replaced", error.message);
                self.watch.output_capped = true;
                // The guest's memory grew to hold the oversized result and
                // never shrinks: a fresh instance gives it back. Which mount
                // produced it is not known here, so every one is replaced.
                self.open.iter_mut().for_each(Router::retire);
                Err(error)
            }
            Ok(()) => Ok(()),
            Err(e) => Err(RpcError::internal(format!("cannot serialise the result: {e}"))),
        }
    }

    /// Writes the answer with `stamp` added to its result: spliced into the
    /// bytes written (the result is the last member of a response, so its
    /// closing brace is the last but one byte), else merged as a `Value`.
    fn write_stamped<T: Serialize>(
        &mut self,
        id: &RawValue,
        result: &T,
        stamp: &super::stamp::Stamp,
    ) -> Result<(), serde_json::Error> {
        self.write_answer(id, result)?;
        let close = self.buf.len().saturating_sub(if self.envelope { 2 } else { 1 });
        if stamp.splice(&mut self.buf, close) {
            return Ok(());
        }
        let stamped = stamp.apply(result)?;
        self.write_answer(id, &stamped)
    }

    fn write_answer<T: Serialize>(&mut self, id: &RawValue, result: &T) -> Result<(), serde_json::Error> {
        if self.envelope {
            jsonrpc::write_result(&mut self.buf, id, result)
        } else {
            self.buf.clear();
            serde_json::to_writer(&mut self.buf, result)
        }
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
}
