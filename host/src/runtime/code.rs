//! What instances are made from: a component linked for each way of
//! calling it, or an Extism plugin; made on the engine it was compiled for,
//! or moved to the on-demand engine once the pool is full.

use std::sync::{Arc, OnceLock};

use mcp_wit_protocol::{CallMode, FaultKind, GuestFault};
use wasmtime::Engine;
use wasmtime::component::{Component, InstancePre};

use super::budget::Memory;
use super::extension;
use super::instance::RouterInstance;
use super::instance::{NotMade, OptionalExports, RouterExports, ServerPre};
use super::limits::Limits;
use super::load::{Imports, link};
#[cfg(feature = "extism")]
use super::plugin;
use super::presentation;
use super::store::StoreData;
use super::typed::{PackageDocs, TypedTools};
use crate::sandbox::SandboxPolicy;

/// What instances are made of: a component or an Extism plugin.
#[derive(Clone)]
// `allow`, not `expect`: which variant is largest depends on the features.
#[allow(clippy::large_enum_variant, reason = "one per loaded guest, behind an `Arc`")]
pub(super) enum Code {
    Component {
        /// Linked with blocking WASI.
        blocking: Linked,
        /// Linked with async WASI on first need: most processes call one way only.
        async_pre: OnceLock<Result<Linked, String>>,
        /// What it imports of the project's interfaces.
        imports: Imports,
    },
    /// A typed component: its exported functions, as tools.
    Typed {
        /// Linked with blocking WASI.
        blocking: InstancePre<StoreData>,
        /// Linked with async WASI on first need.
        async_pre: OnceLock<Result<InstancePre<StoreData>, String>>,
        tools: TypedTools,
        /// Its WIT's docs, for its tools found again on another engine.
        docs: Arc<PackageDocs>,
        /// What it imports that the host links only on import (`wasi:http`).
        imports: Imports,
    },
    /// A component that serves MCP itself (its calls always run on
    /// wasmtime's runtime).
    McpServer { pre: ServerPre },
    #[cfg(feature = "extism")]
    Plugin {
        linked: plugin::LinkedPlugin,
        /// What `config_get` finds: the environment the policy grants.
        config: Arc<std::collections::BTreeMap<String, String>>,
    },
}

/// What instances for one way of calling are made from: the linked
/// component and where its router functions are.
#[derive(Clone)]
pub(super) struct Linked {
    pub(super) pre: InstancePre<StoreData>,
    pub(super) exports: RouterExports,
    /// The extension's and the presentation's functions, for components
    /// that export them.
    pub(super) optional: OptionalExports,
}

impl Linked {
    pub(super) fn new(
        engine: &Engine,
        component: &Component,
        imports: Imports,
        calls: CallMode,
    ) -> wasmtime::Result<Self> {
        let pre = link(engine, component, imports, calls)?;
        // A middleware over a router without the extension exports it but
        // has nothing behind it: served as a router without the extension.
        let exports = RouterExports::find(component)?;
        // The extension's types are 25.3.26's: a 25.6.18 router has none.
        let extension = match (imports.extension, exports) {
            (true, _) | (_, RouterExports::V25_6_18(_)) => None,
            (false, RouterExports::V25_3_26(_)) => extension::ExtensionExports::find(component)?,
        };
        let presentation = presentation::PresentationExports::find(component)?;
        Ok(Linked { pre, exports, optional: OptionalExports { extension, presentation } })
    }
}

impl Code {
    /// The engine it was compiled for.
    pub(super) fn engine(&self) -> &Engine {
        match self {
            Code::Component { blocking, .. } => blocking.pre.engine(),
            Code::Typed { blocking, .. } => blocking.engine(),
            Code::McpServer { pre } => pre.instance_pre().engine(),
            #[cfg(feature = "extism")]
            Code::Plugin { linked, .. } => linked.engine(),
        }
    }

    pub(super) fn instantiate(
        &self,
        policy: &SandboxPolicy,
        limits: Limits,
        memory: Memory,
    ) -> Result<RouterInstance, NotMade> {
        match self {
            Code::Component { blocking: Linked { pre, exports, optional }, .. } => {
                RouterInstance::new(pre, exports, *optional, policy, limits, memory)
            }
            Code::Typed { blocking, tools, .. } => mcp_wit_protocol::block_on(RouterInstance::new_typed(
                blocking,
                tools,
                policy,
                (limits, memory),
                CallMode::Blocking,
            )),
            Code::McpServer { pre } => wasmtime_wasi::runtime::in_tokio(RouterInstance::new_mcp_server(
                pre,
                policy,
                (limits, memory),
                CallMode::Blocking,
            )),
            #[cfg(feature = "extism")]
            Code::Plugin { linked, config } => mcp_wit_protocol::block_on(RouterInstance::new_plugin(
                linked,
                policy,
                (limits, memory),
                CallMode::Blocking,
                config.clone(),
            )),
        }
    }

