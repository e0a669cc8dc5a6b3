//! The errors a new user met first, each saying once what went wrong and
//! what to do: a memory cap below what a component starts with, a missing
//! file, a router built for the wrong target, commands run without a
//! component, `build` without a project, mistakes in `mcp-wit.toml`, and a guest
//! that panics.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use mcp_wit_tests::support;
use serde_json::json;
use support::RawServer;

/// Runs `mcp-wit ARGS` with nothing on stdin.
fn run(args: &[&str]) -> Output {
    Command::new(support::binary()).args(args).stdin(Stdio::null()).output().expect("mcp-wit runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The one line that begins with `error: `.
fn error_line(output: &Output) -> String {
    assert!(!output.status.success(), "expected a failure: {output:?}");
    let stderr = stderr(output);
    let errors: Vec<&str> = stderr.lines().filter(|line| line.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "one error line: {stderr}");
    errors[0].to_string()
}

#[test]
fn a_memory_cap_below_what_the_component_starts_with_names_the_flag_and_a_size_that_fits() {
    let echo = support::fixture_arg("echo");
    let error = error_line(&run(&["serve", &echo, "--max-memory", "1MiB"]));
    // The echo router's memory starts at 17 pages (1,088 KiB).
    assert!(
        error.ends_with(
            "the component declares a memory of 1088KiB to start with, more than the memory cap of 1MiB; raise \
             the cap (--max-memory, `max-memory` in mcp-wit.toml, or a policy file's memory limit) to at least 2MiB"
        ),
        "{error}"
    );
    assert!(!error.contains("0x") && !error.contains("pooling"), "no allocator internals: {error}");
}

#[test]
fn a_missing_file_says_its_cause_once_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.wasm");
    let missing = missing.to_str().unwrap();
    for args in [vec!["serve", missing], vec!["inspect", missing], vec!["call", missing, "echo"]] {
        let error = error_line(&run(&args));
        assert!(error.contains(&format!("cannot read {missing}")), "{args:?}: {error}");
        assert_eq!(error.matches("No such file or directory").count(), 1, "{args:?}: {error}");
    }
}

/// A core module exporting one function of the contract, as a router
/// compiled for `wasm32-wasip1` does (with twenty more).
fn wasip1_router() -> Vec<u8> {
    let name = b"wasix:mcp/router@25.3.26#name";
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.extend_from_slice(&[0x01, 0x04, 0x01, 0x60, 0x00, 0x00]); // type 0: () -> ()
    wasm.extend_from_slice(&[0x03, 0x02, 0x01, 0x00]); // function 0: type 0
    let mut export = vec![0x01, name.len() as u8];
    export.extend_from_slice(name);
    export.extend_from_slice(&[0x00, 0x00]); // function 0
    wasm.push(0x07);
    wasm.push(export.len() as u8);
    wasm.extend_from_slice(&export);
    wasm.extend_from_slice(&[0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b]); // an empty body
    wasm
}

#[test]
fn a_router_built_for_wasip1_is_told_to_rebuild_for_wasip2() {
    let dir = tempfile::tempdir().unwrap();
    let router = dir.path().join("router.wasm");
    std::fs::write(&router, wasip1_router()).unwrap();
    let error = error_line(&run(&["inspect", router.to_str().unwrap()]));
    assert!(error.contains("this is a router built for `wasm32-wasip1`"), "{error}");
    assert!(error.contains("rebuild it for `wasm32-wasip2`"), "{error}");
    assert!(!error.contains("#name"), "no list of its exports: {error}");
}

#[test]
fn inspect_call_and_wrap_use_the_demo_router_without_a_component() {
    let inspected = run(&["inspect"]);
    assert!(inspected.status.success(), "{}", stderr(&inspected));
    let table = String::from_utf8(inspected.stdout).unwrap();
    assert!(table.contains("name          hello"), "{table}");

    let called = run(&["call", "hello", "--args", r#"{"name":"Ada"}"#]);
    assert!(called.status.success(), "{}", stderr(&called));
    let result: serde_json::Value = serde_json::from_slice(&called.stdout).unwrap();
    assert!(result["content"][0]["text"].as_str().is_some_and(|text| text.contains("Ada")), "{result}");

    // A component without its tool is a mistake, not a tool of the demo.
    let echo = support::fixture_arg("echo");
    let error = error_line(&run(&["call", &echo]));
    assert!(
        error.contains(&format!("name the tool to call after the component: `mcp-wit call {echo} TOOL`")),
        "{error}"
    );

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("server.wasm");
    let wrapped = run(&["wrap", "-o", out.to_str().unwrap()]);
    assert!(wrapped.status.success(), "{}", stderr(&wrapped));
    assert!(String::from_utf8_lossy(&wrapped.stdout).contains("the built-in demo router (`hello`)"));
    assert!(std::fs::metadata(&out).unwrap().len() > 0);
}

/// `mcp-wit serve -f FILE` with `text` as the file.
fn serve_file(text: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mcp-wit.toml");
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap().to_string();
    (error_line(&run(&["serve", "-f", &path])), path)
}

#[test]
fn config_file_mistakes_are_located_and_named_as_the_file_names_them() {
    let (error, path) = serve_file("# a comment\n\n[http]\nlisten = \"127.0.0.1:0\"\nbogus = 1\n");
    assert!(error.contains(&format!("{path}, line 5: `[http] bogus`: unknown field `bogus`")), "{error}");

    let (error, path) = serve_file("\n\n[http]\nmax-sessions = \"many\"\n");
    assert!(error.contains(&format!("{path}, line 4: `[http] max-sessions`: invalid type")), "{error}");

    let (error, path) = serve_file("guest-output = \"discard\"\ntimeout = 5\n");
    assert!(error.contains(&format!("{path}, line 2: `timeout`: `5` has no unit")), "{error}");

    let (error, path) = serve_file("[http]\nlisten = \"nope\"\n");
    assert!(
        error.contains(&format!("{path}, line 2: `[http] listen = \"nope\"`: expected PORT or HOST:PORT")),
        "{error}"
    );
    assert!(!error.contains("--http"), "the file's key, not the flag: {error}");

    let echo = support::fixture_arg("echo");
    let (error, _) = serve_file(&format!("[[component]]\npath = {echo:?}\n\n[[component]]\npath = {echo:?}\n"));
    assert!(error.contains("would both be served under the prefix `echo`"), "{error}");
    assert!(error.contains("add `name = \"PREFIX\"` to [[component]] #2"), "the file's key, not --name: {error}");

    let (error, path) = serve_file("");
    assert!(error.contains(&format!("{path} is empty: name what to serve")), "{error}");
}

/// A guest's panic reaches its client as what failed, in the guest's
/// words; where it trapped (the function, the wasm instruction) stays in
/// the server's log.
#[tokio::test]
async fn a_guest_panic_reaches_the_client_in_words_and_the_log_in_detail() {
    let everything = support::fixture_arg("everything");
    let mut server = RawServer::initialized(&["serve", &everything], "2025-11-25").await;
    let answer = server.call(1, "panic", json!({})).await;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert_eq!(message, "the router `everything` failed: deliberate panic in the panic tool");
    server.finish_and_wait_for_stderr().await;
    let log = server.stderr.lock().unwrap().clone();
    assert!(log.contains("guest trapped in `call-tool`") && log.contains("unreachable"), "{log}");
}

#[test]
fn build_names_what_it_looks_for_and_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().to_str().unwrap();
    let error = error_line(&run(&["build", empty]));
    assert!(
        error.contains("holds no project `mcp-wit build` knows: it looks for Cargo.toml (Rust), pyproject.toml (Python) or package.json (TypeScript)")
            && error.ends_with("start one with `mcp-wit new NAME --lang rust|python|typescript`"),
        "{error}"
    );
    // A TypeScript project before `npm install`: the step it needs, named.
    let project = dir.path().join("ts");
    assert!(run(&["new", project.to_str().unwrap(), "--lang", "typescript"]).status.success());
    let error = error_line(&run(&["build", project.to_str().unwrap()]));
    assert!(error.ends_with("has no node_modules: run `npm install` in it first"), "{error}");
    // Two languages in one directory: which one is meant is not guessed.
    std::fs::write(project.join("pyproject.toml"), "[project]\nname = \"ts\"\n").unwrap();
    let error = error_line(&run(&["build", project.to_str().unwrap()]));
    assert!(error.contains("a project of several languages (pyproject.toml, package.json)"), "{error}");

    // A missing toolchain: what to install, and where.
    let without = |project: &Path, path: &str| {
        let output = Command::new(support::binary())
            .arg("build")
            .arg(project)
            .env("PATH", path)
            .env_remove("VIRTUAL_ENV")
            .stdin(Stdio::null())
            .output()
            .expect("mcp-wit runs");
        error_line(&output)
    };
    let python = dir.path().join("py");
    assert!(run(&["new", python.to_str().unwrap(), "--lang", "python"]).status.success());
    // The system's Python, without componentize-py (nor a venv).
    let error = without(&python, "/usr/bin:/bin");
    assert!(
        error.ends_with(
            "componentize-py is missing: `.venv/bin/pip install -r requirements-build.txt` (in the project's venv)"
        ),
        "{error}"
    );
    let error = without(&python, "/nowhere");
    assert!(error.contains("`python3` is not installed"), "{error}");
    let rust = dir.path().join("rs");
    assert!(run(&["new", rust.to_str().unwrap()]).status.success());
    let error = without(&rust, "/nowhere");
    assert!(
        error.ends_with(
            "`cargo` is not installed: install Rust with rustup (rustup.rs), then `rustup target add wasm32-wasip2`"
        ),
        "{error}"
    );
}

/// A reader that goes away (`mcp-wit inspect … | head -1`) ends a printing
/// command quietly, as other Unix tools end: no panic about stdout.
#[cfg(unix)]
#[test]
fn a_printing_command_whose_reader_goes_away_ends_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new(support::binary())
        .args(["inspect", &support::fixture_arg("everything")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Closed before the listing is written.
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = stderr(&output);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // SIGPIPE is 13 on Linux and the BSDs.
    assert_eq!(output.status.signal(), Some(13), "{:?} {stderr}", output.status);
}

/// A directory granted without a mode is read-write, as it always was, and
/// the start says so; a grant with its mode says nothing.
#[test]
fn a_directory_granted_without_a_mode_warns_that_it_is_read_write() {
    let dir = tempfile::tempdir().unwrap();
    let host = dir.path().display().to_string();
    let warned = stderr(&run(&["inspect", &support::fixture_arg("hello"), "--dir", &host]));
    assert!(warned.contains(&format!("--dir {host} grants read-write")), "{warned}");
    assert!(warned.contains("add `:ro` to grant reading only"), "{warned}");
    for mode in ["ro", "rw"] {
        let quiet = stderr(&run(&["inspect", &support::fixture_arg("hello"), "--dir", &format!("{host}:{mode}")]));
        assert!(!quiet.contains("grants read-write"), "{mode}: {quiet}");
    }
}
