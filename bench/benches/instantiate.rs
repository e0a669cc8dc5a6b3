//! What per-session isolation costs: a fresh guest instance per session.
//!
//! - `instance/fresh_instance_call_drop`: new store + instantiate + one
//!   `call-tool` + drop: the whole life of a one-call session's guest.
//! - `instance/instantiate_drop` and `instance/call_warm_instance`: its two
//!   halves.
//! - `session/tools_call_echo`: `Session::handle` of one `tools/call` message
//!   on a warm, initialized session (parse, dispatch, guest call, mapping,
//!   serialisation), into a `Vec<Vec<u8>>` outbox.
//! - `instance/instantiate_async_drop`: the same for an instance made for
//!   async calls (as Streamable HTTP makes them).
//! - `instance/instantiate_drop_on_demand` and `…_async_drop_on_demand`: the
//!   two on an engine that allocates on demand, as an instance beyond the
//!   pool is made.
//! - `session/modern_tools_call_echo`: the same call as a 2026-07-28 request,
//!   which runs on a fresh instance and carries a stamped result.
//! - `session/fresh_session_initialize_call`: a new `Session`, `initialize`,
//!   then one `tools/call`: a one-call client's whole session, minus I/O.
//! - `protocol/parse_tools_call`: the JSON side of a `tools/call` alone:
//!   decoding the message and its params.
//! - `talk_back/elicitation_2025`: a `tools/call` of the conformance
//!   fixture's `test_elicitation` in a 2025 session, its question answered
//!   by an in-process peer at once: the request to the client, the answer
//!   matched and checked, the guest resumed.
//! - `talk_back/elicitation_2026`: the same call as 2026-07-28 requests: the
//!   first ends the round (`input_required`, a signed state), the retry
//!   carries the answer and the state and runs the call again on a fresh
//!   instance.
//!
//! Run with `cargo bench -p mcp-wit-bench --bench instantiate` (`just bench`
//! runs it after the report). Numbers are for comparison between revisions
//! on one machine, not pass/fail.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_wit::contract;
use mcp_wit::sandbox::guest_output::OutputTarget;
use mcp_wit::{LoadedRouter, SandboxPolicy, Session, SessionOptions};

const INITIALIZE: &[u8] = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#;
const INITIALIZED: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const CALL: &[u8] =
    br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}"#;
/// The same call as a 2026-07-28 request: its envelope in `_meta`, no session.
const MODERN_CALL: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

/// The echo component, compiled and linked once (as `mcp-wit serve` does).
fn echo_component() -> LoadedRouter {
    echo_component_on(mcp_wit::EngineOptions::default())
}

/// The echo component on an engine built with `options`.
fn echo_component_on(options: mcp_wit::EngineOptions) -> LoadedRouter {
    let engine = options.build().expect("cannot build the engine");
    let path = mcp_wit_tests::fixture("echo");
    // Discard guest output: the benchmark's own stderr must stay readable.
    let policy = SandboxPolicy::builder("echo").guest_output(OutputTarget::Discard).build();
    LoadedRouter::from_file(&engine, &path, policy).expect("cannot load echo.wasm")
}

/// One echo call; the result is checked so a broken guest cannot look fast.
fn call_echo(instance: &mut mcp_wit::RouterInstance, arguments: &str) -> contract::CallToolResult {
    match instance.call_tool("echo", arguments) {
        Ok(Ok(result)) => result,
        Ok(Err(_)) => panic!("the echo tool returned an error"),
        Err(fault) => panic!("the echo guest faulted: {fault}"),
    }
}

