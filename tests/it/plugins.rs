// Extism plugins served beside components: `plugins/servlet` (an XTP servlet
// on the raw ABI) and `plugins/pdk-plugin` (a v1-draft plugin built with
// extism-pdk), over stdio and Streamable HTTP, in both eras, to raw
// requests, the Python SDK client and rmcp's client; the v1-draft host
// functions on the client channel in both eras; and core modules that are
// no MCP plugin (extism-pdk's own `count_vowels.wasm`) refused.

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::http::HttpServer;
use support::peers::{Peer, run_peer};
use support::schema::{self, Revision};
use support::{RawServer, binary, plugin_fixture};

fn path(name: &str) -> String {
    plugin_fixture(name).display().to_string()
}

fn modern(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    params
}

#[tokio::test]
async fn a_servlet_serves_its_tools_over_stdio() {
    let servlet = path("servlet");
    let mut server = RawServer::initialized(&["serve", &servlet, "--env", "GREETING=Hello"], "2025-11-25").await;
    let list = server.request(1, "tools/list", json!({})).await;
    let names: Vec<&str> =
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["echo", "fail", "greet"], "{list}");
    let echo = server.call(2, "echo", json!({ "text": "through the kernel" })).await;
    assert_eq!(support::text(&echo), "through the kernel", "{echo}");
    // A non-zero return is the tool's error, with the message it set.
    let failed = server.call(3, "fail", json!({})).await;
    assert_eq!(failed["result"]["isError"], true, "{failed}");
    assert_eq!(support::text(&failed), "the fail tool failed, as asked");
    // Config from the granted environment; variables kept across the
    // session's calls (one instance per session).
    let first = server.call(4, "greet", json!({})).await;
    let second = server.call(5, "greet", json!({})).await;
    assert_eq!((support::text(&first), support::text(&second)), ("Hello (call 1)", "Hello (call 2)"));
    server.finish().await;

    // A 2026-07-28 client over stdio keeps the plugin's instance too; with
    // `--instances per-request` each call gets a fresh one.
    for (mode, counts) in [("per-session", ["Hi (call 1)", "Hi (call 2)"]), ("per-request", ["Hi (call 1)"; 2])] {
        let mut server = RawServer::start(&["serve", &servlet, "--env", "GREETING=Hi", "--instances", mode]);
        for (id, count) in [1, 2].into_iter().zip(counts) {
            let call = json!({ "name": "greet", "arguments": {} });
            let answer = server.request(id, "tools/call", modern(call)).await;
            assert_eq!(answer["result"]["resultType"], "complete", "{answer}");
            assert_eq!(support::text(&answer), count, "{mode}: {answer}");
            schema::check_at(Revision::Modern, "JSONRPCMessage", &answer).unwrap();
        }
        server.finish().await;
    }
}

