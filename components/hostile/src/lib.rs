//! `hostile`: a router that misbehaves in every way a guest can, to prove
//! the host's isolation. Each tool attacks one limit; the host must answer
//! with its documented error, stay within its memory, and keep serving.
//!
//! | tool | attack |
//! | --- | --- |
//! | `spin` | loops forever (CPU deadline) |
//! | `allocate` | allocates until memory runs out (memory cap) |
//! | `recurse` | recurses without end (stack overflow trap) |
//! | `panic` | panics |
//! | `print` | writes `mib` MiB (default 100) to stdout (output rate limit) |
//! | `huge-result` | returns `mib` MiB (default 100) of text (result size cap) |
//! | `read-file` | reads `path` (default `/etc/passwd`) |
//! | `list-dir` | lists `path` (default `/`) |
//! | `write-file` | writes `path` |
//! | `symlink` | makes a symlink at `link` to `target` (default `/etc/passwd`) |
//! | `env` | reads the variable `name` (default `HOME`), or lists all |
//! | `connect` | opens a TCP connection to `addr` (default `127.0.0.1:22`) |
//! | `counter` | counts calls in this instance (proves the session goes on) |
//! | `ask-forever` | asks the client 10,000 questions (question cap) |
//! | `log-forever` | sends log messages until stopped (deadline, slow client) |

wit_bindgen::generate!({
    path: "../../wit",
    world: "mcp-wit:extension/talking-router",
});

use std::sync::atomic::{AtomicU64, Ordering};

use exports::wasix::mcp::router::{
    CallToolResult, CompletionError, CompletionRequest, CompletionResponse, Content, GetPromptResult, Guest,
    McpResource, Prompt, PromptError, ReadResourceResult, ResourceError, ServerCapabilities, TextContent, Tool,
    ToolError, ToolsCapability, Value,
};

const TOOLS: &[(&str, &str)] = &[
    ("spin", "Loops forever"),
    ("allocate", "Allocates memory until it runs out"),
    ("recurse", "Recurses without end"),
    ("panic", "Panics"),
    ("print", "Writes `mib` MiB to stdout"),
    ("huge-result", "Returns `mib` MiB of text"),
    ("read-file", "Reads the file at `path`"),
    ("list-dir", "Lists the directory at `path`"),
    ("write-file", "Writes `text` to the file at `path`"),
    ("symlink", "Makes a symlink at `link` pointing to `target`"),
    ("env", "Reads the environment variable `name`, or lists all"),
    ("leak", "Prints the variable `name` to stderr, then panics with it in the message"),
    ("connect", "Opens a TCP connection to `addr`"),
    ("http-get", "Sends an HTTP GET to `url` (wasi:http) and returns the status and body"),
    ("sleep", "Sleeps `secs` seconds (a host call, not a loop)"),
    ("counter", "Counts calls in this instance"),
    ("ask-forever", "Asks the client 10,000 questions, one after the other"),
    ("log-forever", "Sends log messages until it is stopped"),
];

static CALLS: AtomicU64 = AtomicU64::new(0);

struct Hostile;

fn text(text: String) -> CallToolResult {
    CallToolResult {
        content: vec![Content::Text(TextContent { text, annotations: None })],
        progress: None,
        meta: None,
        is_error: None,
    }
}

/// A failed attempt, reported as the tool's own error (the host shows it as
/// an `isError` result): what the sandbox refused, in WASI's words.
fn refused(what: &str, error: impl std::fmt::Display) -> ToolError {
    ToolError::ExecutionError(format!("{what}: {error}"))
}

#[inline(never)]
#[allow(unconditional_recursion)]
fn recurse(depth: u64, acc: &mut [u64; 64]) -> u64 {
    acc[(depth % 64) as usize] = depth;
    // `black_box` keeps the compiler from turning this into a loop.
    recurse(std::hint::black_box(depth + 1), acc) + acc[0]
}

impl Guest for Hostile {
    fn name() -> String {
        "hostile".into()
    }

    fn instructions() -> String {
        "Every tool attacks one of the host's limits.".into()
    }

    fn capabilities() -> ServerCapabilities {
        ServerCapabilities {
            tools: Some(ToolsCapability { list_changed: None }),
            prompts: None,
            resources: None,
            completions: None,
        }
    }

