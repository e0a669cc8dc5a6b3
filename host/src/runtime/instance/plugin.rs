//! The router functions of an Extism plugin's instance: each an export
//! called the way Extism calls it, its JSON mapped onto the contract (see
//! `runtime::plugin`).

use std::collections::BTreeMap;
use std::sync::Arc;

use mcp_wit_protocol::{CallMode, FaultKind, GuestFault, GuestResult, contract};
use wasmtime::{Store, TypedFunc};

use super::fault::{FaultFrom, NotMade};
use crate::runtime::budget::InstanceMemory;
use crate::runtime::client::ClientView;
use crate::runtime::limits::{CallView, Limits};
use crate::runtime::mcp_json;
use crate::runtime::plugin::kernel::{Kernel, KernelView, PluginLogLevel};
use crate::runtime::plugin::{ENTRY_POINTS, LinkedPlugin, PluginKind, PluginSignals, mapping};
use crate::runtime::store::{StoreData, arm_call, store_with};
use crate::sandbox::SandboxPolicy;

/// What a plugin's instance holds beside its store.
pub(super) struct PluginGuest {
    instance: wasmtime::Instance,
    kind: PluginKind,
    /// What it can say changed.
    signals: PluginSignals,
    label: Arc<str>,
    /// Its entry points ([`ENTRY_POINTS`]), each looked up and its type
    /// checked on first use; `Some(None)`: not exported.
    entries: [Option<Option<TypedFunc<(), i32>>>; ENTRY_POINTS.len()],
    /// Requests made of it so far (for their `context.id`).
    requests: u64,
}

/// What a plugin's export gave.
enum Answer {
    /// It returned 0: its output.
    Output(Vec<u8>),
    /// It returned non-zero: the error it set, or Extism's message.
    Failed(String),
    /// The plugin does not export it.
    Missing,
}

impl PluginGuest {
    /// A fresh instance of `plugin`, with its kernel and WASI preview 1
    /// under `policy`, initialised (`_initialize`, for WASI reactors).
    pub(super) async fn new(
        plugin: &LinkedPlugin,
        policy: &SandboxPolicy,
        (limits, memory): (Limits, Arc<InstanceMemory>),
        calls: CallMode,
        config: Arc<BTreeMap<String, String>>,
    ) -> Result<(Store<StoreData>, Self), NotMade> {
        let pre = plugin.pre(calls)?;
        let sandbox =
            policy.plugin_state(limits.timeout).map_err(|e| GuestFault::new(FaultKind::Instantiate, e.to_string()))?;
        // The kernel's blocks count with the plugin's memory: one cap, one budget.
        let kernel = Kernel::new(memory.clone(), config);
        let mut store = store_with(pre.module().engine(), sandbox, limits, calls, memory);
        store.data_mut().kernel = Some(Box::new(kernel));
        let made = match calls {
            CallMode::Blocking => pre.instantiate(&mut store),
            CallMode::Async => pre.instantiate_async(&mut store).await,
        };
        let instance = made.map_err(|e| NotMade::of(e, store.data()))?;
        if let Ok(initialize) = instance.get_typed_func::<(), ()>(&mut store, "_initialize") {
            let done = match calls {
                CallMode::Blocking => initialize.call(&mut store, ()),
                CallMode::Async => initialize.call_async(&mut store, ()).await,
            };
            done.map_err(|e| GuestFault::instantiate(e, store.data()))?;
        }
        let guest = PluginGuest {
            instance,
            kind: plugin.kind,
            signals: plugin.signals,
            label: policy.label().into(),
            entries: Default::default(),
            requests: 0,
        };
        Ok((store, guest))
    }
}

impl PluginGuest {
    /// The `context` of the next v1-draft request: an id unique in the
    /// instance (the JSON-RPC id does not reach the router), and the
    /// request's progress token, which `notify_progress` names.
    fn next_context(&mut self, store: &Store<StoreData>) -> serde_json::Value {
        self.requests += 1;
        let id = self.requests.to_string();
        let token = store.data().client().and_then(|link| link.progress_token());
        mapping::context(&id, token)
    }