#[tokio::test]
async fn the_python_sdk_calls_a_servlet_over_stdio_in_both_eras() {
    let servlet = path("servlet");
    for (mode, version, revision) in
        [("auto", "2026-07-28", Revision::Modern), ("legacy", "2025-11-25", Revision::Legacy)]
    {
        let args: Vec<String> = ["--mode", mode, "--tool", "echo", "--args", r#"{"text":"servlet"}"#, "--"]
            .into_iter()
            .map(String::from)
            .chain([binary().display().to_string(), "serve".into(), servlet.clone()])
            .collect();
        let run = run_peer(Peer::Python, args).await;
        assert_eq!(run.report["protocolVersion"], version, "{}", run.report);
        assert_eq!(run.report["call"]["content"][0]["text"], "servlet", "{}", run.report);
        for message in &run.trace {
            schema::check_at(revision, "JSONRPCMessage", message).unwrap();
        }
    }
}

#[tokio::test]
async fn sdk_clients_call_a_pdk_plugin_over_http_in_both_eras() {
    let plugin = path("pdk-plugin");
    let server = HttpServer::start(&[&plugin]).await;
    for mode in ["auto", "legacy"] {
        let args: Vec<String> =
            ["--mode", mode, "--tool", "reverse", "--args", r#"{"text":"plugin"}"#, "--url", &server.url()]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let run = run_peer(Peer::Python, args).await;
        let report = &run.report;
        let version = if mode == "legacy" { "2025-11-25" } else { "2026-07-28" };
        assert_eq!(report["protocolVersion"], version, "{report}");
        assert_eq!(report["serverInfo"]["name"], "pdk_plugin", "{report}");
        assert_eq!(report["call"]["content"][0]["text"], "nigulp", "{report}");
        let revision = if mode == "legacy" { Revision::Legacy } else { Revision::Modern };
        for message in &run.trace {
            schema::check_at(revision, "JSONRPCMessage", message).unwrap();
        }
    }

    // rmcp's client, in both lifecycles: the tools, a request's context, a failure.
    use rmcp::service::ClientServiceExt;
    use rmcp::transport::StreamableHttpClientTransport;
    for (lifecycle, version) in support::rmcp_lifecycles() {
        let transport = StreamableHttpClientTransport::from_uri(server.url());
        let client = ().serve_with_lifecycle(transport, lifecycle).await.expect("connected");
        assert_eq!(client.peer_info().expect("the server's info").protocol_version, version);
        let tools = client.list_all_tools().await.expect("tools/list");
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(names, ["reverse", "whoami", "fail", "talk", "announce", "roots_changed", "fetch", "caller"]);
        let whoami = client.call_tool(support::call("whoami", json!({}))).await.expect("tools/call");
        assert!(!support::text_of(&whoami).is_empty(), "the host gives each request a context.id");
        let failed = client.call_tool(support::call("fail", json!({}))).await.expect("tools/call");
        assert_eq!(failed.is_error, Some(true));
        assert_eq!(support::text_of(&failed), "the fail tool failed, as asked");
        client.cancel().await.expect("the client closes");
    }
    server.stop().await;
}

#[tokio::test]
async fn plugins_and_components_share_one_server() {
    let servlet = path("servlet");
    let echo = support::fixture_arg("echo");
    let mut server = RawServer::initialized(&["serve", &servlet, &echo], "2025-11-25").await;
    let list = server.request(1, "tools/list", json!({})).await;
    let names: Vec<&str> =
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"servlet_echo") && names.contains(&"echo_echo"), "{names:?}");
    let plugin = server.call(2, "servlet_echo", json!({ "text": "from the plugin" })).await;
    let component = server.call(3, "echo_echo", json!({ "text": "from the component" })).await;
    assert_eq!((support::text(&plugin), support::text(&component)), ("from the plugin", "from the component"));
    server.finish().await;
}

#[test]
fn core_modules_that_are_no_mcp_plugin_are_refused() {
    let refused = std::process::Command::new(binary())
        .args(["serve", support::COUNT_VOWELS])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("mcp-wit runs");
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("not an MCP plugin") && stderr.contains("count_vowels"), "{stderr}");
    assert!(stderr.contains("`call` and `describe`"), "says what was expected: {stderr}");
}

#[test]
fn inspect_names_the_kind_of_plugin() {
    for (name, kind) in [("servlet", "Extism servlet"), ("pdk-plugin", "Extism v1-draft plugin")] {
        let shown = std::process::Command::new(binary()).args(["inspect", &path(name)]).output().expect("mcp-wit runs");
        let stdout = String::from_utf8_lossy(&shown.stdout);
        assert!(shown.status.success(), "{}", String::from_utf8_lossy(&shown.stderr));
        assert!(stdout.contains(kind), "{stdout}");
    }
}

/// `ok` answers: the session goes on after whatever came before.
async fn assert_ok(server: &mut RawServer, id: i64) {
    let answer = server.call(id, "ok", json!({})).await;
    assert_eq!(support::text(&answer), "ok", "{answer}");
}

