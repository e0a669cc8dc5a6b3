//! Fuzzes the JSON-RPC entry point, [`Session::handle`]: any bytes in, an
//! answer or silence out, never a panic.
//!
//! An input is a session: it is split on `\n` into messages (blank lines
//! skipped, as stdio does), handed in order to a [`Session`] of its own (no
//! state carries over from one input to the next, so a crash replays from its
//! input alone) serving the `everything` fixture, which covers the whole
//! WIT → MCP mapping. The compiled fixture is shared by all inputs. An
//! input that never mentions `initialize` runs on a session that is already
//! initialized (as stateless HTTP does), so that single requests reach the
//! methods behind the lifecycle; the others go through `initialize` as a
//! client would. The input's length picks the rest of the set-up, so that each
//! input replays the same way: even lengths serve the fixture alone, odd ones
//! serve it twice, under the prefixes `a` and `b`, paged 4 items at a time.
//!
//! Every answer is checked, not just survived:
//! - each output message is one line of JSON: a JSON-RPC 2.0 notification
//!   (`notifications/…`) or response, with no field the protocol does not
//!   define; a response has exactly one of `result` (an object) and `error`
//!   (a known code and a message);
//! - a message gets at most one response, sent last; a request (string or
//!   integer id) gets exactly one, with its id echoed byte for byte;
//!   notifications and responses from the client get silence;
//! - broken JSON (bytes that are not UTF-8 included) gets -32700 without an
//!   id, JSON that is not an object -32600;
//! - after the input, the session still serves: a final call of the `counter`
//!   tool succeeds (a ping, if the input left the session uninitialized);
//! - the `requestState` decoder of 2026-07-28 rounds, run on each request's
//!   params, never panics, and never accepts a state it did not sign (a
//!   fuzzer cannot forge HMAC-SHA256: every state in an input is refused).
//!
//! Run it with `bash .ci/fuzz` (stable Rust: instruments only the host crates
//! and this target, reusing the dependencies the root workspace built;
//! `FUZZ_SECONDS=600 bash .ci/fuzz` for longer), or, with cargo-fuzz and a
//! nightly toolchain, `cargo +nightly fuzz run jsonrpc` from the repository
//! root with `MCP_WIT_FUZZ_EVERYTHING` set (see [`EVERYTHING`]; it builds
//! everything instrumented, in `fuzz/target/`, and adds what it finds to
//! `fuzz/corpus/jsonrpc/`). A crash leaves its input in
//! `target/fuzz/artifacts/` (resp. `fuzz/artifacts/jsonrpc/`); replay it with
//! `target/debug/jsonrpc FILE` (resp. `cargo +nightly fuzz run jsonrpc FILE`).

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mcp_wit::Routers;
use mcp_wit::runtime::engine::{EngineOptions, build_engine_with};
use mcp_wit::sandbox::guest_output::OutputTarget;
use mcp_wit::{LoadedRouter, Method, ProtocolVersion, SandboxPolicy, Session, SessionOptions, StateKey};
use mcp_wit_protocol::auth::Caller;
use mcp_wit_protocol::jsonrpc::code;
use mcp_wit_protocol::rounds::Round;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

/// The fixture. `.ci/fuzz` passes its path, which the build script of the
/// root workspace's `mcp-wit-tests` decides (and builds the fixture at):
/// `cargo run -q -p mcp-wit-tests --no-default-features --bin fixture-path -- everything`.
const EVERYTHING: &[u8] = include_bytes!(env!(
    "MCP_WIT_FUZZ_EVERYTHING",
    "set MCP_WIT_FUZZ_EVERYTHING to the path of everything.wasm: \
     `cargo run -q -p mcp-wit-tests --no-default-features --bin fixture-path -- everything` prints it"
));

/// A small output cap, so that large echoes reach the over-the-cap path.
const MAX_OUTPUT: usize = 16 << 10;

/// Every code the host answers with.
const CODES: [i32; 7] = [
    code::PARSE_ERROR,
    code::INVALID_REQUEST,
    code::METHOD_NOT_FOUND,
    code::INVALID_PARAMS,
    code::INTERNAL_ERROR,
    code::RESOURCE_NOT_FOUND,
    code::UNSUPPORTED_PROTOCOL_VERSION,
];

