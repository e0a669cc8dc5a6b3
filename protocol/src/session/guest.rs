//! Calling a mounted router and turning its faults into JSON-RPC errors.

use super::exchange::Exchange;
use crate::jsonrpc::RpcError;
use crate::router::{CallContext, FaultKind, GuestFault, GuestResult, RouterComponent};

impl<C: RouterComponent> Exchange<C> {
    /// Runs `call` on the session's router of mount `mount`, under the
    /// current request's context. A fault becomes -32603 (the router has
    /// already dropped the instance that faulted).
    pub(super) async fn guest<T>(
        &mut self,
        mount: usize,
        call: impl AsyncFnOnce(&mut C::Router, &CallContext) -> GuestResult<T>,
    ) -> Result<T, RpcError> {
        if let Some(link) = &self.cx.client {
            link.enter(mount);
        }
        match call(&mut self.open[mount], &self.cx).await {
            Ok(value) => Ok(value),
            Err(fault) => Err(self.fault(mount, fault)),
        }
    }

    fn fault(&mut self, mount: usize, fault: GuestFault) -> RpcError {
        let label = self.routers.mounts()[mount].component.label();
        match fault.kind {
            FaultKind::Cancelled => {
                self.cancelled = true;
                tracing::info!(component = %label, "{}; the instance is replaced", fault.message);
            }
            FaultKind::InputRequired => {
                tracing::debug!(component = %label, "a question ends the round: input required");
            }
            FaultKind::Instantiate => {
                tracing::warn!(component = %label, "cannot instantiate: {}", fault.message);
            }
            _ => tracing::warn!(component = %label, "{}; the next request gets a fresh instance", fault.message),
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
