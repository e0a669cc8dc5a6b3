// A router on an engine that knows nothing of MCP: the `adapter` component
// (components/adapter, the protocol core built for wasm32-wasip2) composed
// with a router by `mcp-wit wrap`, run with wasmtime's own WASI and no
// mcp-wit host involved: as a plain WASI command, the way `wasmtime run
// server.wasm` runs it (both eras over stdio), and as a `wasi:http` proxy
// behind hyper on 127.0.0.1, a fresh instance per request, the way
// `wasmtime serve -Scli server.wasm` runs it (both eras over Streamable HTTP,
// the validation ladder, the transport's refusals).

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::engines::{WasmtimeServe, modern, modern_headers, post, request, wash_dev, wrap_component, wrapped};
use support::{fixture, plug};
use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Config, Engine, Store};
use wasmtime_wasi::p2::bindings::sync::Command;
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::{WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

/// What an engine gives the component: WASI and `wasi:http` (which the
/// adapter imports for its HTTP export, so `wasmtime run` needs `-Shttp`).
struct Host {
    wasi: WasiCtx,
    http: WasiHttpCtx,
    table: ResourceTable,
}

impl Host {
    fn new(wasi: WasiCtx) -> Self {
        Host { wasi, http: WasiHttpCtx::new(), table: ResourceTable::new() }
    }
}

impl WasiView for Host {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

impl WasiHttpView for Host {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView { ctx: &mut self.http, table: &mut self.table, hooks: Default::default() }
    }
}

/// Runs `component` as a command with `lines` on its stdin and `env` in its
/// environment; returns its exit result and every line it wrote on stdout,
/// each checked to be JSON.
fn run(component: &[u8], lines: &[Value], env: &[(&str, &str)]) -> (Result<(), ()>, Vec<Value>) {
    let engine = Engine::new(&Config::new()).expect("an engine");
    let component = Component::new(&engine, component).expect("the composition compiles");
    let mut linker = Linker::<Host>::new(&engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker).expect("WASI links");
    wasmtime_wasi_http::p2::add_only_http_to_linker_sync(&mut linker).expect("wasi:http links");
    let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let stdout = MemoryOutputPipe::new(16 << 20);
    let mut wasi = WasiCtxBuilder::new();
    wasi.stdin(MemoryInputPipe::new(input)).stdout(stdout.clone()).inherit_stderr();
    for (key, value) in env {
        wasi.env(key, value);
    }
    let mut store = Store::new(&engine, Host::new(wasi.build()));
    let command = Command::instantiate(&mut store, &component, &linker).expect("it links on WASI and wasi:http");
    let status = command.wasi_cli_run().call_run(&mut store).expect("it runs without trapping");
    let written = String::from_utf8(stdout.contents().to_vec()).expect("stdout is UTF-8");
    let answers = written.lines().map(|line| serde_json::from_str(line).expect("each line is JSON")).collect();
    (status, answers)
}

#[test]
fn a_wrapped_router_serves_a_2025_session_over_stdio() {
    let lines = [
        request(0, "initialize", support::initialize_params("2025-11-25")),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        request(1, "tools/list", json!({})),
        request(2, "tools/call", json!({ "name": "hello", "arguments": { "name": "engine" } })),
        request(3, "tools/call", json!({ "name": "nope", "arguments": {} })),
        json!({ "jsonrpc": "2.0", "id": 4, "method": "no/such/method" }),
    ];
    let (status, answers) = run(&wrapped("hello"), &lines, &[]);
    assert_eq!(status, Ok(()), "stdin ended: the command ends cleanly");
    let [init, list, hello, unknown, missing] = answers.as_slice() else { panic!("five answers: {answers:?}") };
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    assert_eq!(init["result"]["serverInfo"]["name"], "hello", "{init}");
    assert_eq!(list["result"]["tools"][0]["name"], "hello", "{list}");
    assert_eq!(hello["result"]["content"][0]["text"], "Hello, engine!", "{hello}");
    // The core's errors, exactly as the native host sends them.
    assert_eq!(unknown["error"], json!({ "code": -32602, "message": "Unknown tool: nope" }), "{unknown}");
    assert_eq!(missing["error"]["code"], -32601, "{missing}");
    for answer in &answers {
        support::schema::check_at(support::schema::Revision::Legacy, "JSONRPCMessage", answer).unwrap();
    }
}

#[test]
fn a_wrapped_router_serves_2026_requests_and_refuses_oversized_lines() {
    let big = "x".repeat(300);
    let lines = [
        request(1, "server/discover", modern(json!({}))),
        request(2, "tools/call", modern(json!({ "name": "hello", "arguments": { "name": "modern" } }))),
        request(3, "tools/call", json!({ "name": "hello", "arguments": { "name": big } })),
        request(4, "tools/list", modern(json!({}))),
    ];
    let (status, answers) = run(&wrapped("hello"), &lines, &[("MCP_WIT_MAX_MESSAGE_SIZE", "256")]);
    assert_eq!(status, Ok(()));
    let [discover, call, too_long, list] = answers.as_slice() else { panic!("four answers: {answers:?}") };
    assert_eq!(discover["result"]["supportedVersions"], json!(["2026-07-28"]), "{discover}");
    assert_eq!(call["result"]["resultType"], "complete", "{call}");
    assert_eq!(call["result"]["content"][0]["text"], "Hello, modern!", "{call}");
    assert_eq!(too_long["error"]["code"], -32600, "{too_long}");
    assert!(too_long["error"]["message"].as_str().unwrap().contains("limit of 256 bytes"), "{too_long}");
    assert_eq!(list["result"]["tools"][0]["name"], "hello", "the line after the long one is served: {list}");
    for answer in [discover, call, list] {
        support::schema::check_at(support::schema::Revision::Modern, "JSONRPCMessage", answer).unwrap();
    }
}

// ---------------------------------------------------------------------------
// As a wasi:http proxy
// ---------------------------------------------------------------------------

mod proxy {
    use std::net::SocketAddr;
    use std::sync::Arc;

    use hyper::server::conn::http1;
    use tokio::net::TcpListener;
    use wasmtime::component::{Component, Linker};
    use wasmtime::{Config, Engine, Store};
    use wasmtime_wasi::WasiCtx;
    use wasmtime_wasi_http::WasiHttpView;
    use wasmtime_wasi_http::io::TokioIo;
    use wasmtime_wasi_http::p2::bindings::ProxyPre;
    use wasmtime_wasi_http::p2::bindings::http::types::Scheme;
    use wasmtime_wasi_http::p2::body::HyperOutgoingBody;

    use super::Host;

    struct Server {
        pre: ProxyPre<Host>,
        env: Vec<(String, String)>,
    }

    impl Server {
        /// One request on a fresh instance, as `wasmtime serve` gives each.
        async fn handle(
            self: Arc<Self>,
            request: hyper::Request<hyper::body::Incoming>,
        ) -> wasmtime::Result<hyper::Response<HyperOutgoingBody>> {
            let mut wasi = WasiCtx::builder();
            wasi.inherit_stderr();
            for (key, value) in &self.env {
                wasi.env(key, value);
            }
            let mut store = Store::new(self.pre.engine(), Host::new(wasi.build()));
            let (sender, receiver) = tokio::sync::oneshot::channel();
            let request = store.data_mut().http().new_incoming_request(Scheme::Http, request)?;
            let out = store.data_mut().http().new_response_outparam(sender)?;
            let pre = self.pre.clone();
            let task = tokio::spawn(async move {
                let proxy = pre.instantiate_async(&mut store).await?;
                proxy.wasi_http_incoming_handler().call_handle(store, request, out).await
            });
            match receiver.await {
                Ok(response) => Ok(response?),
                Err(_) => Err(task.await?.err().unwrap_or_else(|| wasmtime::format_err!("no response was set"))),
            }
        }
    }

    /// Serves `component` on 127.0.0.1 with `env` in each instance's
    /// environment; the server lives as long as the test's runtime.
    pub async fn serve(component: &[u8], env: &[(&str, &str)]) -> SocketAddr {
        let engine = Engine::new(&Config::new()).expect("an engine");
        let component = Component::new(&engine, component).expect("the composition compiles");
        let mut linker = Linker::<Host>::new(&engine);
        wasmtime_wasi::p2::add_to_linker_async(&mut linker).expect("WASI links");
        wasmtime_wasi_http::p2::add_only_http_to_linker_async(&mut linker).expect("wasi:http links");
        let pre = ProxyPre::new(linker.instantiate_pre(&component).expect("it links")).expect("it is a proxy");
        let env = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let server = Arc::new(Server { pre, env });
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let server = server.clone();
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |request| server.clone().handle(request));
                    let _ = http1::Builder::new().serve_connection(TokioIo::new(client), service).await;
                });
            }
        });
        addr
    }
}

