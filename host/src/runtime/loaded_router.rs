//! A loaded router: compiled and linked once, then instantiated per
//! session (or per call, or per principal) under its settings.

use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use mcp_wit_protocol::{CacheHint, CallMode, FaultKind, GuestFault};
use tracing::Instrument;
use wasmtime::component::Component;
use wasmtime::{Engine, Precompiled};

use super::budget::{InstanceMemory, Memory, MemoryBudget};
use super::cache::{self, CompileCache};
use super::code::{Code, Linked};
use super::engine;
use super::instance::{NotMade, ROUTER_INTERFACE, RouterExports, RouterInstance, ServerPre};
use super::kept::Kept;
use super::limits::Limits;
use super::load::{
    Imports, NO_ROUTER_PLUGGED, Shape, check_is_component, check_memory_cap, check_router_types, read_guest_file,
    shape_of, surely_within_memory_cap,
};
#[cfg(feature = "extism")]
use super::plugin;
use super::sharing::{DEFAULT_MAX_CALLERS, InstanceMode, InstanceReuse};
use super::typed::{PackageDocs, TypedTools};
use super::v25_6_18::ROUTER_INTERFACE_25_6_18;
use crate::error::LoadError;
use crate::sandbox::SandboxPolicy;
use crate::telemetry::{ComponentStats, Metrics};

/// A compiled, linked router component, ready to be instantiated many times.
#[derive(Clone)]
pub struct LoadedRouter {
    pub(super) inner: Arc<Inner>,
}

/// What the clones of a [`LoadedRouter`] share.
pub(super) struct Inner {
    pub(super) code: Code,
    pub(super) policy: SandboxPolicy,
    pub(super) limits: Limits,
    /// The server's memory budget, which instances draw from.
    pub(super) budget: Arc<MemoryBudget>,
    pub(super) instance_mode: InstanceMode,
    pub(super) cache_hint: CacheHint,
    /// After how long idle a session's own instance is released.
    pub(super) instance_idle_timeout: Option<std::time::Duration>,
    /// Instances handed back for reuse, if any.
    pub(super) reuse: InstanceReuse,
    /// Most principals with an instance of their own ([`InstanceMode::PerCaller`]).
    pub(super) max_callers: usize,
    /// What instances outlive their sessions.
    pub(super) kept: Arc<Kept>,
    /// `code` on the engine that allocates on demand, once the pool was
    /// full (see `engine::overflow_of`).
    pub(super) overflow: OnceLock<Result<Code, String>>,
    /// What its instances count, once one is made with metrics installed.
    pub(super) stats: OnceLock<Arc<ComponentStats>>,
    /// The optimised code, once it is ready, when `code` is the baseline
    /// compiler's (see `engine::baseline_of`); shared by every copy.
    pub(super) optimised: Arc<OnceLock<Code>>,
}

impl Clone for Inner {
    fn clone(&self) -> Self {
        Inner {
            code: self.code.clone(),
            policy: self.policy.clone(),
            limits: self.limits,
            budget: self.budget.clone(),
            instance_mode: self.instance_mode,
            cache_hint: self.cache_hint,
            instance_idle_timeout: self.instance_idle_timeout,
            reuse: self.reuse,
            max_callers: self.max_callers,
            // A component with other settings keeps instances of its own.
            kept: Arc::default(),
            overflow: self.overflow.clone(),
            stats: OnceLock::new(),
            optimised: self.optimised.clone(),
        }
    }
}

impl LoadedRouter {
    /// Loads a component from a `.wasm` file, compiling it (no cache).
    pub fn from_file(engine: &Engine, path: &Path, policy: SandboxPolicy) -> Result<Self, LoadError> {
        let bytes = read_guest_file(path)?;
        Self::from_bytes(engine, &bytes, policy)
    }

