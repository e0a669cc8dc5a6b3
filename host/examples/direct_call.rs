//! Calls a router's functions directly, with typed Rust values: no MCP
//! client, no JSON-RPC, just the `wasix:mcp/router` contract.
//!
//! ```sh
//! cargo run -p mcp-wit --example direct_call -- hello.wasm        # hello {"name":"world"}
//! cargo run -p mcp-wit --example direct_call -- router.wasm TOOL '{"key":"value"}'
//! ```

use mcp_wit::contract;
use mcp_wit::{LoadedRouter, SandboxPolicy};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path =
        args.next().ok_or("usage: cargo run -p mcp-wit --example direct_call -- ROUTER.wasm [TOOL] [ARGUMENTS]")?;
    let tool = args.next().unwrap_or_else(|| "hello".to_owned());
    let arguments = args.next().unwrap_or_else(|| r#"{"name":"world"}"#.to_owned());

    // One engine per process: compiled code and the epoch ticker are shared.
    let engine = mcp_wit::EngineOptions::default().build()?;
    // The default policy grants nothing: no files, no environment, no network.
    let policy = SandboxPolicy::builder("router").build();
    // `load` takes a `.wasm` (compiled now) or a `.cwasm` from `mcp-wit compile`.
    let component = LoadedRouter::load(&engine, path.as_ref(), policy, None)?;
    let mut router = component.instantiate()?;

    println!("{}: {}", router.name()?, router.instructions()?);
    for t in router.list_tools()? {
        println!("  tool `{}`: {} (input schema {})", t.name, t.description, t.input_schema.json);
    }

    // The outer `?` is a guest fault (trap, timeout, memory cap); the inner
    // `Result` is the tool's own answer.
    match router.call_tool(&tool, &arguments)? {
        Ok(result) => {
            for content in &result.content {
                match content {
                    contract::Content::Text(text) => println!("{tool} → {}", text.text),
                    other => println!("{tool} → {other:?}"),
                }
            }
        }
        Err(error) => println!("{tool} failed: {error:?}"),
    }
    Ok(())
}
