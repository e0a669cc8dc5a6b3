//! Middleware composed in front of routers, end to end: the middleware
//! components (`namespace`, `filter`, `audit`) are plugged onto the
//! `everything` fixture the way `wac plug` does it (with `wac-graph`, the
//! library behind the wac CLI), and the composed component is served by
//! `mcp-wit serve` with its settings granted through `--env`.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use mcp_wit_tests::support;
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use support::{ANSWER_TIMEOUT, RawServer, Served, fixture, plug};

/// The revision the raw tests speak (it carries `structuredContent`).
const VERSION: &str = "2025-06-18";

/// What the host puts before each line the composed guest writes to stderr:
/// the name its clients know it by, the router's inside (`everything`), not
/// its file's (`composed.wasm`).
const GUEST_STDERR: &str = "[everything:stderr] ";

/// A composed component on disk, as `composed.wasm`.
struct Composed {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Composed {
    fn path(&self) -> &str {
        self.path.to_str().unwrap()
    }
}

/// `middlewares` in front of `router`, outermost first: `["filter",
/// "namespace"]` gives filter → namespace → router, as two `wac plug` runs
/// do (namespace onto the router first, then filter onto that).
fn compose(middlewares: &[&str], router: &str) -> Composed {
    let mut bytes = std::fs::read(fixture(router)).unwrap();
    for middleware in middlewares.iter().rev() {
        bytes = plug(&std::fs::read(fixture(middleware)).unwrap(), &bytes);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("composed.wasm");
    std::fs::write(&path, bytes).unwrap();
    Composed { path, _dir: dir }
}

/// `serve <component> --env <grant>…` as arguments.
fn serve_args<'a>(component: &'a str, env: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["serve", component];
    for grant in env {
        args.extend(["--env", grant]);
    }
    args
}

async fn raw(component: &str, env: &[&str]) -> RawServer {
    RawServer::initialized(&serve_args(component, env), VERSION).await
}

/// The `result` of a request, failing on an error response.
async fn result(server: &mut RawServer, id: i64, method: &str, params: Value) -> Value {
    let answer = server.request(id, method, params).await;
    assert!(answer.get("error").is_none(), "{method} failed: {answer}");
    answer["result"].clone()
}

/// The `error` of a request, failing on a result.
async fn error(server: &mut RawServer, id: i64, method: &str, params: Value) -> Value {
    let answer = server.request(id, method, params).await;
    assert!(answer.get("result").is_none(), "{method} should have failed: {answer}");
    answer["error"].clone()
}

/// The values of `key` in the items of a list result.
fn names(list: &Value, items: &str, key: &str) -> Vec<String> {
    list[items].as_array().unwrap().iter().map(|item| item[key].as_str().unwrap().to_string()).collect()
}

/// The text of the first content item of a tool result.
fn first_text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

/// The audit lines the composed guest wrote, parsed; waits (bounded) until
/// there are `count`, since stderr is read on its own task.
async fn audit_lines(stderr: &Arc<Mutex<String>>, count: usize) -> Vec<Value> {
    let start = Instant::now();
    loop {
        let lines: Vec<Value> = stderr
            .lock()
            .unwrap()
            .lines()
            .filter_map(|line| line.strip_prefix(GUEST_STDERR))
            .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}")))
            .collect();
        if lines.len() >= count || start.elapsed() > ANSWER_TIMEOUT {
            return lines;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Requests that touch every function and every type of the contract.
fn tour() -> Vec<(&'static str, Value)> {
    let call = |name: &str, arguments: Value| json!({ "name": name, "arguments": arguments });
    let complete = |reference: Value, name: &str, value: &str| json!({ "ref": reference, "argument": { "name": name, "value": value }, "context": { "arguments": { "prefix": ">" } } });
    let greeting = json!({ "type": "ref/prompt", "name": "greeting" });
    vec![
        ("tools/list", json!({})),
        ("tools/call", call("echo", json!({ "text": "hi" }))),
        ("tools/call", call("add", json!({ "a": 1.5, "b": 2 }))),
        ("tools/call", call("all-content", json!({}))),
        ("tools/call", json!({ "name": "progress", "arguments": {}, "_meta": { "progressToken": "t" } })),
        ("tools/call", call("fail", json!({ "kind": "execution-error" }))),
        ("tools/call", call("fail", json!({ "kind": "not-found" }))),
        ("tools/call", call("is-error", json!({}))),
        ("tools/call", call("counter", json!({}))),
        ("tools/call", call("counter", json!({}))),
        ("tools/call", call("annotated", json!({}))),
        ("tools/call", call("nope", json!({}))),
        ("resources/list", json!({})),
        ("resources/read", json!({ "uri": "everything://text" })),
        ("resources/read", json!({ "uri": "everything://blob" })),
        ("resources/read", json!({ "uri": "everything://both" })),
        ("resources/read", json!({ "uri": "everything://broken" })),
        ("resources/read", json!({ "uri": "everything://nope" })),
        ("prompts/list", json!({})),
        ("prompts/get", json!({ "name": "greeting", "arguments": { "who": "you" } })),
        ("prompts/get", json!({ "name": "mixed" })),
        ("prompts/get", json!({ "name": "invalid" })),
        ("prompts/get", json!({ "name": "broken" })),
        ("completion/complete", complete(greeting.clone(), "who", "lang-01")),
        ("completion/complete", complete(greeting, "boom", "")),
        ("completion/complete", complete(json!({ "type": "ref/prompt", "name": "missing" }), "who", "")),
    ]
}

#[tokio::test]
async fn a_middleware_passes_on_every_value_of_the_contract_unchanged() {
    // Without a prefix, `namespace` changes nothing: every answer must equal
    // the plain router's, which checks the middleware's copy of every type.
    let composed = compose(&["namespace"], "everything");
    let everything = fixture("everything");
    let mut plain = RawServer::start(&["serve", everything.to_str().unwrap()]);
    let mut wrapped = RawServer::start(&["serve", composed.path()]);
    let init = support::initialize_params(VERSION);
    let mut id = 0;
    for (method, params) in [("initialize", init)].into_iter().chain(tour()) {
        id += 1;
        let expected = plain.request(id, method, params.clone()).await;
        let actual = wrapped.request(id, method, params).await;
        assert_eq!(actual, expected, "{method}");
        if method == "initialize" {
            for server in [&mut plain, &mut wrapped] {
                server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
            }
        }
    }
    // A trap in the wrapped router takes the whole composition down, and
    // the host starts afresh: the counter begins again at 1.
    for server in [&mut plain, &mut wrapped] {
        let trapped = error(server, 100, "tools/call", json!({ "name": "panic", "arguments": {} })).await;
        assert_eq!(trapped["code"], -32603, "{trapped}");
        let counted = result(server, 101, "tools/call", json!({ "name": "counter", "arguments": {} })).await;
        assert_eq!(first_text(&counted), "1");
    }
    let stderr = wrapped.stderr.clone();
    plain.finish().await;
    wrapped.finish().await;
    assert!(stderr.lock().unwrap().contains("NAMESPACE_PREFIX is not set"), "{}", stderr.lock().unwrap());
}

#[tokio::test]
async fn namespace_prefixes_tool_names_and_strips_the_prefix_from_calls() {
    let composed = compose(&["namespace"], "everything");
    let everything = fixture("everything");
    let mut plain = raw(everything.to_str().unwrap(), &[]).await;
    let mut server = raw(composed.path(), &["NAMESPACE_PREFIX=gh_"]).await;

    // The same tools, each renamed and otherwise unchanged.
    let expected = result(&mut plain, 1, "tools/list", json!({})).await;
    let tools = result(&mut server, 1, "tools/list", json!({})).await;
    let mut renamed = expected.clone();
    for tool in renamed["tools"].as_array_mut().unwrap() {
        tool["name"] = format!("gh_{}", tool["name"].as_str().unwrap()).into();
    }
    assert_eq!(tools, renamed);
    assert!(names(&tools, "tools", "name").contains(&"gh_echo".to_string()));

    let echoed =
        result(&mut server, 2, "tools/call", json!({ "name": "gh_echo", "arguments": { "text": "hi" } })).await;
    assert_eq!(first_text(&echoed), "hi");
    // The host still finds the output schema under the prefixed name.
    let sum = result(&mut server, 3, "tools/call", json!({ "name": "gh_add", "arguments": { "a": 1, "b": 2 } })).await;
    assert_eq!(sum["structuredContent"], json!({ "sum": 3.0 }));

    // The bare name is not a tool of the namespaced server, nor is a name
    // the wrapped router does not know; both name what the client asked for.
    let bare = error(&mut server, 4, "tools/call", json!({ "name": "echo", "arguments": { "text": "hi" } })).await;
    assert_eq!(bare["code"], -32602, "{bare}");
    assert!(bare["message"].as_str().unwrap().contains("echo"), "{bare}");
    let unknown = error(&mut server, 5, "tools/call", json!({ "name": "gh_nope", "arguments": {} })).await;
    assert_eq!(unknown["code"], -32602, "{unknown}");
    assert!(unknown["message"].as_str().unwrap().contains("gh_nope"), "{unknown}");
    // Tool errors other than not-found pass through.
    let failed =
        result(&mut server, 6, "tools/call", json!({ "name": "gh_fail", "arguments": { "kind": "execution-error" } }))
            .await;
    assert_eq!(failed["isError"], true, "{failed}");

    plain.finish().await;
    server.finish().await;
}

#[tokio::test]
async fn namespace_prefixes_prompts_and_resource_uris() {
    let composed = compose(&["namespace"], "everything");
    let mut server = raw(composed.path(), &["NAMESPACE_PREFIX=gh_"]).await;

    let prompts = result(&mut server, 1, "prompts/list", json!({})).await;
    assert_eq!(names(&prompts, "prompts", "name"), ["gh_greeting", "gh_mixed", "gh_invalid", "gh_broken"]);
    let prompt =
        result(&mut server, 2, "prompts/get", json!({ "name": "gh_greeting", "arguments": { "who": "x" } })).await;
    assert_eq!(prompt["messages"][0]["content"]["text"], "Please greet someone warmly.");
    let bare = error(&mut server, 3, "prompts/get", json!({ "name": "greeting" })).await;
    assert_eq!(bare["code"], -32602, "{bare}");
    let failing = error(&mut server, 4, "prompts/get", json!({ "name": "gh_broken" })).await;
    assert_eq!(failing["code"], -32603, "other prompt errors pass through: {failing}");

    // URIs take the same prefix by default: prefix + URI.
    let resources = result(&mut server, 5, "resources/list", json!({})).await;
    assert_eq!(
        names(&resources, "resources", "uri"),
        ["gh_everything://text", "gh_everything://blob", "gh_everything://broken"]
    );
    let read = result(&mut server, 6, "resources/read", json!({ "uri": "gh_everything://text" })).await;
    assert_eq!(
        read["contents"],
        json!([{ "uri": "gh_everything://text", "mimeType": "text/plain", "text": "hello from a resource" }])
    );
    let bare = error(&mut server, 7, "resources/read", json!({ "uri": "everything://text" })).await;
    assert_eq!(bare["code"], -32002, "{bare}");
    assert_eq!(bare["data"]["uri"], "everything://text", "{bare}");
    let missing = error(&mut server, 8, "resources/read", json!({ "uri": "gh_everything://nope" })).await;
    assert_eq!(missing["code"], -32002, "{missing}");

    // Completion refers to the prompt by its prefixed name.
    let reference = json!({ "type": "ref/prompt", "name": "gh_greeting" });
    let params = json!({ "ref": reference, "argument": { "name": "who", "value": "lang-14" } });
    let completed = result(&mut server, 9, "completion/complete", params).await;
    assert_eq!(
        completed["completion"]["values"],
        json!([
            "lang-140", "lang-141", "lang-142", "lang-143", "lang-144", "lang-145", "lang-146", "lang-147", "lang-148",
            "lang-149"
        ])
    );
    let reference = json!({ "type": "ref/prompt", "name": "greeting" });
    let params = json!({ "ref": reference, "argument": { "name": "who", "value": "" } });
    let bare = error(&mut server, 10, "completion/complete", params).await;
    assert_eq!(bare["code"], -32602, "{bare}");

    server.finish().await;
}

#[tokio::test]
async fn namespace_can_give_uris_a_prefix_of_their_own() {
    // `gh_everything://…` is no valid URI scheme (`_`); `gh+` keeps it one.
    let composed = compose(&["namespace"], "everything");
    let mut server = raw(composed.path(), &["NAMESPACE_PREFIX=gh_", "NAMESPACE_URI_PREFIX=gh+"]).await;
    let resources = result(&mut server, 1, "resources/list", json!({})).await;
    assert_eq!(names(&resources, "resources", "uri")[0], "gh+everything://text");
    let read = result(&mut server, 2, "resources/read", json!({ "uri": "gh+everything://both" })).await;
    let uris: Vec<&str> = read["contents"].as_array().unwrap().iter().map(|c| c["uri"].as_str().unwrap()).collect();
    assert_eq!(uris, ["gh+everything://both", "gh+everything://both"]);
    let tools = result(&mut server, 3, "tools/list", json!({})).await;
    assert_eq!(names(&tools, "tools", "name")[0], "gh_echo");
    server.finish().await;
}

#[tokio::test]
async fn filter_hides_items_from_lists_and_blocks_calls_to_them() {
    let composed = compose(&["filter"], "everything");
    let env = [
        "FILTER_ALLOW_TOOLS=echo, a*",
        "FILTER_DENY_TOOLS=all-*",
        "FILTER_DENY_PROMPTS=broken,inv*",
        "FILTER_ALLOW_RESOURCES=*://text,everything://both",
    ];
    let mut server = raw(composed.path(), &env).await;

    let tools = result(&mut server, 1, "tools/list", json!({})).await;
    assert_eq!(names(&tools, "tools", "name"), ["echo", "add", "annotated"]);
    let echoed = result(&mut server, 2, "tools/call", json!({ "name": "echo", "arguments": { "text": "hi" } })).await;
    assert_eq!(first_text(&echoed), "hi");
    for (id, hidden) in [(3, "counter"), (4, "all-content")] {
        let blocked = error(&mut server, id, "tools/call", json!({ "name": hidden, "arguments": {} })).await;
        assert_eq!(blocked["code"], -32602, "{blocked}");
        assert!(blocked["message"].as_str().unwrap().contains(hidden), "{blocked}");
    }

    let prompts = result(&mut server, 5, "prompts/list", json!({})).await;
    assert_eq!(names(&prompts, "prompts", "name"), ["greeting", "mixed"]);
    // The wrapped router's own error for `broken` (-32603) never happens.
    let blocked = error(&mut server, 6, "prompts/get", json!({ "name": "broken" })).await;
    assert_eq!(blocked["code"], -32602, "{blocked}");
    result(&mut server, 7, "prompts/get", json!({ "name": "mixed" })).await;

    // The allowlist also covers resources that are readable but not listed.
    let resources = result(&mut server, 8, "resources/list", json!({})).await;
    assert_eq!(names(&resources, "resources", "uri"), ["everything://text"]);
    let both = result(&mut server, 9, "resources/read", json!({ "uri": "everything://both" })).await;
    assert_eq!(both["contents"].as_array().unwrap().len(), 2);
    let blocked = error(&mut server, 10, "resources/read", json!({ "uri": "everything://blob" })).await;
    assert_eq!(blocked["code"], -32002, "{blocked}");

    server.finish().await;
}

#[tokio::test]
async fn filter_with_an_empty_allowlist_hides_every_item_of_that_kind() {
    let composed = compose(&["filter"], "everything");
    let mut server = raw(composed.path(), &["FILTER_ALLOW_PROMPTS="]).await;
    let prompts = result(&mut server, 1, "prompts/list", json!({})).await;
    assert_eq!(prompts["prompts"], json!([]));
    let blocked = error(&mut server, 2, "prompts/get", json!({ "name": "greeting" })).await;
    assert_eq!(blocked["code"], -32602, "{blocked}");
    let reference = json!({ "type": "ref/prompt", "name": "greeting" });
    let params = json!({ "ref": reference, "argument": { "name": "who", "value": "" } });
    let blocked = error(&mut server, 3, "completion/complete", params).await;
    assert_eq!(blocked["code"], -32602, "{blocked}");
    // Other kinds have no rule: all there.
    let tools = result(&mut server, 4, "tools/list", json!({})).await;
    assert!(names(&tools, "tools", "name").len() > 5, "{tools}");
    server.finish().await;
}

#[tokio::test]
async fn audit_writes_one_json_line_per_call() {
    let composed = compose(&["audit"], "everything");
    let mut server = raw(composed.path(), &[]).await;
    let arguments = json!({ "text": "hello" });
    let argument_bytes = arguments.to_string().len();
    result(&mut server, 1, "tools/list", json!({})).await;
    result(&mut server, 2, "tools/call", json!({ "name": "echo", "arguments": arguments })).await;
    result(&mut server, 3, "tools/call", json!({ "name": "fail", "arguments": { "kind": "execution-error" } })).await;
    result(&mut server, 4, "tools/call", json!({ "name": "is-error", "arguments": {} })).await;
    error(&mut server, 5, "tools/call", json!({ "name": "no \"such\" tool", "arguments": {} })).await;
    result(&mut server, 6, "prompts/get", json!({ "name": "greeting", "arguments": { "who": "x" } })).await;
    error(&mut server, 7, "prompts/get", json!({ "name": "broken" })).await;
    error(&mut server, 8, "resources/read", json!({ "uri": "everything://broken" })).await;
    result(&mut server, 9, "resources/read", json!({ "uri": "everything://text" })).await;
    let reference = json!({ "type": "ref/prompt", "name": "greeting" });
    let params = json!({ "ref": reference, "argument": { "name": "who", "value": "lang-1" } });
    result(&mut server, 10, "completion/complete", params).await;
    result(&mut server, 11, "resources/list", json!({})).await;
    result(&mut server, 12, "prompts/list", json!({})).await;
    let stderr = server.stderr.clone();
    server.finish().await;

    let lines = audit_lines(&stderr, 9).await;
    let summary: Vec<(&str, &str, &str)> = lines
        .iter()
        .map(|l| (l["call"].as_str().unwrap(), l["name"].as_str().unwrap(), l["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(
        summary,
        [
            ("call-tool", "echo", "ok"),
            ("call-tool", "fail", "execution-error"),
            ("call-tool", "is-error", "is-error"),
            ("call-tool", "no \"such\" tool", "not-found"),
            ("get-prompt", "greeting", "ok"),
            ("get-prompt", "broken", "internal-error"),
            ("read-resource", "everything://broken", "execution-error"),
            ("read-resource", "everything://text", "ok"),
            ("complete", "greeting", "ok"),
        ],
        "one line per call, none for lists; stderr:\n{}",
        stderr.lock().unwrap()
    );
    let first = stderr.lock().unwrap().lines().find_map(|l| l.strip_prefix(GUEST_STDERR)).unwrap().to_string();
    let expected = format!(
        r#"{{"call":"call-tool","name":"echo","argument_bytes":{argument_bytes},"outcome":"ok","duration_us":"#
    );
    assert!(first.starts_with(&expected), "fields in a fixed order: {first}");
    assert_eq!(lines[4]["argument_bytes"], 0, "the contract passes no prompt arguments: {}", lines[4]);
    for line in &lines {
        assert!(line["duration_us"].is_u64(), "{line}");
        let keys: Vec<&str> = line.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 5, "{line}");
    }
}

#[tokio::test]
async fn two_middlewares_chain_filter_in_front_of_namespace() {
    // filter → namespace → everything: the filter sees the prefixed names.
    let composed = compose(&["filter", "namespace"], "everything");
    let env = ["NAMESPACE_PREFIX=x_", "FILTER_ALLOW_TOOLS=x_echo,x_add", "FILTER_DENY_RESOURCES=*broken"];
    let mut server = raw(composed.path(), &env).await;

    let tools = result(&mut server, 1, "tools/list", json!({})).await;
    assert_eq!(names(&tools, "tools", "name"), ["x_echo", "x_add"]);
    let echoed = result(&mut server, 2, "tools/call", json!({ "name": "x_echo", "arguments": { "text": "hi" } })).await;
    assert_eq!(first_text(&echoed), "hi");
    // Hidden by the filter, and unknown to the namespace.
    for (id, name) in [(3, "x_counter"), (4, "echo")] {
        let blocked = error(&mut server, id, "tools/call", json!({ "name": name, "arguments": {} })).await;
        assert_eq!(blocked["code"], -32602, "{blocked}");
    }
    let resources = result(&mut server, 5, "resources/list", json!({})).await;
    assert_eq!(names(&resources, "resources", "uri"), ["x_everything://text", "x_everything://blob"]);
    let blocked = error(&mut server, 6, "resources/read", json!({ "uri": "x_everything://broken" })).await;
    assert_eq!(blocked["code"], -32002, "{blocked}");
    let prompts = result(&mut server, 7, "prompts/list", json!({})).await;
    assert_eq!(names(&prompts, "prompts", "name"), ["x_greeting", "x_mixed", "x_invalid", "x_broken"]);

    server.finish().await;
}

#[tokio::test]
async fn three_middlewares_chain_for_a_real_client() {
    // audit → filter → namespace → everything, driven by the rmcp client.
    let composed = compose(&["audit", "filter", "namespace"], "everything");
    let args = serve_args(composed.path(), &["NAMESPACE_PREFIX=x_", "FILTER_DENY_TOOLS=x_panic,x_counter"]);
    let served = Served::start(&args, ()).await;
    let info = served.client.peer_info().expect("initialized");
    assert_eq!(info.server_info.as_ref().map(|i| i.name.as_str()), Some("everything"));

    let tools = served.client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert!(names.iter().all(|n| n.starts_with("x_")), "{names:?}");
    assert!(names.contains(&"x_echo") && !names.contains(&"x_counter") && !names.contains(&"x_panic"), "{names:?}");

    let args = json!({ "text": "chained" }).as_object().cloned().unwrap();
    let echoed = served.client.call_tool(CallToolRequestParams::new("x_echo").with_arguments(args)).await.unwrap();
    assert_eq!(serde_json::to_value(&echoed).unwrap()["content"][0]["text"], "chained");
    let blocked = served.client.call_tool(CallToolRequestParams::new("x_counter")).await;
    assert!(blocked.is_err(), "{blocked:?}");

    let stderr = served.stderr.clone();
    served.finish().await;
    let lines = audit_lines(&stderr, 2).await;
    let summary: Vec<(&str, &str)> =
        lines.iter().map(|l| (l["name"].as_str().unwrap(), l["outcome"].as_str().unwrap())).collect();
    assert_eq!(summary, [("x_echo", "ok"), ("x_counter", "not-found")], "{}", stderr.lock().unwrap());
}

#[tokio::test]
async fn a_middleware_without_a_router_plugged_in_is_refused() {
    let namespace = fixture("namespace");
    let output = tokio::process::Command::new(support::binary())
        .args(["serve", namespace.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("wasix:mcp/router@25.3.26"), "{stderr}");
    assert!(stderr.contains("it is a middleware") && stderr.contains("wac plug"), "says what to do: {stderr}");
}

#[tokio::test]
async fn a_namespaced_router_still_reaches_its_client() {
    // The router's `mcp-wit:extension/client` import stays an import of the
    // composition, and the host links it: its questions pass the middleware.
    let composed = compose(&["namespace"], "conformance");
    let args = serve_args(composed.path(), &["NAMESPACE_PREFIX=c_"]);
    let mut server = RawServer::start(&args);
    let params = json!({
        "protocolVersion": VERSION,
        "capabilities": { "elicitation": {} },
        "clientInfo": { "name": "raw", "version": "0" },
    });
    server.send(&json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params }).to_string()).await;
    server.receive().await;
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    let call = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "c_test_elicitation", "arguments": { "message": "Who?" } } });
    server.send(&call.to_string()).await;
    let question = server.receive().await;
    assert_eq!(question["method"], "elicitation/create", "{question}");
    let answer = json!({ "jsonrpc": "2.0", "id": question["id"], "result": { "action": "accept", "content": { "username": "u", "email": "e" } } });
    server.send(&answer.to_string()).await;
    let done = server.receive().await;
    assert_eq!(done["id"], 1, "{done}");
    assert_eq!(
        first_text(&done["result"]),
        r#"User response: <action: accept, content: {"email":"e","username":"u"}>"#
    );
    server.finish().await;
}

