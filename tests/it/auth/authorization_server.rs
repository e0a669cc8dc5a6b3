//! The official Python SDK's OAuth client against a real authorization server
//! (`tests/peers/oauth_server.py`, on the SDK's own routes).

use std::time::Duration;

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::fixture_arg;
use support::http::HttpServer;

use super::protected::{LEGACY, MODERN};

/// The official Python SDK's client, against an authorization server built
/// on the SDK's own authorization-server routes (both in the peers' venv):
/// discovery from the 401, dynamic registration, the code grant with PKCE
/// and the resource indicator, a call, step-up on a 403, and a refresh once
/// the three-second token has expired; in both eras.
#[tokio::test]
async fn the_python_sdk_signs_in_steps_up_and_refreshes_against_a_real_authorization_server() {
    let authorization_server = AuthorizationServer::start("mcp tools:echo").await;
    let echo = fixture_arg("echo");
    let server = HttpServer::start(&[
        echo.as_str(),
        "--auth-issuer",
        &authorization_server.issuer,
        "--auth-scope",
        "mcp",
        "--auth-tool-scope",
        "echo=tools:echo",
    ])
    .await;
    for mode in ["legacy", MODERN] {
        let (run, events) = authorization_server
            .sign_in(&server.url(), "echo", r#"{"text":"hi"}"#, mode, || server.stderr.lock().unwrap().clone())
            .await;
        assert_eq!(run["first"], json!({ "text": "hi", "isError": false }), "{run}");
        assert_eq!(run["second"], json!({ "text": "hi", "isError": false }), "{run}");
        // First the scope the 401 named, then the union with the one the 403 named.
        assert_eq!(
            run["authorizations"],
            json!([
                { "scope": "mcp", "resource": server.url() },
                { "scope": "mcp tools:echo", "resource": server.url() },
            ]),
            "{run}"
        );
        let kinds: Vec<(&str, Option<&str>)> =
            events.iter().map(|e| (e["event"].as_str().unwrap(), e["grant"].as_str())).collect();
        assert_eq!(
            kinds,
            [
                ("register", None),
                ("authorize", None),
                ("token", Some("authorization_code")),
                ("authorize", None),
                ("token", Some("authorization_code")),
                ("token", Some("refresh_token")),
            ],
            "{mode}: {events:?}"
        );
    }
    server.stop().await;
}

/// `tests/peers/oauth_server.py` on 127.0.0.1: an authorization server on
/// the Python SDK's own routes, issuing three-second tokens; stopped when
/// dropped.
pub(super) struct AuthorizationServer {
    _process: tokio::process::Child,
    /// Its issuer identifier (its URL).
    pub(super) issuer: String,
    /// Where it logs what it does, a JSON object a line.
    events: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl AuthorizationServer {
    /// Started for `scopes`, once it serves.
    pub(super) async fn start(scopes: &str) -> AuthorizationServer {
        let dir = tempfile::tempdir().unwrap();
        let (url_file, events) = (dir.path().join("issuer"), dir.path().join("events"));
        let process = tokio::process::Command::new(support::peers::python())
            .arg(support::peers::scripts().join("oauth_server.py"))
            .arg("--url-file")
            .arg(&url_file)
            .arg("--events")
            .arg(&events)
            .args(["--token-lifetime", "3", "--scopes", scopes])
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let issuer = wait_for_issuer(&url_file).await;
        AuthorizationServer { _process: process, issuer, events, _dir: dir }
    }

    /// The SDK's OAuth client (`tests/peers/oauth_client.py`) against the
    /// MCP server at `url` in `mode`, calling `tool` with `args` twice (the
    /// second after its token expired): its report, checked to be in the
    /// mode's revision, and what this server logged meanwhile. `server_log`
    /// says more when the client fails.
    pub(super) async fn sign_in(
        &self,
        url: &str,
        tool: &str,
        args: &str,
        mode: &str,
        server_log: impl FnOnce() -> String,
    ) -> (Value, Vec<Value>) {
        std::fs::write(&self.events, "").unwrap();
        let output = tokio::process::Command::new(support::peers::python())
            .arg(support::peers::scripts().join("oauth_client.py"))
            .args(["--url", url, "--tool", tool, "--args", args, "--mode", mode, "--wait", "4"])
            .output()
            .await
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{mode}: {stderr}\nserver:\n{}", server_log());
        let run: Value = serde_json::from_slice(&output.stdout).unwrap();
        let version = if mode == MODERN { MODERN } else { LEGACY };
        assert_eq!(run["protocolVersion"], version, "{run}");
        let events = std::fs::read_to_string(&self.events)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        (run, events)
    }
}

/// The URL the authorization server writes to `url_file` once it serves.
async fn wait_for_issuer(url_file: &std::path::Path) -> String {
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            if let Ok(url) = std::fs::read_to_string(url_file)
                && !url.is_empty()
            {
                return url;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the authorization server did not start")
}
