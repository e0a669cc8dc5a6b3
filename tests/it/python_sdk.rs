//! The Python SDK (`sdk/python`): its weather example, built into a component
//! with componentize-py (installed on first use into the tools cache's `sdk-venv`
//! from `sdk/python/requirements-build.txt`), served over stdio and driven
//! by the Python SDK client in both eras: a tool call with structured
//! output, a bad argument (refused by the host's schema check, and by the
//! SDK's own decoding when that check is off), a resource and a template, a
//! prompt with arguments, a completion, a tool that talks back, and a Python
//! exception, which reaches the client as a tool error carrying its message
//! and nothing of the traceback. The component (~18 MB, seconds to build
//! and to compile) is built once per run of this file and shared.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::binary;
use support::sdks::{Built, check_served, compiled, repo, run, session, target_dir, text};

/// The venv's Python with componentize-py, installed once per pinned
/// version; `Err` says why it could not be.
pub(crate) fn build_python() -> Result<PathBuf, String> {
    // Where .ci/setup and .ci/conformance put it too, under the same lock.
    let venv = support::peers::tools_dir().join("sdk-venv");
    let requirements = repo().join("sdk/python/requirements-build.txt");
    let pinned = std::fs::read_to_string(&requirements).map_err(|e| format!("{}: {e}", requirements.display()))?;
    std::fs::create_dir_all(&venv).map_err(|e| e.to_string())?;
    let lock = File::create(venv.join(".lock")).map_err(|e| e.to_string())?;
    lock.lock().map_err(|e| e.to_string())?;
    let marker = venv.join(".installed");
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(pinned.as_str()) {
        run(Command::new("python3").args(["-m", "venv"]).arg(&venv), "python3 -m venv")?;
        run(
            Command::new(venv.join("bin/pip"))
                .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
                .arg(&requirements),
            "pip install -r sdk/python/requirements-build.txt",
        )?;
        std::fs::write(&marker, &pinned).map_err(|e| e.to_string())?;
    }
    Ok(venv.join("bin/python"))
}

/// Builds the weather example and compiles it into a cache of its own, so
/// the first session does not wait for the compiler (a client negotiating
/// the era could give up on a server that slow to answer). componentize-py
/// comes from PyPI: a machine that cannot install it fails these tests.
fn weather() -> Option<&'static Built> {
    static BUILT: OnceLock<Option<Built>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let python = build_python().unwrap_or_else(|why| panic!("componentize-py cannot be installed: {why}"));
            let work = target_dir().join("sdk-python-tests");
            let wasm = work.join("weather.wasm");
            let cache = work.join("cache");
            let sdk = repo().join("sdk/python");
            run(
                Command::new(python)
                    .args(["-m", "mcp_wit", "build"])
                    .arg(sdk.join("examples/weather/app.py"))
                    .arg("-o")
                    .arg(&wasm)
                    .arg("--build-dir")
                    .arg(work.join("build"))
                    .env("PYTHONPATH", &sdk)
                    // The build runs the SDK natively too: no bytecode beside its sources.
                    .env("PYTHONDONTWRITEBYTECODE", "1"),
                "python -m mcp_wit build",
            )
            .unwrap_or_else(|e| panic!("{e}"));
            Some(compiled(wasm, cache))
        })
        .as_ref()
}

