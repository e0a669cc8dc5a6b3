//! Router instances called directly: blocking or async, shared across
//! threads, beyond the pool.

use std::time::Duration;

use mcp_wit::{LoadedRouter, SandboxPolicy, SessionOptions};
use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::fixture;

use super::harness::load;

#[tokio::test]
async fn typed_calls_block_or_await_and_instances_keep_to_their_kind() {
    use mcp_wit::{CallMode, contract};
    let component = load("everything");
    let arguments = r#"{"text":"same either way"}"#;
    let text = |result: contract::CallToolResult| match &result.content[..] {
        [contract::Content::Text(t)] => t.text.clone(),
        other => panic!("one text item expected: {other:?}"),
    };

    let mut blocking = component.instantiate().expect("a blocking instance");
    let mut asynchronous = component.instantiate_async().await.expect("an async instance");
    assert_eq!((blocking.calls(), asynchronous.calls()), (CallMode::Blocking, CallMode::Async));
    let blocked = blocking.call_tool("echo", arguments).expect("no fault").expect("a result");
    let awaited = asynchronous.call_tool_async("echo", arguments).await.expect("no fault").expect("a result");
    assert_eq!(text(blocked), "same either way");
    assert_eq!(text(awaited), "same either way");
    // Every router function, both ways, with the same answers.
    assert_eq!(blocking.name().unwrap(), asynchronous.name_async().await.unwrap());
    assert_eq!(blocking.list_tools().unwrap().len(), asynchronous.list_tools_async().await.unwrap().len());
    assert_eq!(blocking.list_prompts().unwrap().len(), asynchronous.list_prompts_async().await.unwrap().len());
    assert_eq!(blocking.list_resources().unwrap().len(), asynchronous.list_resources_async().await.unwrap().len());
    // `_async` works on a blocking instance; a blocking call on an async one
    // is refused, naming the way out, and the instance goes on.
    assert_eq!(count_async(&mut blocking).await, 1);
    let refused = asynchronous.call_tool("echo", arguments).expect_err("refused");
    assert!(refused.message.contains("_async"), "{}", refused.message);
    assert_eq!(text(asynchronous.call_tool_async("echo", arguments).await.unwrap().unwrap()), "same either way");
}

/// `counter` through the `_async` method.
async fn count_async(instance: &mut mcp_wit::runtime::RouterInstance) -> u64 {
    use mcp_wit::contract;
    let result = instance.call_tool_async("counter", "{}").await.expect("no fault").expect("a result");
    match &result.content[..] {
        [contract::Content::Text(t)] => t.text.parse().expect("a count"),
        other => panic!("one text item expected: {other:?}"),
    }
}

#[tokio::test]
async fn a_session_driven_both_ways_replaces_an_instance_of_the_other_kind() {
    let component = load("everything");
    let mut session = mcp_wit::Session::new(component, SessionOptions::default());
    let mut out: Vec<Vec<u8>> = Vec::new();
    let initialize = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params("2025-11-25") });
    session.handle_async(initialize.to_string().as_bytes(), &mut out).await;
    let counter = |id: i64| {
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": "counter" } }).to_string()
    };
    let count = |out: &Vec<Vec<u8>>| {
        let answer: Value = serde_json::from_slice(out.last().expect("an answer")).unwrap();
        answer["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{answer}")).to_owned()
    };
    session.handle_async(counter(1).as_bytes(), &mut out).await;
    session.handle_async(counter(2).as_bytes(), &mut out).await;
    assert_eq!(count(&out), "2", "one async instance");
    // Blocking now: a fresh instance of the blocking kind.
    session.handle(counter(3).as_bytes(), &mut out);
    assert_eq!(count(&out), "1");
    session.handle(counter(4).as_bytes(), &mut out);
    assert_eq!(count(&out), "2");
}

#[tokio::test]
async fn async_calls_on_an_engine_without_fiber_stacks_say_what_to_change() {
    let options = mcp_wit::EngineOptions { async_calls: false, ..Default::default() };
    let engine = options.build().expect("engine");
    let policy = SandboxPolicy::builder("echo").build();
    let component = LoadedRouter::from_file(&engine, &fixture("echo"), policy).expect("load echo");
    let fault = match component.instantiate_async().await {
        Ok(_) => panic!("no fiber stacks, yet an async instance"),
        Err(fault) => fault,
    };
    assert!(fault.message.contains("EngineOptions::async_calls"), "{}", fault.message);
    // Blocking calls need no fiber: they work.
    assert!(component.instantiate().is_ok());
}