/// The JSON-RPC error of `answer`, which must be -32603.
fn internal_error(answer: &Value) -> String {
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    answer["error"]["message"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_hostile_plugin_is_contained_as_a_component_is() {
    let hostile = path("hostile-plugin");
    let args = ["serve", &hostile, "--timeout", "1s", "--max-memory", "64MiB"];
    let mut server = RawServer::initialized(&args, "2025-11-25").await;
    assert_ok(&mut server, 1).await;
    let message = internal_error(&server.call(2, "spin", json!({})).await);
    assert!(message.contains("timed out after 1s"), "{message}");
    assert_ok(&mut server, 3).await;
    let message = internal_error(&server.call(4, "allocate", json!({})).await);
    assert!(message.contains("memory limit of 64 MiB"), "{message}");
    assert_ok(&mut server, 5).await;
    // The kernel's memory has the same cap.
    let hog = server.call(6, "kernel-hog", json!({})).await;
    let got: u64 = support::text(&hog).split(' ').nth(3).and_then(|n| n.parse().ok()).expect("a count");
    assert!(got < 64, "the kernel gave {got} MiB under a 64 MiB cap");
    // Lies about lengths and stores out of bounds are ignored, as Extism's
    // bounds-checked kernel ignores them.
    let lie = server.call(7, "lie", json!({})).await;
    assert_eq!(lie["result"]["isError"], true, "{lie}");
    assert!(support::text(&lie).contains("no CallToolResult"), "{lie}");
    assert_eq!(support::text(&server.call(8, "out-of-bounds", json!({})).await), "survived, read 0");
    let bad = server.call(9, "bad-json", json!({})).await;
    assert_eq!(bad["result"]["isError"], true, "{bad}");
    let message = internal_error(&server.call(10, "panic", json!({})).await);
    assert!(message.ends_with("failed: hostile plugin panics on purpose"), "the guest's own words: {message}");
    // Endless recursion runs off the module's own stack (in its linear
    // memory, on wasm32-wasip1): a trap, which the client hears of in words.
    let message = internal_error(&server.call(11, "recurse", json!({})).await);
    assert!(message.contains("failed with an error it did not handle") && !message.contains("wasm"), "{message}");
    assert_ok(&mut server, 12).await;
    server.finish().await;
}

#[tokio::test]
async fn a_plugins_output_and_results_are_bounded_as_a_components_are() {
    let hostile = path("hostile-plugin");
    let mut server = RawServer::initialized(&["serve", &hostile], "2025-11-25").await;
    assert_eq!(support::text(&server.call(1, "print", json!({ "mib": 100 })).await), "printed 100 MiB");
    // Every stdout line was a schema-valid JSON-RPC message (checked by
    // RawServer); stderr got a bounded share and a notice of the rest.
    let message = internal_error(&server.call(2, "huge-result", json!({ "mib": 32 })).await);
    assert!(message.contains("exceeds the output limit"), "{message}");
    let answer = server.call(3, "huge-result", json!({ "mib": 1 })).await;
    assert_eq!(support::text(&answer).len(), 1 << 20);
    assert_ok(&mut server, 4).await;
    server.finish_and_wait_for_stderr().await;
    let stderr = server.stderr.lock().unwrap().clone();
    assert!(stderr.len() < 8 << 20, "{} bytes of guest output passed the rate limit", stderr.len());
    assert!(stderr.contains("dropped: over the rate limit"), "no drop notice");
}

#[tokio::test]
async fn instance_modes_decide_what_a_plugin_keeps() {
    let servlet = path("servlet");
    let args = ["serve", &servlet, "--env", "GREETING=Hi", "--instances", "per-request"];
    let mut server = RawServer::initialized(&args, "2025-11-25").await;
    for id in 1..=3 {
        let greeted = server.call(id, "greet", json!({})).await;
        assert_eq!(support::text(&greeted), "Hi (call 1)", "a fresh instance per request");
    }
    server.finish().await;
    for mode in ["per-session", "shared"] {
        let args = ["serve", &servlet, "--env", "GREETING=Hi", "--instances", mode];
        let mut server = RawServer::initialized(&args, "2025-11-25").await;
        for id in 1..=3 {
            let greeted = server.call(id, "greet", json!({})).await;
            assert_eq!(support::text(&greeted), format!("Hi (call {id})"), "{mode}");
        }
        server.finish().await;
    }
}

#[tokio::test]
async fn a_plugin_sleeping_in_the_host_still_times_out_and_can_be_cancelled() {
    use std::time::{Duration, Instant};
    let hostile = path("hostile-plugin");
    let mut server = RawServer::initialized(&["serve", &hostile, "--timeout", "1s"], "2025-11-25").await;
    let started = Instant::now();
    let message = internal_error(&server.call(1, "sleep", json!({ "secs": 3600 })).await);
    assert!(message.contains("timed out after 1s"), "{message}");
    assert!(started.elapsed() < Duration::from_secs(20), "the sleep was not cut at the deadline");
    assert_ok(&mut server, 2).await;
    // A sleep within the budget is kept whole.
    let started = Instant::now();
    assert_eq!(support::text(&server.call(3, "sleep", json!({ "secs": 0.2 })).await), "slept 0.2s");
    assert!(started.elapsed() >= Duration::from_millis(200));
    server.finish().await;

    let mut server = RawServer::initialized(&["serve", &hostile], "2025-11-25").await;
    let started = Instant::now();
    server
        .send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sleep","arguments":{"secs":3600}}}"#)
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#).await;
    // No answer to request 1; the next message is this ping's answer, long
    // before the 30 s deadline.
    assert_eq!(server.request(2, "ping", json!({})).await["result"], json!({}));
    assert!(started.elapsed() < Duration::from_secs(10), "the sleep outlived its cancellation");
    assert_ok(&mut server, 3).await;
    server.finish().await;
}

#[tokio::test]
async fn a_plugin_sees_only_what_is_granted_and_can_be_cancelled() {
    let hostile = path("hostile-plugin");
    let mut server = RawServer::initialized(&["serve", &hostile, "--env", "GREETING=granted"], "2025-11-25").await;
    let file = server.call(1, "read-file", json!({ "path": "/etc/passwd" })).await;
    assert!(support::text(&file).starts_with("reading /etc/passwd:"), "{file}");
    let path_var = server.call(2, "env", json!({ "name": "PATH" })).await;
    assert_eq!(support::text(&path_var), "no $PATH");
    let granted = server.call(3, "env", json!({ "name": "GREETING" })).await;
    assert_eq!(support::text(&granted), "granted");
    // A spinning call stops when the client cancels it.
    server.send(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"spin","arguments":{}}}"#).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}"#).await;
    let answer = server.request(5, "ping", json!({})).await;
    assert_eq!(answer["result"], json!({}));
    assert_ok(&mut server, 6).await;
    server.finish().await;
}

#[tokio::test]
async fn a_v1_draft_plugin_serves_resources_templates_prompts_and_completions() {
    let plugin = path("pdk-plugin");
    let mut server = RawServer::initialized(&["serve", &plugin], "2025-11-25").await;
    let resources = server.request(1, "resources/list", json!({})).await;
    assert_eq!(resources["result"]["resources"][0]["uri"], "pdk://readme", "{resources}");
    let read = server.request(2, "resources/read", json!({ "uri": "pdk://readme" })).await;
    assert_eq!(read["result"]["contents"][0]["text"], "read through the kernel", "{read}");
    let item = server.request(3, "resources/read", json!({ "uri": "pdk://items/7" })).await;
    assert_eq!(item["result"]["contents"][0]["text"], r#"{"id":"7"}"#, "{item}");
    let templates = server.request(4, "resources/templates/list", json!({})).await;
    assert_eq!(templates["result"]["resourceTemplates"][0]["uriTemplate"], "pdk://items/{id}", "{templates}");
    let prompts = server.request(5, "prompts/list", json!({})).await;
    assert_eq!(prompts["result"]["prompts"][0]["arguments"][0]["name"], "who", "{prompts}");
    let prompt = server.request(6, "prompts/get", json!({ "name": "greet", "arguments": { "who": "Ada" } })).await;
    assert_eq!(prompt["result"]["messages"][0]["content"]["text"], "Greet Ada.", "{prompt}");
    let complete =
        json!({ "ref": { "type": "ref/prompt", "name": "greet" }, "argument": { "name": "who", "value": "al" } });
    let completed = server.request(7, "completion/complete", complete).await;
    assert_eq!(completed["result"]["completion"]["values"], json!(["alice", "albert"]), "{completed}");
    // A resource the plugin fails to read: its message, as -32603.
    let missing = server.request(8, "resources/read", json!({ "uri": "pdk://nope" })).await;
    assert!(internal_error(&missing).contains("no resource pdk://nope"), "{missing}");
    server.finish().await;
}

#[tokio::test]
async fn a_plugin_compiles_ahead_of_time_and_through_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let compiled = dir.path().join("servlet.cwasm");
    let servlet = path("servlet");
    let done = std::process::Command::new(binary())
        .args(["compile", &servlet, "-o", compiled.to_str().unwrap()])
        .output()
        .expect("mcp-wit runs");
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let mut server = RawServer::initialized(&["serve", compiled.to_str().unwrap()], "2025-11-25").await;
    assert_eq!(support::text(&server.call(1, "echo", json!({ "text": "precompiled" })).await), "precompiled");
    server.finish().await;

    // Through the compile cache: the second start finds what the first wrote.
    let cache = dir.path().join("cache");
    for _ in 0..2 {
        let args = ["serve", &servlet, "--cache-dir", cache.to_str().unwrap()];
        let mut server = RawServer::initialized(&args, "2025-11-25").await;
        assert_eq!(support::text(&server.call(1, "echo", json!({ "text": "cached" })).await), "cached");
        server.finish().await;
    }
    // Beside the compiled plugin: `passed/`, the tool checks it passed, and
    // `notes/`, what was learnt of the files.
    let entries: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.ends_with("passed") && !p.ends_with("notes"))
        .collect();
    assert_eq!(entries.len(), 1, "one cache entry: {entries:?}");
    // A module that is no plugin is refused by `compile` too.
    let refused = std::process::Command::new(binary())
        .args(["compile", support::COUNT_VOWELS, "-o", dir.path().join("x.cwasm").to_str().unwrap()])
        .output()
        .expect("mcp-wit runs");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not an MCP plugin"));
}