    /// The entry point `function` (one of [`ENTRY_POINTS`]), `None` when the
    /// plugin does not export it; looked up once per instance.
    fn entry(&mut self, store: &mut Store<StoreData>, function: &str) -> GuestResult<Option<TypedFunc<(), i32>>> {
        let slot = ENTRY_POINTS.iter().position(|name| *name == function).expect("one of the entry points");
        if let Some(found) = &self.entries[slot] {
            return Ok(found.clone());
        }
        let found = match self.instance.get_func(&mut *store, function) {
            None => None,
            Some(func) => Some(func.typed::<(), i32>(&*store).map_err(|_| {
                GuestFault::new(FaultKind::Trap, format!("the plugin's `{function}` is not a function `() -> i32`"))
            })?),
        };
        self.entries[slot] = Some(found.clone());
        Ok(found)
    }

    /// Whether the plugin exports `function`.
    fn exports(&mut self, store: &mut Store<StoreData>, function: &str) -> bool {
        matches!(self.entry(store, function), Ok(Some(_)))
    }

    /// Calls `function` with `input` as Extism does: the kernel reset (the
    /// variables kept), the input set, the export run under the call's
    /// limits; non-zero is a failure.
    async fn export(&mut self, store: &mut Store<StoreData>, function: &str, input: &[u8]) -> GuestResult<Answer> {
        let Some(typed) = self.entry(store, function)? else { return Ok(Answer::Missing) };
        let kernel = store.data_mut().kernel();
        kernel.reset();
        if kernel.set_input(input).is_none() {
            return Err(GuestFault::new(
                FaultKind::MemoryLimit,
                format!("`{function}`: its input ({} bytes) does not fit the plugin's memory", input.len()),
            ));
        }
        arm_call(store);
        let returned = match store.data().call_control().mode() {
            CallMode::Blocking => typed.call(&mut *store, ()),
            CallMode::Async => typed.call_async(&mut *store, ()).await,
        };
        let code = returned.map_err(|e| GuestFault::from_error(function, e, store.data()))?;
        let kernel = store.data_mut().kernel();
        let logs = kernel.take_logs();
        let failed =
            (code != 0).then(|| kernel.error().unwrap_or_else(|| format!("Returned non-zero exit code: {code}")));
        let output = if failed.is_none() { kernel.output().to_vec() } else { Vec::new() };
        let label = &self.label;
        for log in logs {
            let message = log.message;
            match log.level {
                PluginLogLevel::Trace => tracing::trace!(plugin = %label, "{message}"),
                PluginLogLevel::Debug => tracing::debug!(plugin = %label, "{message}"),
                PluginLogLevel::Info => tracing::info!(plugin = %label, "{message}"),
                PluginLogLevel::Warn => tracing::warn!(plugin = %label, "{message}"),
                PluginLogLevel::Error => tracing::error!(plugin = %label, "{message}"),
            }
        }
        Ok(match failed {
            Some(message) => Answer::Failed(message),
            None => Answer::Output(output),
        })
    }

    /// The plugin's answer to a list, as a fault when it failed.
    async fn list(
        &mut self,
        store: &mut Store<StoreData>,
        function: &str,
        input: &[u8],
    ) -> GuestResult<Option<Vec<u8>>> {
        match self.export(store, function, input).await? {
            Answer::Output(output) => Ok(Some(output)),
            Answer::Missing => Ok(None),
            Answer::Failed(message) => {
                Err(GuestFault::new(FaultKind::Trap, format!("the plugin's `{function}` failed: {message}")))
            }
        }
    }

    pub(super) async fn name(&mut self, _: &mut Store<StoreData>) -> GuestResult<String> {
        Ok(self.label.to_string())
    }

    pub(super) async fn instructions(&mut self, _: &mut Store<StoreData>) -> GuestResult<String> {
        Ok(String::new())
    }

