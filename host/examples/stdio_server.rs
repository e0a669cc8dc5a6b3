//! Serves a router to one MCP client over stdio (newline-delimited JSON-RPC),
//! with a compile cache: the core of `mcp-wit serve ROUTER.wasm`, without its
//! command line, policy files or logs.
//!
//! ```sh
//! cargo run -p mcp-wit --example stdio_server -- router.wasm [CACHE_DIR]
//! ```
//!
//! Built without the library's default features it links no compiler, and
//! serves code compiled ahead of time for the same settings: a `.cwasm`, or
//! what a build with the compiler left in `CACHE_DIR`.
//!
//! ```sh
//! mcp-wit compile router.wasm -o router.cwasm
//! cargo run -p mcp-wit --no-default-features --example stdio_server -- router.cwasm
//! ```

use mcp_wit::transport::stdio;
use mcp_wit::{CompileCache, EngineOptions, LoadedRouter, SandboxPolicy, Session, SessionOptions, StdioOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: cargo run -p mcp-wit --example stdio_server -- ROUTER.wasm|ROUTER.cwasm [CACHE_DIR]")?;
    let cache = args.next().map(CompileCache::new);

    // One engine per process: compiled code and the epoch ticker are shared.
    // One client means its few instances are made once and kept: each is
    // allocated on demand, and no pool (which a server of many sessions sets
    // up for quicker instances) holds back the start.
    let engine = EngineOptions { pooling: false, ..EngineOptions::default() }.build()?;
    // The default policy grants nothing: no files, no environment, no network.
    let policy = SandboxPolicy::builder("router").build();
    let component = LoadedRouter::load(&engine, path.as_ref(), policy, cache.as_ref())?;

    // One session: stdio has one client, for as long as stdin is open.
    let mut session = Session::new(component, SessionOptions::default());
    stdio::serve_stdio(&mut session, &StdioOptions::default())?;
    Ok(())
}
