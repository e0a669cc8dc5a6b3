//! completion/complete: values listed, errors mapped.

use std::collections::HashMap;

use mcp_wit_tests::support;
use rmcp::model::{ArgumentInfo, CompleteRequestParams, CompletionContext, Reference, RequestMetaObject};
use serde_json::json;
use support::rpc_error;

use super::everything::{last_result, raw_error, raw_everything, raw_result, serve_everything};

fn complete_params(prompt: &str, argument: &str, value: &str) -> CompleteRequestParams {
    CompleteRequestParams::new(Reference::for_prompt(prompt), ArgumentInfo::new(argument, value))
}

#[tokio::test]
async fn completion_lists_values_and_maps_errors() {
    let served = serve_everything().await;
    let complete = |params: CompleteRequestParams| served.client.complete(params);

    let result = complete(complete_params("greeting", "who", "lang-0")).await.expect("complete lang-0");
    let expected: Vec<String> = (0..100).map(|i| format!("lang-{i:03}")).collect();
    assert_eq!(result.completion.values, expected, "the image item is skipped");
    assert_eq!(result.completion.total, Some(100));
    assert_eq!(result.completion.has_more, Some(false));

    let result = complete(complete_params("greeting", "who", "")).await.expect("complete everything");
    assert_eq!(result.completion.values.len(), 100, "at most 100 values");
    assert_eq!(result.completion.values[0], "lang-000");
    assert_eq!(result.completion.total, Some(150));
    assert_eq!(result.completion.has_more, Some(true));
    let raw = last_result(&served, "completion/complete");
    assert_eq!((raw["completion"]["total"].clone(), raw["completion"]["hasMore"].clone()), (json!(150), json!(true)));

    let result = complete(complete_params("greeting", "who", "lang-14")).await.expect("complete lang-14");
    let expected: Vec<String> = (140..150).map(|i| format!("lang-{i}")).collect();
    assert_eq!(result.completion.values, expected);
    assert_eq!(result.completion.total, Some(10));

    // The context reaches the guest.
    let mut params = complete_params("greeting", "who", "lang-1");
    params.context = Some(CompletionContext::with_arguments(HashMap::from([("prefix".into(), "x-".into())])));
    let result = complete(params).await.expect("complete with context");
    assert_eq!(result.completion.values.len(), 50, "lang-100 … lang-149");
    assert!(result.completion.values.iter().all(|v| v.starts_with("x-lang-1")), "{:?}", result.completion.values);

    // Request _meta goes to the guest, which echoes it as the result's _meta.
    let mut meta = RequestMetaObject::new();
    meta.0.0.insert("trace".into(), json!("abc"));
    let mut params = complete_params("greeting", "who", "lang-149");
    params.meta = Some(meta);
    let result = complete(params).await.expect("complete with _meta");
    assert_eq!(result.completion.values, ["lang-149"]);
    let meta = result.meta.expect("_meta echoed");
    assert_eq!(meta.0.get("trace"), Some(&json!("abc")), "{meta:?}");

    for (prompt, argument, code) in [
        ("missing", "who", -32602),
        ("greeting", "bad", -32602),
        ("greeting", "schema", -32602),
        ("greeting", "boom", -32603),
    ] {
        let error = rpc_error(complete(complete_params(prompt, argument, "x")).await);
        assert_eq!(error.code.0, code, "{prompt}/{argument}: {error:?}");
    }
    let error = rpc_error(complete(complete_params("greeting", "boom", "x")).await);
    assert_eq!(error.message, "completion backend down");
    let error = rpc_error(complete(complete_params("greeting", "bad", "x")).await);
    assert_eq!(error.message, "bad argument");
    let error = rpc_error(complete(complete_params("greeting", "schema", "x")).await);
    assert_eq!(error.message, "schema mismatch");
    served.finish().await;

    // Exactly the request's _meta comes back (rmcp adds a progress token to
    // every request, so this is checked on a raw session).
    let mut server = raw_everything("2025-11-25").await;
    let answer = server
        .request(
            1,
            "completion/complete",
            json!({
                "ref": { "type": "ref/prompt", "name": "greeting" },
                "argument": { "name": "who", "value": "lang-14" },
                "_meta": { "trace": "abc" },
            }),
        )
        .await;
    let result = raw_result(&answer);
    assert_eq!(result["_meta"], json!({ "trace": "abc" }), "{answer}");
    assert_eq!(result["completion"]["values"].as_array().map(Vec::len), Some(10), "{answer}");
    assert_eq!(result["completion"]["hasMore"], false, "{answer}");
    // Without _meta there is none in the result.
    let answer = server
        .request(
            2,
            "completion/complete",
            json!({
                "ref": { "type": "ref/prompt", "name": "greeting" },
                "argument": { "name": "who", "value": "lang-149" },
            }),
        )
        .await;
    assert!(raw_result(&answer).get("_meta").is_none(), "{answer}");
    let answer = server
        .request(
            3,
            "completion/complete",
            json!({ "ref": { "type": "ref/prompt", "name": "missing" }, "argument": { "name": "who", "value": "" } }),
        )
        .await;
    raw_error(&answer, -32602);
    server.finish().await;
}
