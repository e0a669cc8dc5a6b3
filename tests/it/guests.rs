//! Guests as users make them: the guest template, a router written from the
//! WIT alone, and the components `serve` must refuse with a helpful message.

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_wit_tests::support;
use rmcp::model::CallToolRequestParams;
use serde_json::json;
use support::peers::{Peer, run_peer};
use support::{RawServer, Served};

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The target directory every guest build shares, `<target-dir>/guests`
/// (where the fixtures and the components the binary embeds are built), so
/// that dependencies are compiled once across tests and runs; cargo's lock
/// on it serialises the builds.
fn guest_target_dir() -> PathBuf {
    let fixtures = Path::new(mcp_wit_tests::FIXTURES);
    fixtures.ancestors().nth(2).expect("the fixtures are in <target-dir>/guests/<triple>/<profile>").to_path_buf()
}

/// Builds the guest crate in `dir` for wasm32-wasip2 and returns the .wasm.
pub(crate) fn build_guest(dir: &Path, artifact: &str) -> PathBuf {
    let target_dir = guest_target_dir();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(dir)
        .args(["build", "--release", "--target", "wasm32-wasip2", "--target-dir"])
        .arg(&target_dir)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cannot run cargo");
    assert!(output.status.success(), "building {} failed:\n{}", dir.display(), String::from_utf8_lossy(&output.stderr));
    let wasm = target_dir.join("wasm32-wasip2").join("release").join(format!("{artifact}.wasm"));
    assert!(wasm.exists(), "no {}", wasm.display());
    wasm
}

/// `mcp-wit build` of the crate in `dir`, with the target directory the
/// other guests share (cargo honours CARGO_TARGET_DIR, and `build` asks
/// cargo where it is), compiled into the cache beside the component (where
/// `check_served` looks): the component's path.
pub(crate) fn mcp_wit_build(dir: &Path) -> PathBuf {
    let target_dir = guest_target_dir();
    let wasm_dir = target_dir.join("wasm32-wasip2/release");
    let cache = wasm_dir.join(format!("{}.cache", dir.file_name().unwrap().to_str().unwrap().replace('-', "_")));
    let output = Command::new(support::binary())
        .arg("build")
        .arg(dir)
        .arg("--cache-dir")
        .arg(&cache)
        .env("CARGO_TARGET_DIR", &target_dir)
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    assert!(output.status.success(), "mcp-wit build failed:\n{}", String::from_utf8_lossy(&output.stderr));
    PathBuf::from(String::from_utf8_lossy(&output.stdout).trim())
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(&name));
        } else {
            std::fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

fn text_of(result: &rmcp::model::CallToolResult) -> String {
    let value = serde_json::to_value(result).unwrap();
    value["content"][0]["text"].as_str().unwrap_or_default().to_string()
}

#[test]
fn the_template_carries_the_contract_verbatim() {
    for file in ["wasix-mcp-router@25.3.26.wit", "mcp-wit-extension.wit"] {
        let contract = std::fs::read(root().join("wit").join(file)).unwrap();
        let copy = std::fs::read(root().join("guest-template/wit").join(file)).unwrap();
        assert!(contract == copy, "guest-template/wit/{file} must be a byte-identical copy of wit/{file}");
    }
}

#[tokio::test]
async fn the_guest_template_builds_and_serves_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("guest-template"), dir.path());
    let wasm = build_guest(dir.path(), "my_router");
    let served = Served::start(&["serve", wasm.to_str().unwrap()], ()).await;
    let info = served.client.peer_info().expect("initialized");
    assert_eq!(info.server_info.as_ref().map(|i| i.name.as_str()), Some("my-router"));
    let tools = served.client.list_all_tools().await.unwrap();
    assert_eq!(tools.iter().map(|t| t.name.as_ref()).collect::<Vec<_>>(), ["reverse", "greet"]);
    let args = json!({ "text": "stressed" }).as_object().cloned().unwrap();
    let result = served.client.call_tool(CallToolRequestParams::new("reverse").with_arguments(args)).await.unwrap();
    assert_eq!(result.structured_content, Some(json!({ "text": "desserts", "length": 8 })));
    // This client declared no elicitation: the template greets whoever it is.
    let result = served.client.call_tool(CallToolRequestParams::new("greet")).await.unwrap();
    assert_eq!(text_of(&result), "Hello, whoever you are!");
    let resources = served.client.list_all_resources().await.unwrap();
    assert!(!resources.is_empty());
    served.finish().await;
}

