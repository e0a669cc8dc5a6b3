// MCP Apps (`io.modelcontextprotocol/ui`) and icons carried from a guest to
// the SDK clients unchanged: `components/rmcp-http-server`'s `show_sum`
// names its view in `_meta.ui`; the view is a `text/html;profile=mcp-app`
// resource with `_meta.ui` (CSP, border) on its listing and its contents;
// the server, the tool and the resource carry icons. The host advertises
// the extension in both eras.

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::http::HttpServer;
use support::peers::{Over, Peer, run_checked};

const VIEW: &str = "ui://calculator/sum.html";
const APP_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The entry of `list` whose `key` is `value`.
fn entry<'a>(list: &'a Value, key: &str, value: &str) -> &'a Value {
    list.as_array().and_then(|l| l.iter().find(|e| e[key] == value)).unwrap_or_else(|| panic!("no {value} in {list}"))
}

#[tokio::test]
async fn the_python_sdk_sees_an_apps_view_and_its_icons_in_both_eras() {
    let server_wasm = support::fixture_arg("rmcp_http_server");
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let report = run_checked(Peer::Python, mode, Over::Stdio(&[&server_wasm]), &OPTIONS).await;
        assert_eq!(report["protocolVersion"], version, "{report}");
        sees_the_app(&report);
    }
}

#[tokio::test]
async fn the_typescript_sdk_sees_an_apps_view_and_its_icons_over_http_in_both_eras() {
    let server = HttpServer::start(&[&support::fixture_arg("rmcp_http_server")]).await;
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let report = run_checked(Peer::TypeScript, mode, Over::Http(&server.url()), &OPTIONS).await;
        assert_eq!(report["protocolVersion"], version, "{report}");
        sees_the_app(&report);
    }
    server.stop().await;
}

