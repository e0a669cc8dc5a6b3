//! The sandbox a guest runs in: what WASI lets it see.
//!
//! Deny by default: a guest gets no filesystem, no environment, no sockets
//! and no stdin. Its stdout and stderr are captured (see [`guest_output`]) so
//! they can never corrupt a transport that uses the host's own stdout.

pub mod guest_output;

use std::sync::Arc;

use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

use guest_output::{GuestOutput, OutputTarget};

/// What a component's guests are allowed to reach.
///
/// Built with [`SandboxPolicy::builder`]; the default grants nothing.
#[derive(Debug, Clone)]
pub struct SandboxPolicy {
    label: Arc<str>,
    output: OutputTarget,
}

impl SandboxPolicy {
    /// Starts a policy for the component named `label` (used to prefix its output).
    pub fn builder(label: impl Into<Arc<str>>) -> SandboxPolicyBuilder {
        SandboxPolicyBuilder { policy: SandboxPolicy { label: label.into(), output: OutputTarget::Stderr } }
    }

    /// The label the guest's output lines are prefixed with.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Creates the per-instance state that the guest's WASI imports act on.
    pub fn instance_state(&self) -> GuestState {
        let output = GuestOutput::new(self.label.clone(), self.output);
        let mut wasi = WasiCtxBuilder::new();
        wasi.stdout(output.stream("stdout")).stderr(output.stream("stderr"));
        GuestState { wasi: wasi.build(), table: ResourceTable::new(), output }
    }
}

/// Configures a [`SandboxPolicy`].
#[derive(Debug)]
pub struct SandboxPolicyBuilder {
    policy: SandboxPolicy,
}

impl SandboxPolicyBuilder {
    /// Where the guest's stdout and stderr go (default: the host's stderr).
    pub fn guest_output(mut self, target: OutputTarget) -> Self {
        self.policy.output = target;
        self
    }

    /// Finishes the policy.
    pub fn build(self) -> SandboxPolicy {
        self.policy
    }
}

/// The state a guest instance's store carries.
pub struct GuestState {
    wasi: WasiCtx,
    table: ResourceTable,
    output: GuestOutput,
}

impl GuestState {
    /// The guest's captured output, e.g. to name a panic message after a trap.
    pub fn output(&self) -> &GuestOutput {
        &self.output
    }
}

impl WasiView for GuestState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}
