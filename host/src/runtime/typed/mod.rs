//! Typed components: components that export plain functions
//! (`read-file: func(path: string) -> result<string, string>`), each served
//! as a tool, the shape Wassette serves. What a tool is named, the schemas
//! of its arguments and result and how its values are written follow
//! Wassette's `component2json` (see `tools` and `schema`), so that the same
//! component lists the same tools under both hosts; where the two differ on
//! purpose, `docs/users/shapes/typed.md` says so.

mod convert;
mod docs;
mod json;
mod schema;
mod tools;

pub(super) use convert::{arguments, display, to_json};
pub(super) use docs::PackageDocs;
pub(super) use json::Json;
pub use tools::TypedError;
pub(super) use tools::{TypedTool, TypedTools};