#[tokio::test]
async fn new_makes_a_crate_that_builds_and_serves() {
    let dir = tempfile::tempdir().unwrap();
    let crate_dir = dir.path().join("weather-tools");
    let output = Command::new(support::binary()).arg("new").arg(&crate_dir).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stdout).contains("weather_tools.wasm"), "says what to run next");
    // The contract is the repository's, byte for byte, and so is the copy
    // the vendored SDK generates its bindings from.
    for copy in ["wit", "vendor/mcp-wit-sdk/wit"] {
        for file in ["wasix-mcp-router@25.3.26.wit", "mcp-wit-extension.wit"] {
            let wit = std::fs::read(crate_dir.join(copy).join(file)).unwrap();
            assert!(wit == std::fs::read(root().join("wit").join(file)).unwrap(), "{copy}/{file}");
        }
    }
    // A user adds a tool with structured output, as the SDK's docs show.
    let lib = crate_dir.join("src/lib.rs");
    let source = std::fs::read_to_string(&lib).unwrap();
    assert!(source.contains("impl MyRouter {"), "the template's router is `MyRouter`");
    let source = source.replace("impl MyRouter {", STATS_TOOL) + STATS_TYPES;
    std::fs::write(&lib, source).unwrap();

    let wasm = mcp_wit_build(&crate_dir);
    assert_eq!(wasm, guest_target_dir().join("wasm32-wasip2/release/weather_tools.wasm"));
    let cache = wasm.with_extension("cache");
    let served = Served::start(&["serve", wasm.to_str().unwrap(), "--cache-dir", cache.to_str().unwrap()], ()).await;
    let info = served.client.peer_info().expect("initialized");
    assert_eq!(info.server_info.as_ref().map(|i| i.name.as_str()), Some("weather-tools"));
    let args = json!({ "text": "stressed" }).as_object().cloned().unwrap();
    let result = served.client.call_tool(CallToolRequestParams::new("reverse").with_arguments(args)).await.unwrap();
    assert_eq!(result.structured_content, Some(json!({ "text": "desserts", "length": 8 })));

    // Arguments that do not fit never reach the body: the model is told
    // which field is wrong (by the host's check against the input schema,
    // or else by the SDK's decoding).
    let args = json!({ "txt": "stressed" }).as_object().cloned().unwrap();
    let result = served.client.call_tool(CallToolRequestParams::new("reverse").with_arguments(args)).await.unwrap();
    assert_eq!(result.is_error, Some(true));
    let reason = text_of(&result);
    assert!(reason.contains("text") && (reason.contains("required") || reason.contains("missing")), "{reason}");

    // `Json<T>`: an output schema from `T`, and structured content.
    let tools = served.client.list_all_tools().await.unwrap();
    let stats = tools.iter().find(|t| t.name == "stats").expect("stats is listed");
    let schema = stats.output_schema.as_ref().expect("stats has an output schema");
    assert_eq!(schema["properties"]["words"]["type"], "integer");
    assert_eq!(stats.input_schema["properties"]["text"]["description"], "The text to count in.");
    let args = json!({ "text": "two words" }).as_object().cloned().unwrap();
    let result = served.client.call_tool(CallToolRequestParams::new("stats").with_arguments(args)).await.unwrap();
    assert_eq!(result.structured_content, Some(json!({ "characters": 9, "words": 2 })));
    assert_eq!(result.is_error, None);
    served.finish().await;

    // The checks every language's template passes, with the Python SDK's
    // client: stdio and Streamable HTTP, both eras, talk-back included.
    support::sdks::check_served(&wasm, "weather-tools").await;

    // Not over an existing crate, and not with a name cargo refuses.
    let output = Command::new(support::binary()).arg("new").arg(&crate_dir).output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("already exists"));
    let output = Command::new(support::binary()).arg("new").arg(dir.path().join("2fast")).output().unwrap();
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot name a crate"));
}

