//! The embedding API. The rmcp adapter (`mcp_wit::rmcp::RouterHandler`) served
//! over an in-memory pipe to a real rmcp client, with the `everything` fixture
//! (see `components/everything/README.md`): what a client sees must be what
//! `mcp-wit serve` sends, errors and fault recovery included; and a handler of
//! one's own can put native tools beside the guest's. Then the HTTP endpoints
//! merged into an axum app of the test's own.

mod axum_app;
mod harness;
mod instances;
mod native_tools;
mod reload;
mod rmcp_adapter;
