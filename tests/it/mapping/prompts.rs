//! prompts: list, get, and their failures.

use mcp_wit_tests::support;
use rmcp::model::{ContentBlock, GetPromptRequestParams, Role};
use serde_json::{Value, json};
use support::{object, rpc_error};

use super::everything::{last_result, serve_everything};

#[tokio::test]
async fn prompts_list_get_and_fail() {
    let served = serve_everything().await;
    let prompts = served.client.list_prompts(None).await.expect("prompts/list").prompts;
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["greeting", "mixed", "invalid", "broken"]);
    assert_eq!(prompts[0].description.as_deref(), Some("Greets someone"));
    let arguments = prompts[0].arguments.as_ref().expect("greeting has arguments");
    assert_eq!(arguments.len(), 1);
    assert_eq!(arguments[0].name, "who");
    assert_eq!(arguments[0].description.as_deref(), Some("Who to greet"));
    assert_eq!(arguments[0].required, Some(true));
    assert_eq!(prompts[1].description.as_deref(), Some("One message of each content kind"));
    assert!(prompts[1].arguments.is_none());
    assert!(prompts[2].description.is_none() && prompts[2].arguments.is_none());
    assert!(prompts[3].description.is_none() && prompts[3].arguments.is_none());
    assert_eq!(
        last_result(&served, "prompts/list"),
        json!({ "prompts": [
            {
                "name": "greeting", "description": "Greets someone",
                "arguments": [{ "name": "who", "description": "Who to greet", "required": true }],
            },
            { "name": "mixed", "description": "One message of each content kind" },
            { "name": "invalid" },
            { "name": "broken" },
        ]})
    );

    let get = |name: &str, arguments: Option<Value>| {
        let mut params = GetPromptRequestParams::new(name);
        params.arguments = arguments.map(object);
        served.client.get_prompt(params)
    };

    // Arguments are type-checked, then ignored.
    let greeting = get("greeting", Some(json!({ "who": "Ada" }))).await.expect("prompts/get greeting");
    assert_eq!(greeting.description.as_deref(), Some("A greeting"));
    assert_eq!(greeting.messages.len(), 1);
    assert_eq!(greeting.messages[0].role, Role::User);
    assert_eq!(greeting.messages[0].content.as_text().map(|t| t.text.as_str()), Some("Please greet someone warmly."));

    let mixed = get("mixed", None).await.expect("prompts/get mixed");
    let roles: Vec<Role> = mixed.messages.iter().map(|m| m.role.clone()).collect();
    assert_eq!(roles, [Role::User, Role::Assistant, Role::User]);
    assert!(mixed.description.is_none());
    let text = mixed.messages[0].content.as_text().expect("text first");
    assert_eq!(text.text, "look at this");
    assert_eq!(text.annotations.as_ref().and_then(|a| a.audience.clone()), Some(vec![Role::User]));
    assert!(matches!(mixed.messages[1].content, ContentBlock::Image(_)), "{:?}", mixed.messages[1]);
    assert!(mixed.messages[2].content.as_resource().is_some(), "{:?}", mixed.messages[2]);
    assert_eq!(
        last_result(&served, "prompts/get"),
        json!({ "messages": [
            { "role": "user", "content": { "type": "text", "text": "look at this", "annotations": { "audience": ["user"], "priority": 0.3 } } },
            { "role": "assistant", "content": { "type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png" } },
            { "role": "user", "content": {
                "type": "resource",
                "resource": { "uri": "everything://text", "mimeType": "text/plain", "text": "hello from a resource" },
            } },
        ]})
    );

    let error = rpc_error(get("invalid", None).await);
    assert_eq!(error.code.0, -32602, "{error:?}");
    assert!(error.message.contains("this prompt needs arguments the contract cannot carry"), "{error:?}");

    let error = rpc_error(get("broken", None).await);
    assert_eq!(error.code.0, -32603, "{error:?}");
    assert_eq!(error.message, "prompt store unavailable");

    let error = rpc_error(get("no-such-prompt", None).await);
    assert_eq!(error.code.0, -32602, "{error:?}");
    assert_eq!(error.message, "Unknown prompt: no-such-prompt");
    served.finish().await;
}
