//! `--secret` values masked in every form a log line can give them (L1):
//! JSON-escaped in what `--log-arguments` logs, and quoted by a host
//! warning about what a guest did. (The line split of guest output and the
//! query left out of a span's `url.full` are the library's unit tests.)

use mcp_wit_tests::support;
use serde_json::json;
use support::{RawServer, fixture_arg, text};

/// Serves `hostile` on stdio with its `TOKEN` secret set to `value` (and
/// `args` after), logging as `format` says; the session initialized.
async fn hostile_with_token(format: &str, value: &str, args: &[&str]) -> RawServer {
    let hostile = fixture_arg("hostile");
    let mut all = vec!["--log-format", format, "serve", &hostile, "--secret", "TOKEN"];
    all.extend(args);
    let mut server = RawServer::start_with_env(&all, &[("TOKEN", value)]);
    server.request(0, "initialize", support::initialize_params("2025-11-25")).await;
    server
}

/// A secret with a quote and a backslash is JSON-escaped in the answer
/// `--log-arguments` logs: masked all the same, in either log format.
#[tokio::test]
async fn a_secret_with_quotes_and_backslashes_is_masked_in_logged_arguments() {
    let secret = r#"tok"en\Q7Z9-value"#;
    for format in ["text", "json"] {
        let mut server = hostile_with_token(format, secret, &["--log-arguments"]).await;
        // The guest still reads the real value.
        assert_eq!(text(&server.call(1, "env", json!({ "name": "TOKEN" })).await), secret);
        server.finish_and_wait_for_stderr().await;
        let stderr = server.stderr.lock().unwrap().clone();
        assert!(stderr.contains("[redacted]"), "{format}: the answer was not logged:\n{stderr}");
        assert!(!stderr.contains("Q7Z9"), "{format}: a --secret value reached the log:\n{stderr}");
    }
}

/// The warning of a denied outgoing request quotes the guest's URL: a
/// secret in its path is masked, and its query is left out.
#[tokio::test]
async fn a_host_warning_quoting_a_guests_url_masks_the_secret() {
    // Its tell is letters and digits: digits alone (`4242`) can be in any
    // line's timestamp or duration, which made the check fail now and then.
    let secret = "s3cr3t-in-a-url-Q4K2";
    for format in ["text", "json"] {
        let mut server = hostile_with_token(format, secret, &[]).await;
        let url = format!("http://127.0.0.1:9/{secret}/data?key={secret}&page=2");
        let answer = server.call(1, "http-get", json!({ "url": url })).await;
        assert!(answer.to_string().contains("HttpRequestDenied"), "{answer}");
        server.finish_and_wait_for_stderr().await;
        let stderr = server.stderr.lock().unwrap().clone();
        assert!(stderr.contains("outgoing HTTP request denied"), "{format}: no warning:\n{stderr}");
        assert!(!stderr.contains("Q4K2"), "{format}: a --secret value reached the log:\n{stderr}");
        assert!(!stderr.contains("page=2"), "{format}: a query string reached the log:\n{stderr}");
    }
}
