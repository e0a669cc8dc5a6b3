//! A component instance's `mcp-wit:extension/presentation` export, asked
//! for its decorations whatever contract the component's router follows.

use wasmtime::Store;
use wasmtime::component::Instance;

use mcp_wit_protocol::{CallMode, GuestFault, GuestResult};

use super::fault::FaultFrom;
use super::funcs::LazyFuncs;
use crate::runtime::limits::CallView;
use crate::runtime::presentation::{
    Decoration, Decorations, PRESENTATION_FUNCTIONS, PRESENTATION_INTERFACE, PresentationExports,
};
use crate::runtime::store::{StoreData, arm_call};

/// Where an instance's `decorations` is.
pub(super) struct Presenting {
    instance: Instance,
    funcs: LazyFuncs<{ PRESENTATION_FUNCTIONS.len() }>,
}

impl Presenting {
    pub(super) fn new(instance: Instance, found: PresentationExports) -> Self {
        Presenting { instance, funcs: LazyFuncs::new(PRESENTATION_INTERFACE, &PRESENTATION_FUNCTIONS, found.0) }
    }

    /// Calls `decorations()` under the call's limits (its type checked
    /// here: it is asked rarely, beside a list or a read).
    pub(super) async fn decorations(&mut self, store: &mut Store<StoreData>) -> GuestResult<Decorations> {
        let func = self.funcs.get(&self.instance, store, 0)?;
        let typed = func.typed::<(), (Vec<Decoration>,)>(&*store).map_err(|e| {
            GuestFault::new(
                mcp_wit_protocol::FaultKind::Trap,
                format!("`decorations` does not have the type `{PRESENTATION_INTERFACE}` gives it: {e}"),
            )
        })?;
        arm_call(store);
        let result = match store.data().call_control().mode() {
            CallMode::Blocking => typed.call(&mut *store, ()),
            CallMode::Async => typed.call_async(&mut *store, ()).await,
        };
        let (given,) = result.map_err(|e| GuestFault::from_error("decorations", e, store.data()))?;
        Ok(Decorations::from_given(given))
    }
}
