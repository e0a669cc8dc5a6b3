//! A typed component's instance: its exported functions called as tools,
//! their arguments converted from JSON against the function's types and
//! their result written back as text and structured content (see
//! `runtime::typed`).

use std::sync::Arc;

use mcp_wit_protocol::{CallMode, FaultKind, GuestFault, GuestResult, contract};
use wasmtime::Store;
use wasmtime::component::{Instance, Val};

use super::fault::FaultFrom;
use crate::runtime::limits::CallView;
use crate::runtime::store::{StoreData, arm_call};
use crate::runtime::typed::{self, Json, TypedTool, TypedTools};

/// What a typed component's instance holds beside its store.
pub(super) struct TypedGuest {
    instance: Instance,
    tools: TypedTools,
    /// Its name: the component's (a typed component names none itself).
    label: Arc<str>,
}

impl TypedGuest {
    pub(super) fn new(instance: Instance, tools: TypedTools, label: Arc<str>) -> Self {
        TypedGuest { instance, tools, label }
    }

    pub(super) async fn name(&mut self, _: &mut Store<StoreData>) -> GuestResult<String> {
        Ok(self.label.to_string())
    }

    pub(super) async fn instructions(&mut self, _: &mut Store<StoreData>) -> GuestResult<String> {
        Ok(String::new())
    }

    /// Tools only: a typed component has nothing else to offer.
    pub(super) async fn capabilities(&mut self, _: &mut Store<StoreData>) -> GuestResult<contract::ServerCapabilities> {
        Ok(contract::ServerCapabilities {
            tools: Some(contract::ToolsCapability { list_changed: None }),
            prompts: None,
            resources: None,
            completions: None,
        })
    }

    pub(super) async fn list_tools(&mut self, _: &mut Store<StoreData>) -> GuestResult<Vec<contract::Tool>> {
        Ok(self.tools.listed())
    }

    /// Calls the function behind the tool `name` with `arguments`, a JSON
    /// object naming each parameter.
    pub(super) async fn call_tool(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<contract::CallToolResult, contract::ToolError>> {
        let Some(tool) = self.tools.get(name) else { return Ok(Err(contract::ToolError::NotFound(name.to_string()))) };
        let given: serde_json::Value = match serde_json::from_str(arguments) {
            Ok(given) => given,
            Err(e) => {
                return Ok(Err(contract::ToolError::InvalidParameters(format!("the arguments are not JSON: {e}"))));
            }
        };
        let params = match typed::arguments(&given, &tool.params) {
            Ok(params) => params,
            Err(misfit) => return Ok(Err(contract::ToolError::InvalidParameters(misfit.to_string()))),
        };
        let func = self.instance.get_func(&mut *store, tool.index).ok_or_else(|| {
            GuestFault::new(
                FaultKind::Instantiate,
                format!("`{}` is not a function of the instance", tool.export_name()),
            )
        })?;
        // Any value of the right type: the call overwrites it.
        let mut results: Vec<Val> = tool.result.iter().map(|_| Val::Bool(false)).collect();
        arm_call(store);
        let called = match store.data().call_control().mode() {
            CallMode::Blocking => func.call(&mut *store, &params, &mut results),
            CallMode::Async => func.call_async(&mut *store, &params, &mut results).await,
        };
        called.map_err(|e| GuestFault::from_error(&tool.function, e, store.data()))?;
        Ok(Ok(answer(tool, results.first())))
    }

    pub(super) async fn list_resources(&mut self, _: &mut Store<StoreData>) -> GuestResult<Vec<contract::McpResource>> {
        Ok(Vec::new())
    }

    pub(super) async fn read_resource(
        &mut self,
        _: &mut Store<StoreData>,
        uri: &str,
    ) -> GuestResult<Result<contract::ReadResourceResult, contract::ResourceError>> {
        Ok(Err(contract::ResourceError::NotFound(uri.to_string())))
    }

    pub(super) async fn list_prompts(&mut self, _: &mut Store<StoreData>) -> GuestResult<Vec<contract::Prompt>> {
        Ok(Vec::new())
    }

    pub(super) async fn get_prompt(
        &mut self,
        _: &mut Store<StoreData>,
        name: &str,
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        Ok(Err(contract::PromptError::NotFound(name.to_string())))
    }

    pub(super) async fn get_prompt_with_arguments(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
        _: &[(String, String)],
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        self.get_prompt(store, name).await
    }

    pub(super) async fn complete(
        &mut self,
        _: &mut Store<StoreData>,
        _: &contract::CompletionRequest,
    ) -> GuestResult<Result<contract::CompletionResponse, contract::CompletionError>> {
        Ok(Err(contract::CompletionError::NotFound("a typed component offers no completions".into())))
    }

    pub(super) async fn list_resource_templates(
        &mut self,
        _: &mut Store<StoreData>,
    ) -> GuestResult<Vec<contract::ResourceTemplate>> {
        Ok(Vec::new())
    }

    pub(super) async fn subscription(
        &mut self,
        _: &mut Store<StoreData>,
        uri: &str,
        _: bool,
    ) -> GuestResult<Result<(), contract::ResourceError>> {
        Ok(Err(contract::ResourceError::NotFound(uri.to_string())))
    }

    pub(super) async fn roots_list_changed(&mut self, _: &mut Store<StoreData>) -> GuestResult<()> {
        Ok(())
    }
}

/// What a call answers: its result as text, and as structured content
/// (`{"result": …}`, the form of its output schema). A returned
/// `result`'s error is the tool's error, `isError` with the error's text
/// (Wassette answers it as a success); a function without a result
/// answers `null`, as Wassette does.
fn answer(tool: &TypedTool, returned: Option<&Val>) -> contract::CallToolResult {
    let text = |text: String| contract::Content::Text(contract::TextContent { text, annotations: None });
    let (Some(value), Some(ty)) = (returned, tool.result.as_ref()) else {
        return contract::CallToolResult {
            content: vec![text("null".into())],
            progress: None,
            meta: None,
            is_error: None,
            structured_content: None,
            meta_object: None,
        };
    };
    let json = typed::to_json(value, ty);
    // A `result`'s text is its side's value; anything else's, itself.
    let (shown, failed) = match (value, &json) {
        (Val::Result(outcome), Json::Object(entries)) => {
            (entries.first().map_or_else(|| "null".to_string(), |(_, side)| typed::display(side)), outcome.is_err())
        }
        _ => (typed::display(&json), false),
    };
    let structured = Json::object([("result", json)]);
    contract::CallToolResult {
        content: vec![text(shown)],
        progress: None,
        meta: None,
        is_error: failed.then_some(true),
        structured_content: Some(contract::Value { json: structured.to_text() }),
        meta_object: None,
    }
}
