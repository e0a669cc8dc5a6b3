//! `servlet`: an XTP servlet (`describe` and `call`, see
//! `xtp-plugin-schema-v0.yaml`) written against the raw Extism ABI, with no
//! PDK: its input and output move through `extism:host/env` byte by byte.
//!
//! Tools: `echo` (its `text` back), `fail` (returns non-zero with an error
//! message), `greet` (a config value, `GREETING`, and a variable that counts
//! calls across them).

use serde_json::{Value, json};

#[link(wasm_import_module = "extism:host/env")]
unsafe extern "C" {
    fn input_length() -> u64;
    fn input_load_u8(offset: u64) -> u8;
    fn alloc(length: u64) -> u64;
    fn length(offset: u64) -> u64;
    fn load_u8(offset: u64) -> u8;
    fn store_u8(offset: u64, value: u8);
    fn output_set(offset: u64, length: u64);
    fn error_set(offset: u64);
    fn config_get(key: u64) -> u64;
    fn var_get(key: u64) -> u64;
    fn var_set(key: u64, value: u64);
}

fn input() -> Vec<u8> {
    // SAFETY: the kernel's functions take and return plain integers.
    unsafe { (0..input_length()).map(|i| input_load_u8(i)).collect() }
}

/// `bytes` in a new block of the kernel's memory.
fn to_kernel(bytes: &[u8]) -> u64 {
    // SAFETY: as above.
    unsafe {
        let block = alloc(bytes.len() as u64);
        for (i, byte) in bytes.iter().enumerate() {
            store_u8(block + i as u64, *byte);
        }
        block
    }
}

/// The bytes of the block at `offset` (none for 0).
fn from_kernel(offset: u64) -> Vec<u8> {
    // SAFETY: as above.
    unsafe { (0..length(offset)).map(|i| load_u8(offset + i)).collect() }
}

fn output(value: &Value) -> i32 {
    let bytes = value.to_string().into_bytes();
    // SAFETY: as above.
    unsafe { output_set(to_kernel(&bytes), bytes.len() as u64) };
    0
}

fn fail(message: &str) -> i32 {
    // SAFETY: as above.
    unsafe { error_set(to_kernel(message.as_bytes())) };
    1
}

fn text(text: &str) -> Value {
    json!({ "content": [{ "type": "text", "text": text }] })
}

#[unsafe(no_mangle)]
pub extern "C" fn describe() -> i32 {
    let object = |properties: Value| json!({ "type": "object", "properties": properties });
    output(&json!({ "tools": [
        { "name": "echo", "description": "Echoes its text", "inputSchema": object(json!({ "text": { "type": "string" } })) },
        { "name": "fail", "description": "Fails", "inputSchema": object(json!({})) },
        { "name": "greet", "description": "Greets with the configured GREETING; counts its calls", "inputSchema": object(json!({})) },
    ]}))
}

#[unsafe(no_mangle)]
pub extern "C" fn call() -> i32 {
    let Ok(request) = serde_json::from_slice::<Value>(&input()) else { return fail("the input is not JSON") };
    let params = &request["params"];
    match params["name"].as_str() {
        Some("echo") => output(&text(params["arguments"]["text"].as_str().unwrap_or_default())),
        Some("fail") => fail("the fail tool failed, as asked"),
        Some("greet") => {
            // SAFETY: as above.
            let greeting = unsafe { config_get(to_kernel(b"GREETING")) };
            let greeting = String::from_utf8(from_kernel(greeting)).unwrap_or_default();
            let counter = to_kernel(b"calls");
            // SAFETY: as above.
            let previous = unsafe { var_get(counter) };
            let calls = String::from_utf8(from_kernel(previous)).ok().and_then(|n| n.parse::<u64>().ok()).unwrap_or(0) + 1;
            // SAFETY: as above.
            unsafe { var_set(counter, to_kernel(calls.to_string().as_bytes())) };
            output(&text(&format!("{greeting} (call {calls})")))
        }
        Some(other) => output(&json!({ "content": [{ "type": "text", "text": format!("no tool {other}") }], "isError": true })),
        None => fail("no tool named"),
    }
}