/// The Python SDK client calling the pdk plugin's `talk` in `mode`,
/// answering its questions (over stdio, or at `url`).
async fn python_talk(mode: &str, url: Option<&str>) -> support::peers::PeerRun {
    let mut args: Vec<String> =
        ["--mode", mode, "--talk-back", "accept", "--tool", "talk", "--args", r#"{"prompt":"Say hi"}"#]
            .map(String::from)
            .to_vec();
    if mode == "legacy" {
        args.extend(["--log-level".into(), "debug".into()]);
    }
    match url {
        Some(url) => args.extend(["--url".into(), url.into()]),
        None => args.extend(["--".into(), binary().display().to_string(), "serve".into(), path("pdk-plugin")]),
    }
    run_peer(Peer::Python, args).await
}

#[tokio::test]
async fn a_v1_draft_plugin_talks_back_to_the_python_sdk_in_both_eras() {
    // What the plugin's `talk` says when the client answers everything.
    const ANSWERED: &str = r#"model: This is a test response from the client (endTurn); user: accept {"email":"test@example.com","username":"testuser"}; roots: 1"#;
    let server = HttpServer::start(&[&path("pdk-plugin")]).await;
    let url = server.url();
    let (legacy, legacy_http, modern, modern_http) = tokio::join!(
        python_talk("legacy", None),
        python_talk("legacy", Some(&url)),
        python_talk("2026-07-28", None),
        python_talk("2026-07-28", Some(&url)),
    );
    for run in [&legacy, &legacy_http, &modern, &modern_http] {
        let report = &run.report;
        assert_eq!(report["call"]["content"][0]["text"], ANSWERED, "{report}");
        let talk_back = &report["talkBack"];
        assert_eq!(talk_back["sampled"][0]["messages"][0]["content"]["text"], "Say hi", "{talk_back}");
        assert_eq!(talk_back["elicited"][0]["message"], "Your name?", "{talk_back}");
        assert!(talk_back["elicited"][0].get("timeout").is_none(), "the plugin's timeout is not MCP's: {talk_back}");
        assert_eq!(talk_back["rootsAsked"], 1, "{talk_back}");
    }
    let progress = |run: &support::peers::PeerRun| -> Vec<String> {
        let reports = run.report["talkBack"]["progress"].as_array().unwrap().iter();
        reports.map(|p| p["message"].as_str().unwrap().to_string()).collect()
    };
    for run in [&legacy, &legacy_http] {
        assert_eq!(progress(run), ["asking the model", "asking the user", "listing roots"]);
        let logs = &run.report["talkBack"]["logs"];
        assert_eq!(logs, &json!([{ "level": "info", "logger": "pdk-plugin", "data": { "talking": "Say hi" } }]));
        for message in &run.trace {
            schema::check_at(Revision::Legacy, "JSONRPCMessage", message).unwrap();
        }
    }
    for run in [&modern, &modern_http] {
        assert_eq!(run.report["protocolVersion"], "2026-07-28", "{}", run.report);
        // A round for each question, the call run again each time.
        let rounds = run.trace.iter().filter(|m| m["result"]["resultType"] == "input_required").count();
        assert_eq!(rounds, 3, "{:?}", run.trace);
        // Each run of the call reports its progress again, up to where it asks.
        let reported = progress(run);
        let runs = ["asking the model", "asking the model", "asking the user", "asking the model", "asking the user"];
        assert_eq!(reported[..5], runs, "{reported:?}");
        assert_eq!(reported[reported.len() - 3..], ["asking the model", "asking the user", "listing roots"]);
        for message in &run.trace {
            schema::check_at(Revision::Modern, "JSONRPCMessage", message).unwrap();
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn a_plugins_questions_fail_softly_and_its_notifications_reach_subscribers() {
    let plugin = path("pdk-plugin");
    let mut server = RawServer::start(&["serve", &plugin]);
    let initialize = server.request(0, "initialize", support::initialize_params("2025-11-25")).await;
    // It imports the change notifications: its capabilities say so.
    let capabilities = &initialize["result"]["capabilities"];
    assert_eq!(capabilities["tools"]["listChanged"], true, "{capabilities}");
    assert_eq!(capabilities["prompts"]["listChanged"], true, "{capabilities}");
    assert_eq!(capabilities["resources"], json!({ "subscribe": true, "listChanged": true }), "{capabilities}");
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;

    // A client that declared nothing: no question is sent; the plugin gets
    // the answers hyper-mcp gives (an error stop reason, a decline, no roots).
    let talk = server.call(1, "talk", json!({ "prompt": "Say hi" })).await;
    assert_eq!(
        support::text(&talk),
        "model: the client does not support sampling (it did not declare the capability) (error); user: decline \
         {\"error\":\"the client does not support elicitation (it did not declare the capability)\"}; roots: 0",
        "{talk}"
    );

    // Notifications: list changes to the session, a resource's update to
    // its subscribers only.
    let subscribed = server.request(2, "resources/subscribe", json!({ "uri": "pdk://readme" })).await;
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");
    server.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"announce","arguments":{}}}"#).await;
    let mut sent = Vec::new();
    loop {
        let message = server.receive().await;
        if message.get("id").is_some() {
            assert_eq!(support::text(&message), "announced", "{message}");
            break;
        }
        sent.push(message);
    }
    let methods: Vec<&str> = sent.iter().map(|m| m["method"].as_str().unwrap()).collect();
    assert_eq!(
        methods,
        [
            "notifications/tools/list_changed",
            "notifications/prompts/list_changed",
            "notifications/resources/list_changed",
            "notifications/resources/updated",
            "notifications/elicitation/complete",
        ]
    );
    assert_eq!(sent[3]["params"], json!({ "uri": "pdk://readme" }));
    assert_eq!(sent[4]["params"], json!({ "elicitationId": "pdk-elicitation" }));

    // `on_roots_list_changed` runs on the session's instance, whose
    // variables outlive calls.
    assert_eq!(support::text(&server.call(4, "roots_changed", json!({})).await), "0");
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#).await;
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#).await;
    assert_eq!(support::text(&server.call(5, "roots_changed", json!({})).await), "2");
    server.finish().await;

    // A host function given what is not JSON (text, or a handle that is no
    // block) stops the call with the host's error; the session goes on.
    let hostile = path("hostile-plugin");
    let mut server = RawServer::initialized(&["serve", &hostile], "2025-11-25").await;
    for (id, what) in [(1, "text"), (2, "bogus-handle")] {
        let message = internal_error(&server.call(id, "bad-host-input", json!({ "what": what })).await);
        assert!(message.contains("is not the JSON the v1-draft schema asks"), "{message}");
    }
    assert_ok(&mut server, 3).await;
    server.finish().await;
}

/// An HTTP server on 127.0.0.1 for plugins to reach: `/hello`, `/echo`
/// (POST: the body back), anything else 404.
async fn web_server() -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    use axum::routing::{get, post};
    let app = axum::Router::new()
        .route("/hello", get(|| async { ([("x-fixture", "yes")], "hello from the test") }))
        .route("/echo", post(|body: String| async move { ([("x-fixture", "echo")], format!("echo: {body}")) }))
        .fallback(|| async { (axum::http::StatusCode::NOT_FOUND, "no such page") });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    (address, tokio::spawn(async move { axum::serve(listener, app).await.unwrap() }))
}

#[tokio::test]
async fn a_plugins_http_requests_reach_only_the_hosts_granted() {
    let (address, web) = web_server().await;
    let url = |path: &str| format!("http://{address}{path}");
    let plugin = path("pdk-plugin");

    // Nothing granted: the call stops with Extism's message, and the fix.
    let mut server = RawServer::initialized(&["serve", &plugin], "2025-11-25").await;
    let message = internal_error(&server.call(1, "fetch", json!({ "url": url("/hello") })).await);
    assert!(message.contains(&format!("HTTP request to {} is not allowed", url("/hello"))), "{message}");
    assert!(message.contains(&format!("with --allow-http {address})")), "names the exact grant: {message}");
    server.finish().await;

    // The host granted without its port (only the scheme's default port):
    // the hint names the port that was asked for.
    let mut server = RawServer::initialized(&["serve", &plugin, "--allow-http", "127.0.0.1"], "2025-11-25").await;
    let message = internal_error(&server.call(1, "fetch", json!({ "url": url("/hello") })).await);
    assert!(message.contains(&format!("with --allow-http 127.0.0.1:{})", address.port())), "{message}");
    server.finish().await;

    // Granted: any status comes back with its body and headers.
    let grant = address.to_string();
    let mut server = RawServer::initialized(&["serve", &plugin, "--allow-http", &grant], "2025-11-25").await;
    let hello = server.call(1, "fetch", json!({ "url": url("/hello") })).await;
    assert_eq!(support::text(&hello), "status 200; x-fixture: yes; body: hello from the test", "{hello}");
    let echo = server.call(2, "fetch", json!({ "url": url("/echo"), "method": "post", "body": "ping" })).await;
    assert_eq!(support::text(&echo), "status 200; x-fixture: echo; body: echo: ping", "{echo}");
    let missing = server.call(3, "fetch", json!({ "url": url("/nope") })).await;
    assert_eq!(support::text(&missing), "status 404; x-fixture: none; body: no such page", "{missing}");
    // Another host, or another port of the same host, is not granted.
    let other = format!("http://127.0.0.2:{}/hello", address.port());
    let message = internal_error(&server.call(4, "fetch", json!({ "url": other })).await);
    assert!(message.contains("is not allowed"), "{message}");
    let message = internal_error(&server.call(5, "fetch", json!({ "url": "not a url" })).await);
    assert!(message.contains("Invalid URL"), "{message}");
    server.finish().await;

    // Granted, but nobody answers: no response (status 0, no body), and the
    // plugin goes on.
    web.abort();
    let _ = web.await;
    let mut server = RawServer::initialized(&["serve", &plugin, "--allow-http", &grant], "2025-11-25").await;
    let refused = server.call(1, "fetch", json!({ "url": url("/hello") })).await;
    assert_eq!(support::text(&refused), "status 0; x-fixture: none; body: ", "{refused}");
    server.finish().await;
}

#[tokio::test]
async fn the_rmcp_handler_serves_a_plugin() {
    use rmcp::ServiceExt;
    let engine = mcp_wit::EngineOptions::default().build().expect("engine");
    let policy = mcp_wit::SandboxPolicy::builder("pdk").build();
    let plugin = mcp_wit::LoadedRouter::from_file(&engine, &plugin_fixture("pdk-plugin"), policy).expect("loads");
    assert!(plugin.is_plugin());
    let client_end = support::serve_in_memory(mcp_wit::rmcp::RouterHandler::new(plugin));
    let client = ().serve(client_end).await.expect("the client connects");
    let reversed = client.call_tool(support::call("reverse", json!({ "text": "rmcp" }))).await.expect("tools/call");
    assert_eq!(support::text_of(&reversed), "pcmr");
    // A client that declared nothing: the plugin's questions get hyper-mcp's answers.
    let talk = client.call_tool(support::call("talk", json!({ "prompt": "hi" }))).await.expect("tools/call");
    assert!(support::text_of(&talk).starts_with("model: the client does not support sampling"), "{talk:?}");
    client.cancel().await.expect("the client closes");
}