/// `mcp-wit new NAME --contract 25.6.18`: a Rust crate on the successor
/// contract, built by `mcp-wit build` and served unchanged, checked with the
/// Python SDK client in both eras: a title, structured output, a refused
/// argument, an elicitation answered, the resource and the prompt.
#[tokio::test]
async fn new_makes_a_crate_on_the_25_6_18_contract_that_builds_and_serves() {
    let dir = tempfile::tempdir().unwrap();
    let crate_dir = dir.path().join("successor-tools");
    let output =
        Command::new(support::binary()).arg("new").arg(&crate_dir).args(["--contract", "25.6.18"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    for file in ["wasix-mcp@25.06.18.wit", "LICENSE"] {
        let copy = std::fs::read(crate_dir.join("wit").join(file)).unwrap();
        assert!(copy == std::fs::read(root().join("wit/wasix-mcp@25.6.18").join(file)).unwrap(), "{file}");
    }
    let wasm = mcp_wit_build(&crate_dir).display().to_string();
    assert!(wasm.ends_with("successor_tools.wasm"), "{wasm}");

    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let serve = ["--".to_string(), support::binary().display().to_string(), "serve".into(), wasm.clone()];
        let steps = |tool: &str, arguments: &str, extra: &[&str]| {
            let mut args: Vec<String> =
                ["--mode", mode, "--tool", tool, "--args", arguments].iter().map(|s| s.to_string()).collect();
            args.extend(extra.iter().map(|s| s.to_string()));
            args.extend(serve.iter().cloned());
            args
        };
        let listing = ["--resource", "template://readme", "--prompt", "welcome"];
        let answer = ["--talk-back", "accept", "--elicit-content", r#"{"name":"Ada"}"#];
        let (good, bad, greet) = tokio::join!(
            run_peer(Peer::Python, steps("reverse", r#"{"text":"hello"}"#, &listing)),
            run_peer(Peer::Python, steps("reverse", r#"{"text":""}"#, &[])),
            run_peer(Peer::Python, steps("greet", "{}", &answer)),
        );
        let report = &good.report;
        assert_eq!(report["protocolVersion"], version, "{report}");
        assert_eq!(report["serverInfo"]["name"], "successor-tools", "{report}");
        assert_eq!(report["serverInfo"]["title"], "My router", "{report}");
        assert_eq!(report["call"]["structuredContent"], json!({ "text": "olleh", "length": 5 }), "{report}");
        assert_eq!(report["tools"][0]["title"], "Reverse", "{report}");
        assert!(report["read"]["contents"][0]["text"].as_str().unwrap().starts_with("# successor-tools"), "{report}");
        assert_eq!(report["prompt"]["messages"][0]["content"]["text"], "Write a one-line welcome.", "{report}");
        let refused = &bad.report["call"];
        assert_eq!(refused["isError"], true, "{refused}");
        assert!(refused["content"][0]["text"].as_str().unwrap().contains("shorter than 1 character"), "{refused}");
        assert_eq!(greet.report["call"]["content"][0]["text"], "Hello, Ada!", "{}", greet.report);
    }

    // The SDKs write 25.3.26: another language is refused, saying which.
    let output = Command::new(support::binary())
        .arg("new")
        .arg(dir.path().join("py"))
        .args(["--lang", "python", "--contract", "25.6.18"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && stderr.contains("`--lang rust --contract 25.6.18`"), "{stderr}");
    assert!(!dir.path().join("py").exists());
}

/// The tool `new_makes_a_crate_that_builds_and_serves` adds to a new crate.
const STATS_TOOL: &str = r#"impl MyRouter {
    /// Counts characters and words
    #[tool(read_only)]
    fn stats(&self, args: StatsArgs) -> Json<Stats> {
        Json(Stats { characters: args.text.chars().count(), words: args.text.split_whitespace().count() })
    }
"#;

const STATS_TYPES: &str = r#"
#[derive(Deserialize, JsonSchema)]
struct StatsArgs {
    /// The text to count in.
    text: String,
}

#[derive(Serialize, JsonSchema)]
struct Stats {
    characters: usize,
    words: usize,
}
"#;

/// A router as a new user writes it, from the WIT file and wit-bindgen's
/// documentation only. It also prints to stdout and stderr, which must never
/// reach the host's stdout.
const FROM_WIT_LIB: &str = r##"
wit_bindgen::generate!({ path: "wit", world: "wasix:mcp/mcp-router" });

use exports::wasix::mcp::router::*;

struct Notes;

static NOTES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

fn text(t: String) -> Content {
    Content::Text(TextContent { text: t, annotations: None })
}

impl Guest for Notes {
    fn name() -> String { "notes".into() }
    fn instructions() -> String { String::new() }
    fn capabilities() -> ServerCapabilities {
        ServerCapabilities { prompts: None, resources: None, completions: None,
            tools: Some(ToolsCapability { list_changed: None }) }
    }
    fn list_tools() -> Vec<Tool> {
        vec![Tool {
            name: "add-note".into(),
            description: "Stores a note and returns how many there are".into(),
            input_schema: Value { json: r#"{"type":"object","properties":{"note":{"type":"string"}}}"#.into() },
            output_schema: None, annotations: None, meta: None,
        }]
    }
    fn call_tool(name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        if name != "add-note" { return Err(ToolError::NotFound(name)); }
        println!("this line goes to the guest's stdout");
        eprintln!("and this one to its stderr");
        let mut notes = NOTES.lock().unwrap();
        notes.push(arguments.json);
        Ok(CallToolResult { content: vec![text(notes.len().to_string())], progress: None, meta: None, is_error: None })
    }
    fn list_resources() -> Vec<McpResource> { Vec::new() }
    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> { Err(ResourceError::NotFound(uri)) }
    fn list_prompts() -> Vec<Prompt> { Vec::new() }
    fn get_prompt(name: String) -> Result<GetPromptResult, PromptError> { Err(PromptError::NotFound(name)) }
    fn complete(_: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        Err(CompletionError::NotFound("no completions".into()))
    }
}

export!(Notes);
"##;

const OTHER_WORLD_WIT: &str =
    "package example:other;\n\nworld greeter {\n  export greet: func(name: string) -> string;\n}\n";

const OTHER_WORLD_LIB: &str = r#"
wit_bindgen::generate!({ path: "wit", world: "example:other/greeter" });
struct G;
impl Guest for G { fn greet(name: String) -> String { format!("hi {name}") } }
export!(G);
"#;

fn write_guest(dir: &Path, name: &str, lib: &str, wit_file: &str, wit: &[u8]) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("wit")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n\n\
             [lib]\ncrate-type = [\"cdylib\"]\n\n[dependencies]\nwit-bindgen = \"0.61\"\n\n\
             [profile.release]\nopt-level = \"s\"\nlto = true\nstrip = true\npanic = \"abort\"\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    std::fs::write(dir.join("wit").join(wit_file), wit).unwrap();
    // Reuse the host workspace's lock so no newer dependency is resolved.
    std::fs::copy(root().join("components/Cargo.lock"), dir.join("Cargo.lock")).unwrap();
}

#[tokio::test]
async fn a_guest_written_from_the_wit_alone_is_served_and_its_output_kept_off_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let contract = std::fs::read(root().join("wit/wasix-mcp-router@25.3.26.wit")).unwrap();
    write_guest(dir.path(), "notes", FROM_WIT_LIB, "wasix-mcp-router@25.3.26.wit", &contract);
    let wasm = build_guest(dir.path(), "notes");
    let path = wasm.to_str().unwrap();

    let mut server = RawServer::initialized(&["serve", path], "2025-11-25").await;
    let tools = server.request(1, "tools/list", json!({})).await;
    assert_eq!(tools["result"]["tools"][0]["name"], "add-note", "{tools}");
    for n in 1..=3 {
        // Every stdout line is read and schema-checked by RawServer: guest
        // output on stdout would fail here.
        let answer = server.call(n + 1, "add-note", json!({ "note": format!("n{n}") })).await;
        assert_eq!(answer["result"]["content"][0]["text"], n.to_string(), "{answer}");
    }
    server.finish().await;
}

#[tokio::test]
async fn guest_output_goes_to_stderr_with_the_component_name() {
    let dir = tempfile::tempdir().unwrap();
    let contract = std::fs::read(root().join("wit/wasix-mcp-router@25.3.26.wit")).unwrap();
    write_guest(dir.path(), "notes", FROM_WIT_LIB, "wasix-mcp-router@25.3.26.wit", &contract);
    let wasm = build_guest(dir.path(), "notes");
    let input = [
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":support::initialize_params("2025-11-25")}),
        json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add-note","arguments":{}}}),
    ]
    .map(|m| m.to_string())
    .join("\n");
    let output = run_serve(&[wasm.to_str().unwrap()], &input);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(!stdout.contains("this line goes"), "guest stdout leaked into the protocol stream:\n{stdout}");
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("[notes:stdout] this line goes to the guest's stdout"), "{stderr}");
    assert!(stderr.contains("[notes:stderr] and this one to its stderr"), "{stderr}");

    // `--guest-output discard` drops it.
    let output = run_serve(&["--guest-output", "discard", wasm.to_str().unwrap()], &input);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!stderr.contains("this line goes"), "{stderr}");
}

/// Runs `mcp-wit serve ARGS` with `input` on stdin to the end.
fn run_serve(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(support::binary())
        .arg("serve")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A server that refuses its component exits without reading: the pipe may
    // be closed already.
    let written = child.stdin.take().unwrap().write_all(format!("{input}\n").as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "writing to the server: {e}");
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_component_of_another_world_is_served_by_its_functions_or_refused_naming_its_exports() {
    // Plain exported functions: a typed component, each function a tool.
    let dir = tempfile::tempdir().unwrap();
    write_guest(dir.path(), "greeter", OTHER_WORLD_LIB, "other.wit", OTHER_WORLD_WIT.as_bytes());
    let wasm = build_guest(dir.path(), "greeter");
    let input = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}"#,
    ]
    .join("\n");
    let output = run_serve(&[wasm.to_str().unwrap()], &input);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains(r#""text":"hi Ada""#), "{stdout}");

    // Nothing callable: refused, saying so.
    let dir = tempfile::tempdir().unwrap();
    write_guest(dir.path(), "quiet", NOTHING_LIB, "other.wit", NOTHING_WIT.as_bytes());
    let wasm = build_guest(dir.path(), "quiet");
    let output = run_serve(&[wasm.to_str().unwrap()], "");
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("it exports no `wasix:mcp/router` (25.3.26 or 25.6.18), no function of its own"),
        "{stderr}"
    );
    assert!(stderr.contains("it exports: nothing"), "{stderr}");
    assert!(output.stdout.is_empty());
}

/// A world that exports nothing.
const NOTHING_WIT: &str = "package example:other;\n\nworld quiet {\n  import log: func(line: string);\n}\n";

const NOTHING_LIB: &str = r#"
wit_bindgen::generate!({ path: "wit", world: "example:other/quiet" });
"#;

#[test]
fn files_that_are_not_components_are_refused_with_advice() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.wasm");
    let output = run_serve(&[missing.to_str().unwrap()], "");
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("cannot read") && stderr.contains("missing.wasm"), "{stderr}");

    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "hello").unwrap();
    let stderr = String::from_utf8(run_serve(&[text.to_str().unwrap()], "").stderr).unwrap();
    assert!(stderr.contains("not a WebAssembly file"), "{stderr}");

    // The smallest core module (magic and version 1): neither a component
    // nor an Extism plugin.
    let module = dir.path().join("module.wasm");
    std::fs::write(&module, b"\0asm\x01\0\0\0").unwrap();
    let stderr = String::from_utf8(run_serve(&[module.to_str().unwrap()], "").stderr).unwrap();
    assert!(
        stderr.contains("core WebAssembly module is not an MCP plugin")
            && stderr.contains("`call` and `describe`")
            && stderr.contains("wasm32-wasip2"),
        "{stderr}"
    );
}

#[test]
fn serve_without_a_component_serves_the_built_in_demo() {
    let input = [
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":support::initialize_params("2025-11-25")}),
        json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hello","arguments":{"name":"Ada"}}}),
    ]
    .map(|m| m.to_string())
    .join("\n");
    let output = run_serve(&[], &input);
    assert!(output.status.success());
    let lines: Vec<serde_json::Value> =
        String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["result"]["serverInfo"]["name"], "hello");
    assert_eq!(lines[1]["result"]["content"][0]["text"], "Hello, Ada!");
}