fn instances(c: &mut Criterion) {
    let component = echo_component();
    let arguments = r#"{"text":"hello"}"#;
    {
        let mut instance = component.instantiate().expect("cannot instantiate");
        let result = call_echo(&mut instance, arguments);
        assert!(matches!(result.content.as_slice(), [contract::Content::Text(t)] if t.text == "hello"));
    }

    let mut group = c.benchmark_group("instance");
    group.bench_function("fresh_instance_call_drop", |b| {
        b.iter(|| {
            let mut instance = component.instantiate().expect("cannot instantiate");
            black_box(call_echo(&mut instance, black_box(arguments)));
            // `instance` (its store, memory and WASI state) is dropped here, inside the timing.
        })
    });
    group.bench_function("instantiate_drop", |b| {
        b.iter(|| black_box(component.instantiate().expect("cannot instantiate")))
    });
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("cannot start a runtime");
    group.bench_function("instantiate_async_drop", |b| {
        b.iter(|| black_box(runtime.block_on(component.instantiate_async()).expect("cannot instantiate")))
    });
    // The path of an instance beyond the pool: the same settings, memories
    // and fiber stacks allocated on demand.
    let on_demand = echo_component_on(mcp_wit::EngineOptions { pooling: false, ..Default::default() });
    group.bench_function("instantiate_drop_on_demand", |b| {
        b.iter(|| black_box(on_demand.instantiate().expect("cannot instantiate")))
    });
    group.bench_function("instantiate_async_drop_on_demand", |b| {
        b.iter(|| black_box(runtime.block_on(on_demand.instantiate_async()).expect("cannot instantiate")))
    });
    let mut warm = component.instantiate().expect("cannot instantiate");
    group.bench_function("call_warm_instance", |b| b.iter(|| black_box(call_echo(&mut warm, black_box(arguments)))));
    group.finish();
}

