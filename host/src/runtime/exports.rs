//! Finding a component's exported functions.

use wasmtime::component::ComponentExportIndex;

/// Where the functions `names` of the exported interface `interface` sit
/// among `component`'s exports: `None` when it does not export the
/// interface, an error when the interface lacks one of them.
///
/// The name must match exactly: wasmtime's lookup takes any
/// semver-compatible version, and `wasix:mcp` 25.3.26 and 25.6.18 share a
/// major version but not their types.
pub(super) fn export_indices<const N: usize>(
    component: &wasmtime::component::Component,
    interface: &str,
    names: &[&str; N],
) -> wasmtime::Result<Option<[ComponentExportIndex; N]>> {
    let ty = component.component_type();
    if !ty.exports(component.engine()).any(|(name, _)| name == interface) {
        return Ok(None);
    }
    let Some(exported) = component.get_export_index(None, interface) else { return Ok(None) };
    let index = |name: &&str| {
        component
            .get_export_index(Some(&exported), name)
            .ok_or_else(|| wasmtime::format_err!("`{interface}` has no function `{name}`"))
    };
    let found: Vec<_> = names.iter().map(index).collect::<wasmtime::Result<_>>()?;
    Ok(Some(found.try_into().expect("one index per name")))
}
