//! The tools of a typed component: one per exported function, named,
//! described and given schemas as Wassette does (its `component2json`,
//! `gather_exported_functions_with_metadata` and `normalize_tool_name`,
//! microsoft/wassette@29890fd), found once at load.

use std::sync::Arc;

use mcp_wit_protocol::contract;
use wasmtime::Engine;
use wasmtime::component::types::ComponentItem;
use wasmtime::component::{Component, ComponentExportIndex, Type};

use super::docs::PackageDocs;
use super::schema;

/// The longest tool name MCP allows.
const MAX_NAME: usize = 128;

/// A typed component's tools, in export order.
#[derive(Clone)]
pub(crate) struct TypedTools {
    pub(crate) tools: Arc<[TypedTool]>,
}

/// One exported function as a tool.
pub(crate) struct TypedTool {
    /// As listed: see [`tool_name`].
    pub(crate) name: String,
    /// The instance it is exported from (`local:time/clock`), if not the
    /// component itself, and its own name there.
    pub(crate) interface: Option<String>,
    pub(crate) function: String,
    pub(crate) description: String,
    pub(crate) input_schema: String,
    pub(crate) output_schema: Option<String>,
    pub(crate) params: Vec<(String, Type)>,
    /// Its result's type, if it returns one.
    pub(crate) result: Option<Type>,
    /// Where it is among the component's exports.
    pub(crate) index: ComponentExportIndex,
}

/// Why a typed component's exports cannot be served as tools.
#[derive(Debug, thiserror::Error)]
pub enum TypedError {
    /// A normalized name over MCP's limit (Wassette panics on these).
    #[error("the export `{export}` would be the tool `{name}`, longer than the {MAX_NAME} characters MCP allows")]
    NameTooLong {
        /// The function, with its interface.
        export: String,
        /// The name it would have.
        name: String,
    },
    /// Two exports normalized to one name.
    #[error("the exports `{first}` and `{second}` would both be the tool `{name}`")]
    SameName {
        /// The first export.
        first: String,
        /// The second.
        second: String,
        /// The name both normalize to.
        name: String,
    },
    /// A function with more than one result (an older component model).
    #[error("the export `{export}` returns {count} values; a tool returns one")]
    Results {
        /// The function, with its interface.
        export: String,
        /// How many.
        count: usize,
    },
}

impl TypedTools {
    /// Every function `component` exports, at the top or in an exported
    /// instance (one level, as Wassette walks them), with its docs from
    /// `docs`.
    pub(crate) fn find(engine: &Engine, component: &Component, docs: &PackageDocs) -> Result<Self, TypedError> {
        let mut tools: Vec<TypedTool> = Vec::new();
        let mut add = |interface: Option<&str>, function: &str, ty: &wasmtime::component::types::ComponentFunc| {
            let export = match interface {
                Some(interface) => format!("{interface}#{function}"),
                None => function.to_string(),
            };
            let name = tool_name(interface, function);
            if name.len() > MAX_NAME {
                return Err(TypedError::NameTooLong { export, name });
            }
            if let Some(first) = tools.iter().find(|tool| tool.name == name) {
                let first = first.export_name();
                return Err(TypedError::SameName { first, second: export, name });
            }
            let results: Vec<Type> = ty.results().collect();
            if results.len() > 1 {
                return Err(TypedError::Results { export, count: results.len() });
            }
            let index = match interface {
                Some(interface) => component
                    .get_export_index(None, interface)
                    .and_then(|parent| component.get_export_index(Some(&parent), function)),
                None => component.get_export_index(None, function),
            }
            .expect("the component type lists it");
            let description = docs.function(interface, function).unwrap_or_else(|| fallback_description(&name));
            let result = results.into_iter().next();
            tools.push(TypedTool {
                input_schema: schema::input(ty.params()).to_text(),
                output_schema: schema::output(result.as_ref()).map(|s| s.to_text()),
                params: ty.params().map(|(name, ty)| (name.to_string(), ty)).collect(),
                result,
                name,
                interface: interface.map(str::to_string),
                function: function.to_string(),
                description,
                index,
            });
            Ok(())
        };
        for (export, item) in component.component_type().exports(engine) {
            match item.ty {
                ComponentItem::ComponentFunc(func) => add(None, export, &func)?,
                ComponentItem::ComponentInstance(instance) => {
                    for (name, item) in instance.exports(engine) {
                        if let ComponentItem::ComponentFunc(func) = item.ty {
                            add(Some(export), name, &func)?;
                        }
                    }
                }
                // (Wassette also walks an exported component's functions,
                // which no component toolchain exports.)
                _ => {}
            }
        }
        Ok(TypedTools { tools: tools.into() })
    }

    /// The tool named `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&TypedTool> {
        self.tools.iter().find(|tool| tool.name == name)
    }

    /// Their names, in order.
    pub(crate) fn names(&self) -> std::sync::Arc<[String]> {
        self.tools.iter().map(|tool| tool.name.clone()).collect()
    }

    /// The tools as the contract lists them.
    pub(crate) fn listed(&self) -> Vec<contract::Tool> {
        self.tools
            .iter()
            .map(|tool| contract::Tool {
                name: tool.name.clone(),
                description: tool.description.clone(),
                input_schema: contract::Value { json: tool.input_schema.clone() },
                output_schema: tool.output_schema.clone().map(|json| contract::Value { json }),
                annotations: None,
                meta: None,
                title: None,
                meta_object: None,
                icons: None,
            })
            .collect()
    }
}

impl TypedTool {
    /// Its export, as WIT writes it: `local:time/clock#now`, or `now`.
    pub(crate) fn export_name(&self) -> String {
        match &self.interface {
            Some(interface) => format!("{interface}#{}", self.function),
            None => self.function.clone(),
        }
    }
}

/// A tool's name, as Wassette makes it: the exporting instance's name and
/// the function's, each lower-cased with `:`, `/`, `.` and any other
/// character but ASCII letters, digits and `-` made `_`, joined by `_`
/// (`local:time/clock@0.1.0` and `now` make `local_time_clock_0_1_0_now`).
pub(crate) fn tool_name(interface: Option<&str>, function: &str) -> String {
    let normalize = |part: &str| -> String {
        part.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect()
    };
    match interface {
        Some(interface) => format!("{}_{}", normalize(interface), normalize(function)),
        None => normalize(function),
    }
}

/// What a tool without docs says of itself (Wassette's words).
fn fallback_description(name: &str) -> String {
    format!("Auto-generated schema for function '{name}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalized_as_wassette_does() {
        // A case from component2json's own tests.
        assert_eq!(
            tool_name(Some("local:time-server/time"), "get-current-time"),
            "local_time-server_time_get-current-time"
        );
        assert_eq!(tool_name(None, "read-file"), "read-file");
        assert_eq!(tool_name(Some("pkg:x/iface@0.1.0"), "Run"), "pkg_x_iface_0_1_0_run");
        assert_eq!(tool_name(Some("foo"), "[method]r.f"), "foo__method_r_f");
    }
}
