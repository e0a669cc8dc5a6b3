//! [`SandboxState`]: the WASI side of one guest instance.

use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
#[cfg(feature = "outgoing-http")]
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

use super::guest_output::GuestOutput;
#[cfg(feature = "outgoing-http")]
use super::outgoing_http::OutgoingHttp;

/// WASI as a component (preview 2) or a core module (preview 1) imports it.
#[cfg_attr(
    feature = "extism",
    expect(clippy::large_enum_variant, reason = "components are the common case: only plugins pay for a box")
)]
pub(super) enum Wasi {
    P2(WasiCtx),
    #[cfg(feature = "extism")]
    P1(Box<wasmtime_wasi::p1::WasiP1Ctx>),
}

/// The WASI side of one guest instance: its context, resources and output.
pub struct SandboxState {
    wasi: Wasi,
    table: ResourceTable,
    output: GuestOutput,
    #[cfg(feature = "outgoing-http")]
    http: WasiHttpCtx,
    #[cfg(feature = "outgoing-http")]
    http_hooks: OutgoingHttp,
}

impl SandboxState {
    /// The state of an instance with `wasi`, its output captured in `output`.
    pub(super) fn new(
        wasi: Wasi,
        output: GuestOutput,
        #[cfg(feature = "outgoing-http")] http_hooks: OutgoingHttp,
    ) -> Self {
        SandboxState {
            wasi,
            table: ResourceTable::new(),
            output,
            #[cfg(feature = "outgoing-http")]
            http: WasiHttpCtx::new(),
            #[cfg(feature = "outgoing-http")]
            http_hooks,
        }
    }

    /// The guest's captured output, e.g. to name a panic message after a trap.
    pub fn output(&self) -> &GuestOutput {
        &self.output
    }

    /// The outgoing HTTP of this instance (an Extism plugin's `http_request`).
    #[cfg(all(feature = "outgoing-http", feature = "extism"))]
    pub fn outgoing_http(&self) -> &OutgoingHttp {
        &self.http_hooks
    }

    /// WASI preview 1, for a plugin's imports.
    ///
    /// # Panics
    ///
    /// On a component's state: only a plugin's store links preview 1.
    #[cfg(feature = "extism")]
    pub fn p1(&mut self) -> &mut wasmtime_wasi::p1::WasiP1Ctx {
        match &mut self.wasi {
            Wasi::P1(ctx) => ctx,
            Wasi::P2(_) => panic!("WASI preview 1 is linked for plugins only"),
        }
    }
}

impl WasiView for SandboxState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        match &mut self.wasi {
            Wasi::P2(ctx) => WasiCtxView { ctx, table: &mut self.table },
            #[cfg(feature = "extism")]
            Wasi::P1(ctx) => ctx.ctx(),
        }
    }
}

#[cfg(feature = "outgoing-http")]
impl WasiHttpView for SandboxState {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView { ctx: &mut self.http, table: &mut self.table, hooks: &mut self.http_hooks }
    }
}