    /// Loads a component from a `.wasm` file through `cache`, or a `.cwasm`
    /// that `mcp-wit compile` (or [`compile`](super::compile)) wrote for this engine.
    ///
    /// A `.cwasm` is machine code the host will run: only load files you
    /// compiled yourself (see [`Self::from_precompiled`]).
    pub fn load(
        engine: &Engine,
        path: &Path,
        policy: SandboxPolicy,
        cache: Option<&CompileCache>,
    ) -> Result<Self, LoadError> {
        // A cache hit needs no more of the file than its hash: it is not read
        // into memory (an interpreter's component is tens of MB), and the
        // entry is mapped, not read. Anything else goes the way below.
        if let Some(cache) = cache {
            let started = std::time::Instant::now();
            match cache.hit_for_file(engine, path) {
                Some(cache::FileHit::Component(component)) if surely_within_memory_cap(engine, &component) => {
                    tracing::debug!(outcome = ?cache::CacheOutcome::Hit, elapsed = ?started.elapsed(), "component ready");
                    // Only a typed component's docs are wanted, and only then is the file read.
                    let docs =
                        || read_guest_file(path).map(|bytes| PackageDocs::in_component(&bytes)).unwrap_or_default();
                    return Self::link(engine, component, policy, docs);
                }
                #[cfg(feature = "extism")]
                Some(cache::FileHit::Plugin(module)) => return Self::plugin(engine, &module, policy),
                // A memory that may start above the cap: the file says.
                Some(cache::FileHit::Component(_)) | None => {}
            }
        }
        let bytes = read_guest_file(path)?;
        match Engine::detect_precompiled(&bytes) {
            // SAFETY: the operator named this file to be run, as they would a
            // binary; `deserialize` still checks it was made by this engine.
            Some(Precompiled::Component) => unsafe { Self::from_precompiled(engine, &bytes, policy) },
            // SAFETY: as above.
            #[cfg(feature = "extism")]
            Some(Precompiled::Module) => unsafe { Self::from_precompiled_plugin(engine, &bytes, policy) },
            #[cfg(not(feature = "extism"))]
            Some(Precompiled::Module) => Err(LoadError::CoreModule),
            None => Self::from_bytes_cached(engine, &bytes, policy, cache),
        }
    }

    /// Loads a component from the bytes of a `.wasm` file (no cache).
    pub fn from_bytes(engine: &Engine, bytes: &[u8], policy: SandboxPolicy) -> Result<Self, LoadError> {
        Self::from_bytes_cached(engine, bytes, policy, None)
    }

    /// Loads a component from `.wasm` bytes, through `cache` when given.
    pub fn from_bytes_cached(
        engine: &Engine,
        bytes: &[u8],
        policy: SandboxPolicy,
        cache: Option<&CompileCache>,
    ) -> Result<Self, LoadError> {
        match check_is_component(bytes) {
            // A core module: an Extism plugin, if it is one.
            #[cfg(feature = "extism")]
            Err(LoadError::CoreModule) => {
                let module = compiled::<wasmtime::Module>(engine, bytes, cache)?;
                return Self::plugin(engine, &module, policy);
            }
            checked => checked?,
        }
        let engine = &super::load::engine_for(engine, bytes)?;
        check_memory_cap(engine, bytes)?;
        #[cfg(feature = "compiler")]
        if let Some(baseline) = engine::baseline_of(engine) {
            match (cache.and_then(|cache| cache.hit(engine, bytes)), baseline) {
                (Some(component), _) => {
                    return Self::link(engine, component, policy, || PackageDocs::in_component(bytes));
                }
                (None, Ok(baseline)) => return Self::baseline_first(engine, &baseline, bytes, policy, cache),
                (None, Err(why)) => tracing::warn!("no baseline compiler ({why}): compiling the optimised code first"),
            }
        }
        let component = compiled::<Component>(engine, bytes, cache)?;
        Self::link(engine, component, policy, || PackageDocs::in_component(bytes))
    }

    /// The code new instances are made from: the optimised code once it is
    /// ready, else what was loaded.
    fn code(&self) -> &Code {
        self.inner.optimised.get().unwrap_or(&self.inner.code)
    }

    /// Whether new instances run optimised code: false while code from the
    /// baseline compiler serves and the optimised code compiles (see
    /// [`EngineOptions::baseline_first`](super::engine::EngineOptions::baseline_first)),
    /// e.g. for a readiness probe that waits for full speed.
    pub fn optimised(&self) -> bool {
        self.inner.optimised.get().is_some() || engine::baseline_base(self.inner.code.engine()).is_none()
    }