/// The `_meta` key whose presence makes a request modern (2026-07-28).
const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The compiled fixture, once per process (compiling it is the slow part).
struct Fixture {
    single: Routers,
    pair: Routers,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        // A few pool slots are plenty: one session lives at a time.
        let options = EngineOptions { pool_instances: 8, ..EngineOptions::default() };
        let engine = build_engine_with(&options).expect("the engine starts");
        let policy = SandboxPolicy::builder("everything").guest_output(OutputTarget::Discard).build();
        let everything = LoadedRouter::from_bytes(&engine, EVERYTHING, policy).expect("the fixture loads");
        let pair = Routers::new(vec![("a".into(), everything.clone()), ("b".into(), everything.clone())])
            .expect("two prefixes mount");
        Fixture { single: Routers::from(everything), pair }
    })
}

fuzz_target!(init: { fixture(); }, |data: &[u8]| run(data));

fn run(data: &[u8]) {
    let fixture = fixture();
    let pair = data.len() % 2 == 1;
    let options = SessionOptions { page_size: pair.then_some(4), max_output: MAX_OUTPUT, ..SessionOptions::default() };
    let routers = if pair { fixture.pair.clone() } else { fixture.single.clone() };
    let mut session = Session::new(routers, options);
    let has = |needle: &[u8]| data.windows(needle.len()).any(|w| w == needle);
    // Inputs that `initialize` or make modern claims choose their own era.
    if !has(b"initialize") && !has(PROTOCOL_VERSION_KEY.as_bytes()) {
        let version = ProtocolVersion::LEGACY[(data.len() / 2) % ProtocolVersion::LEGACY.len()];
        session.assume_initialized(version).expect("the fixture reports its capabilities");
    }
    let mut out: Vec<Vec<u8>> = Vec::new();
    for line in data.split(|&b| b == b'\n') {
        let message = line.trim_ascii();
        if message.is_empty() {
            continue;
        }
        out.clear();
        session.handle(message, &mut out);
        check(message, &out);
        check_request_state(message);
    }
    // Whatever came before (traps, results over the cap, broken messages),
    // the session still serves: the guest answers a call, or, before
    // `initialize`, the host a ping.
    let modern_probe = format!(
        r#"{{"jsonrpc":"2.0","id":"probe","method":"tools/call","params":{{"name":"{}","_meta":{{"{PROTOCOL_VERSION_KEY}":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#,
        if pair { "b_counter" } else { "counter" }
    );
    let probe: &[u8] = match (session.protocol_version(), pair) {
        (Some(v), _) if v.is_modern() => modern_probe.as_bytes(),
        (None, _) => br#"{"jsonrpc":"2.0","id":"probe","method":"ping"}"#,
        (Some(_), false) => br#"{"jsonrpc":"2.0","id":"probe","method":"tools/call","params":{"name":"counter"}}"#,
        (Some(_), true) => br#"{"jsonrpc":"2.0","id":"probe","method":"tools/call","params":{"name":"b_counter"}}"#,
    };
    out.clear();
    session.handle(probe, &mut out);
    check(probe, &out);
    if !out[0].starts_with(br#"{"jsonrpc":"2.0","id":"probe","result":{"#)
        || out[0].windows(14).any(|w| w == br#""isError":true"#)
    {
        panic!("the session no longer serves: {}", String::from_utf8_lossy(&out[0]));
    }
}

// ---------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------

/// Keeps a present `null` as `Some("null")`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// An incoming message, as raw as it gets (fails on broken JSON, a
/// non-object and duplicate fields only).
#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    jsonrpc: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    method: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    params: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    error: Option<&'a RawValue>,
}

/// An outgoing message: only what JSON-RPC defines, each field once.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Outgoing<'a> {
    jsonrpc: String,
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(default)]
    method: Option<String>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default)]
    error: Option<ErrorObject<'a>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorObject<'a> {
    code: i64,
    // Read to check that it is there, and a string (it may be empty: a
    // guest's message is passed on as it is).
    #[allow(dead_code)]
    message: String,
    #[serde(borrow, default)]
    #[allow(dead_code)]
    data: Option<&'a RawValue>,
}

/// Whether a raw id is one MCP allows: a string or an integer.
fn valid_id(id: &RawValue) -> bool {
    let text = id.get();
    text.starts_with('"') || text.parse::<i64>().is_ok() || text.parse::<u64>().is_ok()
}

/// What the answer to one message must look like.
enum Expect<'a> {
    /// Exactly one response, to a request with this id.
    Response(&'a RawValue),
    /// Exactly one error response, with one of these codes and this id.
    Error(&'static [i32], Option<&'a RawValue>),
    /// Nothing at all.
    Silence,
    /// At most one response; if it has an id, the message's.
    Any,
}