    pub(super) async fn instantiate_async(
        &self,
        policy: &SandboxPolicy,
        limits: Limits,
        memory: Memory,
    ) -> Result<RouterInstance, NotMade> {
        let (blocking, async_pre, imports) = match self {
            Code::Component { blocking, async_pre, imports } => (blocking, async_pre, *imports),
            Code::Typed { blocking, async_pre, tools, imports, .. } => {
                let pre = async_pre.get_or_init(|| {
                    link(blocking.engine(), blocking.component(), *imports, CallMode::Async)
                        .map_err(|e| format!("{e:#}"))
                });
                let pre = pre.as_ref().map_err(|message| {
                    GuestFault::new(
                        FaultKind::Instantiate,
                        format!("cannot link the component for async calls: {message}"),
                    )
                })?;
                return RouterInstance::new_typed(pre, tools, policy, (limits, memory), CallMode::Async).await;
            }
            Code::McpServer { pre } => {
                return RouterInstance::new_mcp_server(pre, policy, (limits, memory), CallMode::Async).await;
            }
            #[cfg(feature = "extism")]
            Code::Plugin { linked, config } => {
                return RouterInstance::new_plugin(linked, policy, (limits, memory), CallMode::Async, config.clone())
                    .await;
            }
        };
        let linked = async_pre.get_or_init(|| {
            let pre = &blocking.pre;
            Linked::new(pre.engine(), pre.component(), imports, CallMode::Async).map_err(|e| format!("{e:#}"))
        });
        let Linked { pre, exports, optional } = linked.as_ref().map_err(|message| {
            GuestFault::new(FaultKind::Instantiate, format!("cannot link the component for async calls: {message}"))
        })?;
        RouterInstance::new_async(pre, exports, *optional, policy, limits, memory).await
    }

    /// The same code on `engine`, which has this code's engine's settings:
    /// its compiled form is reused, not compiled again.
    pub(super) fn on(&self, engine: &Engine) -> Result<Code, String> {
        let moved = |e: wasmtime::Error| format!("the compiled code could not be moved to the on-demand engine: {e:#}");
        match self {
            Code::Component { blocking, imports, .. } => {
                let compiled = blocking.pre.component().serialize().map_err(moved)?;
                // SAFETY: `compiled` is what this process just serialized, for
                // an engine of the same settings as `engine`.
                let component = unsafe { Component::deserialize(engine, &compiled) }.map_err(moved)?;
                let blocking = Linked::new(engine, &component, *imports, CallMode::Blocking).map_err(moved)?;
                Ok(Code::Component { blocking, async_pre: OnceLock::new(), imports: *imports })
            }
            Code::Typed { blocking, docs, imports, .. } => {
                let compiled = blocking.component().serialize().map_err(moved)?;
                // SAFETY: as above.
                let component = unsafe { Component::deserialize(engine, &compiled) }.map_err(moved)?;
                let tools = TypedTools::find(engine, &component, docs).map_err(|e| moved(e.into()))?;
                let blocking = link(engine, &component, *imports, CallMode::Blocking).map_err(moved)?;
                Ok(Code::Typed { blocking, async_pre: OnceLock::new(), tools, docs: docs.clone(), imports: *imports })
            }
            Code::McpServer { pre } => {
                let compiled = pre.instance_pre().component().serialize().map_err(moved)?;
                // SAFETY: as above.
                let component = unsafe { Component::deserialize(engine, &compiled) }.map_err(moved)?;
                let shape = match pre {
                    #[cfg(feature = "outgoing-http")]
                    ServerPre::Http(_) => super::load::Shape::HttpServer,
                    #[cfg(feature = "outgoing-http")]
                    ServerPre::HttpP3(_) => super::load::Shape::HttpServerP3,
                    ServerPre::Command(_) => super::load::Shape::Command,
                };
                let imports = Imports::of(engine, &component);
                Ok(Code::McpServer {
                    pre: super::load::link_mcp_server(engine, &component, shape, imports).map_err(moved)?,
                })
            }
            #[cfg(feature = "extism")]
            Code::Plugin { linked, config } => {
                Ok(Code::Plugin { linked: linked.on(engine).map_err(moved)?, config: config.clone() })
            }
        }
    }
}