    /// Loads a component compiled ahead of time by [`compile`](super::compile).
    ///
    /// # Safety
    ///
    /// The bytes are run as machine code. Wasmtime checks that they were
    /// produced by a compatible engine, but cannot tell a tampered file from a
    /// genuine one: pass only files you produced (see
    /// [`wasmtime::component::Component::deserialize`]).
    pub unsafe fn from_precompiled(engine: &Engine, bytes: &[u8], policy: SandboxPolicy) -> Result<Self, LoadError> {
        // SAFETY: forwarded to the caller.
        let component = match unsafe { Component::deserialize(engine, bytes) } {
            Ok(component) => component,
            // Compiled for the engine of components that need concurrency?
            #[cfg(feature = "outgoing-http")]
            Err(error) => super::engine::concurrent_of(engine)
                .ok()
                // SAFETY: forwarded to the caller.
                .and_then(|concurrent| unsafe { Component::deserialize(&concurrent, bytes) }.ok())
                .ok_or(LoadError::Precompiled(error))?,
            #[cfg(not(feature = "outgoing-http"))]
            Err(error) => return Err(LoadError::Precompiled(error)),
        };
        let engine = &component.engine().clone();
        // Compiled code keeps no custom section: a typed component's tools
        // have no docs.
        Self::link(engine, component, policy, PackageDocs::default)
    }

    /// Links `component` as its shape says; `docs` gives its WIT's docs,
    /// asked for only if they are wanted (for a typed component's tools).
    pub(super) fn link(
        engine: &Engine,
        component: Component,
        policy: SandboxPolicy,
        docs: impl FnOnce() -> PackageDocs,
    ) -> Result<Self, LoadError> {
        let imports = Imports::of(engine, &component);
        let shape = shape_of(engine, &component, imports)?;
        if matches!(shape, Shape::HttpServer | Shape::HttpServerP3 | Shape::Command) {
            let pre = super::load::link_mcp_server(engine, &component, shape, imports).map_err(LoadError::Link)?;
            return Ok(Self::with_code(Code::McpServer { pre }, policy));
        }
        if shape == Shape::Typed {
            let docs = Arc::new(docs());
            let tools = TypedTools::find(engine, &component, &docs)?;
            let blocking =
                super::load::link(engine, &component, imports, CallMode::Blocking).map_err(LoadError::Link)?;
            return Ok(Self::with_code(
                Code::Typed { blocking, async_pre: OnceLock::new(), tools, docs, imports },
                policy,
            ));
        }
        let blocking = Linked::new(engine, &component, imports, CallMode::Blocking).map_err(LoadError::Link)?;
        check_router_types(&component, &blocking.pre, blocking.exports, policy.label())?;
        let code = Code::Component { blocking, async_pre: OnceLock::new(), imports };
        let loaded = Self::with_code(code, policy);
        if imports.router {
            loaded.check_router_plugged()?;
        }
        Ok(loaded)
    }

    fn with_code(code: Code, policy: SandboxPolicy) -> Self {
        let inner = Inner {
            code,
            policy,
            limits: Limits::default(),
            budget: MemoryBudget::unlimited(),
            instance_mode: InstanceMode::default(),
            cache_hint: CacheHint::default(),
            instance_idle_timeout: None,
            reuse: InstanceReuse::default(),
            max_callers: DEFAULT_MAX_CALLERS,
            kept: Arc::default(),
            overflow: OnceLock::new(),
            stats: OnceLock::new(),
            optimised: Arc::default(),
        };
        LoadedRouter { inner: Arc::new(inner) }
    }

    /// An Extism plugin compiled ahead of time by [`compile`](super::compile).
    ///
    /// # Safety
    ///
    /// As [`Self::from_precompiled`]: the bytes are run as machine code.
    #[cfg(feature = "extism")]
    pub unsafe fn from_precompiled_plugin(
        engine: &Engine,
        bytes: &[u8],
        policy: SandboxPolicy,
    ) -> Result<Self, LoadError> {
        // SAFETY: forwarded to the caller.
        let module = unsafe { wasmtime::Module::deserialize(engine, bytes) }.map_err(LoadError::Precompiled)?;
        Self::plugin(engine, &module, policy)
    }

