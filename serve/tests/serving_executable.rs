//! `mcp-wit-serve` against `mcp-wit serve`: what it serves it answers
//! alike, and what it does not serve it hands over whole.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use mcp_wit_tests::fixture;

const SERVE_ONLY: &str = env!("CARGO_BIN_EXE_mcp-wit-serve");

/// The `mcp-wit` beside `mcp-wit-serve`, which it hands over to.
fn mcp_wit() -> PathBuf {
    let path = PathBuf::from(SERVE_ONLY).with_file_name(format!("mcp-wit{}", std::env::consts::EXE_SUFFIX));
    assert!(path.is_file(), "no {}: build it with `cargo build -p mcp-wit-cli`", path.display());
    path
}

/// `program args`, given `input` on stdin then its end.
fn run(program: &std::path::Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("it starts");
    // What hands over ends before it reads: its input may find no reader.
    match child.stdin.take().unwrap().write_all(input.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.unwrap(),
    }
    child.wait_with_output().unwrap()
}

const SESSION: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#,
    "\n",
);

#[test]
fn a_stdio_session_is_answered_as_mcp_wit_serve_answers_it() {
    let cache = tempfile::tempdir().unwrap();
    let echo = fixture("echo");
    let args = [echo.to_str().unwrap(), "--cache-dir", cache.path().to_str().unwrap()];
    let full = run(&mcp_wit(), &[&["serve"], &args[..]].concat(), SESSION);
    let alone = run(SERVE_ONLY.as_ref(), &args, SESSION);
    assert!(full.status.success(), "{}", String::from_utf8_lossy(&full.stderr));
    assert!(alone.status.success(), "{}", String::from_utf8_lossy(&alone.stderr));
    let answers = String::from_utf8(alone.stdout).unwrap();
    assert_eq!(answers.lines().count(), 4, "{answers}");
    assert!(answers.contains(r#""text":"hi""#), "{answers}");
    assert_eq!(answers, String::from_utf8(full.stdout).unwrap());
}

#[test]
fn help_is_mcp_wit_serves() {
    let alone = run(SERVE_ONLY.as_ref(), &["--help"], "");
    let full = run(&mcp_wit(), &["serve", "--help"], "");
    assert!(alone.status.success(), "{}", String::from_utf8_lossy(&alone.stderr));
    assert!(String::from_utf8_lossy(&alone.stdout).contains("Usage: mcp-wit serve"));
    assert_eq!(alone.stdout, full.stdout);
}

#[test]
fn a_mistake_is_told_as_mcp_wit_serve_tells_it() {
    let alone = run(SERVE_ONLY.as_ref(), &["--max-memory", "lots"], "");
    let full = run(&mcp_wit(), &["serve", "--max-memory", "lots"], "");
    assert_eq!(alone.status.code(), full.status.code());
    assert!(!alone.status.success());
    assert_eq!(alone.stderr, full.stderr);
}

#[test]
fn http_is_handed_to_mcp_wit_serve() {
    let mut child = Command::new(SERVE_ONLY)
        .args([fixture("echo").to_str().unwrap(), "--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("it starts");
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = Vec::new();
    let listening = stderr.lines().map_while(Result::ok).find(|line| {
        seen.push(line.clone());
        line.contains("listening on http://127.0.0.1:")
    });
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(listening.is_some(), "no listener: {}", seen.join("\n"));
}

/// A copy of `mcp-wit-serve` in a folder of its own, beside an `mcp-wit`
/// that only says it was handed `serve`'s line (and exits 3): which lines
/// this executable serves itself, and which it hands over.
#[cfg(unix)]
struct BesideAStandIn {
    dir: tempfile::TempDir,
}

#[cfg(unix)]
impl BesideAStandIn {
    fn new() -> Self {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(SERVE_ONLY, dir.path().join("mcp-wit-serve")).unwrap();
        let stand_in = dir.path().join("mcp-wit");
        std::fs::write(&stand_in, "#!/bin/sh\necho \"handed over: $*\" >&2\nexit 3\n").unwrap();
        std::fs::set_permissions(&stand_in, std::fs::Permissions::from_mode(0o755)).unwrap();
        BesideAStandIn { dir }
    }

    fn run(&self, args: &[&str]) -> Output {
        run(&self.dir.path().join("mcp-wit-serve"), args, SESSION)
    }
}

#[cfg(unix)]
#[test]
fn a_stdio_line_is_served_here_and_the_rest_handed_over_with_its_arguments() {
    let beside = BesideAStandIn::new();
    let cache = tempfile::tempdir().unwrap();
    let echo = fixture("echo");
    let (echo, cache) = (echo.to_str().unwrap(), cache.path().to_str().unwrap());
    // The cache filled by `mcp-wit serve` (a build without the compiler
    // serves from it; `cargo test -p mcp-wit-serve` alone makes that build).
    let filled = run(&mcp_wit(), &["serve", echo, "--cache-dir", cache], "");
    assert!(filled.status.success(), "{}", String::from_utf8_lossy(&filled.stderr));
    // Served here: the stand-in is never run.
    let served = beside.run(&[echo, "--cache-dir", cache, "--timeout", "5s"]);
    assert!(served.status.success(), "{}", String::from_utf8_lossy(&served.stderr));
    assert_eq!(String::from_utf8(served.stdout).unwrap().lines().count(), 4);
    for line in [
        vec![echo, "--http", "127.0.0.1:0"],
        vec![echo, "--metrics", "127.0.0.1:0"],
        vec![echo, "--watch"],
        vec!["oci://127.0.0.1:5000/tools/echo:1"],
        vec![echo, "--otlp-endpoint", "http://127.0.0.1:4318"],
        vec!["--help"],
        vec![echo, "--max-memory", "lots"],
    ] {
        let handed = beside.run(&line);
        assert_eq!(handed.status.code(), Some(3), "{line:?}: {}", String::from_utf8_lossy(&handed.stderr));
        let said = String::from_utf8(handed.stderr).unwrap();
        assert!(said.contains(&format!("handed over: serve {}", line.join(" "))), "{line:?}: {said}");
        assert!(handed.stdout.is_empty(), "{line:?}: nothing is answered before the hand-over");
    }
}