#[tokio::test]
async fn structured_output_a_template_a_prompt_with_arguments_and_completions_in_both_eras() {
    let Some(built) = weather() else { return };
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let run = session(
            built,
            &[
                "--mode",
                mode,
                "--tool",
                "forecast",
                "--args",
                r#"{"city":"Oslo","days":2,"units":"fahrenheit"}"#,
                "--resource",
                "weather://city/Lima",
                "--prompt",
                "plan",
                "--prompt-args",
                r#"{"city":"Oslo","days":"2"}"#,
                "--complete-prompt",
                "plan",
                "--complete-arg",
                "city=o",
            ],
            &[],
        )
        .await;
        let report = &run.report;
        assert_eq!(report["protocolVersion"], version, "{report}");
        assert_eq!(report["serverInfo"]["name"], "weather", "{report}");

        let tools = report["tools"].as_array().expect("tools");
        let forecast = tools.iter().find(|t| t["name"] == "forecast").expect("forecast is listed");
        assert_eq!(forecast["description"], "Forecast for a city.", "{forecast}");
        assert_eq!(forecast["annotations"]["readOnlyHint"], true, "{forecast}");
        let input = &forecast["inputSchema"];
        assert_eq!(input["required"], json!(["city"]), "{input}");
        assert_eq!(input["properties"]["city"]["description"], "The city", "{input}");
        assert_eq!(input["properties"]["days"]["maximum"], 7, "{input}");
        assert_eq!(input["properties"]["units"]["enum"], json!(["celsius", "fahrenheit"]), "{input}");
        assert_eq!(forecast["outputSchema"]["required"], json!(["city", "units", "days"]), "{forecast}");

        let call = &report["call"];
        assert_ne!(call["isError"], true, "{call}");
        let structured = &call["structuredContent"];
        assert_eq!(structured["city"], "Oslo", "{call}");
        assert_eq!(structured["units"], "fahrenheit", "{call}");
        assert_eq!(structured["days"].as_array().map(Vec::len), Some(2), "{call}");
        assert_eq!(structured["days"][1]["high"], 40.2, "{call}");
        let echoed: Value = serde_json::from_str(text(call)).expect("the text item is the JSON");
        assert_eq!(&echoed, structured, "{call}");

        let read = &report["read"]["contents"][0];
        assert_eq!(read["text"], "Lima: sunny, 19.5 °C", "{report}");
        assert_eq!(read["uri"], "weather://city/Lima", "{report}");
        let templates = report["templates"].as_array().expect("templates");
        assert_eq!(templates[0]["uriTemplate"], "weather://city/{name}", "{report}");
        assert_eq!(report["resources"][0]["uri"], "weather://stations", "{report}");

        let prompt = &report["prompts"][0];
        assert_eq!(prompt["name"], "plan", "{report}");
        assert_eq!(
            prompt["arguments"],
            json!([
                { "name": "city", "description": "Where to", "required": true },
                { "name": "days", "description": "How long the trip is", "required": false },
            ]),
            "{report}"
        );
        let messages = &report["prompt"]["messages"];
        assert_eq!(messages[0]["content"]["text"], "Plan a 2-day trip to Oslo around the forecast.", "{report}");
        assert_eq!(messages[1]["role"], "assistant", "{report}");
        assert_eq!(report["complete"]["completion"]["values"], json!(["Oslo"]), "{report}");
    }
}

