//! A server that authenticates, and the requests a client makes to it: the
//! eras, the token, the challenge read back.

use mcp_wit_tests::support;
use serde_json::{Value, json};
use support::fixture_arg;
use support::http::{HttpServer, RawClient, Reply};

use super::issuer::Issuer;

pub(super) const LEGACY: &str = "2025-11-25";
pub(super) const MODERN: &str = "2026-07-28";

/// `mcp-wit serve echo.wasm --http 127.0.0.1:0 --auth-issuer ISSUER <args>`.
pub(super) async fn protected(issuer: &Issuer, args: &[&str]) -> HttpServer {
    let echo = fixture_arg("echo");
    let mut all = vec![echo.as_str(), "--auth-issuer", &issuer.url, "--auth-keys-cooldown", "1ms"];
    all.extend(args);
    HttpServer::start(&all).await
}

pub(super) fn with_token(server: &HttpServer, token: &str) -> RawClient {
    let mut client = server.client();
    client.token = Some(token.to_string());
    client
}

/// The `WWW-Authenticate` challenge's parameters.
pub(super) fn challenge(reply: &Reply) -> Vec<(String, String)> {
    let value = reply.header("www-authenticate").unwrap_or_else(|| panic!("no WWW-Authenticate: {reply:?}"));
    let rest = value.strip_prefix("Bearer ").unwrap_or_else(|| panic!("not a Bearer challenge: {value}"));
    rest.split("\", ")
        .map(|pair| {
            let (name, value) = pair.split_once("=\"").unwrap_or_else(|| panic!("bad parameter {pair:?} in {value}"));
            (name.to_string(), value.trim_end_matches('"').to_string())
        })
        .collect()
}

pub(super) fn param<'a>(challenge: &'a [(String, String)], name: &str) -> Option<&'a str> {
    challenge.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

pub(super) fn initialize_body() -> String {
    json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": support::initialize_params(LEGACY) })
        .to_string()
}

pub(super) fn echo_call(id: i64) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": "echo", "arguments": { "text": "hi" } } })
}