#[tokio::test]
async fn a_wrapped_router_serves_streamable_http_without_sessions() {
    let addr = proxy::serve(&wrapped("hello"), &[("MCP_WIT_MAX_MESSAGE_SIZE", "4096")]).await;

    // 2026-07-28: the ladder, then the request on its own, its answer stamped.
    let call = request(1, "tools/call", modern(json!({ "name": "hello", "arguments": { "name": "proxy" } })));
    let (status, content_type, messages) = post(addr, &modern_headers("tools/call", Some("hello")), &call).await;
    // A whole answer of one message goes out as JSON to a client that takes both.
    assert_eq!((status, content_type.as_str()), (200, "application/json"));
    assert_eq!(messages[0]["result"]["content"][0]["text"], "Hello, proxy!", "{messages:?}");
    assert_eq!(messages[0]["result"]["resultType"], "complete", "{messages:?}");
    support::schema::check_at(support::schema::Revision::Modern, "JSONRPCMessage", &messages[0]).unwrap();
    // A header that disagrees with the body: -32020 with 400; an unknown
    // method: -32601 with 404; a missing envelope under a modern header: 400.
    let (status, _, messages) = post(addr, &modern_headers("tools/list", Some("hello")), &call).await;
    assert_eq!((status, messages[0]["error"]["code"].clone()), (400, json!(-32020)), "{messages:?}");
    let unknown = request(2, "no/such", modern(json!({})));
    let (status, _, messages) = post(addr, &modern_headers("no/such", None), &unknown).await;
    assert_eq!((status, messages[0]["error"]["code"].clone()), (404, json!(-32601)), "{messages:?}");
    assert_eq!(messages[0]["id"], 2, "errors echo the id");
    let bare = request(3, "tools/list", json!({}));
    let (status, _, messages) = post(addr, &modern_headers("tools/list", None), &bare).await;
    assert_eq!((status, messages[0]["error"]["code"].clone()), (400, json!(-32602)), "{messages:?}");

    // 2025 without a session: initialized from its header, as --stateless.
    let legacy = request(4, "tools/call", json!({ "name": "hello", "arguments": { "name": "legacy" } }));
    let (status, _, messages) = post(addr, &[("mcp-protocol-version", "2025-11-25")], &legacy).await;
    assert_eq!(status, 200);
    assert_eq!(messages[0]["result"]["content"][0]["text"], "Hello, legacy!", "{messages:?}");
    support::schema::check_at(support::schema::Revision::Legacy, "JSONRPCMessage", &messages[0]).unwrap();

    // The transport's refusals: too large (413), not JSON (400), GET (405).
    let big = request(5, "tools/call", json!({ "name": "hello", "arguments": { "name": "x".repeat(5000) } }));
    assert_eq!(post(addr, &[], &big).await.0, 413);
    let (status, _, messages) = post(addr, &[], &json!("not a message")).await;
    assert_eq!((status, messages[0]["error"]["code"].clone()), (400, json!(-32600)), "{messages:?}");
    let get = reqwest::get(format!("http://{addr}/mcp")).await.unwrap();
    assert_eq!(get.status().as_u16(), 405);
    assert_eq!(get.headers()["allow"], "POST");
    // A notification: accepted, nothing to answer.
    let note = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    assert_eq!(post(addr, &[], &note).await.0, 202);
}

