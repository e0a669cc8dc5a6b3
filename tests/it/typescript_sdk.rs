//! The TypeScript SDK (`sdk/typescript`): its weather example, built into a
//! component (the package copied to `<target-dir>/sdk-node/pkg`, installed
//! there with `npm ci` from its lock file, compiled with `tsc`, then built
//! with its `mcp-wit-build` and the default QuickJS engine), served over
//! stdio and driven by the Python SDK client in both eras: a tool call, a
//! bad argument (refused by the host's schema check, and by the SDK's zod
//! parsing when that check is off), structured output, a resource and a
//! template, a prompt with arguments and their completion, a tool that talks
//! back, and a JS throw, which reaches the client as a tool error carrying
//! its message and nothing of the engine; and the package's own tests. Built
//! once per run of this file and shared.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::binary;
use support::sdks::{Built, check_served, compiled, repo, run, session, target_dir, text};

/// Copies the package's sources (not an install or a build made in place).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if name == "node_modules" || name == "dist" {
            continue;
        }
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            copy_tree(&path, &to.join(&name))?;
        } else {
            std::fs::copy(&path, to.join(&name))?;
        }
    }
    Ok(())
}

/// The package, copied under `<target-dir>/sdk-node/pkg`, installed (again
/// only when its lock file changed) and compiled.
fn install() -> Result<PathBuf, String> {
    if Command::new("npm").arg("--version").stdout(Stdio::null()).status().is_err() {
        return Err("npm is not installed: install Node.js 20 or later".into());
    }
    let home = target_dir().join("sdk-node");
    std::fs::create_dir_all(&home).map_err(|e| e.to_string())?;
    let lock = File::create(home.join(".lock")).map_err(|e| e.to_string())?;
    lock.lock().map_err(|e| e.to_string())?;
    let pkg = home.join("pkg");
    for stale in ["src", "bin", "wit", "examples", "test"] {
        let _ = std::fs::remove_dir_all(pkg.join(stale));
    }
    copy_tree(&repo().join("sdk/typescript"), &pkg).map_err(|e| format!("copying sdk/typescript: {e}"))?;
    let locked = std::fs::read_to_string(pkg.join("package-lock.json")).map_err(|e| e.to_string())?;
    let marker = home.join(".installed");
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(locked.as_str()) || !pkg.join("node_modules").is_dir() {
        run(Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(&pkg), "npm ci")?;
        std::fs::write(&marker, &locked).map_err(|e| e.to_string())?;
    }
    run(Command::new("npm").args(["run", "build"]).current_dir(&pkg), "npm run build (tsc)")?;
    run(Command::new("npm").args(["run", "typecheck-examples"]).current_dir(&pkg), "tsc on the examples")?;
    Ok(pkg)
}

/// The package, installed once per run of this file: the tests that build
/// from it share it. Node and npm are needed (the TypeScript SDK client's
/// tests need them too): a machine without them fails these tests.
pub(crate) fn package() -> &'static Path {
    static PACKAGE: OnceLock<PathBuf> = OnceLock::new();
    PACKAGE.get_or_init(|| install().unwrap_or_else(|why| panic!("{why}")))
}

/// Builds `source` (a path in the package) with the package's
/// `mcp-wit-build` and compiles it into a cache of its own, so the first
/// session does not wait for the compiler.
fn build(source: &str, name: &str) -> Built {
    let pkg = package();
    let work = target_dir().join("sdk-node/tests");
    let wasm = work.join(format!("{name}.wasm"));
    run(
        Command::new("node").arg("bin/mcp-wit-build.mjs").arg(source).arg("-o").arg(&wasm).current_dir(pkg),
        "mcp-wit-build",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    compiled(wasm, work.join(format!("{name}.cache")))
}

/// The weather example, built once per run of this file.
fn weather() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| build("examples/weather/router.ts", "weather"))
}

/// The package's own tests (`npm test`, Node's test runner on the compiled
/// package): the warm-up the build snapshots runs no transform or
/// refinement of the app's and leaves parsing as it was.
#[test]
fn the_packages_own_tests_pass() {
    run(Command::new("npm").arg("test").current_dir(package()), "npm test").unwrap_or_else(|e| panic!("{e}"));
}