    /// Tools, for a servlet; for a v1-draft plugin, what its exports offer.
    pub(super) async fn capabilities(
        &mut self,
        store: &mut Store<StoreData>,
    ) -> GuestResult<contract::ServerCapabilities> {
        let signals = self.signals;
        let tools = Some(contract::ToolsCapability { list_changed: signals.tools.then_some(true) });
        Ok(match self.kind {
            PluginKind::Servlet => {
                contract::ServerCapabilities { tools, prompts: None, resources: None, completions: None }
            }
            PluginKind::V1Draft => {
                let mut exports = |function| self.exports(store, function);
                contract::ServerCapabilities {
                    tools: tools.filter(|_| exports("list_tools") || exports("call_tool")),
                    prompts: (exports("list_prompts") || exports("get_prompt"))
                        .then_some(contract::PromptsCapability { list_changed: signals.prompts.then_some(true) }),
                    resources: (exports("list_resources")
                        || exports("read_resource")
                        || exports("list_resource_templates"))
                    .then_some(contract::ResourcesCapability {
                        subscribe: signals.updates.then_some(true),
                        list_changed: signals.resources.then_some(true),
                    }),
                    completions: exports("complete").then_some(contract::CompletionsCapability { enabled: true }),
                }
            }
        })
    }

    pub(super) async fn list_tools(&mut self, store: &mut Store<StoreData>) -> GuestResult<Vec<contract::Tool>> {
        let (function, input) = match self.kind {
            PluginKind::Servlet => ("describe", Vec::new()),
            PluginKind::V1Draft => ("list_tools", mapping::list_input(&self.next_context(store))),
        };
        let Some(output) = self.list(store, function, &input).await? else { return Ok(Vec::new()) };
        mcp_json::tools(&output).map_err(|message| GuestFault::new(FaultKind::Trap, message))
    }