#[tokio::test]
async fn a_wrapped_router_turns_away_foreign_origins_and_hosts() {
    let env = [("MCP_WIT_ALLOW_ORIGINS", "https://app.example.com"), ("MCP_WIT_ALLOW_HOSTS", "mcp.example.com")];
    let addr = proxy::serve(&wrapped("hello"), &env).await;
    let list = request(1, "tools/list", json!({}));
    let (status, _, messages) = post(addr, &[("origin", "https://evil.example.com")], &list).await;
    assert_eq!(status, 403, "{messages:?}");
    let (status, _, _) = post(addr, &[("origin", "https://app.example.com")], &list).await;
    assert_eq!(status, 200);
    // A page on this machine calling it by a loopback name.
    let (status, _, _) = post(addr, &[("origin", &format!("http://{addr}"))], &list).await;
    assert_eq!(status, 200);
    // The Host policy sees the request's authority (which `wasi:http` keeps
    // out of its headers): an allowed name passes, another is refused.
    let (status, _, _) = post(addr, &[("host", "mcp.example.com")], &list).await;
    assert_eq!(status, 200);
    let (status, _, messages) = post(addr, &[("host", "rebound.example.com")], &list).await;
    assert_eq!(status, 403, "{messages:?}");
    let (status, _, _) =
        post(addr, &[("host", "rebound.example.com"), ("origin", "http://localhost:3000")], &list).await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn mcp_wit_wrap_makes_the_same_server_and_refuses_what_engines_cannot_run() {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("server.wasm");
    let wrap = |router: &std::path::Path| {
        std::process::Command::new(support::binary())
            .args(["wrap", router.to_str().unwrap(), "-o", output.to_str().unwrap()])
            .output()
            .expect("mcp-wit runs")
    };
    let done = wrap(&fixture("hello"));
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    assert!(String::from_utf8_lossy(&done.stdout).contains("wasmtime serve -Scli"), "says how to run it");
    let addr = proxy::serve(&std::fs::read(&output).unwrap(), &[]).await;
    let list = request(1, "tools/list", modern(json!({})));
    let (status, _, messages) = post(addr, &modern_headers("tools/list", None), &list).await;
    assert_eq!(status, 200);
    assert_eq!(messages[0]["result"]["tools"][0]["name"], "hello", "{messages:?}");

    // What cannot be served is refused, saying why and what to do instead.
    let refused = wrap(&fixture("namespace"));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(stderr.contains("it is a middleware, not a router") && stderr.contains("plug a router"), "{stderr}");
    let refused = wrap(&fixture("adapter"));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    // The adapter alone: a server with no router plugged into it.
    assert!(stderr.contains("plug a router into it first"), "{stderr}");
    let refused = wrap(&support::plugin_fixture("servlet"));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(stderr.contains("Extism servlet") && stderr.contains("mcp-wit serve"), "{stderr}");
    let not_wasm = wrap(std::path::Path::new(env!("CARGO_MANIFEST_PATH")));
    let stderr = String::from_utf8_lossy(&not_wasm.stderr);
    assert!(!not_wasm.status.success());
    assert!(stderr.contains("not a WebAssembly file"), "{stderr}");
}

#[tokio::test]
async fn the_python_sdk_talks_to_a_wrapped_router_on_wasmtime_serve() {
    let dir = tempfile::tempdir().unwrap();
    let server = dir.path().join("server.wasm");
    std::fs::write(&server, wrapped("everything")).unwrap();
    let wasmtime = WasmtimeServe::start(&server, "127.0.0.1:0", &[]);
    python_sdk_calls_everything(&["--url", &wasmtime.url]).await;
}

#[tokio::test]
async fn the_python_sdk_talks_to_a_wrapped_router_on_wasmtime_run() {
    let dir = tempfile::tempdir().unwrap();
    let server = dir.path().join("server.wasm");
    std::fs::write(&server, wrapped("everything")).unwrap();
    // The SDK spawns `wasmtime run` and speaks over its stdin and stdout.
    let wasmtime = support::peers::wasmtime();
    let command = ["--", wasmtime.to_str().unwrap(), "run", "-Shttp", server.to_str().unwrap()];
    python_sdk_calls_everything(&command).await;
}

/// The Python SDK client, in both eras, calls a tool, reads a resource and
/// gets a prompt of the wrapped `everything` router at `server` (`--url URL`,
/// or `-- COMMAND…` to spawn over stdio); every message is valid at its
/// revision.
async fn python_sdk_calls_everything(server: &[&str]) {
    use support::peers::{Peer, run_peer};
    // `auto` is the SDK's default: a `server/discover` probe, then 2026-07-28.
    for mode in ["auto", "legacy"] {
        let args = [
            "--mode",
            mode,
            "--tool",
            "echo",
            "--args",
            r#"{"text":"on an engine"}"#,
            "--resource",
            "everything://text",
            "--prompt",
            "greeting",
        ];
        let args = args.iter().chain(server).map(|s| s.to_string()).collect();
        let run = run_peer(Peer::Python, args).await;
        let report = &run.report;
        let version = if mode == "legacy" { "2025-11-25" } else { "2026-07-28" };
        assert_eq!(report["protocolVersion"], version, "{report}");
        assert_eq!(report["serverInfo"]["name"], "everything", "{report}");
        assert_eq!(report["call"]["content"][0]["text"], "on an engine", "{report}");
        assert!(report["read"]["contents"][0]["text"].is_string(), "{report}");
        assert_eq!(report["prompt"]["messages"][0]["content"]["text"], "Please greet someone warmly.", "{report}");
        let revision =
            if mode == "legacy" { support::schema::Revision::Legacy } else { support::schema::Revision::Modern };
        for message in &run.trace {
            support::schema::check_at(revision, "JSONRPCMessage", message).unwrap();
        }
    }
}

#[tokio::test]
async fn rmcps_client_talks_to_a_wrapped_router_in_both_eras() {
    let addr = proxy::serve(&wrapped("hello"), &[]).await;
    rmcp_calls_hello(&format!("http://{addr}/mcp")).await;
}

/// rmcp's Streamable HTTP client, in both lifecycles, lists and calls the
/// tool of the wrapped `hello` router at `url`.
async fn rmcp_calls_hello(url: &str) {
    use rmcp::model::CallToolRequestParams;
    use rmcp::service::ClientServiceExt;
    use rmcp::transport::StreamableHttpClientTransport;
    for (lifecycle, version) in support::rmcp_lifecycles() {
        let transport = StreamableHttpClientTransport::from_uri(url.to_owned());
        let connect = ().serve_with_lifecycle(transport, lifecycle);
        let client = tokio::time::timeout(support::ANSWER_TIMEOUT, connect).await.expect("in time").expect("connected");
        let info = client.peer_info().expect("the server's info");
        assert_eq!(info.protocol_version, version, "{info:?}");
        let tools = client.list_all_tools().await.expect("tools/list");
        assert_eq!(tools[0].name, "hello", "{tools:?}");
        let mut call = CallToolRequestParams::new("hello");
        call = call.with_arguments(json!({ "name": "rmcp" }).as_object().unwrap().clone());
        let called = client.call_tool(call).await.expect("tools/call");
        assert_eq!(support::text_of(&called), "Hello, rmcp!", "{version:?}");
        client.cancel().await.expect("the client closes");
    }
}

#[tokio::test]
async fn real_clients_talk_to_wrapped_routers_on_wash_dev() {
    let (mut wash, url, _project) = wash_dev(&wrapped("everything"), &[]);
    python_sdk_calls_everything(&["--url", &url]).await;
    wash.kill().unwrap();
    wash.wait().unwrap();

    // Configuration reaches the component's environment: the allowed origin.
    let env = [("MCP_WIT_ALLOW_ORIGINS", "https://app.example.com")];
    let (mut wash, url, _project) = wash_dev(&wrapped("hello"), &env);
    rmcp_calls_hello(&url).await;
    let post = |origin: &'static str| {
        reqwest::Client::new()
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .header("origin", origin)
            .body(request(1, "tools/list", json!({})).to_string())
            .send()
    };
    assert_eq!(post("https://evil.example.com").await.unwrap().status().as_u16(), 403);
    assert_eq!(post("https://app.example.com").await.unwrap().status().as_u16(), 200);
    wash.kill().unwrap();
    wash.wait().unwrap();
}