#[tokio::test]
async fn a_handle_async_dropped_mid_call_costs_the_next_request_nothing() {
    let mut session = mcp_wit::Session::new(load("hostile"), SessionOptions::default());
    let mut out: Vec<Vec<u8>> = Vec::new();
    let initialize = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params("2025-11-25") });
    session.handle_async(initialize.to_string().as_bytes(), &mut out).await;
    let call = |id: i64, name: &str, arguments: Value| {
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": name, "arguments": arguments } })
            .to_string()
    };
    // The caller gives up on a guest that sleeps for a minute: the future is
    // dropped while the guest waits in the host.
    let sleep = call(1, "sleep", json!({ "secs": 60 }));
    let gave_up = tokio::time::timeout(Duration::from_millis(200), session.handle_async(sleep.as_bytes(), &mut out));
    assert!(gave_up.await.is_err(), "the sleep cannot have finished");
    // The next request is answered, by a fresh instance.
    out.clear();
    session.handle_async(call(2, "counter", json!({})).as_bytes(), &mut out).await;
    let answer: Value = serde_json::from_slice(out.last().expect("an answer")).unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], "1", "{answer}");
}

#[test]
fn one_shared_instance_serves_blocking_sessions_on_many_threads() {
    let component = load("everything").with_instance_mode(mcp_wit::InstanceMode::Shared);
    let options = SessionOptions::default();
    let initialize = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params("2025-11-25") }).to_string();
    let counter =
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "counter" } }).to_string();
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (component, options) = (component.clone(), options.clone());
            let (initialize, counter) = (initialize.clone(), counter.clone());
            std::thread::spawn(move || {
                let mut session = mcp_wit::Session::new(component, options);
                let mut out: Vec<Vec<u8>> = Vec::new();
                session.handle(initialize.as_bytes(), &mut out);
                for _ in 0..50 {
                    session.handle(counter.as_bytes(), &mut out);
                }
                out
            })
        })
        .collect();
    for thread in threads {
        let out = thread.join().expect("no panic");
        assert_eq!(out.len(), 51, "every call answered");
    }
    // The four sessions' 200 calls all went to the one instance.
    let mut session = mcp_wit::Session::new(component, options);
    let mut out: Vec<Vec<u8>> = Vec::new();
    session.handle(initialize.as_bytes(), &mut out);
    session.handle(counter.as_bytes(), &mut out);
    let answer: Value = serde_json::from_slice(out.last().unwrap()).unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], "201", "{answer}");
}

/// The text of a tool's result, from an instance call.
pub(super) fn called(
    result: Result<Result<mcp_wit::contract::CallToolResult, mcp_wit::contract::ToolError>, mcp_wit::GuestFault>,
) -> String {
    format!("{:?}", result.expect("the guest ran").expect("the tool succeeded"))
}

#[tokio::test]
async fn instances_beyond_the_pool_are_allocated_on_demand() {
    // Two slots: every instance after them comes from the on-demand engine.
    let engine = mcp_wit::EngineOptions { pool_instances: 2, ..Default::default() }.build().expect("engine");
    let echo =
        LoadedRouter::from_file(&engine, &mcp_wit_tests::fixture("echo"), SandboxPolicy::builder("echo").build())
            .expect("load echo");
    let plugin_path = mcp_wit_tests::plugin_fixture("pdk-plugin");
    let plugin = LoadedRouter::from_file(&engine, &plugin_path, SandboxPolicy::builder("pdk").build()).expect("load");
    let mut alive = Vec::new();
    for i in 0..6 {
        let text = format!("instance {i}");
        let arguments = json!({ "text": text }).to_string();
        let mut blocking = echo.instantiate().expect("a blocking instance, in the pool or beyond it");
        assert!(called(blocking.call_tool("echo", &arguments)).contains(&text));
        let mut made_async = echo.instantiate_async().await.expect("an async instance, in the pool or beyond it");
        assert!(called(made_async.call_tool_async("echo", &arguments).await).contains(&text));
        alive.extend([blocking, made_async]);
    }
    for word in ["pool", "demand"] {
        let mut instance = plugin.instantiate_async().await.expect("a plugin instance beyond the pool");
        let reversed: String = word.chars().rev().collect();
        let arguments = json!({ "text": word }).to_string();
        assert!(called(instance.call_tool_async("reverse", &arguments).await).contains(&reversed));
        alive.push(instance);
    }
    // Every instance stays usable while the others live.
    for instance in &mut alive[..2] {
        assert!(called(instance.call_tool_async("echo", r#"{"text":"again"}"#).await).contains("again"));
    }
}