#[tokio::test]
async fn middlewares_pass_the_extension_through() {
    // filter → namespace → conformance: the router's templates, prompt
    // arguments and subscriptions reach the client renamed and filtered as
    // its tools are.
    let composed = compose(&["filter", "namespace"], "conformance");
    let env = ["NAMESPACE_PREFIX=c_", "FILTER_DENY_RESOURCES=*static-binary*"];
    let mut server = raw(composed.path(), &env).await;
    let templates = result(&mut server, 1, "resources/templates/list", json!({})).await;
    assert_eq!(names(&templates, "resourceTemplates", "uriTemplate"), ["c_test://template/{id}/data"]);
    let prompt = json!({ "name": "c_test_prompt_with_arguments", "arguments": { "arg1": "a", "arg2": "b" } });
    let got = result(&mut server, 2, "prompts/get", prompt).await;
    assert_eq!(got["messages"][0]["content"]["text"], "Prompt with arguments: arg1='a', arg2='b'", "{got}");
    let missing = error(&mut server, 3, "prompts/get", json!({ "name": "c_test_prompt_with_arguments" })).await;
    assert_eq!(missing["code"], -32602, "the router's own refusal: {missing}");
    let subscribed = result(&mut server, 4, "resources/subscribe", json!({ "uri": "c_test://watched-resource" })).await;
    assert_eq!(subscribed, json!({}));
    // Unknown to the router, outside the namespace, hidden by the filter.
    for (id, uri) in [(5, "c_test://nope"), (6, "test://watched-resource"), (7, "c_test://static-binary")] {
        let refused = error(&mut server, id, "resources/subscribe", json!({ "uri": uri })).await;
        assert_eq!(refused["code"], -32002, "{uri}: {refused}");
    }
    // Roots changes reach the router through both middlewares.
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#).await;
    let counted = result(&mut server, 8, "tools/call", json!({ "name": "c_roots_changed" })).await;
    assert_eq!(first_text(&counted), "1");
    server.finish().await;

    // A middleware over a router without the extension: served as such a
    // router (no templates; prompts through the contract's `get-prompt`).
    let composed = compose(&["namespace"], "everything");
    let mut server = raw(composed.path(), &["NAMESPACE_PREFIX=ev_"]).await;
    let templates = result(&mut server, 1, "resources/templates/list", json!({})).await;
    assert_eq!(templates["resourceTemplates"], json!([]), "{templates}");
    let prompts = result(&mut server, 2, "prompts/list", json!({})).await;
    let name = names(&prompts, "prompts", "name").remove(0);
    result(&mut server, 3, "prompts/get", json!({ "name": name })).await;
    server.finish().await;
}
