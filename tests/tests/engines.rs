// A router on an engine that knows nothing of MCP: the `adapter` component
// (components/adapter, the protocol core built for wasm32-wasip2) plugged
// onto a router as `wac plug` does, run as a plain WASI command — the way
// `wasmtime run server.wasm` runs it — on wasmtime's own WASI, with no
// mcp-wit host involved. Both eras over stdio, as `mcp-wit serve` speaks them.

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::{fixture, plug};
use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Config, Engine, Store};
use wasmtime_wasi::p2::bindings::sync::Command;
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::{WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

/// `router` behind the adapter: one component that imports only WASI.
fn wrapped(router: &str) -> Vec<u8> {
    plug(&std::fs::read(fixture("adapter")).unwrap(), &std::fs::read(fixture(router)).unwrap())
}

struct Host {
    wasi: WasiCtx,
    table: ResourceTable,
}

impl WasiView for Host {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
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
    let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let stdout = MemoryOutputPipe::new(16 << 20);
    let mut wasi = WasiCtxBuilder::new();
    wasi.stdin(MemoryInputPipe::new(input)).stdout(stdout.clone()).inherit_stderr();
    for (key, value) in env {
        wasi.env(key, value);
    }
    let mut store = Store::new(&engine, Host { wasi: wasi.build(), table: ResourceTable::new() });
    let command = Command::instantiate(&mut store, &component, &linker).expect("it links on plain WASI");
    let status = command.wasi_cli_run().call_run(&mut store).expect("it runs without trapping");
    let written = String::from_utf8(stdout.contents().to_vec()).expect("stdout is UTF-8");
    let answers = written.lines().map(|line| serde_json::from_str(line).expect("each line is JSON")).collect();
    (status, answers)
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

fn modern(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    params
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
