//! Routers on `wasix:mcp/router@25.6.18` (`components/router-25-6-18`,
//! built from the WIT in `wit/wasix-mcp@25.6.18`), driven by the Python SDK
//! client over stdio and Streamable HTTP in both eras: titles, structured
//! output checked by the client, a resource link and `_meta` with JSON
//! values, elicitations answered (one, two in a row, and a loop the host
//! stops), a router served beside a 25.3.26 one under prefixes, a
//! component exporting both contracts, and the router wrapped for engines.

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::http::HttpServer;
use support::peers::{Peer, PeerRun, run_peer};
use support::schema::{self, Revision};
use support::{binary, fixture_arg};

/// A Python SDK client run against `router_25_6_18`: over stdio when `url`
/// is `None`, else at that Streamable HTTP endpoint.
async fn session(url: Option<&str>, steps: &[&str]) -> PeerRun {
    match url {
        Some(url) => session_at(&["--url", url], steps).await,
        None => {
            session_at(&["--", &binary().display().to_string(), "serve", &fixture_arg("router_25_6_18")], steps).await
        }
    }
}

/// A Python SDK client run against `server` (`--url URL`, or `-- COMMAND…`
/// to spawn it over stdio).
async fn session_at(server: &[&str], steps: &[&str]) -> PeerRun {
    let args: Vec<String> = steps.iter().chain(server).map(|s| s.to_string()).collect();
    run_peer(Peer::Python, args).await
}

/// Every message the client received is valid at its revision.
fn assert_schema_valid(run: &PeerRun, mode: &str) {
    let revision = if mode == "auto" { Revision::Modern } else { Revision::Legacy };
    assert!(!run.trace.is_empty(), "the peer traced nothing");
    for message in &run.trace {
        schema::check_at(revision, "JSONRPCMessage", message).unwrap();
    }
}

/// The text of a result's first item.
fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text content: {result}"))
}

#[tokio::test]
async fn titles_structured_output_links_meta_and_elicitations_reach_the_client_in_both_eras() {
    let server = HttpServer::start(&[&fixture_arg("router_25_6_18")]).await;
    let url = server.url();
    for reach in [None, Some(url.as_str())] {
        for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
            let context = format!("{} {version}", if reach.is_some() { "http" } else { "stdio" });
            let [weather, link, book] = three_sessions(mode);
            let (weather, link, book) =
                tokio::join!(session(reach, &weather), session(reach, &link), session(reach, &book));

            assert_weather_and_link(&weather, &link, &context, mode, version);

            let report = &book.report;
            assert_eq!(text(&report["call"]), "Booked Chez Ada for 3.", "{context}: {report}");
            let asked = &report["talkBack"]["elicited"][0];
            assert_eq!(asked["message"], "How many people?", "{context}: {report}");
            assert_eq!(asked["requestedSchema"]["properties"]["people"]["type"], "integer", "{context}: {report}");
            assert_schema_valid(&book, mode);
        }
    }
    server.stop().await;
}

