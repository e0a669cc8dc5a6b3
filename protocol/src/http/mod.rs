//! The rules of MCP's Streamable HTTP transport that do not depend on an HTTP
//! server (feature `http`): header names, content negotiation, what a POST
//! body holds, and the validation ladder of 2026-07-28 requests with the
//! status of each refusal. The native host (axum) and the component-side
//! adapter (`wasi:http`) apply the same rules through these functions, on
//! the `http` crate's header map.

mod answers;
mod headers;
mod ladder;
mod post;
mod security;

pub use answers::*;
pub use headers::*;
pub use ladder::*;
pub use post::*;
pub use security::*;
