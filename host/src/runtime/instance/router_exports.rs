//! [`RouterExports`]: which router contract a component exports, and where its functions sit.

use super::component::Exports25_3_26;
use super::component_25_6_18::Exports25_6_18;
use crate::runtime::extension::ExtensionExports;
use crate::runtime::presentation::PresentationExports;

/// Where a component's router functions are, by the contract it exports:
/// found once per component, used by each of its instances.
#[derive(Clone, Copy)]
pub(crate) enum RouterExports {
    V25_3_26(Exports25_3_26),
    V25_6_18(Exports25_6_18),
}

impl RouterExports {
    /// The router functions of the contract `component` exports; 25.6.18
    /// when it exports both (see `LoadedRouter::link`, which says so).
    pub(crate) fn find(component: &wasmtime::component::Component) -> wasmtime::Result<Self> {
        if let Some(found) = Exports25_6_18::find(component)? {
            return Ok(RouterExports::V25_6_18(found));
        }
        let found = Exports25_3_26::find(component)?;
        found.map(RouterExports::V25_3_26).ok_or_else(|| wasmtime::format_err!("the component exports no router"))
    }
}

/// What a router component may export beside its router: the extension
/// (whose types are 25.3.26's) and the presentation (either contract).
#[derive(Clone, Copy, Default)]
pub(crate) struct OptionalExports {
    pub(crate) extension: Option<ExtensionExports>,
    pub(crate) presentation: Option<PresentationExports>,
}