#[tokio::test]
async fn a_wrapped_router_that_talks_back_reaches_its_client_as_far_as_a_request_alone_can() {
    // `conformance` imports the client and exports the extension: its
    // templates and prompt arguments reach clients; its notifications travel
    // on the request's own answer; a 2025 request without a session cannot
    // carry a question to its client (it declared nothing: the router hears
    // so, as under `mcp-wit serve --http --stateless`), a 2026-07-28
    // one can (engine_talk_back.rs), here failing for want of a capability.
    let addr = proxy::serve(&wrapped("conformance"), &[]).await;
    let legacy = [("mcp-protocol-version", "2025-11-25")];
    let params = json!({ "name": "test_sampling", "arguments": { "prompt": "hi" } });
    let (status, _, messages) = post(addr, &legacy, &request(1, "tools/call", params.clone())).await;
    assert_eq!(status, 200, "{messages:?}");
    let [answer] = messages.as_slice() else { panic!("only the answer, no request to the client: {messages:?}") };
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("sampling") && text.contains("did not declare"), "{text}");
    let headers = modern_headers("tools/call", Some("test_sampling"));
    let (status, _, messages) = post(addr, &headers, &request(1, "tools/call", modern(params))).await;
    assert_eq!((status, messages[0]["error"]["code"].clone()), (400, json!(-32021)), "{messages:?}");

    let (_, _, messages) =
        post(addr, &legacy, &request(2, "tools/call", json!({ "name": "test_tool_with_logging" }))).await;
    let logged: Vec<_> = messages.iter().filter(|m| m["method"] == "notifications/message").collect();
    assert!(!logged.is_empty(), "the log notifications come before the answer: {messages:?}");
    assert_eq!(messages.last().unwrap()["result"]["content"][0]["text"], "Tool with logging executed successfully");

    let (_, _, messages) = post(addr, &legacy, &request(3, "resources/templates/list", json!({}))).await;
    assert_eq!(
        messages[0]["result"]["resourceTemplates"][0]["uriTemplate"], "test://template/{id}/data",
        "{messages:?}"
    );
    let get = json!({ "name": "test_prompt_with_arguments", "arguments": { "arg1": "a", "arg2": "b" } });
    let (_, _, messages) = post(addr, &legacy, &request(4, "prompts/get", get)).await;
    let text = &messages[0]["result"]["messages"][0]["content"]["text"];
    assert_eq!(text, "Prompt with arguments: arg1='a', arg2='b'", "{messages:?}");
    for message in &messages {
        support::schema::check_at(support::schema::Revision::Legacy, "JSONRPCMessage", message).unwrap();
    }
}

