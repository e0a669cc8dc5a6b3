//! The functions of an exported interface of an instance, found on first
//! call: what components of either contract share.

use wasmtime::Store;
use wasmtime::component::{ComponentExportIndex, Func, Instance};

use mcp_wit_protocol::{FaultKind, GuestFault};

use crate::runtime::store::StoreData;

/// Where `name` stands in `names`; evaluated at compile time where it is
/// used, so a name that is not there fails the build.
pub(super) const fn slot_of(names: &[&str], name: &str) -> usize {
    let mut slot = 0;
    while slot < names.len() {
        // (`==` is not const; no two names differ only in case.)
        if names[slot].eq_ignore_ascii_case(name) {
            return slot;
        }
        slot += 1;
    }
    panic!("not one of the functions");
}

/// The functions `names` of one exported interface of an instance, each
/// looked up on its first call: most instances (one per modern request)
/// call one function, and a lookup is a good part of what instantiating
/// costs.
pub(super) struct LazyFuncs<const N: usize> {
    interface: &'static str,
    names: &'static [&'static str; N],
    exports: [ComponentExportIndex; N],
    found: [Option<Func>; N],
}

impl<const N: usize> LazyFuncs<N> {
    pub(super) fn new(
        interface: &'static str,
        names: &'static [&'static str; N],
        exports: [ComponentExportIndex; N],
    ) -> Self {
        LazyFuncs { interface, names, exports, found: [None; N] }
    }

    /// The function in `slot` of `names`.
    pub(super) fn get(
        &mut self,
        instance: &Instance,
        store: &mut Store<StoreData>,
        slot: usize,
    ) -> Result<Func, GuestFault> {
        if let Some(func) = self.found[slot] {
            return Ok(func);
        }
        let func = instance.get_func(&mut *store, self.exports[slot]).ok_or_else(|| {
            GuestFault::new(
                FaultKind::Instantiate,
                format!("`{}` exports `{}` as something other than a function", self.interface, self.names[slot]),
            )
        })?;
        self.found[slot] = Some(func);
        Ok(func)
    }
}