fn check(message: &[u8], out: &[Vec<u8>]) {
    let fail = |why: &str| -> ! {
        let shown: Vec<_> = out.iter().map(|m| String::from_utf8_lossy(m).into_owned()).collect();
        panic!("{why}\n  message: {}\n  answer: {shown:#?}", String::from_utf8_lossy(message));
    };

    // 1. Each output on its own.
    let mut parsed = Vec::with_capacity(out.len());
    for (i, raw) in out.iter().enumerate() {
        if raw.contains(&b'\n') {
            fail("an output message contains a newline (it would break stdio framing)");
        }
        let m: Outgoing<'_> = match serde_json::from_slice(raw) {
            Ok(m) => m,
            Err(e) => fail(&format!("output {i} is not a JSON-RPC message: {e}")),
        };
        if m.jsonrpc != "2.0" {
            fail("`jsonrpc` is not \"2.0\"");
        }
        match &m.method {
            Some(method) => {
                if m.id.is_some() || m.result.is_some() || m.error.is_some() {
                    fail("the server sent a request, or a notification with response fields");
                }
                if !method.starts_with("notifications/") || !m.params.is_none_or(|p| p.get().starts_with('{')) {
                    fail("not a notification the server may send");
                }
                // A listen request is acknowledged, and answered only when it ends.
                if i + 1 == out.len() && method != "notifications/subscriptions/acknowledged" {
                    fail("a notification is sent after the response, or without one");
                }
            }
            None => {
                if i + 1 != out.len() {
                    fail("more than one response, or a notification after the response");
                }
                if m.params.is_some() {
                    fail("a response with `params`");
                }
                match (&m.result, &m.error) {
                    (Some(result), None) => {
                        if !result.get().starts_with('{') {
                            fail("a result that is not an object");
                        }
                    }
                    (None, Some(error)) => {
                        if !CODES.iter().any(|&c| i64::from(c) == error.code) {
                            fail("an error with an unknown code");
                        }
                    }
                    _ => fail("a response needs exactly one of `result` and `error`"),
                }
                if m.id.is_some_and(|id| !valid_id(id)) {
                    fail("a response id that is neither a string nor an integer");
                }
            }
        }
        parsed.push(m);
    }
    let response = parsed.last().filter(|m| m.method.is_none());

    // 2. The answer against the message.
    let first = message.iter().find(|b| !b.is_ascii_whitespace()).copied();
    // JSON is UTF-8 text; serde_json alone lets bad bytes inside strings pass.
    let syntax_ok =
        std::str::from_utf8(message).is_ok() && serde_json::from_slice::<serde::de::IgnoredAny>(message).is_ok();
    let incoming = if first == Some(b'{') { serde_json::from_slice::<Incoming<'_>>(message).ok() } else { None };
    let expect = if !syntax_ok {
        Expect::Error(&[code::PARSE_ERROR], None)
    } else if first != Some(b'{') {
        Expect::Error(&[code::INVALID_REQUEST], None)
    } else {
        match &incoming {
            // JSON, yet not readable as one object (duplicate fields).
            None => Expect::Error(&[code::INVALID_REQUEST], None),
            Some(m) => expect_for(m),
        }
    };
    match expect {
        Expect::Response(id) => {
            let Some(response) = response else { fail("a request got no response") };
            if response.id.map(RawValue::get) != Some(id.get()) {
                fail("the response does not carry the request's id, byte for byte");
            }
        }
        Expect::Error(codes, id) => {
            let Some(response) = response else { fail("no error response") };
            if out.len() != 1 {
                fail("expected exactly one message, an error response");
            }
            let code = response.error.as_ref().map_or(0, |e| e.code);
            if !codes.iter().any(|&c| i64::from(c) == code) {
                fail(&format!("expected an error response with one of the codes {codes:?}"));
            }
            if response.id.map(RawValue::get) != id.map(RawValue::get) {
                fail("the error response's id is wrong (the request's when valid, else none)");
            }
        }
        Expect::Silence => {
            if !out.is_empty() {
                fail("a notification or a response from the client was answered");
            }
        }
        Expect::Any => {}
    }
    if let Some(id) = response.and_then(|r| r.id)
        && incoming.as_ref().and_then(|m| m.id).map(RawValue::get) != Some(id.get())
    {
        fail("a response carries an id the message does not have");
    }
}

