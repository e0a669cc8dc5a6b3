//! Faults as the runtime finds them: a call's, an instantiation's, and why
//! an instance was not made.

use mcp_wit_protocol::{FaultKind, GuestFault};

use crate::runtime::limits::Interrupted;
use crate::runtime::store::StoreData;

/// Faults as the runtime finds them.
pub(super) trait FaultFrom {
    fn instantiate(error: wasmtime::Error, state: &StoreData) -> Self;
    fn async_only(function: &str) -> Self;
    fn from_error(function: &str, error: wasmtime::Error, state: &StoreData) -> Self;
}

impl FaultFrom for GuestFault {
    fn instantiate(error: wasmtime::Error, state: &StoreData) -> Self {
        let fault = GuestFault::from_error("instantiate", error, state);
        GuestFault { kind: FaultKind::Instantiate, ..fault }
    }

    fn async_only(function: &str) -> Self {
        GuestFault::new(
            FaultKind::Trap,
            format!("`{function}` called without `_async` on an instance made by `instantiate_async`"),
        )
    }

    fn from_error(function: &str, error: wasmtime::Error, state: &StoreData) -> Self {
        let interrupted = error.downcast_ref::<Interrupted>().cloned().or_else(|| {
            // A refused memory growth that the guest itself turned into a trap
            // (e.g. Rust's allocation-failure abort) is still the memory cap.
            state.control.memory_refused()
        });
        let trap = error.downcast_ref::<wasmtime::Trap>();
        let (kind, cause) = match (&interrupted, trap) {
            (Some(i @ Interrupted::Timeout(_)), _) => (FaultKind::Timeout, format!("`{function}` {i}")),
            (Some(i @ Interrupted::Cancelled), _) => (FaultKind::Cancelled, format!("`{function}` {i}")),
            (Some(i @ (Interrupted::MemoryLimit(_) | Interrupted::MemoryBudget(_))), _) => {
                (FaultKind::MemoryLimit, format!("`{function}` {i}"))
            }
            (Some(i @ Interrupted::InputRequired), _) => (FaultKind::InputRequired, format!("`{function}` {i}")),
            (None, Some(trap)) => (FaultKind::Trap, format!("guest trapped in `{function}`: {trap}")),
            (None, None) => (FaultKind::Trap, format!("guest failed in `{function}`: {}", error.root_cause())),
        };
        let output = state.sandbox.output();
        let message = match output.last_words() {
            Some(words) if kind == FaultKind::Trap => format!("{cause}; the guest {words}"),
            _ => cause,
        };
        match (&interrupted, trap) {
            (None, Some(_)) => GuestFault::wasm_trap(message, output.panic_message()),
            _ => GuestFault::new(kind, message),
        }
    }
}

/// Why an instance was not made.
pub(crate) enum NotMade {
    /// The engine's pool has no free slot of some kind (what the error
    /// says): another engine may make it.
    PoolFull(wasmtime::Error),
    /// Anything else.
    Fault(GuestFault),
}

impl From<GuestFault> for NotMade {
    fn from(fault: GuestFault) -> Self {
        NotMade::Fault(fault)
    }
}

impl NotMade {
    /// `error`, which instantiating in `state`'s store gave.
    pub(crate) fn of(error: wasmtime::Error, state: &StoreData) -> Self {
        if error.is::<wasmtime::PoolConcurrencyLimitError>() {
            return NotMade::PoolFull(error);
        }
        let refused = error.chain().any(|cause| {
            cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.raw_os_error() == Some(libc::ENOMEM))
                || cause.to_string().contains("Cannot allocate memory")
        });
        let mut fault = GuestFault::instantiate(error, state);
        if refused {
            fault.message = format!(
                "{}: the system refused the mappings of a new instance (about 6 per live instance count against \
                 `vm.max_map_count`); raise it, lower `--max-sessions`, or release idle instances \
                 (`--instance-idle-timeout`)",
                fault.message
            );
        }
        NotMade::Fault(fault)
    }
}

impl NotMade {
    pub(crate) fn into_fault(self) -> GuestFault {
        match self {
            // Only an engine this module did not pool gets here with a full pool.
            NotMade::PoolFull(full) => GuestFault::new(FaultKind::Instantiate, format!("{full:#}")),
            NotMade::Fault(fault) => fault,
        }
    }
}

/// A fault of `label`, a component that serves MCP itself, said as such.
pub(super) fn server_fault(label: &str, message: String) -> GuestFault {
    GuestFault::new(FaultKind::Trap, format!("the MCP server in `{label}` {message}"))
}
