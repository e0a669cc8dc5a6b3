//! The doc comments of a component's WIT, from the `package-docs` custom
//! section wit-component writes (a version byte, then JSON: see wit-parser's
//! `metadata.rs`), as tool descriptions.
//!
//! Wassette looks a function up only among a world's exported functions;
//! here a function of an exported interface finds its docs too (under
//! `interfaces.<name>.funcs`), so its description is more often its own.

use serde_json::Value;

/// The docs found, if any.
#[derive(Debug, Default, Clone)]
pub(crate) struct PackageDocs(Option<Value>);

/// The section's name.
const SECTION: &str = "package-docs";

impl PackageDocs {
    /// The docs in the component `bytes`; none when it has no section or
    /// one that does not parse.
    pub(crate) fn in_component(bytes: &[u8]) -> Self {
        use wasmparser::{Parser, Payload};
        for payload in Parser::new(0).parse_all(bytes) {
            match payload {
                Ok(Payload::CustomSection(reader)) if reader.name() == SECTION => {
                    let data = reader.data();
                    return PackageDocs(data.get(1..).and_then(|json| serde_json::from_slice(json).ok()));
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        PackageDocs(None)
    }

    /// The docs of `function`, exported by the world or by `interface`
    /// (`local:time/clock@0.1.0` is looked up as `clock`).
    pub(crate) fn function(&self, interface: Option<&str>, function: &str) -> Option<String> {
        let docs = self.0.as_ref()?;
        let text = |entry: &Value| -> Option<String> {
            // v1: `{"docs": …}`; v0: the text itself.
            let text = entry.get("docs").unwrap_or(entry).as_str()?.trim();
            (!text.is_empty()).then(|| text.to_string())
        };
        match interface {
            None => docs.get("worlds")?.as_object()?.values().find_map(|world| {
                let exports = world.get("func_exports").or_else(|| world.get("funcs"))?;
                text(exports.get(function)?)
            }),
            Some(interface) => {
                let name = interface.rsplit_once('/').map_or(interface, |(_, name)| name);
                let name = name.split_once('@').map_or(name, |(name, _)| name);
                text(docs.get("interfaces")?.get(name)?.get("funcs")?.get(function)?)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn world_and_interface_functions_find_their_docs() {
        let docs = PackageDocs(Some(serde_json::json!({
            "worlds": {"typed": {"func_exports": {"echo": {"docs": "Says it back."}}}},
            "interfaces": {"clock": {"funcs": {"now": {"docs": "The time.\n"}, "quiet": {}}}}
        })));
        assert_eq!(docs.function(None, "echo").as_deref(), Some("Says it back."));
        assert_eq!(docs.function(Some("local:time/clock@0.1.0"), "now").as_deref(), Some("The time."));
        assert_eq!(docs.function(Some("local:time/clock"), "quiet"), None);
        assert_eq!(docs.function(None, "now"), None);
        assert_eq!(PackageDocs::default().function(None, "echo"), None);
    }
}