#[tokio::test]
async fn a_bad_argument_is_a_tool_error_with_the_reason() {
    let Some(built) = weather() else { return };
    let steps = ["--mode", "legacy", "--tool", "forecast", "--args", r#"{"city":"Oslo","days":"x"}"#];
    // The host checks the input schema the SDK wrote before the guest runs…
    let checked = session(built, &steps, &[]).await;
    let call = &checked.report["call"];
    assert_eq!(call["isError"], true, "{call}");
    assert!(text(call).contains("/days") && text(call).contains("\"integer\""), "{call}");
    // …and without that check the SDK's decoding refuses it, naming the field.
    let unchecked = session(built, &steps, &["--no-validate-input"]).await;
    let call = &unchecked.report["call"];
    assert_eq!(call["isError"], true, "{call}");
    assert_eq!(text(call), "`days`: expected an integer, got \"x\"", "{call}");
    // A ToolError the tool raises is its message.
    let refused = session(built, &["--mode", "auto", "--tool", "forecast", "--args", r#"{"city":"Paris"}"#], &[]).await;
    let call = &refused.report["call"];
    assert_eq!(call["isError"], true, "{call}");
    assert_eq!(text(call), "no station in Paris: try one of Oslo, Lima, Nairobi", "{call}");
}

#[tokio::test]
async fn a_python_exception_is_a_tool_error_with_its_message_and_the_instance_survives() {
    let Some(built) = weather() else { return };
    for mode in ["auto", "legacy"] {
        let run = session(
            built,
            &[
                "--mode",
                mode,
                "--tool",
                "explode",
                "--args",
                r#"{"message":"the barometer broke"}"#,
                "--repeat",
                "2",
                "--resource",
                "weather://stations",
            ],
            &[],
        )
        .await;
        let calls = run.report["calls"].as_array().expect("calls");
        assert_eq!(calls.len(), 2, "{}", run.report);
        for call in calls {
            // The message, not a trap's -32603 and wasm internals.
            assert_eq!(call["isError"], true, "{call}");
            assert_eq!(call["content"].as_array().map(Vec::len), Some(1), "{call}");
            assert_eq!(text(call), "the barometer broke", "{call}");
        }
        let everything = serde_json::to_string(&run.trace).unwrap();
        for leak in ["Traceback", "RuntimeError", "app.py", "_component.py"] {
            assert!(!everything.contains(leak), "{leak} reached the client: {everything}");
        }
        // The same instance goes on serving.
        let stations: Value =
            serde_json::from_str(run.report["read"]["contents"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(stations["Oslo"], 4.0, "{}", run.report);
    }
}

#[tokio::test]
async fn a_tool_reports_progress_logs_and_asks_the_user() {
    let Some(built) = weather() else { return };
    for (mode, log_level) in [("legacy", Some("debug")), ("auto", None)] {
        let mut steps =
            vec!["--mode", mode, "--tool", "greet", "--args", r#"{"greeting":"Hi"}"#, "--talk-back", "accept"];
        if let Some(level) = log_level {
            steps.extend(["--log-level", level]);
        }
        let run = session(built, &steps, &[]).await;
        let report = &run.report;
        // The peer accepts with `username: testuser`.
        assert_eq!(text(&report["call"]), "Hi, testuser!", "{report}");
        let talk = &report["talkBack"];
        let asked = &talk["elicited"][0];
        assert_eq!(asked["message"], "Who are you?", "{report}");
        assert_eq!(
            asked["requestedSchema"]["properties"]["username"],
            json!({ "type": "string", "description": "What should I call you?" }),
            "{report}"
        );
        let progress = talk["progress"].as_array().expect("progress");
        assert!(progress.iter().any(|p| p["message"] == "asking for a name"), "{report}");
        assert_eq!(progress.last().map(|p| p["progress"].clone()), Some(json!(1.0)), "{report}");
        if log_level.is_some() {
            assert_eq!(talk["logs"][0], json!({ "level": "info", "logger": "greet", "data": "asking for a name" }));
        }
    }
}

#[test]
fn the_build_leaves_no_bytecode_in_the_source_tree() {
    if weather().is_none() {
        return;
    }
    let mut stack = vec![repo().join("sdk/python")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            assert_ne!(entry.file_name(), "__pycache__", "{} was written", path.display());
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
}

/// `mcp-wit new NAME --lang python`, then `mcp-wit build` in it (with the
/// venv that has componentize-py active, as a user's would be), then the
/// project served: nothing of it is written by hand.
#[tokio::test]
async fn a_project_from_mcp_wit_new_builds_and_serves_in_both_eras() {
    let python = build_python().unwrap_or_else(|why| panic!("componentize-py cannot be installed: {why}"));
    let venv = python.parent().and_then(Path::parent).expect("<venv>/bin/python").to_path_buf();
    let work = tempfile::tempdir().unwrap();
    let project = work.path().join("py-tools");
    run(Command::new(binary()).arg("new").arg(&project).args(["--lang", "python"]), "mcp-wit new --lang python")
        .unwrap_or_else(|e| panic!("{e}"));
    let built = Command::new(binary())
        .arg("build")
        .arg(&project)
        // Compiled where `check_served` serves it from.
        .arg("--cache-dir")
        .arg(project.join("build/py-tools.cache"))
        .env("VIRTUAL_ENV", &venv)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("mcp-wit build runs");
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "mcp-wit build failed:\n{stderr}");
    let wasm = PathBuf::from(String::from_utf8_lossy(&built.stdout).trim());
    assert_eq!(wasm, project.join("build/py-tools.wasm"), "{stderr}");
    let leftovers: Vec<_> = walk(&project).into_iter().filter(|p| p.ends_with("__pycache__")).collect();
    assert!(leftovers.is_empty(), "the build wrote bytecode into the project: {leftovers:?}");
    check_served(&wasm, "py-tools").await;
}

/// Every path under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(walk(&path));
        }
        found.push(path);
    }
    found
}

/// With JSON log lines, the traceback a Python tool's exception prints is
/// one event, carrying the id of the request it happened in, as the
/// request's own log line does.
#[tokio::test]
async fn a_traceback_is_one_json_log_event_with_its_request_id() {
    let Some(built) = weather() else { return };
    let (wasm, cache) = (built.wasm.display().to_string(), built.cache.display().to_string());
    let args = ["serve", &wasm, "--cache-dir", &cache, "--log-format", "json"];
    let mut server = support::RawServer::initialized(&args, "2025-11-25").await;
    let answer = server.call(41, "explode", json!({ "message": "the barometer broke" })).await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    server.finish_and_wait_for_stderr().await;
    let stderr = server.stderr.lock().unwrap().clone();
    let events: Vec<Value> = stderr.lines().filter_map(|line| serde_json::from_str(line).ok()).collect();
    let traceback = events.iter().find(|event| {
        event["message"].as_str().is_some_and(|message| message.starts_with("Traceback (most recent call last):"))
    });
    let traceback = traceback.unwrap_or_else(|| panic!("no traceback event: {stderr}"));
    let message = traceback["message"].as_str().unwrap();
    assert!(message.contains("\n  File ") && message.ends_with("RuntimeError: the barometer broke"), "{traceback}");
    assert_eq!((&traceback["stream"], &traceback["request_id"]), (&json!("stderr"), &json!("41")), "{traceback}");
    assert_eq!(traceback["component"], "weather", "{traceback}");
    let request = events.iter().find(|event| event["target"] == "mcp_wit::request" && event["method"] == "tools/call");
    let request = request.unwrap_or_else(|| panic!("no request line: {stderr}"));
    assert_eq!(request["request_id"], "41", "{request}");
}