fn sessions(c: &mut Criterion) {
    let component = echo_component();
    let mut group = c.benchmark_group("session");

    let mut session = Session::new(component.clone(), SessionOptions::default());
    let mut out: Vec<Vec<u8>> = Vec::new();
    session.handle(INITIALIZE, &mut out);
    session.handle(INITIALIZED, &mut out);
    // The first call also learns which tools declare an output schema.
    out.clear();
    session.handle(CALL, &mut out);
    let answer = String::from_utf8_lossy(&out[0]).into_owned();
    assert!(answer.contains(r#""text":"hello""#), "unexpected answer: {answer}");
    group.bench_function("tools_call_echo", |b| {
        b.iter(|| {
            out.clear();
            session.handle(black_box(CALL), &mut out);
        })
    });

    // A 2026-07-28 call as stateless HTTP serves it: a session of its own,
    // so a fresh instance per request (the default mode).
    let mut session = Session::new(component.clone(), SessionOptions::default());
    out.clear();
    session.handle(MODERN_CALL, &mut out);
    let answer = String::from_utf8_lossy(&out[0]).into_owned();
    assert!(answer.contains(r#""resultType":"complete""#), "unexpected answer: {answer}");
    // The routers (what they said of themselves learnt once) are the
    // server's, as HTTP's are.
    let routers = mcp_wit::Routers::from(component.clone());
    group.bench_function("modern_tools_call_echo", |b| {
        b.iter(|| {
            let mut session = Session::new(routers.clone(), SessionOptions::default());
            out.clear();
            session.handle(black_box(MODERN_CALL), &mut out);
        })
    });
    // The same handed back for reuse (`--max-instance-reuse-count`): no
    // instantiation.
    let reused = mcp_wit::Routers::from(
        component.clone().with_instance_reuse(mcp_wit::InstanceReuse { max_uses: u32::MAX, max_kept: 4 }),
    );
    group.bench_function("modern_tools_call_echo_reused", |b| {
        b.iter(|| {
            let mut session = Session::new(reused.clone(), SessionOptions::default());
            out.clear();
            session.handle(black_box(MODERN_CALL), &mut out);
        })
    });
    // 2026-07-28 over stdio: one connection, its instance kept.
    group.bench_function("modern_tools_call_echo_connection", |b| {
        b.iter(|| {
            out.clear();
            session.handle(black_box(MODERN_CALL), &mut out);
        })
    });

    group.bench_function("fresh_session_initialize_call", |b| {
        b.iter(|| {
            let mut session = Session::new(component.clone(), SessionOptions::default());
            let mut out: Vec<Vec<u8>> = Vec::with_capacity(2);
            session.handle(INITIALIZE, &mut out);
            session.handle(INITIALIZED, &mut out);
            session.handle(CALL, &mut out);
            black_box(out);
        })
    });
    group.finish();
}

fn protocol(c: &mut Criterion) {
    use mcp_wit_protocol::jsonrpc::{self, Incoming};
    use mcp_wit_protocol::params::{self, CallToolParams};
    let mut group = c.benchmark_group("protocol");
    group.bench_function("parse_tools_call", |b| {
        b.iter(|| {
            let Ok(Incoming::Request { params, .. }) = jsonrpc::parse(black_box(CALL)) else { panic!("not a request") };
            let p: CallToolParams<'_> = params::decode(params).expect("valid params");
            black_box(p.arguments);
        })
    });
    group.finish();
}

/// A client that answers every elicitation at once, in process.
struct Accepting;

impl mcp_wit_protocol::Peer for Accepting {
    fn notify(&self, _message: &[u8]) {}

    fn ask(
        &self,
        _id: u64,
        _request: Vec<u8>,
        _bound: mcp_wit_protocol::client::WaitBound,
    ) -> mcp_wit_protocol::client::BoxFuture<
        Result<mcp_wit_protocol::client::Response, mcp_wit_protocol::client::AskError>,
    > {
        let answer = serde_json::value::RawValue::from_string(r#"{"action":"accept","content":{"name":"A"}}"#.into());
        Box::pin(std::future::ready(Ok(Ok(answer.expect("JSON")))))
    }
}

fn talk_back(c: &mut Criterion) {
    let engine = mcp_wit::EngineOptions::default().build().expect("cannot build the engine");
    let policy = SandboxPolicy::builder("conformance").guest_output(OutputTarget::Discard).build();
    let path = mcp_wit_tests::fixture("conformance");
    let component = LoadedRouter::from_file(&engine, &path, policy).expect("cannot load conformance.wasm");
    let mut group = c.benchmark_group("talk_back");

    const LEGACY_INITIALIZE: &[u8] = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"bench","version":"0"}}}"#;
    const ELICIT: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_elicitation","arguments":{"message":"Who?"}}}"#;
    let mut session = Session::new(component.clone(), SessionOptions::default());
    session.set_peer(Some(std::sync::Arc::new(Accepting)));
    let mut out: Vec<Vec<u8>> = Vec::new();
    session.handle(LEGACY_INITIALIZE, &mut out);
    session.handle(INITIALIZED, &mut out);
    out.clear();
    session.handle(ELICIT, &mut out);
    let answer = String::from_utf8_lossy(&out[0]).into_owned();
    assert!(answer.contains("action: accept"), "unexpected answer: {answer}");
    group.bench_function("elicitation_2025", |b| {
        b.iter(|| {
            out.clear();
            session.handle(black_box(ELICIT), &mut out);
        })
    });

    const ENVELOPE: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}"#;
    let first = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"test_elicitation","arguments":{{"message":"Who?"}},{ENVELOPE}}}}}"#
    );
    let mut session = Session::new(component.clone(), SessionOptions::default());
    out.clear();
    session.handle(first.as_bytes(), &mut out);
    let round: serde_json::Value = serde_json::from_slice(&out[0]).expect("JSON");
    let state = round["result"]["requestState"].as_str().expect("a state").to_owned();
    let retry = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"test_elicitation","arguments":{{"message":"Who?"}},"inputResponses":{{"q1":{{"action":"accept","content":{{"name":"A"}}}}}},"requestState":"{state}",{ENVELOPE}}}}}"#
    );
    out.clear();
    session.handle(retry.as_bytes(), &mut out);
    let answer = String::from_utf8_lossy(&out[0]).into_owned();
    assert!(answer.contains("action: accept"), "unexpected answer: {answer}");
    group.bench_function("elicitation_2026", |b| {
        b.iter(|| {
            out.clear();
            session.handle(black_box(first.as_bytes()), &mut out);
            session.handle(black_box(retry.as_bytes()), &mut out);
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    // Short runs: the machine is shared, and these are steady, microsecond-scale loops.
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = instances, sessions, protocol, talk_back
}
criterion_main!(benches);
