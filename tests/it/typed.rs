// Typed components (Wassette's shape): `components/typed` exports plain
// functions, at the top of its world and in an interface, taking and
// returning every kind of WIT value. Its tools are listed as Wassette's
// `component2json` lists them, byte for byte; every kind of value goes in
// and comes back; doc comments become descriptions; Wassette's policy file
// grants what it says or is refused; the SDK clients call it in both eras.

use std::process::{Command, Stdio};

use mcp_wit::{LoadedRouter, SandboxPolicy};
use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::http::HttpServer;
use support::peers::{Over, Peer, call_checked};
use support::schema::{self, Revision};
use support::{RawServer, binary, fixture};

/// What Wassette lists for `components/typed`: each tool's name, its input
/// schema and its output schema, as the text its `component2json` writes
/// (microsoft/wassette@29890fd, `crates/component2json/src/lib.rs`:
/// `normalize_tool_name`, `type_to_json_schema`,
/// `component_func_to_schema_with_docs`, `build_result_wrapper`; its
/// `serde_json` keeps keys in the order its `json!` literals write them,
/// as the `echo` listing recorded from Wassette 0.8.0 shows). Recorded by
/// applying those functions to the fixture's WIT by hand.
const WASSETTE_LISTING: [(&str, &str, Option<&str>); 14] = [
    (
        "echo",
        r#"{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}"#,
        Some(r#"{"type":"object","properties":{"result":{"type":"string"}},"required":["result"]}"#),
    ),
    (
        "read-file",
        r#"{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}"#,
        Some(
            r#"{"type":"object","properties":{"result":{"oneOf":[{"type":"object","properties":{"ok":{"type":"string"}},"required":["ok"]},{"type":"object","properties":{"err":{"type":"string"}},"required":["err"]}]}},"required":["result"]}"#,
        ),
    ),
    (
        "local_typed_shapes_add",
        r#"{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}"#,
        Some(r#"{"type":"object","properties":{"result":{"type":"number"}},"required":["result"]}"#),
    ),
    (
        "local_typed_shapes_shift",
        r#"{"type":"object","properties":{"p":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]},"by":{"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"minItems":2,"maxItems":2}},"required":["p","by"]}"#,
        Some(
            r#"{"type":"object","properties":{"result":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]}},"required":["result"]}"#,
        ),
    ),
    (
        "local_typed_shapes_area",
        r#"{"type":"object","properties":{"s":{"oneOf":[{"type":"object","properties":{"tag":{"const":"circle"},"val":{"type":"number"}},"required":["tag","val"]},{"type":"object","properties":{"tag":{"const":"square"},"val":{"type":"number"}},"required":["tag","val"]},{"type":"object","properties":{"tag":{"const":"dot"}},"required":["tag"]}]}},"required":["s"]}"#,
        Some(r#"{"type":"object","properties":{"result":{"type":"number"}},"required":["result"]}"#),
    ),
    (
        "local_typed_shapes_name-of",
        r#"{"type":"object","properties":{"c":{"type":"string","enum":["red","green","blue"]}},"required":["c"]}"#,
        Some(r#"{"type":"object","properties":{"result":{"type":"string"}},"required":["result"]}"#),
    ),
    (
        "local_typed_shapes_grant",
        r#"{"type":"object","properties":{"a":{"type":"object","properties":{"read":{"type":"boolean"},"write":{"type":"boolean"},"exec":{"type":"boolean"}}}},"required":["a"]}"#,
        Some(
            r#"{"type":"object","properties":{"result":{"type":"object","properties":{"read":{"type":"boolean"},"write":{"type":"boolean"},"exec":{"type":"boolean"}}}},"required":["result"]}"#,
        ),
    ),
    (
        "local_typed_shapes_first",
        r#"{"type":"object","properties":{"items":{"type":"array","items":{"type":"string"}}},"required":["items"]}"#,
        Some(
            r#"{"type":"object","properties":{"result":{"anyOf":[{"type":"null"},{"type":"string"}]}},"required":["result"]}"#,
        ),
    ),
    (
        "local_typed_shapes_divide",
        r#"{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}"#,
        Some(
            r#"{"type":"object","properties":{"result":{"oneOf":[{"type":"object","properties":{"ok":{"type":"number"}},"required":["ok"]},{"type":"object","properties":{"err":{"type":"string"}},"required":["err"]}]}},"required":["result"]}"#,
        ),
    ),
    (
        "local_typed_shapes_greet",
        r#"{"type":"object","properties":{"name":{"anyOf":[{"type":"null"},{"type":"string"}]}},"required":["name"]}"#,
        Some(r#"{"type":"object","properties":{"result":{"type":"string"}},"required":["result"]}"#),
    ),
    (
        "local_typed_shapes_count-bytes",
        r#"{"type":"object","properties":{"data":{"type":"array","items":{"type":"number"}}},"required":["data"]}"#,
        Some(r#"{"type":"object","properties":{"result":{"type":"number"}},"required":["result"]}"#),
    ),
    (
        "local_typed_shapes_code-of",
        r#"{"type":"object","properties":{"c":{"type":"string","description":"1 unicode codepoint"}},"required":["c"]}"#,
        Some(r#"{"type":"object","properties":{"result":{"type":"number"}},"required":["result"]}"#),
    ),
    ("local_typed_shapes_nothing", r#"{"type":"object","properties":{},"required":[]}"#, None),
    ("local_typed_shapes_crash", r#"{"type":"object","properties":{},"required":[]}"#, None),
];

fn load(path: &std::path::Path) -> LoadedRouter {
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    LoadedRouter::from_file(&engine, path, SandboxPolicy::builder("typed").build()).expect("load the typed component")
}

#[test]
fn a_typed_component_lists_its_tools_byte_for_byte_as_wassette_does() {
    let component = load(&fixture("typed"));
    assert_eq!(component.kind(), "typed component (its exported functions as tools)");
    assert_eq!(component.router_interface(), None);
    let mut instance = component.instantiate().expect("instantiate");
    let tools = instance.list_tools().expect("list");
    let listed: Vec<(&str, &str, Option<&str>)> = tools
        .iter()
        .map(|tool| {
            (tool.name.as_str(), tool.input_schema.json.as_str(), tool.output_schema.as_ref().map(|s| s.json.as_str()))
        })
        .collect();
    assert_eq!(listed, WASSETTE_LISTING);
    // Without doc comments in the component, Wassette's own words.
    for tool in &tools {
        assert_eq!(tool.description, format!("Auto-generated schema for function '{}'", tool.name));
    }
    // Served tools only: no resources, prompts or completions.
    let capabilities = instance.capabilities().expect("capabilities");
    assert!(capabilities.tools.is_some() && capabilities.resources.is_none() && capabilities.prompts.is_none());
}

/// `wasm` with a `package-docs` custom section for the WIT in `wit`, as a
/// toolchain that keeps the WIT's doc comments writes it (wit-parser's
/// `PackageMetadata`; custom sections may follow a component's others).
fn with_package_docs(wasm: &[u8], wit: &std::path::Path) -> Vec<u8> {
    let mut resolve = wit_parser::Resolve::default();
    let (package, _) = resolve.push_dir(wit).expect("the fixture's WIT parses");
    let docs = wit_parser::PackageMetadata::extract(&resolve, package).encode().expect("encode");
    let name = wit_parser::PackageMetadata::SECTION_NAME.as_bytes();
    let mut payload = leb128(name.len());
    payload.extend_from_slice(name);
    payload.extend_from_slice(&docs);
    let mut out = wasm.to_vec();
    out.push(0);
    out.extend(leb128(payload.len()));
    out.extend(payload);
    out
}

fn leb128(mut n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

#[test]
fn doc_comments_become_descriptions_in_the_world_and_its_interfaces() {
    let wit = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../components/typed/wit");
    let documented = with_package_docs(&std::fs::read(fixture("typed")).unwrap(), &wit);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typed.wasm");
    std::fs::write(&path, documented).unwrap();
    let tools = load(&path).instantiate().unwrap().list_tools().unwrap();
    let description = |name: &str| tools.iter().find(|t| t.name == name).unwrap().description.clone();
    assert_eq!(description("echo"), "Says the message back.");
    assert_eq!(description("read-file"), "Reads a text file the component was granted.");
    // Wassette finds a world's docs only; an interface's are found too.
    assert_eq!(description("local_typed_shapes_add"), "Adds two whole numbers.");
    assert_eq!(description("local_typed_shapes_area"), "Auto-generated schema for function 'local_typed_shapes_area'");
}

#[tokio::test]
async fn every_kind_of_value_goes_in_and_comes_back() {
    let typed = support::fixture_arg("typed");
    let mut server = RawServer::initialized(&["serve", &typed], "2025-11-25").await;
    let list = server.request(1, "tools/list", json!({})).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &list).unwrap();
    let listed: Vec<Value> =
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["inputSchema"].clone()).collect();
    let expected: Vec<Value> =
        WASSETTE_LISTING.iter().map(|(_, input, _)| serde_json::from_str(input).unwrap()).collect();
    assert_eq!(listed, expected);

    // (tool, arguments, text, structured result)
    let calls = [
        ("echo", json!({"text": "hi"}), "hi", json!("hi")),
        ("local_typed_shapes_add", json!({"a": 2, "b": -5}), "-3", json!(-3)),
        (
            "local_typed_shapes_shift",
            json!({"p": {"x": 1, "y": 2}, "by": [10, 20]}),
            r#"{"x":11,"y":22}"#,
            json!({"x": 11, "y": 22}),
        ),
        ("local_typed_shapes_area", json!({"s": {"tag": "square", "val": 3}}), "9.0", json!(9.0)),
        ("local_typed_shapes_area", json!({"s": {"tag": "dot"}}), "0.0", json!(0.0)),
        ("local_typed_shapes_name-of", json!({"c": "green"}), "green", json!("green")),
        (
            "local_typed_shapes_grant",
            json!({"a": {"read": true, "exec": true}}),
            r#"{"read":true,"write":false,"exec":false}"#,
            json!({"read": true, "write": false, "exec": false}),
        ),
        ("local_typed_shapes_first", json!({"items": ["a", "b"]}), "a", json!("a")),
        ("local_typed_shapes_first", json!({"items": []}), "null", Value::Null),
        ("local_typed_shapes_divide", json!({"a": 1, "b": 4}), "0.25", json!({"ok": 0.25})),
        ("local_typed_shapes_greet", json!({"name": null}), "Hello, stranger!", json!("Hello, stranger!")),
        ("local_typed_shapes_greet", json!({"name": "Ada"}), "Hello, Ada!", json!("Hello, Ada!")),
        ("local_typed_shapes_count-bytes", json!({"data": [1, 2, 255]}), "3", json!(3)),
        ("local_typed_shapes_code-of", json!({"c": "é"}), "233", json!(233)),
    ];
    for (id, (tool, arguments, text, result)) in (10..).zip(calls) {
        let answer = server.call(id, tool, arguments.clone()).await;
        schema::check_at(Revision::Legacy, "JSONRPCMessage", &answer).unwrap();
        assert_eq!(support::text(&answer), text, "{tool} {arguments}: {answer}");
        assert_eq!(answer["result"]["structuredContent"], json!({ "result": result }), "{tool}: {answer}");
        assert_eq!(answer["result"].get("isError"), None, "{tool}: {answer}");
    }

    // A function without a result answers `null`, without structured content.
    let nothing = server.call(30, "local_typed_shapes_nothing", json!({})).await;
    assert_eq!(support::text(&nothing), "null");
    assert_eq!(nothing["result"].get("structuredContent"), None, "{nothing}");

    // A returned `result`'s error is the tool's error, in its own words.
    let divided = server.call(31, "local_typed_shapes_divide", json!({"a": 1, "b": 0})).await;
    assert_eq!(divided["result"]["isError"], true, "{divided}");
    assert_eq!(support::text(&divided), "division by zero");
    assert_eq!(divided["result"]["structuredContent"], json!({"result": {"err": "division by zero"}}));

    // Arguments are checked against the schema, then converted against the
    // WIT types, never trusted: what either refuses is the tool's error,
    // saying where.
    let misfits = [
        // The schema says `number`; the type says s32, u8, char.
        ("local_typed_shapes_add", json!({"a": 2.5, "b": 1}), "argument `a`: 2.5 is not a whole number of type s32"),
        ("local_typed_shapes_count-bytes", json!({"data": [1, 256]}), "argument `data[1]`: 256 is out of range for u8"),
        ("local_typed_shapes_code-of", json!({"c": "ab"}), "argument `c`: expected one character, found 2 of them"),
        // What the schema refuses.
        ("local_typed_shapes_name-of", json!({"c": "mauve"}), r#"/c: "mauve" is not one of "red", "green" or "blue""#),
        (
            "local_typed_shapes_area",
            json!({"s": {"tag": "hexagon"}}),
            "/s: {\"tag\":\"hexagon\"} is not valid under any",
        ),
        ("local_typed_shapes_shift", json!({"p": {"x": 1}, "by": [0, 0]}), r#"/p: "y" is a required property"#),
        ("local_typed_shapes_shift", json!({"p": {"x": 1, "y": 1}, "by": [0]}), "/by: [0] has less than 2 items"),
        ("echo", json!({}), r#""text" is a required property"#),
    ];
    for (id, (tool, arguments, message)) in (40..).zip(misfits) {
        let answer = server.call(id, tool, arguments).await;
        assert_eq!(answer["result"]["isError"], true, "{tool}: {answer}");
        assert!(support::text(&answer).contains(message), "{tool}: {answer}");
    }

    // A trap is the usual trap: an internal error, and a fresh instance next.
    let crashed = server.call(60, "local_typed_shapes_crash", json!({})).await;
    assert_eq!(support::error_code(&crashed), -32603, "{crashed}");
    assert!(support::error_message(&crashed).contains("the crash tool traps"), "{crashed}");
    let after = server.call(61, "echo", json!({"text": "still here"})).await;
    assert_eq!(support::text(&after), "still here");
    let unknown = server.call(62, "nope", json!({})).await;
    assert_eq!(support::error_code(&unknown), -32602, "{unknown}");
    server.finish().await;
}

fn serve_output(args: &[&str]) -> std::process::Output {
    Command::new(binary()).arg("serve").args(args).stdin(Stdio::null()).output().expect("mcp-wit runs")
}

#[tokio::test]
async fn a_wassette_policy_file_grants_what_it_says_and_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    let granted = dir.path().join("granted");
    std::fs::create_dir(&granted).unwrap();
    std::fs::write(granted.join("note.txt"), "a granted note").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "not granted").unwrap();
    let policy = dir.path().join("policy.yaml");
    std::fs::write(
        &policy,
        format!(
            "version: \"1.0\"\ndescription: \"read one directory\"\npermissions:\n  storage:\n    allow:\n      - uri: \"fs://{}\"\n        access: [\"read\"]\n",
            granted.display()
        ),
    )
    .unwrap();
    let typed = support::fixture_arg("typed");
    let policy_arg = policy.display().to_string();
    let mut server = RawServer::initialized(&["serve", &typed, "--policy", &policy_arg], "2025-11-25").await;
    let note = granted.join("note.txt").display().to_string();
    let read = server.call(1, "read-file", json!({ "path": note })).await;
    assert_eq!(support::text(&read), "a granted note", "{read}");
    let secret = dir.path().join("secret.txt").display().to_string();
    let refused = server.call(2, "read-file", json!({ "path": secret })).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert!(support::text(&refused).contains("No such file or directory"), "{refused}");
    server.finish().await;

    // The same grant from a component's section of `mcp-wit.toml`, the
    // policy named relative to the file.
    let file = dir.path().join("mcp-wit.toml");
    std::fs::write(&file, format!("[[component]]\npath = {typed:?}\npolicy = \"policy.yaml\"\n")).unwrap();
    let file_arg = file.display().to_string();
    let mut server = RawServer::initialized(&["serve", "-f", &file_arg], "2025-11-25").await;
    let read = server.call(1, "read-file", json!({ "path": note })).await;
    assert_eq!(support::text(&read), "a granted note", "{read}");
    server.finish().await;

    // Its memory limit caps the component: below what it starts with, it is
    // refused before anything compiles (`call` here; `serve` alike).
    std::fs::write(&policy, "version: \"1.0\"\npermissions:\n  resources:\n    limits:\n      memory: \"64Ki\"\n")
        .unwrap();
    let output = Command::new(binary())
        .args(["call", &typed, "echo", "--args", r#"{"text":"x"}"#, "--policy", &policy_arg])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let refused = "more than the memory cap of 64KiB; raise the cap (--max-memory, `max-memory` in mcp-wit.toml, or a \
                   policy file's memory limit)";
    assert!(!output.status.success() && stderr.contains(refused), "{stderr}");

    // What cannot be granted exactly is refused at load, saying what to write.
    for (permissions, says) in [
        ("  storage:\n    allow:\n      - uri: \"fs:///tmp\"\n        access: [\"write\"]\n", "access: [read, write]"),
        ("  network:\n    allow:\n      - cidr: \"10.0.0.0/8\"\n", "raw sockets"),
        (
            "  storage:\n    allow:\n      - uri: \"fs:///no/such/dir\"\n        access: [\"read\"]\n",
            "no such directory",
        ),
    ] {
        std::fs::write(&policy, format!("version: \"1.0\"\npermissions:\n{permissions}")).unwrap();
        let output = serve_output(&[&typed, "--policy", &policy_arg]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success() && stderr.contains(says), "{permissions}: {stderr}");
    }
}

#[tokio::test]
async fn sdk_clients_call_a_typed_component_in_both_eras() {
    let typed = support::fixture_arg("typed");
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let over = Over::Stdio(&[&typed]);
        let report = call_checked(Peer::Python, mode, over, "local_typed_shapes_add", r#"{"a":40,"b":2}"#).await;
        assert_eq!(report["protocolVersion"], version, "{report}");
        assert_eq!(report["call"]["content"][0]["text"], "42", "{report}");
        assert_eq!(report["call"]["structuredContent"], json!({"result": 42}), "{report}");
    }
    let server = HttpServer::start(&[&typed]).await;
    for peer in [Peer::Python, Peer::TypeScript] {
        for mode in ["auto", "legacy"] {
            let report = call_checked(peer, mode, Over::Http(&server.url()), "echo", r#"{"text":"over HTTP"}"#).await;
            assert_eq!(report["serverInfo"]["name"], "typed", "{report}");
            assert_eq!(report["call"]["content"][0]["text"], "over HTTP", "{report}");
        }
    }
}

#[test]
fn inspect_names_the_shape() {
    let typed = support::fixture_arg("typed");
    let output = Command::new(binary()).args(["inspect", &typed]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success() && stdout.contains("typed component"), "{stdout}");
}

/// The names `tools/list` gives on a server started with `args`, sorted.
async fn tool_names(server: &mut RawServer) -> Vec<String> {
    let list = server.request(1, "tools/list", json!({})).await;
    schema::check_at(Revision::Legacy, "JSONRPCMessage", &list).unwrap();
    let mut names: Vec<String> =
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().into()).collect();
    names.sort_unstable();
    names
}

#[tokio::test]
async fn a_typed_component_keeps_its_names_beside_others_unless_two_collide() {
    let typed = support::fixture_arg("typed");
    let echo = support::fixture_arg("echo");
    // Beside a router: its names as Wassette gives them, the router's prefixed.
    let mut server = RawServer::initialized(&["serve", &typed, &echo], "2025-11-25").await;
    let names = tool_names(&mut server).await;
    assert!(names.iter().any(|n| n == "echo") && names.iter().any(|n| n == "echo_echo"), "{names:?}");
    assert!(names.iter().any(|n| n == "local_typed_shapes_add"), "{names:?}");
    let typed_add = server.call(2, "local_typed_shapes_add", json!({ "a": 1, "b": 2 })).await;
    assert_eq!(support::text(&typed_add), "3", "{typed_add}");
    let routed = server.call(3, "echo_echo", json!({ "text": "to the router" })).await;
    assert_eq!(support::text(&routed), "to the router", "{routed}");
    let bare = server.call(4, "echo", json!({ "text": "to the typed component" })).await;
    assert_eq!(bare["result"]["structuredContent"], json!({ "result": "to the typed component" }), "{bare}");
    server.finish().await;

    // Two typed components offering the same names: both prefixed.
    let dir = tempfile::tempdir().unwrap();
    let twin = dir.path().join("twin.wasm");
    std::fs::copy(fixture("typed"), &twin).unwrap();
    let twin = twin.to_str().unwrap();
    let mut server = RawServer::initialized(&["serve", &typed, twin], "2025-11-25").await;
    let names = tool_names(&mut server).await;
    assert!(names.iter().any(|n| n == "typed_echo") && names.iter().any(|n| n == "twin_echo"), "{names:?}");
    assert!(!names.iter().any(|n| n == "echo"), "{names:?}");
    let called = server.call(2, "twin_echo", json!({ "text": "twin" })).await;
    assert_eq!(support::text(&called), "twin", "{called}");
    server.finish().await;

    // A prefix given is a prefix kept.
    let named = format!("{typed}=t");
    let mut server = RawServer::initialized(&["serve", &typed, &echo, "--name", &named], "2025-11-25").await;
    let names = tool_names(&mut server).await;
    assert!(names.iter().any(|n| n == "t_echo") && !names.iter().any(|n| n == "echo"), "{names:?}");
    server.finish().await;
}
