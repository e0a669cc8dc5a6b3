//! `hostile-plugin`: an XTP servlet (raw Extism ABI) whose tools misbehave
//! on purpose, to show the host contains them. `ok` answers normally.

use raw_abi::{env, input, output, to_kernel};
use serde_json::{Value, json};

fn text(text: &str) -> i32 {
    output(json!({ "content": [{ "type": "text", "text": text }] }).to_string().as_bytes())
}

#[unsafe(no_mangle)]
pub extern "C" fn describe() -> i32 {
    let tools: Vec<Value> = [
        "ok",
        "spin",
        "allocate",
        "kernel-hog",
        "lie",
        "out-of-bounds",
        "bad-json",
        "panic",
        "recurse",
        "env",
        "read-file",
        "bad-host-input",
        "sleep",
        "print",
        "huge-result",
    ]
    .iter()
    .map(|name| json!({ "name": name, "description": name, "inputSchema": { "type": "object" } }))
    .collect();
    output(json!({ "tools": tools }).to_string().as_bytes())
}

/// Recursion without end (the frame kept alive, so it cannot become a loop).
#[inline(never)]
fn recurse(depth: u64) -> u64 {
    let frame = std::hint::black_box([depth; 32]);
    if frame[0] == u64::MAX { 0 } else { recurse(depth + 1).wrapping_add(frame[31]) }
}

#[unsafe(no_mangle)]
pub extern "C" fn call() -> i32 {
    let request: Value = serde_json::from_slice(&input()).unwrap_or_default();
    let arguments = &request["params"]["arguments"];
    match request["params"]["name"].as_str().unwrap_or_default() {
        "ok" => text("ok"),
        "spin" => loop {
            std::hint::black_box(());
        },
        "allocate" => {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                hoard.push(vec![1; 1 << 20]);
                std::hint::black_box(&hoard);
            }
        }
        // Blocks of the kernel's memory until it says no (0).
        "kernel-hog" => {
            let mut total: u64 = 0;
            // SAFETY: as above.
            while unsafe { env::alloc(1 << 20) } != 0 {
                total += 1;
            }
            text(&format!("the kernel gave {total} MiB"))
        }
        // An output range far past the kernel's memory (ignored: no output).
        "lie" => {
            let block = to_kernel(b"{}");
            // SAFETY: as above.
            unsafe { env::output_set(block, 1 << 40) };
            0
        }
        // Loads and stores outside the kernel's memory, an error set there.
        "out-of-bounds" => {
            // SAFETY: as above.
            let read = unsafe {
                env::store_u64(u64::MAX - 4, 7);
                env::store_u64(1 << 40, 7);
                env::error_set(1 << 40);
                env::load_u64(0) + env::load_u64(1 << 40)
            };
            text(&format!("survived, read {read}"))
        }
        "bad-json" => output(b"{\"content\": [ not json"),
        "panic" => panic!("hostile plugin panics on purpose"),
        "recurse" => text(&recurse(0).to_string()),
        "env" => {
            let name = arguments["name"].as_str().unwrap_or("PATH");
            text(&std::env::var(name).unwrap_or_else(|_| format!("no ${name}")))
        }
        "read-file" => {
            let path = arguments["path"].as_str().unwrap_or("/etc/passwd");
            text(&match std::fs::read_to_string(path) {
                Ok(content) => content,
                Err(e) => format!("reading {path}: {e}"),
            })
        }
        // A host function given text that is not JSON, or a handle that is
        // no block: the call stops with the host's error.
        "bad-host-input" => match arguments["what"].as_str() {
            Some("text") => {
                // SAFETY: as above.
                unsafe { raw_abi::user::notify_progress(to_kernel(b"50 percent")) };
                text("the host took text")
            }
            _ => {
                // SAFETY: as above.
                let answer = unsafe { raw_abi::user::create_message(0xdead_beef) };
                text(&format!("the host answered {answer}"))
            }
        },
        // `mib` MiB to stdout, line by line.
        "print" => {
            let mib = arguments["mib"].as_u64().unwrap_or(100);
            let line = "x".repeat(1023);
            for _ in 0..mib * 1024 {
                println!("{line}");
            }
            text(&format!("printed {mib} MiB"))
        }
        // A text result of `mib` MiB.
        "huge-result" => text(&"x".repeat((arguments["mib"].as_u64().unwrap_or(100) as usize) << 20)),
        // `poll_oneoff` on a clock, inside the host.
        "sleep" => {
            let secs = arguments["secs"].as_f64().unwrap_or(3600.0);
            std::thread::sleep(std::time::Duration::from_secs_f64(secs));
            text(&format!("slept {secs}s"))
        }
        other => text(&format!("no tool {other}")),
    }
}
