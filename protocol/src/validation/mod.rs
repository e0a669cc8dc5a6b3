//! What a tool promises, checked by the host for every guest: its arguments
//! against its input schema before the guest runs, its structured result
//! against its output schema after, and both schemas as JSON Schema when
//! the tool is learnt.
//!
//! A failed argument check is a tool error (`isError: true`, with the
//! validator's words), as MCP 2025-11-25 asks of input validation, so the
//! model can correct itself. A schema is read as draft 2020-12 unless its
//! `$schema` names another; references are resolved inside the schema only
//! (no file or network is ever read for one).
//!
//! What one check may cost is bounded: its `pattern`s run once per distinct
//! string (each run bounded by the regex engine's backtrack limit) and only
//! until the check's deadline, past which it fails closed
//! (refused as over budget); only the first failure is described, in at
//! most [`MAX_REASON_BYTES`], written as it is read (never in full, then
//! cut).

mod budget;
mod json_tree;
mod reason;
mod schemas;

pub use reason::MAX_REASON_BYTES;
pub(crate) use schemas::Refusal;
pub use schemas::{SchemaError, ToolSchemas};