#[tokio::test]
async fn a_wrapped_middleware_composition_serves_and_a_trap_ends_only_its_request() {
    // A middleware over a router without the extension: its dangling
    // extension import is answered inside the component.
    let composed = plug(&std::fs::read(fixture("namespace")).unwrap(), &std::fs::read(fixture("everything")).unwrap());
    let addr = proxy::serve(&wrap_component(&composed), &[("NAMESPACE_PREFIX", "ns_")]).await;
    let legacy = [("mcp-protocol-version", "2025-11-25")];
    let call = |id, tool: &str| request(id, "tools/call", json!({ "name": tool, "arguments": { "text": "again" } }));
    let (status, _, messages) = post(addr, &legacy, &call(1, "ns_echo")).await;
    assert_eq!(status, 200);
    assert_eq!(messages[0]["result"]["content"][0]["text"], "again", "{messages:?}");
    let get = json!({ "name": "ns_greeting", "arguments": { "ignored": "x" } });
    let (_, _, messages) = post(addr, &legacy, &request(2, "prompts/get", get)).await;
    assert_eq!(messages[0]["result"]["messages"][0]["content"]["text"], "Please greet someone warmly.", "{messages:?}");

    // A trap poisons the engine's instance: the engine answers that request
    // (no JSON-RPC answer can come from a trapped component), and the next
    // request gets a fresh instance.
    let trapped = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        .body(call(3, "ns_panic").to_string())
        .send()
        .await;
    assert!(trapped.map(|r| r.status().is_server_error()).unwrap_or(true), "the trap is the engine's error");
    let (status, _, messages) = post(addr, &legacy, &call(4, "ns_echo")).await;
    assert_eq!(status, 200);
    assert_eq!(messages[0]["result"]["content"][0]["text"], "again", "{messages:?}");
}