    pub(super) async fn call_tool(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<contract::CallToolResult, contract::ToolError>> {
        let (function, input) = match self.kind {
            PluginKind::Servlet => ("call", mapping::call_input(name, arguments)),
            PluginKind::V1Draft => ("call_tool", mapping::call_tool_input(name, arguments, &self.next_context(store))),
        };
        Ok(match self.export(store, function, &input).await? {
            Answer::Output(output) => mcp_json::call_result(&output).map_err(contract::ToolError::ExecutionError),
            Answer::Failed(message) => Err(contract::ToolError::ExecutionError(message)),
            Answer::Missing => Err(contract::ToolError::NotFound(name.to_string())),
        })
    }

    /// A v1-draft request export called with `request`; `None` when the
    /// plugin does not export it (a servlet exports none of them).
    async fn request(
        &mut self,
        store: &mut Store<StoreData>,
        function: &str,
        request: serde_json::Value,
    ) -> GuestResult<Option<Answer>> {
        if self.kind == PluginKind::Servlet {
            return Ok(None);
        }
        let input = mapping::request_input(&request, &self.next_context(store));
        Ok(match self.export(store, function, &input).await? {
            Answer::Missing => None,
            answer => Some(answer),
        })
    }

    /// A v1-draft list export's items, mapped; none for a servlet or a
    /// plugin without the export.
    async fn list_of<T>(
        &mut self,
        store: &mut Store<StoreData>,
        function: &str,
        map: impl FnOnce(&[u8]) -> Result<Vec<T>, String>,
    ) -> GuestResult<Vec<T>> {
        if self.kind == PluginKind::Servlet {
            return Ok(Vec::new());
        }
        let input = mapping::list_input(&self.next_context(store));
        let Some(output) = self.list(store, function, &input).await? else { return Ok(Vec::new()) };
        map(&output).map_err(|message| GuestFault::new(FaultKind::Trap, message))
    }

    pub(super) async fn list_resources(
        &mut self,
        store: &mut Store<StoreData>,
    ) -> GuestResult<Vec<contract::McpResource>> {
        self.list_of(store, "list_resources", mcp_json::resources).await
    }

    pub(super) async fn read_resource(
        &mut self,
        store: &mut Store<StoreData>,
        uri: &str,
    ) -> GuestResult<Result<contract::ReadResourceResult, contract::ResourceError>> {
        Ok(match self.request(store, "read_resource", serde_json::json!({ "uri": uri })).await? {
            None => Err(contract::ResourceError::NotFound(uri.to_string())),
            Some(Answer::Output(output)) => {
                mcp_json::read_result(&output).map_err(contract::ResourceError::ExecutionError)
            }
            Some(Answer::Failed(message)) => Err(contract::ResourceError::ExecutionError(message)),
            Some(Answer::Missing) => unreachable!("folded into None"),
        })
    }

    pub(super) async fn list_prompts(&mut self, store: &mut Store<StoreData>) -> GuestResult<Vec<contract::Prompt>> {
        self.list_of(store, "list_prompts", mcp_json::prompts).await
    }

    pub(super) async fn get_prompt(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        self.get_prompt_with_arguments(store, name, &[]).await
    }

    /// `get_prompt` with the client's arguments (the extension's
    /// `get-prompt-with-arguments`, which v1-draft plugins offer).
    pub(super) async fn get_prompt_with_arguments(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
        arguments: &[(String, String)],
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        let arguments: serde_json::Map<String, serde_json::Value> =
            arguments.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect();
        let request = serde_json::json!({ "name": name, "arguments": arguments });
        Ok(match self.request(store, "get_prompt", request).await? {
            None => Err(contract::PromptError::NotFound(name.to_string())),
            Some(Answer::Output(output)) => {
                mcp_json::prompt_result(&output).map_err(contract::PromptError::InternalError)
            }
            Some(Answer::Failed(message)) => Err(contract::PromptError::InternalError(message)),
            Some(Answer::Missing) => unreachable!("folded into None"),
        })
    }

    pub(super) async fn complete(
        &mut self,
        store: &mut Store<StoreData>,
        request: &contract::CompletionRequest,
    ) -> GuestResult<Result<contract::CompletionResponse, contract::CompletionError>> {
        let request = match mapping::complete_request(&request.input.json) {
            Ok(request) => request,
            Err(message) => return Ok(Err(contract::CompletionError::InvalidParameters(message))),
        };
        Ok(match self.request(store, "complete", request).await? {
            None => Err(contract::CompletionError::NotFound("the plugin offers no completions".into())),
            Some(Answer::Output(output)) => {
                mcp_json::completion(&output).map_err(contract::CompletionError::ExecutionError)
            }
            Some(Answer::Failed(message)) => Err(contract::CompletionError::ExecutionError(message)),
            Some(Answer::Missing) => unreachable!("folded into None"),
        })
    }

    /// The extension's `list-resource-templates`, for v1-draft plugins.
    pub(super) async fn list_resource_templates(
        &mut self,
        store: &mut Store<StoreData>,
    ) -> GuestResult<Vec<contract::ResourceTemplate>> {
        self.list_of(store, "list_resource_templates", mcp_json::resource_templates).await
    }

    /// A v1-draft plugin has nothing to be told of subscriptions:
    /// acknowledged.
    pub(super) async fn subscription(
        &mut self,
        _: &mut Store<StoreData>,
        _uri: &str,
        _subscribe: bool,
    ) -> GuestResult<Result<(), contract::ResourceError>> {
        Ok(Ok(()))
    }

    /// The client's roots changed: `on_roots_list_changed`, if exported.
    pub(super) async fn roots_list_changed(&mut self, store: &mut Store<StoreData>) -> GuestResult<()> {
        let input = br#"{"_meta":{}}"#;
        match self.export(store, "on_roots_list_changed", input).await? {
            Answer::Failed(message) => {
                Err(GuestFault::new(FaultKind::Trap, format!("`on_roots_list_changed` failed: {message}")))
            }
            Answer::Output(_) | Answer::Missing => Ok(()),
        }
    }
}
