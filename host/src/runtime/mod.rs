//! The WebAssembly side: engine, loaded components and their instances.
//!
//! A [`Component`](LoadedComponent) is compiled and linked once
//! ([`InstancePre`](wasmtime::component::InstancePre)); every session then gets
//! its own [`RouterInstance`] from it, cheaply.

pub mod bindings;
pub mod engine;
mod instance;

use std::path::Path;
use std::sync::Arc;

use wasmtime::Engine;
use wasmtime::component::{Component, Linker};

use crate::error::LoadError;
use crate::sandbox::{GuestState, SandboxPolicy};
use bindings::McpRouterPre;

pub use instance::{GuestFault, RouterInstance};

/// The fully qualified name of the interface a router must export.
pub const ROUTER_INTERFACE: &str = "wasix:mcp/router@25.3.26";

/// A compiled, linked router component, ready to be instantiated many times.
#[derive(Clone)]
pub struct LoadedComponent {
    inner: Arc<Inner>,
}

struct Inner {
    pre: McpRouterPre<GuestState>,
    policy: SandboxPolicy,
}

impl LoadedComponent {
    /// Loads a component from a `.wasm` file.
    pub fn from_file(engine: &Engine, path: &Path, policy: SandboxPolicy) -> Result<Self, LoadError> {
        let bytes = std::fs::read(path).map_err(|source| LoadError::Read { path: path.to_owned(), source })?;
        Self::from_bytes(engine, &bytes, policy)
    }

    /// Loads a component from the bytes of a `.wasm` file.
    pub fn from_bytes(engine: &Engine, bytes: &[u8], policy: SandboxPolicy) -> Result<Self, LoadError> {
        check_is_component(bytes)?;
        let component = Component::new(engine, bytes).map_err(LoadError::Compile)?;
        Self::link(engine, component, policy)
    }

    fn link(engine: &Engine, component: Component, policy: SandboxPolicy) -> Result<Self, LoadError> {
        check_exports_router(engine, &component)?;
        let mut linker = Linker::<GuestState>::new(engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(LoadError::Link)?;
        let pre = linker.instantiate_pre(&component).map_err(LoadError::Link)?;
        let pre = McpRouterPre::new(pre).map_err(LoadError::Link)?;
        Ok(LoadedComponent { inner: Arc::new(Inner { pre, policy }) })
    }

    /// The label used for this component in logs and guest output.
    pub fn label(&self) -> &str {
        self.inner.policy.label()
    }

    /// Creates a fresh instance with its own memory and state.
    pub fn instantiate(&self) -> Result<RouterInstance, GuestFault> {
        RouterInstance::new(&self.inner.pre, &self.inner.policy)
    }
}

/// Rejects bytes that are not a WebAssembly component, with advice.
fn check_is_component(bytes: &[u8]) -> Result<(), LoadError> {
    if bytes.len() < 8 || &bytes[..4] != b"\0asm" {
        return Err(LoadError::NotWasm);
    }
    // A core module has layer 0 (bytes 6..8); a component has layer 1.
    if bytes[6..8] == [0, 0] {
        return Err(LoadError::CoreModule);
    }
    Ok(())
}

/// Fails with the names the component does export when it lacks the router.
fn check_exports_router(engine: &Engine, component: &Component) -> Result<(), LoadError> {
    let ty = component.component_type();
    let exports: Vec<String> = ty.exports(engine).map(|(name, _)| name.to_string()).collect();
    if exports.iter().any(|name| name == ROUTER_INTERFACE) {
        return Ok(());
    }
    Err(LoadError::WrongWorld { exports })
}
