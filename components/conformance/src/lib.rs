//! `conformance`: the fixtures the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`, server scenarios) expects of a
//! server, as far as the `wasix:mcp/router@25.3.26` contract can express them.
//!
//! Names, texts and payloads follow the suite's scenario sources and its
//! reference "everything" server. Log messages, progress and questions to
//! the client (sampling, elicitation) go through `mcp-wit:extension/client`;
//! resource templates, prompt arguments and subscriptions through the
//! `mcp-wit:extension/extension` export.

mod bindings;
mod content;
mod prompts;
mod questions;
mod resources;
mod router;
mod task_tools;
mod tools;

use router::Conformance;

bindings::export!(Conformance with_types_in bindings);