/// The steps of three sessions in `mode`: `weather` (with the resource and
/// the prompt), `link`, and `book`, which asks the user and gets an answer.
fn three_sessions(mode: &str) -> [Vec<&str>; 3] {
    let weather = ["--mode", mode, "--tool", "weather", "--args", r#"{"city":"Oslo"}"#];
    let weather = [&weather[..], &["--resource", "fixture://readme", "--prompt", "hello"]].concat();
    let book = ["--mode", mode, "--tool", "book", "--args", r#"{"restaurant":"Chez Ada"}"#];
    let book = [&book[..], &["--talk-back", "accept", "--elicit-content", r#"{"people":3}"#]].concat();
    [weather, vec!["--mode", mode, "--tool", "link"], book]
}

/// What `weather` (with the resource and prompt steps) and `link` sessions
/// received: titles, structured output the client checked, `_meta` with
/// JSON values and the resource link, every message valid at `mode`'s
/// revision.
fn assert_weather_and_link(weather: &PeerRun, link: &PeerRun, context: &str, mode: &str, version: &str) {
    let report = &weather.report;
    assert_eq!(report["protocolVersion"], version, "{context}: {report}");
    assert_eq!(report["serverInfo"]["title"], "A 25.6.18 router", "{context}: {report}");
    // The client checks structured content against the output schema.
    assert_eq!(report["call"]["structuredContent"], json!({ "city": "Oslo", "celsius": 21.5 }), "{context}");
    let tools = report["tools"].as_array().expect("tools");
    let listed = tools.iter().find(|t| t["name"] == "weather").expect("weather is listed");
    assert_eq!(listed["title"], "Weather report", "{context}: {listed}");
    assert_eq!(listed["annotations"]["readOnlyHint"], true, "{context}: {listed}");
    assert_eq!(listed["_meta"]["io.example/cost"], 1, "{context}: {listed}");
    assert!(listed["outputSchema"].is_object(), "{context}: {listed}");
    let resource = &report["resources"][0];
    assert_eq!((&resource["uri"], &resource["title"]), (&json!("fixture://readme"), &json!("Read me")));
    assert_eq!(report["read"]["contents"][0]["text"], "# router-25-6-18\n", "{context}: {report}");
    assert_eq!(report["prompt"]["messages"][0]["content"]["text"], "Say hello.", "{context}: {report}");
    assert_schema_valid(weather, mode);

    let call = &link.report["call"];
    let item = &call["content"][1];
    assert_eq!(item["type"], "resource_link", "{context}: {call}");
    assert_eq!(
        (&item["uri"], &item["title"], &item["mimeType"], &item["description"]),
        (&json!("fixture://readme"), &json!("Read me"), &json!("text/markdown"), &json!("What this router offers")),
        "{context}: {call}"
    );
    assert_eq!(item["annotations"]["audience"], json!(["user"]), "{context}: {call}");
    assert_eq!(call["_meta"]["io.example/trace"], json!({ "id": 7 }), "{context}: {call}");
    assert_schema_valid(link, mode);
}

#[tokio::test]
async fn two_questions_in_a_row_a_declined_answer_and_a_loop_the_host_stops() {
    for mode in ["auto", "legacy"] {
        let both = r#"{"name":"Ada","confirm":true}"#;
        let asked = ["--mode", mode, "--tool", "two_questions", "--talk-back", "accept", "--elicit-content", both];
        let declined = ["--mode", mode, "--tool", "book", "--args", r#"{"restaurant":"X"}"#, "--talk-back", "decline"];
        let nag = ["--mode", mode, "--tool", "nag", "--talk-back", "accept", "--elicit-content", r#"{"again":true}"#];
        let (asked, declined, nag) = tokio::join!(session(None, &asked), session(None, &declined), session(None, &nag));

        let report = &asked.report;
        assert_eq!(text(&report["call"]), "Hello Ada, confirmed: true", "{mode}: {report}");
        let questions: Vec<_> =
            report["talkBack"]["elicited"].as_array().unwrap().iter().map(|q| &q["message"]).collect();
        // A 2026-07-28 call runs again from the start after each round: the
        // first question is asked once, its answer carried by the retry.
        assert_eq!(questions, [&json!("What is your name?"), &json!("Confirm, Ada?")], "{mode}: {report}");

        assert_eq!(text(&declined.report["call"]), "No booking.", "{mode}: {}", declined.report);

        let call = &nag.report["call"];
        assert_eq!(call["isError"], true, "{mode}: {call}");
        assert!(text(call).contains("asked the user for input 8 times"), "{mode}: {call}");
        let asked = nag.report["talkBack"]["elicited"].as_array().unwrap().len();
        assert_eq!(asked, 8, "{mode}: {}", nag.report);
    }
}

#[tokio::test]
async fn broken_json_a_failure_and_a_client_that_cannot_answer() {
    for mode in ["auto", "legacy"] {
        let broken = ["--mode", mode, "--tool", "broken_json"];
        let fail = ["--mode", mode, "--tool", "fail"];
        // No --talk-back: the client declares no elicitation.
        let unanswered = ["--mode", mode, "--tool", "book", "--args", r#"{"restaurant":"X"}"#];
        let (broken, fail, unanswered) =
            tokio::join!(session(None, &broken), session(None, &fail), session(None, &unanswered));
        // Structured content that is not JSON is left out; the text stays.
        let call = &broken.report["call"];
        assert_eq!(text(call), "{", "{mode}: {call}");
        assert!(call.get("structuredContent").is_none_or(Value::is_null), "{mode}: {call}");
        assert_schema_valid(&broken, mode);

        let call = &fail.report["call"];
        assert_eq!((&call["isError"], text(call)), (&json!(true), "the fixture failed on purpose"), "{mode}");

        // As for any router that asks: a 2026-07-28 request is refused for
        // the capability it lacks (-32021), a 2025 session's call fails.
        let call = &unanswered.report["call"];
        if mode == "auto" {
            assert_eq!(call["code"], -32021, "{call}");
            assert!(call["error"].as_str().unwrap().contains("elicitation"), "{call}");
        } else {
            assert_eq!(call["isError"], true, "{call}");
            assert!(text(call).contains("asked the user for input, which failed"), "{call}");
        }
    }
}

#[tokio::test]
async fn a_25_6_18_router_beside_a_25_3_26_one_under_prefixes() {
    let (new, old) = (fixture_arg("router_25_6_18"), fixture_arg("echo"));
    let names = [format!("{new}=new"), format!("{old}=old")];
    let serve = ["serve", &new, &old, "--name", &names[0], "--name", &names[1]];
    for mode in ["auto", "legacy"] {
        let mut args: Vec<String> = ["--mode", mode, "--tool", "new_book", "--args", r#"{"restaurant":"Y"}"#]
            .into_iter()
            .chain(["--talk-back", "accept", "--elicit-content", r#"{"people":2}"#])
            .map(String::from)
            .collect();
        args.push("--".into());
        args.push(binary().display().to_string());
        args.extend(serve.iter().map(|s| s.to_string()));
        let run = run_peer(Peer::Python, args).await;
        let report = &run.report;
        let names: Vec<&str> = report["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
        assert!(names.contains(&"new_weather") && names.contains(&"old_echo"), "{mode}: {names:?}");
        assert_eq!(text(&report["call"]), "Booked Y for 2.", "{mode}: {report}");
        // Several routers have no one title.
        assert!(report["serverInfo"].get("title").is_none_or(Value::is_null), "{mode}: {report}");
    }
}

#[tokio::test]
async fn a_component_exporting_both_contracts_is_served_as_25_6_18_with_a_warning() {
    let both = fixture_arg("both_contracts");
    let output = std::process::Command::new(binary()).args(["call", &both, "which"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains("25.6.18") && !stdout.contains("25.3.26"), "{stdout}");
    assert!(
        stderr.contains("exports both wasix:mcp/router@25.3.26 and wasix:mcp/router@25.6.18")
            && stderr.contains("served as wasix:mcp/router@25.6.18"),
        "{stderr}"
    );
    let output = std::process::Command::new(binary()).args(["inspect", &both]).output().unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).contains("component (wasix:mcp/router@25.6.18)"));
}

#[tokio::test]
async fn a_wrapped_25_6_18_router_serves_the_python_sdk_on_wasmtime_serve_and_run() {
    use support::engines::{WasmtimeServe, wrapped};
    let dir = tempfile::tempdir().unwrap();
    let server = dir.path().join("server.wasm");
    std::fs::write(&server, wrapped("router_25_6_18")).unwrap();
    // Every instance signs the rounds with the same key: the retry resumes.
    let engine =
        WasmtimeServe::start(&server, "127.0.0.1:0", &[("MCP_WIT_STATE_KEY", "one key for every instance, 32+ bytes")]);
    let wasmtime = support::peers::wasmtime().display().to_string();
    let over_http = ["--url", engine.url.as_str()];
    let over_stdio = ["--", &wasmtime, "run", "-Shttp", server.to_str().unwrap()];
    for (reach, server) in [("wasmtime serve", &over_http[..]), ("wasmtime run", &over_stdio[..])] {
        for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
            let context = format!("{reach} {version}");
            let [weather, link, book] = three_sessions(mode);
            let (weather, link, book) =
                tokio::join!(session_at(server, &weather), session_at(server, &link), session_at(server, &book));
            assert_weather_and_link(&weather, &link, &context, mode, version);
            let call = &book.report["call"];
            if mode == "auto" {
                // `book`'s question is a 2026-07-28 round the client answers.
                assert_eq!(text(call), "Booked Chez Ada for 3.", "{context}: {}", book.report);
                let asked = &book.report["talkBack"]["elicited"][0];
                assert_eq!(asked["message"], "How many people?", "{context}: {}", book.report);
            } else {
                // A 2025 request on an engine has no way back to its client
                // (over HTTP it has no session either, so no declared
                // capabilities): the question is a tool error that says so.
                assert_eq!(call["isError"], true, "{context}: {call}");
                let said = text(call);
                let why = if reach == "wasmtime serve" { "did not declare" } else { "carries requests to the client" };
                assert!(said.contains("asked the user for input, which failed") && said.contains(why), "{call}");
                assert_eq!(book.report["talkBack"]["elicited"], json!([]), "{context}: {}", book.report);
            }
            assert_schema_valid(&book, mode);
        }
    }
}

/// What `describe-server` says of authorization (the fixture names the
/// issuer `https://auth.example.com`, the resource
/// `https://mcp.example.com/mcp` and the scope `tools.read`) is advice: its
/// scope is advertised after the operator's, its issuer and resource are
/// not taken but warned of, and a server without authorization says the
/// router expects it.
#[tokio::test]
async fn described_authorization_is_advertised_and_its_differences_are_warned_of() {
    let router = fixture_arg("router_25_6_18");
    let operator = "https://as.operator.example";
    let server = HttpServer::start(&[&router, "--auth-issuer", operator, "--auth-scope", "mcp"]).await;
    let url = server.at("/.well-known/oauth-protected-resource");
    let text = reqwest::get(&url).await.unwrap().text().await.unwrap();
    let document: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{url}: not JSON ({e}): {text}"));
    assert_eq!(document["scopes_supported"], json!(["mcp", "tools.read"]), "{document}");
    assert_eq!(document["authorization_servers"], json!([operator]), "{document}");
    assert_eq!(document["resource"], server.url(), "{document}");
    let stderr = server.stderr.lock().unwrap().clone();
    let foreign = stderr.lines().find(|line| line.contains("does not accept")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        foreign.contains("router_25_6_18")
            && foreign.contains("https://auth.example.com")
            && foreign.contains(operator),
        "{foreign}"
    );
    let elsewhere =
        stderr.lines().find(|line| line.contains("expects tokens for")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(elsewhere.contains("https://mcp.example.com/mcp") && elsewhere.contains(&server.url()), "{elsewhere}");
    // Advertised only: a token needs the operator's scope, not the router's.
    let reply = server.client().post_raw(&[], json!({ "jsonrpc": "2.0", "id": 0, "method": "ping" }).to_string()).await;
    let challenge = reply.header("www-authenticate").unwrap_or_default().to_string();
    assert!(challenge.contains("scope=\"mcp\""), "{challenge}");
    server.stop().await;

    let open = HttpServer::start(&[&router]).await;
    let stderr = open.stderr.lock().unwrap().clone();
    let unprotected = stderr.lines().filter(|line| line.contains("expects OAuth")).collect::<Vec<_>>();
    assert_eq!(unprotected.len(), 1, "{stderr}");
    assert!(
        unprotected[0].contains("https://auth.example.com") && unprotected[0].contains("--auth-issuer"),
        "{stderr}"
    );
    open.stop().await;
}

/// The ready middlewares built for 25.6.18 (`--features contract-25-6-18`:
/// the fixtures `audit_25_6_18`, `filter_25_6_18`, `namespace_25_6_18`)
/// plugged in front of a 25.6.18 router as `wac plug` does it, served as
/// a 25.6.18 router, in both eras: names and URIs renamed, a denied tool
/// gone, and titles, structured output, a resource link, `_meta` and an
/// elicitation passing through. A 25.3.26 middleware does not plug in,
/// nor a 25.6.18 one into a 25.3.26 router.
#[tokio::test]
async fn the_middlewares_built_for_25_6_18_compose_over_a_25_6_18_router_in_both_eras() {
    use support::composition::{compose, try_plug};
    let composed = compose(&["audit_25_6_18", "filter_25_6_18", "namespace_25_6_18"], "router_25_6_18");
    let binary = binary().display().to_string();
    let grants = ["NAMESPACE_PREFIX=ns_", "NAMESPACE_URI_PREFIX=ns+", "FILTER_DENY_TOOLS=ns_fail,ns_nag"];
    let mut server = vec!["--", &binary, "serve", composed.path()];
    for grant in &grants {
        server.extend(["--env", grant]);
    }
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let weather = ["--mode", mode, "--tool", "ns_weather", "--args", r#"{"city":"Oslo"}"#];
        let weather = [&weather[..], &["--resource", "ns+fixture://readme", "--prompt", "ns_hello"]].concat();
        let book = ["--mode", mode, "--tool", "ns_book", "--args", r#"{"restaurant":"Chez Ada"}"#];
        let book = [&book[..], &["--talk-back", "accept", "--elicit-content", r#"{"people":3}"#]].concat();
        let link = ["--mode", mode, "--tool", "ns_link"];
        let denied = ["--mode", mode, "--tool", "ns_fail"];
        let (weather, book, link, denied) = tokio::join!(
            session_at(&server, &weather),
            session_at(&server, &book),
            session_at(&server, &link),
            session_at(&server, &denied)
        );

        let report = &weather.report;
        assert_eq!(report["protocolVersion"], version, "{mode}: {report}");
        assert_eq!(report["serverInfo"]["title"], "A 25.6.18 router", "{mode}: {report}");
        let tools = report["tools"].as_array().expect("tools");
        let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
        assert!(names.contains(&"ns_weather") && names.contains(&"ns_book"), "{mode}: {names:?}");
        assert!(!names.contains(&"ns_fail") && !names.contains(&"ns_nag"), "{mode}: {names:?}");
        assert!(names.iter().all(|name| name.starts_with("ns_")), "{mode}: {names:?}");
        let listed = tools.iter().find(|t| t["name"] == "ns_weather").unwrap();
        assert_eq!(listed["title"], "Weather report", "{mode}: {listed}");
        assert_eq!(listed["_meta"]["io.example/cost"], 1, "{mode}: {listed}");
        assert!(listed["outputSchema"].is_object(), "{mode}: {listed}");
        // The client checks structured content against the output schema.
        assert_eq!(report["call"]["structuredContent"], json!({ "city": "Oslo", "celsius": 21.5 }), "{mode}: {report}");
        let resource = &report["resources"][0];
        assert_eq!((&resource["uri"], &resource["title"]), (&json!("ns+fixture://readme"), &json!("Read me")));
        let read = &report["read"]["contents"][0];
        assert_eq!((&read["uri"], &read["text"]), (&json!("ns+fixture://readme"), &json!("# router-25-6-18\n")));
        assert_eq!(report["prompt"]["messages"][0]["content"]["text"], "Say hello.", "{mode}: {report}");
        assert_schema_valid(&weather, mode);

        let report = &book.report;
        assert_eq!(text(&report["call"]), "Booked Chez Ada for 3.", "{mode}: {report}");
        assert_eq!(report["talkBack"]["elicited"][0]["message"], "How many people?", "{mode}: {report}");
        assert_schema_valid(&book, mode);

        // What a tool returns passes as it came: the link names the
        // router's own URI.
        let call = &link.report["call"];
        let item = &call["content"][1];
        assert_eq!((&item["type"], &item["uri"]), (&json!("resource_link"), &json!("fixture://readme")), "{call}");
        assert_eq!(item["title"], "Read me", "{mode}: {call}");
        assert_eq!(call["_meta"]["io.example/trace"], json!({ "id": 7 }), "{mode}: {call}");
        assert_schema_valid(&link, mode);

        // Unknown to the client, as any tool the router lacks.
        let call = &denied.report["call"];
        assert_eq!((&call["code"], &call["error"]), (&json!(-32602), &json!("Unknown tool: ns_fail")), "{mode}");
    }

    // The audit line of a call that asks the user, without a client to answer.
    let mut call = std::process::Command::new(binary);
    call.args(["call", composed.path(), "ns_book", "--args", r#"{"restaurant":"X"}"#]);
    for grant in &grants {
        call.args(["--env", grant]);
    }
    let output = call.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = r#"[composed:stderr] {"call":"call-tool","name":"ns_book","argument_bytes":18,"outcome":"elicit","#;
    assert!(stderr.contains(line), "{stderr}");

    // A 25.3.26 middleware has no import a 25.6.18 router fills, nor the
    // other way round.
    let read = |name| std::fs::read(support::fixture(name)).unwrap();
    for (middleware, router) in [("filter", "router_25_6_18"), ("filter_25_6_18", "echo")] {
        let error = try_plug(&read(middleware), &read(router)).unwrap_err();
        assert!(error.contains("no matching imports"), "{middleware} over {router}: {error}");
    }
}
