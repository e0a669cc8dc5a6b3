//! A plugin linked for each way of calling it: the kernel, the host
//! functions of the schema, WASI preview 1 and its bounded clock.

use std::sync::OnceLock;

use mcp_wit_protocol::{CallMode, FaultKind, GuestFault};
use wasmtime::{Engine, InstancePre, Linker, Module};

use super::detect::{PluginKind, PluginLoadError, PluginSignals, detect};
#[cfg(feature = "outgoing-http")]
use super::http_request;
use super::user::{self, USER_MODULE};
use super::{caller_identity, clock, kernel};
use crate::runtime::store::StoreData;

/// A compiled plugin, linked for each way of calling it.
#[derive(Clone)]
pub(crate) struct LinkedPlugin {
    pub(crate) kind: PluginKind,
    pub(crate) signals: PluginSignals,
    /// Whether it imports any host function of [`user`].
    pub(crate) talks_back: bool,
    blocking: InstancePre<StoreData>,
    async_pre: OnceLock<Result<InstancePre<StoreData>, String>>,
}

impl LinkedPlugin {
    /// Checks `module` is a plugin and links it (kernel, WASI preview 1).
    pub(crate) fn new(engine: &Engine, module: &Module) -> Result<Self, PluginLoadError> {
        let kind = detect(module)?;
        let blocking = link(engine, module, CallMode::Blocking).map_err(PluginLoadError::Link)?;
        let talks_back = module.imports().any(|i| i.module() == USER_MODULE);
        Ok(LinkedPlugin { kind, signals: PluginSignals::of(module), talks_back, blocking, async_pre: OnceLock::new() })
    }

    /// The engine it was compiled for.
    pub(crate) fn engine(&self) -> &Engine {
        self.blocking.module().engine()
    }

    /// The same plugin on `engine`, which has this plugin's engine's
    /// settings: its compiled form is reused, not compiled again.
    pub(crate) fn on(&self, engine: &Engine) -> wasmtime::Result<Self> {
        let compiled = self.blocking.module().serialize()?;
        // SAFETY: `compiled` is what this process just serialized, for an
        // engine of the same settings as `engine`.
        let module = unsafe { Module::deserialize(engine, &compiled) }?;
        let blocking = link(engine, &module, CallMode::Blocking)?;
        Ok(LinkedPlugin { blocking, async_pre: OnceLock::new(), ..self.clone() })
    }

    /// What instances for calls made `calls` are made from.
    pub(crate) fn pre(&self, calls: CallMode) -> Result<&InstancePre<StoreData>, GuestFault> {
        match calls {
            CallMode::Blocking => Ok(&self.blocking),
            CallMode::Async => {
                let linked = self.async_pre.get_or_init(|| {
                    link(self.blocking.module().engine(), self.blocking.module(), CallMode::Async)
                        .map_err(|e| format!("{e:#}"))
                });
                linked.as_ref().map_err(|message| {
                    GuestFault::new(
                        FaultKind::Instantiate,
                        format!("cannot link the plugin for async calls: {message}"),
                    )
                })
            }
        }
    }
}

fn link(engine: &Engine, module: &Module, calls: CallMode) -> wasmtime::Result<InstancePre<StoreData>> {
    let mut linker = Linker::<StoreData>::new(engine);
    kernel::add_to_linker(&mut linker)?;
    #[cfg(feature = "outgoing-http")]
    http_request::add_to_linker(&mut linker, calls)?;
    user::add_to_linker(&mut linker, calls)?;
    caller_identity::add_to_linker(&mut linker)?;
    match calls {
        CallMode::Blocking => wasmtime_wasi::p1::add_to_linker_sync(&mut linker, StoreData::wasi_p1)?,
        CallMode::Async => wasmtime_wasi::p1::add_to_linker_async(&mut linker, StoreData::wasi_p1)?,
    }
    crate::sandbox::symlinks::add_to_p1_linker(&mut linker)?;
    clock::bound_sleeps(&mut linker, calls)?;
    linker.instantiate_pre(module)
}
