//! Calling a mounted router and turning its faults into JSON-RPC errors.

use super::exchange::Exchange;
use crate::jsonrpc::RpcError;
use crate::observe::{CLIENT_TEXT_BYTES, clipped};
use crate::router::{CallContext, FaultKind, GuestFault, GuestResult, RouterComponent};

/// Calls mount `$mount`'s router as `|$r, $cx| $call` says, under the
/// current request's context, on behalf of `$target` (`Some(("tool",
/// name))`, the prompt or the resource the request names, as the router
/// knows it; a fault's log line names it: an operator looks for the tool,
/// not the contract function). A fault becomes -32603 (the router has
/// already dropped the instance that faulted).
///
/// A macro, so that the handler that serves a request makes the call itself
/// rather than handing a closure to this module to run.
macro_rules! guest_call {
    ($ex:expr, $mount:expr, $target:expr, |$r:ident, $cx:ident| $call:expr) => {{
        let (mount, target): (usize, Option<(&str, &str)>) = ($mount, $target);
        let span = $ex.enter_guest(mount, target);
        let ($r, $cx) = ($ex.server.router_mut(mount), $ex.request.context());
        match tracing::Instrument::instrument($call, span).await {
            Ok(value) => Ok(value),
            Err(fault) => Err($ex.fault(mount, target, fault)),
        }
    }};
}
pub(super) use guest_call;

impl<C: RouterComponent> Exchange<C> {
    /// Runs `call` on the session's router of mount `mount` (see
    /// [`guest_call!`]), for what the request itself does not name (lists,
    /// what the routers say of themselves).
    pub(super) async fn guest<T>(
        &mut self,
        mount: usize,
        call: impl AsyncFnOnce(&mut C::Router, &CallContext) -> GuestResult<T>,
    ) -> Result<T, RpcError> {
        guest_call!(self, mount, None, |r, cx| call(r, cx))
    }

    /// Readies a guest call of mount `mount` on behalf of `target`: the
    /// client link learns which router speaks, and the call gets its span.
    pub(super) fn enter_guest(&self, mount: usize, target: Option<(&str, &str)>) -> tracing::Span {
        if let Some(link) = self.request.link() {
            link.enter(mount);
        }
        // For a tracer: the guest's share of the request (debug level, so
        // that logs at the default level do not carry it).
        // A resource's URI is the client's: clipped, as every client text
        // in a span.
        let target_text = target.map(|(_, name)| clipped(name, CLIENT_TEXT_BYTES));
        tracing::debug_span!(
            target: crate::observe::TRACE_TARGET,
            "guest call",
            mcp.wit.component = self.server.label(mount),
            mcp.wit.target = target_text.as_deref(),
        )
    }

    pub(super) fn fault(&mut self, mount: usize, target: Option<(&str, &str)>, fault: GuestFault) -> RpcError {
        self.request.watch_mut().note_fault(fault.kind);
        let label = self.server.label(mount);
        let of = match target {
            Some((kind, name)) => format!("{kind} `{}`: ", clipped(name, CLIENT_TEXT_BYTES)),
            None => String::new(),
        };
        match fault.kind {
            FaultKind::Cancelled => {
                self.request.set_cancelled(true);
                tracing::info!(component = %label, "{of}{}; the instance is replaced", fault.message);
            }
            FaultKind::InputRequired => {
                tracing::debug!(component = %label, "{of}a question ends the round: input required");
            }
            FaultKind::Instantiate => {
                tracing::warn!(component = %label, "{of}cannot instantiate: {}", fault.message);
            }
            _ => tracing::warn!(component = %label, "{of}{}; the next request gets a fresh instance", fault.message),
        }
        // A WebAssembly trap's details (where, which instruction) are the
        // log's; the client hears what failed, in the guest's words when it
        // said any.
        RpcError::internal(match fault.trapped {
            Some(Some(said)) => format!("the router `{label}` failed: {said}"),
            Some(None) => {
                format!(
                    "the router `{label}` failed with an error it did not handle (the server's log has the details)"
                )
            }
            None => fault.message,
        })
    }
}
