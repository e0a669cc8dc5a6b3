//! The tasks extension's own client library (`@modelcontextprotocol/ext-tasks`
//! 0.2.2, over the TypeScript SDK v2 `Client`) against `mcp-wit serve`, over
//! Streamable HTTP and over stdio: a task that asks, answered through the
//! library's input handler, and a 30-second task it cancels.

use std::process::Command;

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::http::HttpServer;
use support::peers::{scripts, tasks_modules_home};
use support::{binary, fixture_arg};

use super::wire::{POLICIES, TASKS};

/// The conformance router's `serve` arguments, with the tasks' policies.
fn serve_args(fixture: &str) -> Vec<&str> {
    let mut args = vec![fixture, "--guest-output", "discard"];
    args.extend(POLICIES);
    args
}

/// Runs the library's client with `args` and checks what it reports.
async fn run_the_library(args: Vec<String>) {
    let modules = tasks_modules_home();
    let output = tokio::task::spawn_blocking(move || {
        Command::new("node")
            .arg(scripts().join("ts_tasks_client.mjs"))
            .args(&args)
            .env("MCP_PEERS_TASKS_DIR", &modules)
            .output()
            .expect("node runs")
    })
    .await
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the client failed:\n{stderr}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert_eq!(report["era"], "modern", "{report}");
    assert_eq!(report["extensions"][TASKS], json!({}), "{report}");
    assert_eq!(report["confirm"]["kind"], "task", "{report}");
    assert_eq!(report["asked"][0]["kind"], "elicitation", "{report}");
    assert_eq!(report["asked"][0]["params"]["message"], "Delete peer.txt?", "{report}");
    assert_eq!(report["confirm"]["result"]["content"][0]["text"], "Deleted peer.txt.", "{report}");
    assert_eq!(report["slow"]["kind"], "task", "{report}");
    assert_eq!(report["slow"]["outcome"]["status"], "cancelled", "{report}");
}

#[tokio::test]
async fn the_extensions_client_library_runs_tasks_that_ask_and_are_cancelled() {
    let fixture = fixture_arg("conformance");
    let server = HttpServer::start(&serve_args(&fixture)).await;
    run_the_library(vec!["--url".into(), server.url()]).await;
    server.stop().await;
}

#[tokio::test]
async fn the_extensions_client_library_runs_tasks_over_stdio_too() {
    let fixture = fixture_arg("conformance");
    let mut args = vec!["--".to_owned(), binary().display().to_string(), "serve".to_owned()];
    args.extend(serve_args(&fixture).into_iter().map(str::to_owned));
    run_the_library(args).await;
}
