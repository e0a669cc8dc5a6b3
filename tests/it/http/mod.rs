//! The HTTP transports end to end: `mcp-wit serve --http 127.0.0.1:0` with the
//! `conformance` fixture, driven by rmcp's Streamable HTTP client and by plain
//! HTTP requests that check each status code and header rule. Every JSON-RPC
//! message the server sends (JSON bodies and SSE events alike) is validated
//! against the MCP 2025-11-25 schema.

mod fixture;
mod guest_calls;
mod legacy_sse;
mod notifications;
mod post;
mod real_client;
mod security;
mod sessions;
mod shutdown;