    /// An Extism plugin (a compiled core module), checked and linked.
    #[cfg(feature = "extism")]
    fn plugin(engine: &Engine, module: &wasmtime::Module, policy: SandboxPolicy) -> Result<Self, LoadError> {
        let linked = plugin::LinkedPlugin::new(engine, module)?;
        let config = policy.env().iter().cloned().collect();
        Ok(Self::with_code(Code::Plugin { linked, config: Arc::new(config) }, policy))
    }

    /// Whether this is an Extism plugin (a core module), not a component.
    pub fn is_plugin(&self) -> bool {
        match &self.inner.code {
            Code::Component { .. } | Code::Typed { .. } => false,
            Code::McpServer { .. } => false,
            #[cfg(feature = "extism")]
            Code::Plugin { .. } => true,
        }
    }

    /// The router interface a component exports ([`ROUTER_INTERFACE`] or
    /// [`ROUTER_INTERFACE_25_6_18`]); none for a typed component or a plugin.
    pub fn router_interface(&self) -> Option<&'static str> {
        match &self.inner.code {
            Code::Component { blocking, .. } => Some(match blocking.exports {
                RouterExports::V25_3_26(_) => ROUTER_INTERFACE,
                RouterExports::V25_6_18(_) => ROUTER_INTERFACE_25_6_18,
            }),
            Code::Typed { .. } => None,
            Code::McpServer { .. } => None,
            #[cfg(feature = "extism")]
            Code::Plugin { .. } => None,
        }
    }

    /// The names of its tools when they are fixed at load and it offers
    /// nothing else: a typed component's. Beside other components it may
    /// be served without a prefix.
    pub fn fixed_tool_names(&self) -> Option<Arc<[String]>> {
        match &self.inner.code {
            Code::Typed { tools, .. } => Some(tools.names()),
            _ => None,
        }
    }

    /// What kind of guest this is: a router component, a typed component,
    /// a component that serves MCP itself, or which kind of Extism plugin.
    pub fn kind(&self) -> &'static str {
        match &self.inner.code {
            Code::Component { blocking, .. } => match blocking.exports {
                RouterExports::V25_3_26(_) => "component (wasix:mcp/router@25.3.26)",
                RouterExports::V25_6_18(_) => "component (wasix:mcp/router@25.6.18)",
            },
            Code::Typed { .. } => "typed component (its exported functions as tools)",
            Code::McpServer { pre } => match pre {
                #[cfg(feature = "outgoing-http")]
                ServerPre::Http(_) => {
                    "MCP server over wasi:http (wasi:http/incoming-handler@0.2), reached as its client"
                }
                #[cfg(feature = "outgoing-http")]
                ServerPre::HttpP3(_) => {
                    "MCP server over wasi:http for WASIp3 (wasi:http/handler@0.3), reached as its client"
                }
                ServerPre::Command(_) => "MCP server over stdio (a wasi:cli/run command), reached as its client",
            },
            #[cfg(feature = "extism")]
            Code::Plugin { linked, .. } => linked.kind.describe(),
        }
    }

    /// A composition that still imports the router (see [`Imports::router`])
    /// is served only if a router was plugged in: its name comes from that
    /// router, not from the host's stand-in.
    fn check_router_plugged(&self) -> Result<(), LoadError> {
        let mut instance = self.instantiate().map_err(|fault| LoadError::Link(wasmtime::Error::msg(fault.message)))?;
        match instance.name() {
            Err(fault) if fault.message.contains(NO_ROUTER_PLUGGED) => Err(LoadError::UnpluggedMiddleware),
            _ => Ok(()),
        }
    }

    /// Sets the limits every new instance runs under.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        Arc::make_mut(&mut self.inner).limits = limits;
        self
    }

    /// Draws every new instance's memory from `budget`, which other
    /// components may share: past it, idle instances are released (the
    /// longest idle first) and then growth is refused (see
    /// [`MemoryBudget`]). Unlimited by default.
    pub fn with_memory_budget(mut self, budget: Arc<MemoryBudget>) -> Self {
        Arc::make_mut(&mut self.inner).budget = budget;
        self
    }

    /// The budget instances draw their memory from.
    pub fn memory_budget(&self) -> &Arc<MemoryBudget> {
        &self.inner.budget
    }

    /// Sets how sessions share instances (one per session by default).
    pub fn with_instance_mode(mut self, mode: InstanceMode) -> Self {
        Arc::make_mut(&mut self.inner).instance_mode = mode;
        self
    }

    /// How sessions share instances.
    pub fn instance_mode(&self) -> InstanceMode {
        self.inner.instance_mode
    }

    /// Lets instances serve several sessions (or calls, in
    /// [`InstanceMode::PerRequest`]) one after the other, guest state and
    /// all, never across principals (see [`InstanceReuse`]). Off by default.
    pub fn with_instance_reuse(mut self, reuse: InstanceReuse) -> Self {
        Arc::make_mut(&mut self.inner).reuse = reuse;
        self
    }

    /// Bounds how many principals keep an instance in
    /// [`InstanceMode::PerCaller`] ([`DEFAULT_MAX_CALLERS`] by default): past
    /// it, the least recently used one's goes.
    pub fn with_max_callers(mut self, max: usize) -> Self {
        Arc::make_mut(&mut self.inner).max_callers = max;
        self
    }

    /// Sets how long and by whom modern (2026-07-28) clients may cache this
    /// router's lists and reads (`ttlMs`, `cacheScope`; one public minute
    /// by default). Make it private when results depend on who asks.
    pub fn with_cache_hint(mut self, hint: CacheHint) -> Self {
        Arc::make_mut(&mut self.inner).cache_hint = hint;
        self
    }

    /// Lets a session's own instance ([`InstanceMode::PerSession`]) go once
    /// the session has not called it for `timeout`: the HTTP transports
    /// release it, and the session's next call makes a fresh one. It also
    /// bounds how long a principal's instance ([`InstanceMode::PerCaller`],
    /// [`DEFAULT_CALLER_IDLE`](super::DEFAULT_CALLER_IDLE) without it) and a handed-back one
    /// ([`InstanceReuse`], a minute without it) wait unused. The
    /// guest's state (what it kept between calls) is lost, so this is for
    /// components that keep none worth keeping, or can rebuild it. `None`
    /// (the default): instances live as long as their sessions.
    pub fn with_instance_idle_timeout(mut self, timeout: Option<std::time::Duration>) -> Self {
        Arc::make_mut(&mut self.inner).instance_idle_timeout = timeout;
        self
    }

    /// See [`Self::with_instance_idle_timeout`].
    pub fn instance_idle_timeout(&self) -> Option<std::time::Duration> {
        self.inner.instance_idle_timeout
    }

    /// The sandbox policy instances run under.
    pub fn policy(&self) -> &SandboxPolicy {
        &self.inner.policy
    }

    /// The limits instances run under.
    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// The label used for this component in logs and guest output.
    pub fn label(&self) -> &str {
        self.inner.policy.label()
    }

    /// The same component under another label (in logs, metrics, traces and
    /// its output's prefix).
    pub fn with_label(mut self, label: impl Into<Arc<str>>) -> Self {
        let inner = Arc::make_mut(&mut self.inner);
        inner.policy = inner.policy.clone().with_label(label);
        self
    }

    /// A fresh instance for calls made `calls`.
    pub async fn instantiate_for(&self, calls: CallMode) -> Result<RouterInstance, GuestFault> {
        match calls {
            CallMode::Blocking => self.instantiate(),
            // Boxed: instantiating is a large future, and inline it would
            // sit in every call's future, copied with it, when most calls
            // find an instance ready.
            CallMode::Async => Box::pin(self.instantiate_async()).await,
        }
    }

    /// Creates a fresh instance with its own memory and state, for blocking
    /// calls on the caller's thread.
    pub fn instantiate(&self) -> Result<RouterInstance, GuestFault> {
        let inner = &self.inner;
        let _span = self.instantiation_span().entered();
        let started = Instant::now();
        let made = match self.code().instantiate(&inner.policy, inner.limits, self.memory()) {
            Err(NotMade::PoolFull(full)) => {
                self.overflow(full, false)?.instantiate(&inner.policy, inner.limits, self.memory())
            }
            made => made,
        };
        self.instantiated(started, made.is_ok());
        made.map_err(NotMade::into_fault)
    }

    /// Creates a fresh instance for async calls (the `_async` methods of
    /// [`RouterInstance`]), linked with WASI's async implementation: the guest
    /// runs on the executor's thread, on a fiber that gives the thread back
    /// while the guest waits on the host and at every epoch tick, so a long
    /// call holds up no other task.
    ///
    /// Each instance keeps a fiber stack, so the engine needs one per
    /// instance ([`EngineOptions::async_calls`](engine::EngineOptions::async_calls)).
    pub async fn instantiate_async(&self) -> Result<RouterInstance, GuestFault> {
        let inner = &self.inner;
        let started = Instant::now();
        let making = async {
            match self.code().instantiate_async(&inner.policy, inner.limits, self.memory()).await {
                Err(NotMade::PoolFull(full)) => {
                    self.overflow(full, true)?.instantiate_async(&inner.policy, inner.limits, self.memory()).await
                }
                made => made,
            }
        };
        let made = making.instrument(self.instantiation_span()).await;
        self.instantiated(started, made.is_ok());
        made.map_err(NotMade::into_fault)
    }

    /// The span of one instantiation, for a tracer.
    fn instantiation_span(&self) -> tracing::Span {
        tracing::debug_span!(target: crate::telemetry::TRACE_TARGET, "instantiate", mcp.wit.component = self.label())
    }

    /// Records an instantiation that took since `started`, when metrics
    /// are installed.
    fn instantiated(&self, started: Instant, made: bool) {
        if let (true, Some(metrics)) = (made, Metrics::global()) {
            metrics.instantiated(self.label(), started.elapsed());
        }
    }

    /// A new instance's memory account: its cap, in the server's budget,
    /// counted for its component.
    fn memory(&self) -> Memory {
        let stats = match self.inner.stats.get() {
            Some(stats) => Some(stats.clone()),
            // Metrics may be installed after the component was loaded.
            None => Metrics::global()
                .map(|_| self.inner.stats.get_or_init(|| ComponentStats::tracked(self.label())).clone()),
        };
        InstanceMemory::counted(self.inner.limits.max_memory, self.inner.budget.clone(), stats)
    }

    /// What instances are made from once the engine's pool is `full`: the
    /// same code on the engine that allocates on demand, linked on first
    /// need.
    fn overflow(&self, full: wasmtime::Error, async_instance: bool) -> Result<&Code, GuestFault> {
        let fault = |message: String| GuestFault::new(FaultKind::Instantiate, message);
        let engine = match engine::overflow_of(self.code().engine(), async_instance, &full) {
            engine::Overflow::None => return Err(fault(format!("{full:#}"))),
            engine::Overflow::NoFibers => {
                return Err(fault(format!(
                    "no fiber stack is free for an async call ({full:#}): build the engine with \
                     `EngineOptions::async_calls`, which keeps one per instance, or call the guest blocking"
                )));
            }
            engine::Overflow::OnDemand(engine) => engine.map_err(|e| {
                fault(format!("the instance pool is full ({full:#}) and no on-demand engine could be made: {e}"))
            })?,
        };
        let code = self.inner.overflow.get_or_init(|| self.code().on(&engine));
        code.as_ref().map_err(|e| fault(format!("the instance pool is full ({full:#}) and {e}")))
    }
}