    fn list_tools() -> Vec<Tool> {
        TOOLS
            .iter()
            .map(|(name, description)| Tool {
                name: (*name).into(),
                description: (*description).into(),
                input_schema: Value { json: r#"{"type":"object"}"#.into() },
                output_schema: None,
                annotations: None,
                meta: None,
            })
            .collect()
    }

    fn call_tool(tool_name: String, arguments: Value) -> Result<CallToolResult, ToolError> {
        let args: serde_json::Value =
            serde_json::from_str(&arguments.json).map_err(|e| ToolError::InvalidParameters(e.to_string()))?;
        let str_arg = |key: &str, default: &str| args.get(key).and_then(|v| v.as_str()).unwrap_or(default).to_string();
        let mib = args.get("mib").and_then(|v| v.as_u64()).unwrap_or(100) as usize;
        match tool_name.as_str() {
            "ask-forever" => {
                let question = r#"{"message":"Again?","requestedSchema":{"type":"object","properties":{}}}"#;
                let mut answered = 0;
                for _ in 0..10_000 {
                    match mcp_wit::extension::client::create_elicitation(question) {
                        Ok(_) => answered += 1,
                        Err(error) => return Ok(text(format!("answered {answered}; then: {error:?}"))),
                    }
                }
                Ok(text(format!("answered {answered}")))
            }
            "log-forever" => loop {
                let level = mcp_wit::extension::client::LogLevel::Info;
                mcp_wit::extension::client::notify_logging_message(level, None, r#""again""#);
            },
            "spin" => {
                let mut x = 0u64;
                loop {
                    x = std::hint::black_box(x.wrapping_add(1));
                }
            }
            "allocate" => {
                let mut hoard: Vec<Vec<u8>> = Vec::new();
                loop {
                    hoard.push(vec![1u8; 1 << 20]);
                    std::hint::black_box(&hoard);
                }
            }
            "recurse" => Ok(text(recurse(0, &mut [0; 64]).to_string())),
            "panic" => panic!("hostile guest panics on purpose"),
            "print" => {
                use std::io::Write;
                let line = [b'x'; 1023];
                let mut out = std::io::stdout().lock();
                for _ in 0..mib * 1024 {
                    let _ = out.write_all(&line);
                    let _ = out.write_all(b"\n");
                }
                let _ = out.flush();
                Ok(text(format!("printed {mib} MiB")))
            }
            "huge-result" => Ok(text("y".repeat(mib << 20))),
            "read-file" => {
                let path = str_arg("path", "/etc/passwd");
                std::fs::read_to_string(&path).map(text).map_err(|e| refused(&format!("reading {path}"), e))
            }
            "list-dir" => {
                let path = str_arg("path", "/");
                let entries = std::fs::read_dir(&path).map_err(|e| refused(&format!("listing {path}"), e))?;
                let names: Vec<String> =
                    entries.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
                Ok(text(names.join("\n")))
            }
            "write-file" => {
                let path = str_arg("path", "/tmp/hostile.txt");
                std::fs::write(&path, str_arg("text", "written by a guest"))
                    .map(|()| text(format!("wrote {path}")))
                    .map_err(|e| refused(&format!("writing {path}"), e))
            }
            "symlink" => {
                let (target, link) = (str_arg("target", "/etc/passwd"), str_arg("link", "/data/link"));
                #[allow(deprecated, reason = "the stable way to make a symlink on WASI")]
                std::fs::soft_link(&target, &link)
                    .map(|()| text(format!("linked {link} to {target}")))
                    .map_err(|e| refused(&format!("linking {link} to {target}"), e))
            }
            "env" => match args.get("name").and_then(|v| v.as_str()) {
                Some(name) => std::env::var(name).map(text).map_err(|e| refused(&format!("reading ${name}"), e)),
                None => Ok(text(std::env::vars().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("\n"))),
            },
            "leak" => {
                let value = std::env::var(str_arg("name", "TOKEN")).unwrap_or_default();
                eprintln!("the token is {value}");
                panic!("leaking {value}")
            }
            "connect" => {
                let addr = str_arg("addr", "127.0.0.1:22");
                std::net::TcpStream::connect(&addr)
                    .map(|_| text(format!("connected to {addr}")))
                    .map_err(|e| refused(&format!("connecting to {addr}"), e))
            }
            "http-get" => {
                let url = str_arg("url", "http://example.com/");
                http_get(&url).map(text).map_err(|e| refused(&format!("GET {url}"), e))
            }
            "sleep" => {
                let secs = args.get("secs").and_then(|v| v.as_f64()).unwrap_or(3600.0);
                std::thread::sleep(std::time::Duration::from_secs_f64(secs));
                Ok(text(format!("slept {secs}s")))
            }
            "counter" => Ok(text((CALLS.fetch_add(1, Ordering::Relaxed) + 1).to_string())),
            _ => Err(ToolError::NotFound(tool_name)),
        }
    }

    fn list_resources() -> Vec<McpResource> {
        Vec::new()
    }

    fn read_resource(uri: String) -> Result<ReadResourceResult, ResourceError> {
        Err(ResourceError::NotFound(uri))
    }

    fn list_prompts() -> Vec<Prompt> {
        Vec::new()
    }

    fn get_prompt(prompt_name: String) -> Result<GetPromptResult, PromptError> {
        Err(PromptError::NotFound(prompt_name))
    }

    fn complete(_request: CompletionRequest) -> Result<CompletionResponse, CompletionError> {
        Err(CompletionError::NotFound("no completions".into()))
    }
}

export!(Hostile);

/// A GET through `wasi:http/outgoing-handler`; the host's error code comes
/// back as text (e.g. `HttpRequestDenied` for a host not allowed).
fn http_get(url: &str) -> Result<String, String> {
    use wasip2::http::outgoing_handler;
    use wasip2::http::types::{Fields, OutgoingRequest, Scheme};

    let (scheme, rest) = url.split_once("://").ok_or("not an absolute URL")?;
    let (authority, path) = rest.find('/').map_or((rest, "/"), |i| rest.split_at(i));
    let request = OutgoingRequest::new(Fields::new());
    let scheme = match scheme {
        "http" => Scheme::Http,
        "https" => Scheme::Https,
        other => Scheme::Other(other.to_string()),
    };
    request.set_scheme(Some(&scheme)).map_err(|()| "bad scheme")?;
    request.set_authority(Some(authority)).map_err(|()| "bad authority")?;
    request.set_path_with_query(Some(path)).map_err(|()| "bad path")?;
    let pending = outgoing_handler::handle(request, None).map_err(|e| format!("{e:?}"))?;
    pending.subscribe().block();
    let response = match pending.get() {
        Some(Ok(Ok(response))) => response,
        Some(Ok(Err(code))) => return Err(format!("{code:?}")),
        Some(Err(())) | None => return Err("no response".into()),
    };
    let status = response.status();
    let body = response.consume().map_err(|()| "no body")?;
    let stream = body.stream().map_err(|()| "no body stream")?;
    let mut bytes = Vec::new();
    while let Ok(chunk) = stream.blocking_read(64 * 1024) {
        bytes.extend_from_slice(&chunk);
    }
    Ok(format!("{status} {}", String::from_utf8_lossy(&bytes)))
}
