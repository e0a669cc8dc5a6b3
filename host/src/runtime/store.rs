//! What each instance's store carries ([`StoreData`]) and how a store is
//! made: the sandbox's state, the call's control (deadline, cancellation,
//! memory), the request's client and caller, a plugin's kernel.
//!
//! The host interfaces never name this type: each one is generic over a
//! view trait of its own (`CallView`, `ClientView`, `CallerView`,
//! `KernelView`, `PluginHttpView`, and wasmtime-wasi's `WasiView`), which
//! this module implements. Only the linkers (`load`, `plugin`) and the
//! instance, which make and call stores, know it.

use std::sync::Arc;

use wasmtime::Store;
use wasmtime_wasi::{WasiCtxView, WasiView};
#[cfg(feature = "outgoing-http")]
use wasmtime_wasi_http::{WasiHttpCtxView, WasiHttpView};

use mcp_wit_protocol::auth::SharedCaller;
use mcp_wit_protocol::{CallContext, CallMode, CancelFlag, ClientLink, FaultKind, GuestFault};

use super::budget::InstanceMemory;
use super::caller::CallerView;
use super::client::ClientView;
use super::limits::{CallControl, CallView, Limits};
#[cfg(all(feature = "extism", feature = "outgoing-http"))]
use super::plugin::http_request::PluginHttpView;
#[cfg(feature = "extism")]
use super::plugin::kernel::{Kernel, KernelView};
use crate::sandbox::{SandboxPolicy, SandboxState};

/// What each instance's store carries: the sandboxed WASI state and the
/// host's control over the running call.
pub struct StoreData {
    pub(super) sandbox: SandboxState,
    pub(super) control: CallControl,
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

impl CallView for StoreData {
    fn call_control(&self) -> &CallControl {
        &self.control
    }
}

impl ClientView for StoreData {
    fn client(&self) -> Option<&ClientLink> {
        self.client.as_ref()
    }
}

impl CallerView for StoreData {
    fn caller(&self) -> Option<&SharedCaller> {
        self.caller.as_ref()
    }
}

#[cfg(all(feature = "extism", feature = "outgoing-http"))]
impl PluginHttpView for StoreData {
    fn outgoing_http(&self) -> &crate::sandbox::outgoing_http::OutgoingHttp {
        self.sandbox.outgoing_http()
    }
}

impl StoreData {
    /// Arms the next calls as `cx` says (see `RouterInstance::begin_request`).
    pub(super) fn begin_request(&mut self, cx: &CallContext) {
        self.control.begin_call(&cx.cancel, cx.tick_hook.as_ref(), cx.task.as_ref());
        self.sandbox.output().begin_request(cx.request_id.as_ref());
        // Most requests have no client link or caller: leave `None` alone.
        if self.client.is_some() || cx.client.is_some() {
            self.client = cx.client.clone();
        }
        if self.caller.is_some() || cx.caller.is_some() {
            self.caller = cx.caller.clone();
        }
    }

    /// Drops what must not outlive the request: the client link (it holds
    /// the request's stream open) and the caller.
    pub(super) fn end_request(&mut self) {
        self.client = None;
        self.caller = None;
        self.sandbox.output().end_request();
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

/// Arms `store` for a call into its guest: the guest's output starts a
/// new call (for a trap's message), and the epoch deadline is one tick away
/// (its callback then checks the call's own deadline).
pub(super) fn arm_call(store: &mut Store<StoreData>) {
    store.data().sandbox.output().begin_call();
    store.set_epoch_deadline(1);
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
        client: None,
        caller: None,
        #[cfg(feature = "extism")]
        kernel: None,
    };
    let mut store = Store::new(engine, data);
    store.limiter(|data| &mut data.control);
    store.epoch_deadline_callback(|store| store.data().control.on_tick());
    store.data_mut().control.begin_call(&CancelFlag::default(), None, None);
    store.set_epoch_deadline(1);
    store
}