/// The machine code of `bytes` (a component, or a plugin's module) for
/// `engine`: from `cache` when it holds it, else compiled (into `cache`).
#[cfg(feature = "compiler")]
fn compiled<C: cache::Compiled>(engine: &Engine, bytes: &[u8], cache: Option<&CompileCache>) -> Result<C, LoadError> {
    use super::load::compile_error;
    let started = Instant::now();
    match cache {
        Some(cache) => {
            let (compiled, outcome) =
                cache.load_or_compile(engine, bytes).map_err(|e| compile_error(engine, bytes, e))?;
            tracing::debug!(?outcome, elapsed = ?started.elapsed(), "component ready");
            Ok(compiled)
        }
        None => C::compile(engine, bytes).map_err(|e| compile_error(engine, bytes, e)),
    }
}

/// The machine code of `bytes` for `engine`, from `cache`: a build without
/// the `compiler` feature runs only code compiled ahead of time.
#[cfg(not(feature = "compiler"))]
fn compiled<C: cache::Compiled>(engine: &Engine, bytes: &[u8], cache: Option<&CompileCache>) -> Result<C, LoadError> {
    match cache {
        Some(cache) => cache.entry_for(engine, bytes).map_err(|refused| LoadError::NoCompiler { refused }),
        None => Err(LoadError::NoCompiler { refused: None }),
    }
}
