//! The command line's settings: flags and `mcp-wit.toml` read the same way
//! and merged in one place. (The other tests of the binary are in `tests/`.)

use std::process::{Command, Output, Stdio};

use mcp_wit_tests::fixture;

fn mcp_wit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-wit")).args(args).stdin(Stdio::null()).output().expect("mcp-wit runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn version_names_the_package() {
    let output = mcp_wit(&["--version"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), concat!("mcp-wit ", env!("CARGO_PKG_VERSION")));
}

/// Serves `file` over stdio with no client (stdin closed): the server starts,
/// finds no input and ends; what it could not accept it says on stderr.
fn serve_file(body: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mcp-wit.toml");
    let echo = fixture("echo");
    std::fs::write(&file, format!("{body}\n[[component]]\npath = {:?}\n", echo.to_str().unwrap())).unwrap();
    mcp_wit(&["serve", "-f", file.to_str().unwrap()])
}

#[test]
fn durations_and_sizes_read_the_same_in_the_file_as_on_the_command_line() {
    // Durations with their unit, as `--timeout 45s` is; sizes as text or bytes.
    for body in ["timeout = \"45s\"", "timeout = \"1.5s\"", "max-memory = \"64MiB\"", "max-memory = 67108864"] {
        let output = serve_file(body);
        assert!(output.status.success(), "{body}: {}", stderr(&output));
    }
    let output = mcp_wit(&["serve", fixture("echo").to_str().unwrap(), "--timeout", "45s"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = mcp_wit(&["serve", fixture("echo").to_str().unwrap(), "--timeout", "45"]);
    assert!(!output.status.success() && stderr(&output).contains("has no unit"), "{}", stderr(&output));
    for (body, says) in [
        ("timeout = \"0s\"", "more than zero"),
        ("max-memory = \"64 lightyears\"", "unknown unit"),
        ("timeout = 45", "has no unit"),
        ("timeout = \"45\"", "has no unit"),
    ] {
        let output = serve_file(body);
        assert!(!output.status.success(), "{body} was accepted");
        assert!(stderr(&output).contains(says), "{body}: {}", stderr(&output));
    }
}

#[test]
fn the_help_states_each_default_once() {
    let output = mcp_wit(&["serve", "--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(help.contains("[default: 8MiB]"), "the real default of --max-message-size: {help}");
    assert!(!help.contains("4MiB]"), "{help}");
}