/// What the peers are asked: the app's tool called, its view read.
const OPTIONS: [&str; 6] = ["--tool", "show_sum", "--args", r#"{"a":2,"b":3}"#, "--resource", VIEW];

/// The app as a peer's report shows it: the extension advertised, the
/// tool's and the view's `_meta.ui` and icons as the component declared them.
fn sees_the_app(report: &Value) {
    let view_ui = json!({ "csp": { "connectDomains": [], "resourceDomains": ["https://cdn.example.com"] }, "prefersBorder": true });
    // The server's own icons, from the component's `serverInfo`.
    assert_eq!(report["serverInfo"]["icons"][0]["mimeType"], "image/svg+xml", "{report}");
    let extensions = &report["serverCapabilities"]["extensions"];
    assert_eq!(extensions["io.modelcontextprotocol/ui"]["mimeTypes"], json!([APP_MIME_TYPE]), "{report}");

    let tool = entry(&report["tools"], "name", "show_sum");
    assert_eq!(tool["_meta"]["ui"], json!({ "resourceUri": VIEW, "visibility": ["model", "app"] }), "{tool}");
    assert_eq!(tool["icons"][0]["mimeType"], "image/svg+xml", "{tool}");
    assert!(tool["icons"][0]["src"].as_str().unwrap().starts_with("data:image/svg+xml;base64,"), "{tool}");
    assert_eq!(report["call"]["structuredContent"]["sum"], 5.0, "{report}");

    let resource = entry(&report["resources"], "uri", VIEW);
    assert_eq!(resource["mimeType"], APP_MIME_TYPE, "{resource}");
    assert_eq!(resource["_meta"]["ui"], view_ui, "{resource}");
    assert_eq!(resource["icons"][0]["sizes"], json!(["any"]), "{resource}");

    let prompt = entry(&report["prompts"], "name", "explain_sum");
    assert_eq!(prompt["icons"][0]["mimeType"], "image/svg+xml", "{prompt}");

    let contents = &report["read"]["contents"][0];
    assert_eq!(contents["mimeType"], APP_MIME_TYPE, "{contents}");
    assert_eq!(contents["_meta"]["ui"], view_ui, "{contents}");
    assert!(contents["text"].as_str().unwrap().contains("ui/initialize"), "{contents}");
}

/// The app end to end in a real browser, in both eras: headless Chromium
/// loads a host page (the TypeScript SDK client and ext-apps' `AppBridge`,
/// from a page of another origin, so CORS is crossed as a web host crosses
/// it); the page lists the tools, reads `show_sum`'s view and renders it
/// in a sandboxed iframe, calls the tool and hands the view its result; the
/// view calls `add` back through the bridge. Both answers are read from the
/// view's DOM. Every message the browser received passes the schema.
#[tokio::test]
async fn an_apps_view_runs_in_a_real_browser_and_calls_a_tool_back_in_both_eras() {
    let server = HttpServer::start(&[&support::fixture_arg("rmcp_http_server")]).await;
    for (mode, version) in [("2026-07-28", "2026-07-28"), ("legacy", "2025-11-25")] {
        let options = ["--tool", "show_sum", "--args", r#"{"a":2,"b":3}"#];
        let report = run_checked(Peer::Browser, mode, Over::Http(&server.url()), &options).await;
        assert_eq!(report["protocolVersion"], version, "{report}");
        let extensions = &report["serverCapabilities"]["extensions"];
        assert_eq!(extensions["io.modelcontextprotocol/ui"]["mimeTypes"], json!([APP_MIME_TYPE]), "{report}");
        assert_eq!(report["resourceUri"], VIEW, "{report}");
        assert_eq!(report["view"]["mimeType"], APP_MIME_TYPE, "{report}");
        assert_eq!(report["view"]["meta"]["ui"]["prefersBorder"], true, "{report}");
        assert_eq!(report["frameSandbox"], "allow-scripts", "{report}");
        // The tool's result as the view shows it, and what `add` answered
        // the view's own call.
        assert_eq!(report["call"]["structuredContent"]["sum"], 5.0, "{report}");
        assert_eq!(report["viewText"], json!({ "sum": "5", "plusOne": "6" }), "{report}");
    }
    server.stop().await;
}

/// `mcp-wit new NAME --template app --lang LANG`, built by `mcp-wit build`
/// (compiled into the cache beside it): the project's directory, which
/// holds the component until it is dropped, and the component.
fn new_app(lang: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    use std::process::Command;
    let work = tempfile::tempdir().unwrap();
    let project = work.path().join(format!("{lang}-sums"));
    let made = Command::new(support::binary())
        .arg("new")
        .arg(&project)
        .args(["--template", "app", "--lang", lang])
        .output()
        .unwrap();
    assert!(made.status.success(), "mcp-wit new: {}", String::from_utf8_lossy(&made.stderr));
    let wasm = match lang {
        "rust" => crate::guests::mcp_wit_build(&project),
        "python" | "typescript" => {
            let mut build = Command::new(support::binary());
            build.arg("build").arg(&project).arg("--cache-dir").arg(project.join("build/app.cache"));
            if lang == "python" {
                let python = crate::python_sdk::build_python().unwrap_or_else(|why| panic!("componentize-py: {why}"));
                build.env("VIRTUAL_ENV", python.parent().and_then(|bin| bin.parent()).unwrap());
            } else {
                // The SDK's own install fills npm's cache first.
                crate::typescript_sdk::package();
                let install = Command::new("npm")
                    .args(["install", "--prefer-offline", "--no-audit", "--no-fund"])
                    .current_dir(&project)
                    .output()
                    .unwrap();
                assert!(install.status.success(), "npm install: {}", String::from_utf8_lossy(&install.stderr));
                let typed =
                    Command::new("npx").args(["tsc", "--noEmit", "-p", "."]).current_dir(&project).output().unwrap();
                assert!(typed.status.success(), "tsc: {}", String::from_utf8_lossy(&typed.stdout));
            }
            let built = build.output().unwrap();
            assert!(built.status.success(), "mcp-wit build: {}", String::from_utf8_lossy(&built.stderr));
            std::path::PathBuf::from(String::from_utf8_lossy(&built.stdout).trim())
        }
        other => unreachable!("no language {other}"),
    };
    (work, wasm)
}

/// The app `mcp-wit new --template app` writes, in `lang`: in a real
/// browser in both eras (the view shows the tool's result and the answer of
/// `add`, which it called back), and to the Python SDK client, which hosts
/// no apps and so gets the tool's text fallback, with the tools' `_meta.ui`,
/// the view's `_meta.ui` and the server's icons as the router declared them.
async fn the_app_template_works(lang: &str) {
    let (_project, wasm) = new_app(lang);
    let wasm = wasm.display().to_string();
    let view = "ui://my-router/sum.html".replace("my-router", &format!("{lang}-sums"));
    let server = HttpServer::start(&[&wasm]).await;
    for (mode, version) in [("2026-07-28", "2026-07-28"), ("legacy", "2025-11-25")] {
        let options = ["--tool", "show_sum", "--args", r#"{"a":2,"b":3}"#];
        let report = run_checked(Peer::Browser, mode, Over::Http(&server.url()), &options).await;
        assert_eq!(report["protocolVersion"], version, "{report}");
        assert_eq!(report["resourceUri"], view, "{report}");
        assert_eq!(report["view"]["mimeType"], APP_MIME_TYPE, "{report}");
        assert_eq!(report["view"]["meta"]["ui"]["prefersBorder"], true, "{report}");
        assert_eq!(report["viewText"], json!({ "sum": "5", "plusOne": "6" }), "{report}");
        let add = entry(&report["tools"], "name", "add");
        assert_eq!(add["_meta"]["ui"], json!({ "resourceUri": view, "visibility": ["app"] }), "{add}");
    }
    server.stop().await;

    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let options = ["--tool", "show_sum", "--args", r#"{"a":2,"b":3}"#, "--resource", &view];
        let report = run_checked(Peer::Python, mode, Over::Stdio(&[&wasm]), &options).await;
        assert_eq!(report["protocolVersion"], version, "{report}");
        assert_eq!(report["call"]["content"][0]["text"], "2 + 3 = 5", "no apps, a sentence: {report}");
        let tool = entry(&report["tools"], "name", "show_sum");
        assert_eq!(tool["_meta"]["ui"], json!({ "resourceUri": view }), "{tool}");
        let resource = entry(&report["resources"], "uri", &view);
        assert_eq!(resource["mimeType"], APP_MIME_TYPE, "{resource}");
        assert_eq!(resource["_meta"]["ui"], json!({ "prefersBorder": true }), "{resource}");
        let contents = &report["read"]["contents"][0];
        assert_eq!(contents["_meta"]["ui"], json!({ "prefersBorder": true }), "{contents}");
        assert!(contents["text"].as_str().unwrap().contains("ui/initialize"), "{contents}");
        assert_eq!(report["serverInfo"]["icons"][0]["mimeType"], "image/svg+xml", "{report}");
    }
}

#[tokio::test]
async fn the_app_template_in_rust_runs_in_a_browser_and_falls_back_to_text() {
    the_app_template_works("rust").await;
}

#[tokio::test]
async fn the_app_template_in_python_runs_in_a_browser_and_falls_back_to_text() {
    the_app_template_works("python").await;
}

#[tokio::test]
async fn the_app_template_in_typescript_runs_in_a_browser_and_falls_back_to_text() {
    the_app_template_works("typescript").await;
}

/// A tool whose `_meta.ui` MCP Apps does not allow stops the start, naming
/// the tool and the key (`tools/list` would leave it out): here an app
/// template whose view is named by an `https:` URI instead of a `ui://` one.
#[tokio::test]
async fn a_tool_with_a_malformed_ui_stops_the_start_naming_it() {
    use std::process::Command;
    let work = tempfile::tempdir().unwrap();
    let project = work.path().join("bad-app");
    let made = Command::new(support::binary()).arg("new").arg(&project).args(["--template", "app"]).output().unwrap();
    assert!(made.status.success(), "mcp-wit new: {}", String::from_utf8_lossy(&made.stderr));
    let lib = project.join("src/lib.rs");
    let source = std::fs::read_to_string(&lib).unwrap();
    let broken = source.replacen(
        r#"#[tool(app = "ui://bad-app/sum.html")]"#,
        r#"#[tool(app = "https://example.com/sum.html")]"#,
        1,
    );
    assert_ne!(broken, source, "the template's show_sum names its view");
    std::fs::write(&lib, broken).unwrap();
    // Built by cargo alone: `mcp-wit build` checks what it builds as `serve` would.
    let wasm = crate::guests::build_guest(&project, "bad_app");
    let served =
        Command::new(support::binary()).arg("serve").arg(&wasm).stdin(std::process::Stdio::null()).output().unwrap();
    let stderr = String::from_utf8_lossy(&served.stderr);
    assert!(!served.status.success(), "served a malformed app: {stderr}");
    assert!(stderr.contains("tool `show_sum` cannot be served"), "{stderr}");
    assert!(stderr.contains("`_meta.ui.resourceUri` must be a `ui://` URI"), "{stderr}");
}
