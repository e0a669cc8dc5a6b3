//! What the tests share: a fixture loaded as a router, and a server and a
//! client joined by an in-memory pipe.

use std::time::Duration;

use mcp_wit::{LoadedRouter, SandboxPolicy};
use mcp_wit_tests::support;
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ClientHandler, ServerHandler, ServiceExt};
use support::fixture;

pub(super) fn load(name: &str) -> LoadedRouter {
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    let policy = SandboxPolicy::builder(name).build();
    LoadedRouter::from_file(&engine, &fixture(name), policy).expect("load the fixture")
}

/// Serves `server` on one end of an in-memory pipe and connects `client` to
/// the other.
pub(super) async fn connect<S, C>(server: S, client: C) -> RunningService<RoleClient, C>
where
    S: ServerHandler,
    C: ClientHandler,
{
    let client_end = support::serve_in_memory(server);
    tokio::time::timeout(Duration::from_secs(60), client.serve(client_end))
        .await
        .expect("initialize in time")
        .expect("the client connects")
}
