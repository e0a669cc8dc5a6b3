//! `servlet`: an XTP servlet (`describe` and `call`, see
//! `xtp-plugin-schema-v0.yaml`) written against the raw Extism ABI, with no
//! PDK: its input and output move through `extism:host/env` byte by byte.
//!
//! Tools: `echo` (its `text` back), `fail` (returns non-zero with an error
//! message), `greet` (a config value, `GREETING`, and a variable that counts
//! calls across them).

use raw_abi::{env, fail, from_kernel, input, to_kernel};
use serde_json::{Value, json};

fn output(value: &Value) -> i32 {
    raw_abi::output(value.to_string().as_bytes())
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
            let greeting = unsafe { env::config_get(to_kernel(b"GREETING")) };
            let greeting = String::from_utf8(from_kernel(greeting)).unwrap_or_default();
            let counter = to_kernel(b"calls");
            // SAFETY: as above.
            let previous = unsafe { env::var_get(counter) };
            let calls =
                String::from_utf8(from_kernel(previous)).ok().and_then(|n| n.parse::<u64>().ok()).unwrap_or(0) + 1;
            // SAFETY: as above.
            unsafe { env::var_set(counter, to_kernel(calls.to_string().as_bytes())) };
            output(&text(&format!("{greeting} (call {calls})")))
        }
        Some(other) => {
            output(&json!({ "content": [{ "type": "text", "text": format!("no tool {other}") }], "isError": true }))
        }
        None => fail("no tool named"),
    }
}
