//! `mcp-wit:extension/caller`: who made the request being served, as the
//! transport authenticated it (HTTP with authorization on). The session
//! hands each request's caller to the instance with the call's other
//! controls; this module only gives it to the guest as WIT values.

use wasmtime::StoreContextMut;
use wasmtime::component::{ComponentType, Linker, Lower};

use mcp_wit_protocol::auth::SharedCaller;

/// The interface's fully qualified name.
pub const CALLER_INTERFACE: &str = "mcp-wit:extension/caller@0.1.0";

/// Who made the request a store serves, as the host functions that name
/// the caller see the store.
pub trait CallerView {
    /// The request's caller, when the transport authenticated one.
    fn caller(&self) -> Option<&SharedCaller>;
}

/// `identity`.
#[derive(ComponentType, Lower)]
#[component(record)]
struct Identity {
    issuer: String,
    subject: String,
    #[component(name = "client-id")]
    client_id: Option<String>,
    scopes: Vec<String>,
}

/// Links `current`: the caller of the request in progress, if any.
pub(super) fn add_to_linker<T: CallerView + 'static>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    let mut caller = linker.instance(CALLER_INTERFACE)?;
    caller.func_wrap("current", |store: StoreContextMut<'_, T>, (): ()| {
        let identity = store.data().caller().map(|caller| Identity {
            issuer: caller.issuer.clone(),
            subject: caller.subject.clone(),
            client_id: caller.client_id.clone(),
            scopes: caller.scopes.clone(),
        });
        Ok((identity,))
    })?;
    Ok(())
}
