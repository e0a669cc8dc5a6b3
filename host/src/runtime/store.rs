//! What each instance's store carries ([`StoreData`]) and how a store is
//! made: the sandbox's state, the call's control (deadline, cancellation,
//! memory), the request's client and caller, a plugin's kernel. The host
//! interfaces (client, caller, waits, the Extism kernel and functions) read
//! it; the instance module calls through it.

use std::sync::Arc;

use wasmtime::Store;
use wasmtime_wasi::{WasiCtxView, WasiView};
#[cfg(feature = "outgoing-http")]
use wasmtime_wasi_http::{WasiHttpCtxView, WasiHttpView};

use mcp_wit_protocol::auth::SharedCaller;
use mcp_wit_protocol::{CallMode, CancelFlag, ClientLink, FaultKind, GuestFault, TickHook};

use super::budget::InstanceMemory;
use super::limits::{CallControl, Limits};
#[cfg(feature = "extism")]
use super::plugin::kernel::{Kernel, KernelView};
use crate::sandbox::{SandboxPolicy, SandboxState};

/// What each instance's store carries: the sandboxed WASI state and the
/// host's control over the running call.
pub struct StoreData {
    pub(super) sandbox: SandboxState,
    pub(super) control: CallControl,
    pub(super) limits: Limits,
    /// The client of the request being served (routers that import
    /// `mcp-wit:extension/client`).
    pub(super) client: Option<ClientLink>,
    /// Who made the request being served, when it was authenticated.
    pub(super) caller: Option<SharedCaller>,
    /// An Extism plugin's kernel (`extism:host/env`).
    #[cfg(feature = "extism")]
    pub(super) kernel: Option<Box<Kernel>>,
}

#[cfg(feature = "extism")]
impl KernelView for StoreData {
    fn kernel(&mut self) -> &mut Kernel {
        self.kernel.as_deref_mut().expect("the kernel is linked for plugins only, whose stores have one")
    }
}

impl WasiView for StoreData {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        self.sandbox.ctx()
    }
}

impl StoreData {
    /// What a host-side wait of the running call must respect: the time
    /// left of its budget, its cancellation flag and the transport's tick hook.
    pub(super) fn call_wait_controls(&self) -> (std::time::Duration, CancelFlag, Option<TickHook>) {
        self.control.wait_controls()
    }

    /// The client of the request being served, if the session gave one.
    pub(super) fn client(&self) -> Option<&ClientLink> {
        self.client.as_ref()
    }

    /// Who made the request being served, when it was authenticated.
    pub(super) fn caller(&self) -> Option<&SharedCaller> {
        self.caller.as_ref()
    }

    /// A call's time budget.
    pub(super) fn timeout(&self) -> std::time::Duration {
        self.limits.timeout
    }

    /// Outgoing HTTP, which plugins reach through `http_request`.
    #[cfg(all(feature = "extism", feature = "outgoing-http"))]
    pub(super) fn outgoing_http(&self) -> &crate::sandbox::outgoing_http::OutgoingHttp {
        self.sandbox.outgoing_http()
    }

    /// WASI preview 1, which plugins import.
    #[cfg(feature = "extism")]
    pub(super) fn wasi_p1(&mut self) -> &mut wasmtime_wasi::p1::WasiP1Ctx {
        self.sandbox.p1()
    }
}

#[cfg(feature = "outgoing-http")]
impl WasiHttpView for StoreData {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        self.sandbox.http()
    }
}

/// A store for one instance, its limits armed for instantiation (which runs
/// guest start code). `yields`: the store's calls are async, and give their
/// thread back to the executor at every epoch tick.
pub(super) fn new_store(
    engine: &wasmtime::Engine,
    policy: &SandboxPolicy,
    limits: Limits,
    calls: CallMode,
    memory: Arc<InstanceMemory>,
) -> Result<Store<StoreData>, GuestFault> {
    let sandbox =
        policy.instance_state(limits.timeout).map_err(|e| GuestFault::new(FaultKind::Instantiate, e.to_string()))?;
    Ok(store_with(engine, sandbox, limits, calls, memory))
}

/// A store for one instance with `sandbox`, its limits armed for
/// instantiation.
pub(super) fn store_with(
    engine: &wasmtime::Engine,
    sandbox: SandboxState,
    limits: Limits,
    calls: CallMode,
    memory: Arc<InstanceMemory>,
) -> Store<StoreData> {
    let data = StoreData {
        sandbox,
        control: CallControl::new(limits, calls, memory),
        limits,
        client: None,
        caller: None,
        #[cfg(feature = "extism")]
        kernel: None,
    };
    let mut store = Store::new(engine, data);
    store.limiter(|data| &mut data.control);
    store.epoch_deadline_callback(|store| store.data().control.on_tick());
    store.data_mut().control.begin_call(&CancelFlag::default(), None);
    store.set_epoch_deadline(1);
    store
}