fn run_cli(args: &[&str]) -> std::process::Output {
    Command::new(support::binary()).args(args).output().unwrap()
}

#[test]
fn inspect_shows_what_a_component_offers() {
    let everything = support::fixture("everything");
    let output = run_cli(&["inspect", everything.to_str().unwrap()]);
    assert!(output.status.success());
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(table.contains("name          everything") && table.contains("tools (9)"), "{table}");
    assert!(table.contains("everything://text") && table.contains("greeting"), "{table}");

    let output = run_cli(&["inspect", everything.to_str().unwrap(), "--json"]);
    assert!(output.status.success());
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["serverInfo"]["name"], "everything");
    assert_eq!(report["tools"].as_array().unwrap().len(), 9);
    assert_eq!(report["resources"].as_array().unwrap().len(), 3);
    assert_eq!(report["prompts"].as_array().unwrap().len(), 4);
    support::schema::check("ListToolsResult", &json!({ "tools": report["tools"] })).unwrap();
}

/// Resource templates are listed beside resources: a component's through
/// the extension, a v1-draft plugin's, in both eras; none is an empty list.
#[test]
fn inspect_lists_resource_templates() {
    let conformance = support::fixture_arg("conformance");
    let plugin = support::plugin_fixture("pdk-plugin").display().to_string();
    for (guest, template) in [(&conformance, "test://template/{id}/data"), (&plugin, "pdk://items/{id}")] {
        let output = run_cli(&["inspect", guest]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let table = String::from_utf8(output.stdout).unwrap();
        assert!(table.contains("resource templates (1)") && table.contains(template), "{table}");
        for protocol in ["2025-11-25", "2026-07-28"] {
            let output = run_cli(&["inspect", guest, "--json", "--protocol", protocol]);
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
            let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(report["resourceTemplates"][0]["uriTemplate"], template, "{protocol}: {report}");
            let listed = json!({ "resourceTemplates": report["resourceTemplates"] });
            support::schema::check("ListResourceTemplatesResult", &listed).unwrap();
        }
    }
    let everything = support::fixture("everything");
    let output = run_cli(&["inspect", everything.to_str().unwrap(), "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["resourceTemplates"], json!([]), "{report}");
}

#[test]
fn call_runs_one_tool_and_fails_on_errors() {
    let everything = support::fixture("everything");
    let path = everything.to_str().unwrap();
    let output = run_cli(&["call", path, "echo", "--args", r#"{"text":"from the CLI"}"#]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let result: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["content"][0]["text"], "from the CLI");

    let output = run_cli(&["call", path, "fail", "--args", r#"{"kind":"execution-error"}"#]);
    assert!(!output.status.success(), "an isError result fails the command");
    let output = run_cli(&["call", path, "nope"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("Unknown tool: nope"));
    let output = run_cli(&["call", path, "echo", "--args", "[1]"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("--args must be a JSON object"));
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let output = run_cli(&["completions", shell]);
        assert!(output.status.success(), "{shell}");
        assert!(String::from_utf8_lossy(&output.stdout).contains("mcp-wit"), "{shell}");
    }
}

/// The client configuration a new project's README gives works as it is:
/// the `mcp-wit` that wrote it by its full path (a desktop client starts
/// servers with a minimal `PATH`) and the component where it is built.
#[test]
fn a_new_projects_client_configuration_names_full_paths() {
    for lang in ["python", "typescript"] {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("notes");
        let made = Command::new(support::binary()).arg("new").arg(&project).args(["--lang", lang]).output().unwrap();
        assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
        let readme = std::fs::read_to_string(project.join("README.md")).unwrap();
        let config = readme.lines().find(|line| line.contains("mcpServers")).expect("a client configuration");
        let config: serde_json::Value = serde_json::from_str(config).unwrap();
        let server = &config["mcpServers"]["notes"];
        let binary = std::fs::canonicalize(support::binary()).unwrap();
        assert_eq!(std::fs::canonicalize(server["command"].as_str().unwrap()).unwrap(), binary, "{server}");
        assert_eq!(server["args"][1], project.join("build/notes.wasm").display().to_string(), "{server}");
    }
}