/// The answer a readable JSON object deserves (JSON-RPC 2.0, ids as MCP
/// restricts them).
fn expect_for<'a>(m: &Incoming<'a>) -> Expect<'a> {
    const INVALID: &[i32] = &[code::INVALID_REQUEST];
    // `null` reads as absent; strings spelled with escapes are left to the
    // general checks.
    let given = |field: Option<&'a RawValue>| field.filter(|raw| raw.get() != "null");
    let (jsonrpc, method, params) = (given(m.jsonrpc), given(m.method), given(m.params));
    let is_string = |raw: &RawValue| raw.get().starts_with('"');
    let escaped = |raw: &RawValue| raw.get().contains('\\');
    if jsonrpc.is_some_and(|v| !is_string(v)) || method.is_some_and(|v| !is_string(v)) {
        // Ill-typed envelope: the id is not read.
        return Expect::Error(INVALID, None);
    }
    if jsonrpc.is_some_and(escaped) || method.is_some_and(escaped) {
        return Expect::Any;
    }
    let id = m.id.filter(|id| valid_id(id));
    if jsonrpc.map(RawValue::get) != Some(r#""2.0""#) {
        return Expect::Error(INVALID, id);
    }
    if params.is_some_and(|p| !matches!(p.get().as_bytes()[0], b'{' | b'[')) {
        return Expect::Error(INVALID, id);
    }
    match (method, m.id) {
        (Some(method), Some(_)) => match id {
            None => Expect::Error(INVALID, None),
            // Acknowledged (or refused) now, answered when it ends.
            Some(_) if method.get() == r#""subscriptions/listen""# => Expect::Any,
            Some(id) => params.and_then(|p| expect_for_envelope(p, id)).unwrap_or(Expect::Response(id)),
        },
        (Some(_), None) => Expect::Silence,
        (None, Some(_)) if m.result.is_some() || m.error.is_some() => Expect::Silence,
        (None, _) => Expect::Error(INVALID, id),
    }
}

/// What a well-framed request with a modern claim deserves by its envelope
/// alone, when that decides: no capabilities → -32602; a version that is
/// not served → -32022 (with an otherwise valid envelope).
fn expect_for_envelope<'a>(params: &RawValue, id: &'a RawValue) -> Option<Expect<'a>> {
    // A key given twice is read by whichever parser's rule: left undecided.
    let repeated = |key: &str| params.get().matches(key).count() > 1;
    // So is a key spelled with escapes (the server looks for the plain one).
    if repeated(PROTOCOL_VERSION_KEY) || params.get().contains('\\') {
        return Some(Expect::Any);
    }
    if ["clientCapabilities", "clientInfo", "logLevel", "_meta"].iter().any(|k| repeated(k)) {
        return Some(Expect::Any);
    }
    let params: serde_json::Value = serde_json::from_str(params.get()).ok()?;
    let meta = params.get("_meta")?.as_object()?;
    let version = meta.get(PROTOCOL_VERSION_KEY)?;
    let capabilities = meta.get("io.modelcontextprotocol/clientCapabilities");
    if capabilities.is_none() {
        return Some(Expect::Error(&[code::INVALID_PARAMS], Some(id)));
    }
    let others_valid = capabilities.is_some_and(serde_json::Value::is_object)
        && meta.get("io.modelcontextprotocol/clientInfo").is_none()
        && meta.get("io.modelcontextprotocol/logLevel").is_none();
    match version.as_str() {
        None => Some(Expect::Error(&[code::INVALID_PARAMS], Some(id))),
        // -32600 when an earlier line made the connection a 2025 session.
        Some(v) if v != "2026-07-28" && others_valid => {
            Some(Expect::Error(&[code::UNSUPPORTED_PROTOCOL_VERSION, code::INVALID_REQUEST], Some(id)))
        }
        Some(_) => None,
    }
}

/// The `requestState` decoder on `message`'s params, for an anonymous and
/// an authenticated caller: an error or the answers, never a panic, and
/// never a state this process did not sign.
fn check_request_state(message: &[u8]) {
    static KEY: OnceLock<StateKey> = OnceLock::new();
    static CALLER: OnceLock<Caller> = OnceLock::new();
    let Ok(mcp_wit_protocol::jsonrpc::Incoming::Request { params, .. }) = mcp_wit_protocol::jsonrpc::parse(message)
    else {
        return;
    };
    let carries_state = params.is_some_and(|p| {
        serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(p.get())
            .is_ok_and(|object| object.get("requestState").is_some_and(|state| !state.is_null()))
    });
    let caller = CALLER.get_or_init(|| Caller::new("https://issuer.fuzz", "fuzz", None, ["scope".to_string()]));
    for caller in [None, Some(caller)] {
        let read = Round::read(KEY.get_or_init(StateKey::random), Method::CallTool, params, caller);
        if carries_state && read.is_ok() {
            panic!("a requestState the server never signed was accepted: {}", String::from_utf8_lossy(message));
        }
    }
}