#[tokio::test]
async fn structured_output_a_resource_a_template_a_prompt_with_arguments_and_completions_in_both_eras() {
    let built = weather();
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let run = session(
            built,
            &[
                "--mode",
                mode,
                "--tool",
                "forecast",
                "--args",
                r#"{"city":"Oslo"}"#,
                "--resource",
                "weather://stations",
                "--prompt",
                "plan",
                "--prompt-args",
                r#"{"city":"Oslo"}"#,
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
        let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
        assert_eq!(names, ["forecast", "plan_trip", "echo"], "{report}");
        let forecast = &tools[0];
        assert_eq!(forecast["description"], "Forecast for a city", "{forecast}");
        assert_eq!(forecast["annotations"]["readOnlyHint"], true, "{forecast}");
        assert_eq!(
            forecast["inputSchema"],
            json!({
                "type": "object",
                "properties": { "city": { "type": "string", "description": "The city" } },
                "required": ["city"],
            }),
            "{forecast}"
        );
        assert_eq!(forecast["outputSchema"]["required"], json!(["city", "temperature", "conditions"]), "{forecast}");

        let call = &report["call"];
        assert_ne!(call["isError"], true, "{call}");
        let structured = &call["structuredContent"];
        assert_eq!(structured, &json!({ "city": "Oslo", "temperature": 23, "conditions": "sunny" }), "{call}");
        let echoed: Value = serde_json::from_str(text(call)).expect("the text item is the JSON");
        assert_eq!(&echoed, structured, "{call}");

        let read = &report["read"]["contents"][0];
        assert_eq!(read["uri"], "weather://stations", "{report}");
        assert_eq!(read["mimeType"], "application/json", "{report}");
        let stations: Value = serde_json::from_str(read["text"].as_str().expect("text")).expect("JSON");
        assert_eq!(stations[0]["city"], "Oslo", "{report}");
        assert_eq!(report["templates"][0]["uriTemplate"], "weather://city/{name}", "{report}");

        let prompt = &report["prompts"][0];
        assert_eq!(
            prompt["arguments"],
            json!([
                { "name": "city", "description": "The city", "required": true },
                { "name": "mood", "required": false },
            ]),
            "{report}"
        );
        let message = &report["prompt"]["messages"][0];
        assert_eq!(message["role"], "user", "{report}");
        let asked = message["content"]["text"].as_str().expect("text");
        assert!(asked.starts_with("Plan a pleasant day out in Oslo"), "{report}");
        assert_eq!(report["complete"]["completion"]["values"], json!(["Oslo"]), "{report}");
    }
}

#[tokio::test]
async fn a_template_routes_by_matching_and_decodes_its_variables() {
    let built = weather();
    let run = session(built, &["--mode", "legacy", "--resource", "weather://city/S%C3%A3o%20Paulo"], &[]).await;
    let read = &run.report["read"]["contents"][0];
    let forecast: Value = serde_json::from_str(read["text"].as_str().expect("text")).expect("JSON");
    assert_eq!(forecast["city"], "São Paulo", "{}", run.report);
    let missing = session(built, &["--mode", "legacy", "--resource", "weather://nowhere"], &[]).await;
    assert_eq!(missing.report["read"]["code"], -32002, "{}", missing.report);
}

#[tokio::test]
async fn a_tool_call_and_a_bad_argument_is_a_tool_error_with_the_reason() {
    let built = weather();
    let echoed = session(built, &["--mode", "auto", "--tool", "echo", "--args", r#"{"text":"hi"}"#], &[]).await;
    assert_eq!(echoed.report["call"]["content"], json!([{ "type": "text", "text": "hi" }]), "{}", echoed.report);

    let steps = ["--mode", "legacy", "--tool", "echo", "--args", r#"{"text":5}"#];
    // The host checks the input schema the SDK wrote before the guest runs…
    let checked = session(built, &steps, &[]).await;
    let call = &checked.report["call"];
    assert_eq!(call["isError"], true, "{call}");
    assert!(text(call).contains("/text") && text(call).contains("\"string\""), "{call}");
    // …and without that check the SDK's zod parsing refuses it, naming the field.
    let unchecked = session(built, &steps, &["--no-validate-input"]).await;
    let call = &unchecked.report["call"];
    assert_eq!(call["isError"], true, "{call}");
    assert!(text(call).contains("expected string, received number") && text(call).contains("at text"), "{call}");
}

#[tokio::test]
async fn a_js_throw_is_a_tool_error_with_its_message_and_the_instance_survives() {
    let built = weather();
    for mode in ["auto", "legacy"] {
        let run = session(
            built,
            &[
                "--mode",
                mode,
                "--tool",
                "forecast",
                "--args",
                r#"{"city":"Atlantis"}"#,
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
            assert_eq!(text(call), "no forecast for Atlantis: the city is under water", "{call}");
        }
        let everything = serde_json::to_string(&run.trace).unwrap();
        for leak in ["wasm", "unreachable", "router.ts", "at forecastFor", "-32603"] {
            assert!(!everything.contains(leak), "{leak} reached the client: {everything}");
        }
        // The same instance goes on serving.
        let read = &run.report["read"]["contents"][0];
        assert!(read["text"].as_str().is_some_and(|t| t.contains("Lisbon")), "{}", run.report);
    }
}

#[tokio::test]
async fn a_tool_reports_progress_and_asks_the_user() {
    let built = weather();
    for mode in ["legacy", "auto"] {
        let run = session(
            built,
            &["--mode", mode, "--tool", "plan_trip", "--args", r#"{"city":"Oslo"}"#, "--talk-back", "decline"],
            &[],
        )
        .await;
        let report = &run.report;
        assert_eq!(text(&report["call"]), "No trip to Oslo: the user chose decline.", "{report}");
        let talk = &report["talkBack"];
        let asked = &talk["elicited"][0];
        assert_eq!(asked["message"], "How many days in Oslo?", "{report}");
        assert_eq!(asked["requestedSchema"]["properties"]["days"]["type"], "integer", "{report}");
        assert_eq!(asked["requestedSchema"]["required"], json!(["days"]), "{report}");
        let progress = talk["progress"].as_array().expect("progress");
        assert!(progress.iter().any(|p| p["message"] == "asking for the dates"), "{report}");
    }
}

/// The file API through `node:fs` (`test/files.ts`), served with a
/// read-write grant and a read-only one: what it wrote is on the host, what
/// it read is what the host holds, and each refusal is Node's error with a
/// hint naming the grant that would allow it.
#[tokio::test]
async fn the_file_api_reads_writes_lists_and_removes_within_the_grants_only() {
    let built = build("test/files.ts", "files");
    let work = tempfile::tempdir().unwrap();
    let (rw, ro) = (work.path().join("rw"), work.path().join("ro"));
    std::fs::create_dir_all(rw.join("sub")).unwrap();
    std::fs::create_dir_all(&ro).unwrap();
    std::fs::write(ro.join("kept.txt"), "read-only text").unwrap();
    let grants = [format!("{}:/rw:rw", rw.display()), format!("{}:/ro:ro", ro.display())];
    let serve = ["--dir", &grants[0], "--dir", &grants[1]];
    let run = session(&built, &["--mode", "auto", "--tool", "exercise"], &serve).await;
    let call = &run.report["call"];
    assert_ne!(call["isError"], true, "{call}");
    // No output schema: the report is the result's text (its JSON).
    let report: &Value = &serde_json::from_str(text(call)).expect("the text item is the JSON");

    let written = "héllo ✓ 😀\nsecond line";
    assert_eq!(report["text"], written, "{report}");
    assert_eq!(std::fs::read_to_string(rw.join("a.txt")).unwrap(), written);
    assert_eq!(report["size"], written.len(), "{report}");
    assert_eq!(report["bytes"], json!([0, 255, 1]), "{report}");
    assert_eq!(std::fs::read(rw.join("b.bin")).unwrap(), [0, 255, 1]);
    assert_eq!(report["bigLength"], 200_000, "{report}");
    assert_eq!(report["made"], "/rw/x", "{report}");
    assert_eq!(report["kinds"], json!(["a.txt:file", "sub:dir", "x:dir"]), "{report}");
    assert_eq!(report["renamed"], "moved", "{report}");
    assert_eq!(report["removed"], "gone", "{report}");
    assert!(!rw.join("x").exists());
    assert_eq!(report["names"], json!(["a.txt", "b.bin", "sub"]), "{report}");
    assert_eq!(report["missingStat"], "undefined", "{report}");
    assert_eq!(report["readOnlyRead"], "read-only text", "{report}");

    let refusals = [
        ("missing", "ENOENT|ENOENT: no such file or directory, open '/rw/none'"),
        ("exclusive", "EEXIST|EEXIST: file already exists, open '/rw/a.txt'"),
        ("notDirectory", "ENOTDIR|ENOTDIR: not a directory, scandir '/rw/a.txt'"),
        (
            "directory",
            "EISDIR|EISDIR: illegal operation on a directory, rm '/rw/sub' (a directory: pass { recursive: true } \
             to remove it and what it holds)",
        ),
        (
            "outside",
            "ENOENT|ENOENT: no such file or directory, open '/etc/passwd' (a router sees only the directories its \
             server grants, `mcp-wit serve --dir HOST[:GUEST]`: /etc/passwd is under none of them; granted: /ro, /rw)",
        ),
        (
            "escape",
            "ENOENT|ENOENT: no such file or directory, open '/rw/../etc/passwd' (a router sees only the directories \
             its server grants, `mcp-wit serve --dir HOST[:GUEST]`: /etc/passwd is under none of them; granted: /ro, /rw)",
        ),
        (
            "readOnly",
            "EPERM|EPERM: operation not permitted, open '/ro/new.txt' (/ro is granted read-only: \
             `mcp-wit serve --dir HOST:/ro:rw` grants writing)",
        ),
    ];
    for (case, expected) in refusals {
        assert_eq!(report[case], expected, "{case}: {report}");
    }
    assert!(!ro.join("new.txt").exists());
}

/// `mcp-wit new NAME --lang typescript`, `npm install` in it (from npm's
/// cache, which the package's own install filled), then `mcp-wit build`,
/// then the project served: nothing of it is written by hand.
#[tokio::test]
async fn a_project_from_mcp_wit_new_builds_and_serves_in_both_eras() {
    // The SDK's own install fills npm's cache first.
    package();
    let work = tempfile::tempdir().unwrap();
    let project = work.path().join("ts-tools");
    run(
        Command::new(binary()).arg("new").arg(&project).args(["--lang", "typescript"]),
        "mcp-wit new --lang typescript",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    run(
        Command::new("npm").args(["install", "--prefer-offline", "--no-audit", "--no-fund"]).current_dir(&project),
        "npm install",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    run(Command::new("npx").args(["tsc", "--noEmit", "-p", "."]).current_dir(&project), "tsc on the new project")
        .unwrap_or_else(|e| panic!("{e}"));
    // Compiled where `check_served` serves it from.
    let cache = project.join("build/ts-tools.cache");
    let built = Command::new(binary()).arg("build").arg(&project).arg("--cache-dir").arg(&cache).output();
    let built = built.expect("mcp-wit build runs");
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "mcp-wit build failed:\n{stderr}");
    assert!(stderr.contains("the first `serve` starts without compiling"), "{stderr}");
    let wasm = PathBuf::from(String::from_utf8_lossy(&built.stdout).trim());
    assert_eq!(wasm, project.join("build/ts-tools.wasm"), "{stderr}");
    check_served(&wasm, "ts-tools").await;
    check_files(&Built { wasm, cache }, &project).await;
}

/// The template's file tools, over the `notes/` it ships granted read-only
/// as `/notes`, in both eras: a listing, a file read, and a path under no
/// grant refused with the grants named.
async fn check_files(built: &Built, project: &Path) {
    let grant = format!("{}:/notes:ro", project.join("notes").display());
    let serve = ["--dir", grant.as_str()];
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let list = ["--mode", mode, "--tool", "list_files"];
        let read = ["--mode", mode, "--tool", "read_file", "--args", r#"{"path":"/notes/welcome.md"}"#];
        let outside = ["--mode", mode, "--tool", "read_file", "--args", r#"{"path":"/etc/hosts"}"#];
        let (listed, read, outside) = tokio::join!(
            session(built, &list, &serve),
            session(built, &read, &serve),
            session(built, &outside, &serve)
        );
        let context = format!("the template's files, {version}");
        assert_eq!(listed.report["protocolVersion"], version, "{context}: {}", listed.report);
        let files = &listed.report["call"]["structuredContent"];
        assert_eq!(files, &json!({ "files": [{ "name": "welcome.md", "directory": false }] }), "{context}: {files}");
        let welcome = std::fs::read_to_string(project.join("notes/welcome.md")).unwrap();
        assert_eq!(text(&read.report["call"]), welcome, "{context}: {}", read.report);
        let refused = &outside.report["call"];
        assert_eq!(refused["isError"], true, "{context}: {refused}");
        assert!(
            text(refused).starts_with("ENOENT: no such file or directory, open '/etc/hosts' (a router sees only")
                && text(refused).ends_with("/etc/hosts is under none of them; granted: /notes)"),
            "{context}: {refused}"
        );
    }
}