#[tokio::test]
async fn a_wrapped_router_reused_by_the_engine_serves_request_after_request_and_a_trap_costs_one() {
    // The adapter reads its settings and learns what the router says of
    // itself once per instance; an engine that reuses instances gets the
    // same answers as one that makes a fresh instance each time.
    let dir = tempfile::tempdir().unwrap();
    let component = dir.path().join("hostile-wrapped.wasm");
    std::fs::write(&component, wrapped("hostile")).unwrap();
    let serve = WasmtimeServe::start_with(&component, "127.0.0.1:0", &[], &["--max-instance-reuse-count", "1000"]);
    let addr = serve.addr();
    let call = |id: i64, tool: &str| request(id, "tools/call", modern(json!({ "name": tool, "arguments": {} })));
    for id in 1..=20 {
        let (status, _, messages) = post(addr, &modern_headers("tools/call", Some("env")), &call(id, "env")).await;
        assert_eq!(status, 200, "{messages:?}");
        assert_eq!(messages[0]["result"]["resultType"], "complete", "{messages:?}");
        assert_eq!(messages[0]["id"], id, "{messages:?}");
    }
    // A trap ends the engine's instance: that request gets the engine's
    // error, and the next ones a fresh instance that serves as before.
    let mut trapping = reqwest::Client::new()
        .post(&serve.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in modern_headers("tools/call", Some("panic")) {
        trapping = trapping.header(name, value);
    }
    let trapped = trapping.body(call(21, "panic").to_string()).send().await;
    // `wasmtime serve` answers 500, or cuts the response it had begun.
    assert!(trapped.is_err() || trapped.as_ref().is_ok_and(|r| r.status().as_u16() == 500), "{trapped:?}");
    for id in 22..=41 {
        let (status, _, messages) = post(addr, &modern_headers("tools/call", Some("env")), &call(id, "env")).await;
        assert_eq!((status, messages[0]["id"].clone()), (200, json!(id)), "{messages:?}");
    }
    let listed = request(42, "tools/list", json!({}));
    let (status, _, messages) = post(addr, &[("mcp-protocol-version", "2025-11-25")], &listed).await;
    assert_eq!(status, 200);
    assert!(messages[0]["result"]["tools"].as_array().is_some_and(|tools| tools.len() > 5), "{messages:?}");
}

#[tokio::test]
async fn the_benchmarks_floors_answer_the_echo_call_on_wasmtime_serve() {
    // `engines --floors` measures these beside the wrapped router: each must
    // give the echo router's answer, or the benchmark measures nothing.
    for (fixture_name, flags) in [
        ("http_floor", &[][..]),
        ("http_floor_p3", &["-Wcomponent-model-async", "-Sp3", "--max-instance-reuse-count", "4"][..]),
    ] {
        let serve = WasmtimeServe::start_with(&fixture(fixture_name), "127.0.0.1:0", &[], flags);
        for id in 1..=6 {
            let echo =
                request(id, "tools/call", modern(json!({ "name": "echo", "arguments": { "text": format!("n{id}") } })));
            let (status, content_type, messages) =
                post(serve.addr(), &modern_headers("tools/call", Some("echo")), &echo).await;
            assert_eq!((status, content_type.as_str()), (200, "application/json"), "{fixture_name}: {messages:?}");
            assert_eq!(
                messages[0],
                json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": format!("n{id}") }] } }),
                "{fixture_name}"
            );
        }
        let refused = reqwest::Client::new().post(&serve.url).body("not json").send().await.unwrap();
        assert_eq!(refused.status().as_u16(), 400, "{fixture_name}");
        assert!(refused.text().await.unwrap().contains("expected"), "{fixture_name}: serde_json's reason");
    }
}
