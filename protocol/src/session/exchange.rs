//! What answering one request takes, in either era: what serves it
//! ([`Server`]: the routers and a way to each, the options), what the
//! request carries ([`InFlight`]: its cancellation and context) and where
//! its answer is written ([`Output`]).
//!
//! A 2025 [`Session`](super::Session) keeps one [`Exchange`] for all its
//! requests, beside its own state ([`SessionState`](super::state::SessionState)); a 2026-07-28 request
//! served on its own ([`StatelessRequest`](super::StatelessRequest)) makes
//! one for itself and nothing more.

use serde::Serialize;
use serde_json::value::RawValue;

use super::in_flight::InFlight;
use super::options::SessionOptions;
use super::output::{Outbox, Output};
use super::server::Server;
use super::watch::{TargetKind, Watching};
use crate::jsonrpc::RpcError;
use crate::method::Method;
use crate::observe::{CLIENT_TEXT_BYTES, Finished, Outcome, Started, clipped};
use crate::router::RouterComponent;
use crate::routers::Routers;

pub(super) struct Exchange<C: RouterComponent> {
    /// What serves the requests, kept from one to the next.
    pub(super) server: Server<C>,
    /// What the request being served carries.
    pub(super) request: InFlight,
    /// Where its answer is written.
    pub(super) output: Output,
}

impl<C: RouterComponent> Exchange<C> {
    pub(super) fn new(routers: Routers<C>, options: SessionOptions) -> Self {
        Exchange { server: Server::new(routers, options), request: InFlight::default(), output: Output::new() }
    }

    /// Starts watching request `id`, when an observer watches.
    pub(super) fn watch_start(&mut self, method: &str, id: &RawValue, params: Option<&RawValue>) -> Option<Watching> {
        let observer = self.server.options().observer.as_ref()?;
        self.request.watch_mut().reset();
        let shown = clipped(id.get().trim_matches('"'), CLIENT_TEXT_BYTES);
        self.request.set_request_id(Some(shown.into()));
        let transport_context = self.request.take_transport_context();
        let started =
            Started { method, id, params, origin: self.server.origin(), transport_context: transport_context.as_ref() };
        Some(Watching::new(observer.started(&started)))
    }

    /// Whether an observer watches: only then is what a request came to noted
    /// beyond what costs nothing (a flag, a copy).
    pub(super) fn observed(&self) -> bool {
        self.server.options().observer.is_some()
    }

    /// Notes what request `id` named, once a router knows it.
    pub(super) fn watch_target(&mut self, mount: usize, kind: TargetKind, name: &str) {
        if self.observed() {
            self.request.watch_mut().note_target(mount, kind, name);
        }
    }

    /// Notes the mount request `id` went to, when what it named is not
    /// reported (see [`Exchange::watch_named`]).
    pub(super) fn watch_mount(&mut self, mount: usize) {
        if self.observed() {
            self.request.watch_mut().note_mount(mount);
        }
    }

    /// Tells the observer what request `id` came to.
    pub(super) fn watch_finish(
        &mut self,
        watching: Watching,
        method_name: &str,
        method: Option<Method>,
        id: &RawValue,
        params: Option<&RawValue>,
        outcome: Outcome,
    ) {
        let Some(observer) = &self.server.options().observer else { return };
        let watch = self.request.watch();
        let finished = Finished {
            method_name,
            method,
            id,
            params,
            target: watch.target(),
            component: watch.mount().map(|mount| self.server.label(mount)),
            outcome,
            tool_error: watch.tool_error(),
            fault: watch.fault(),
            output_capped: watch.output_capped(),
            input_required: watch.input_required(),
            error_message: watch.error(),
            version: watch.version(),
            origin: self.server.origin(),
            caller: self.request.caller().map(|caller| &**caller),
            duration: watching.elapsed(),
            answer: matches!(outcome, Outcome::Answered).then_some(self.output.written()),
        };
        observer.finished(watching.span(), &finished);
    }

    /// Sends what answering request `id` came to: its answer, its error, or
    /// nothing (cancelled, or answered later), and says which. The answer
    /// stays in the output for the observer until it is recycled.
    pub(super) fn deliver<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        answered: Result<(), RpcError>,
        out: &mut O,
    ) -> Outcome {
        match answered {
            Ok(()) if self.request.deferred() => Outcome::Deferred,
            Ok(()) => {
                self.output.send(out);
                Outcome::Answered
            }
            Err(_) if self.request.cancelled() => {
                tracing::debug!(id = %clipped(id.get(), CLIENT_TEXT_BYTES), "request cancelled: no response");
                Outcome::Cancelled
            }
            Err(error) => {
                self.output.send_error(Some(id), &error, out);
                if self.observed() {
                    self.request.watch_mut().note_error(error.message.clone());
                }
                Outcome::Failed(error.code)
            }
        }
    }

    /// Writes the answer to request `id` into the output (a whole response,
    /// or the bare result for in-process callers), or fails with -32603 when
    /// it exceeds the output cap.
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
        let written = match self.request.stamp() {
            Some(stamp) => self.output.write_stamped(id, result, stamp),
            None => self.output.write_answer(id, result),
        };
        let max_output = self.server.options().max_output;
        let length = self.output.written().len();
        match written {
            Ok(()) if length + sent_before > max_output => {
                let error = match sent_before {
                    0 => RpcError::internal(format!(
                        "the result of {length} bytes exceeds the output limit of {max_output} bytes"
                    )),
                    _ => RpcError::internal(format!(
                        "the result of {length} bytes and its progress notifications of {sent_before} bytes exceed \
                         the output limit of {max_output} bytes"
                    )),
                };
                tracing::warn!("{}; the instance is replaced", error.message);
                self.request.watch_mut().note_output_capped();
                // The guest's memory grew to hold the oversized result and
                // never shrinks: a fresh instance gives it back. Which mount
                // produced it is not known here, so every one is replaced.
                self.server.retire_all();
                Err(error)
            }
            Ok(()) => Ok(()),
            Err(e) => Err(RpcError::internal(format!("cannot serialise the result: {e}"))),
        }
    }
}
