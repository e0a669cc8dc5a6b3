//! `mcp-wit serve -f mcp-wit.toml`: components, per-component grants and
//! limits from the file, flags over the file, and clear errors for bad files.

use mcp_wit_tests::support;
use serde_json::json;
use support::http::HttpServer;
use support::{RawServer, fixture, fixture_arg, text};

/// Writes `body` as `mcp-wit.toml` in a new directory, beside copies of the
/// fixtures `hostile` and `echo` (so the file names them by relative path).
fn config(body: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    for name in ["hostile", "echo"] {
        std::fs::copy(fixture(name), dir.path().join(format!("{name}.wasm"))).unwrap();
    }
    let path = dir.path().join("mcp-wit.toml");
    std::fs::write(&path, body).unwrap();
    (dir, path.display().to_string())
}

const TWO_COMPONENTS: &str = r#"
timeout = "20s"
env = ["EVERYONE=yes"]

[[component]]
path = "hostile.wasm"
name = "h"
timeout = "1s"
env = ["GREETING=hello from the file"]

[[component]]
path = "echo.wasm"
name = "e"
"#;

#[tokio::test]
async fn a_file_serves_its_components_with_their_own_grants_and_limits() {
    let (_dir, file) = config(TWO_COMPONENTS);
    let mut server = RawServer::initialized(&["serve", "-f", &file], "2025-11-25").await;
    let tools = server.request(1, "tools/list", json!({})).await;
    let names: Vec<&str> =
        tools["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"h_spin") && names.contains(&"e_echo"), "{names:?}");
    assert_eq!(text(&server.call(2, "e_echo", json!({ "text": "hi" })).await), "hi");
    // The component's own grant, and the file's grant for every component.
    assert_eq!(text(&server.call(3, "h_env", json!({})).await), "EVERYONE=yes\nGREETING=hello from the file");
    // The component's own timeout beats the file's.
    let answer = server.call(4, "h_spin", json!({})).await;
    assert!(answer["error"]["message"].as_str().unwrap().contains("timed out after 1s"), "{answer}");
    server.finish().await;
}

#[tokio::test]
async fn flags_override_the_file_and_add_grants() {
    let (_dir, file) = config(TWO_COMPONENTS);
    let args = ["serve", "-f", &file, "--timeout", "2s", "--env", "FROM_FLAG=1"];
    let mut server = RawServer::initialized(&args, "2025-11-25").await;
    let answer = server.call(1, "h_spin", json!({})).await;
    assert!(answer["error"]["message"].as_str().unwrap().contains("timed out after 2s"), "{answer}");
    assert_eq!(
        text(&server.call(2, "h_env", json!({})).await),
        "EVERYONE=yes\nGREETING=hello from the file\nFROM_FLAG=1"
    );
    server.finish().await;

    // Components on the command line replace the file's list; its top-level
    // grants and settings still apply.
    let hostile = fixture_arg("hostile");
    let mut server = RawServer::initialized(&["serve", "-f", &file, &hostile], "2025-11-25").await;
    assert_eq!(text(&server.call(1, "env", json!({})).await), "EVERYONE=yes");
    server.finish().await;
}

#[tokio::test]
async fn the_http_section_is_used_and_flags_beat_it() {
    // `--http 127.0.0.1:0` (added by HttpServer) wins over `listen`; the
    // file's json-response still applies.
    let (_dir, file) =
        config("[http]\nlisten = \"127.0.0.1:9\"\njson-response = true\n[[component]]\npath = \"echo.wasm\"\n");
    let server = HttpServer::start(&["-f", &file]).await;
    let reply = server
        .client()
        .post_raw(&[], json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": support::initialize_params("2025-11-25") }).to_string())
        .await;
    assert_eq!(reply.content_type(), "application/json");
    assert_eq!(reply.response()["result"]["serverInfo"]["name"], "echo");
    server.stop().await;
}

/// Runs `mcp-wit serve -f FILE` to its end and returns its stderr.
fn failing_serve(file: &str) -> String {
    let output = std::process::Command::new(support::binary()).args(["serve", "-f", file]).output().unwrap();
    assert!(!output.status.success());
    String::from_utf8(output.stderr).unwrap()
}

#[test]
fn bad_files_are_refused_with_what_to_fix() {
    let (_dir, file) = config("timout = \"1s\"\n");
    let stderr = failing_serve(&file);
    assert!(stderr.contains("unknown key `timout`") && stderr.contains("mcp-wit serve --help"), "{stderr}");

    let (_dir, file) = config("[[component]]\npath = \"hostile.wasm\"\ndirs = [\"/no/such/dir:/data\"]\n");
    let stderr = failing_serve(&file);
    assert!(
        stderr.contains("[[component]] #1")
            && stderr.contains("dirs entry \"/no/such/dir:/data\"")
            && stderr.contains("no such directory"),
        "{stderr}"
    );

    let (_dir, file) = config("[[component]]\npath = \"missing.wasm\"\n");
    let stderr = failing_serve(&file);
    assert!(stderr.contains("missing.wasm"), "{stderr}");

    let (_dir, file) = config("timeout = \"soon\"\n");
    let stderr = failing_serve(&file);
    assert!(stderr.contains("timeout") && stderr.contains("soon"), "{stderr}");

    let stderr = failing_serve("/no/such/mcp-wit.toml");
    assert!(stderr.contains("cannot read the config file /no/such/mcp-wit.toml"), "{stderr}");
}

#[tokio::test]
async fn http_flags_need_an_address_from_the_command_line_or_the_file() {
    // The address from the file, an HTTP flag on the command line.
    let (_dir, file) = config("[http]\nlisten = \"127.0.0.1:0\"\n[[component]]\npath = \"echo.wasm\"\n");
    let server = HttpServer::start_as_given(&["-f", &file, "--json-response"]).await;
    let initialize = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": support::initialize_params("2025-11-25") });
    let reply = server.client().post_raw(&[], initialize.to_string()).await;
    assert_eq!(reply.content_type(), "application/json");
    server.stop().await;

    // No address anywhere: refused, not ignored.
    let output = std::process::Command::new(support::binary())
        .args(["serve", "--stateless"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--stateless is an HTTP setting") && stderr.contains("--http ADDR"), "{stderr}");
}

/// The `ttlMs` and `cacheScope` of a 2026-07-28 `tools/list` served by `args`.
async fn modern_cache_hint(args: &[&str]) -> (u64, String) {
    let mut server = RawServer::start(args);
    let meta = json!({ "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} });
    let answer = server.request(1, "tools/list", json!({ "_meta": meta })).await;
    server.finish().await;
    let result = &answer["result"];
    (result["ttlMs"].as_u64().unwrap_or_else(|| panic!("{answer}")), result["cacheScope"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn a_component_section_sets_its_own_cache_hint_and_flags_beat_it() {
    let (_dir, file) = config(
        r#"
cache-ttl = "30s"

[[component]]
path = "echo.wasm"
cache-ttl = "5s"
cache-scope = "private"
"#,
    );
    assert_eq!(modern_cache_hint(&["serve", "-f", &file]).await, (5000, "private".into()));
    let flagged = modern_cache_hint(&["serve", "-f", &file, "--cache-ttl", "1s", "--cache-scope", "public"]).await;
    assert_eq!(flagged, (1000, "public".into()));
}

#[tokio::test]
async fn the_file_says_how_to_log_and_where_registries_are() {
    // `log-format` is read before the rest, as the flag is; the registry
    // keys are read too (a plain-HTTP registry on this machine).
    let body = "log-format = \"json\"\nguest-output = \"discard\"\ninsecure-registry = [\"127.0.0.1:5000\"]\npull = \"missing\"\n\
                [[component]]\npath = \"echo.wasm\"";
    let (_dir, file) = config(body);
    let mut server = RawServer::initialized(&["serve", "-f", &file], "2025-11-25").await;
    assert_eq!(text(&server.call(1, "echo", json!({ "text": "hi" })).await), "hi");
    server.finish_and_wait_for_stderr().await;
    let stderr = server.stderr.lock().unwrap().clone();
    let lines: Vec<&str> = stderr.lines().filter(|line| !line.is_empty()).collect();
    assert!(!lines.is_empty(), "the server logs");
    for line in lines {
        let event: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: not JSON: {line}"));
        assert!(event["level"].is_string(), "{event}");
    }
    // A flag given beats the file.
    let args = ["--log-format", "text", "serve", "-f", &file];
    let mut server = RawServer::initialized(&args, "2025-11-25").await;
    server.finish_and_wait_for_stderr().await;
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(stderr.lines().any(|line| line.contains(" INFO ")), "{stderr}");
    assert!(!stderr.trim_start().starts_with('{'), "{stderr}");
}
