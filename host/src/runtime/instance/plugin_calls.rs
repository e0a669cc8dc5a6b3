//! The router functions of an Extism plugin's instance: each an export
//! called the way Extism calls it, its JSON mapped onto the contract (see
//! `runtime::plugin`).

use std::collections::BTreeMap;
use std::sync::Arc;

use mcp_wit_protocol::{CallMode, FaultKind, GuestFault, GuestResult, contract};
use wasmtime::TypedFunc;

use super::{ENTRY_POINTS, FaultFrom, Guest, NotMade, RouterInstance, empty_value, wit};
use crate::runtime::budget::InstanceMemory;
use crate::runtime::limits::Limits;
use crate::runtime::plugin::kernel::{Kernel, KernelView, PluginLogLevel};
use crate::runtime::plugin::{LinkedPlugin, PluginKind, mapping};
use crate::runtime::store::store_with;
use crate::sandbox::SandboxPolicy;

/// What a plugin's export gave.
enum Answer {
    /// It returned 0: its output.
    Output(Vec<u8>),
    /// It returned non-zero: the error it set, or Extism's message.
    Failed(String),
    /// The plugin does not export it.
    Missing,
}

impl RouterInstance {
    /// A fresh instance of `plugin`, with its kernel and WASI preview 1
    /// under `policy`, initialised (`_initialize`, for WASI reactors).
    pub(in crate::runtime) async fn new_plugin(
        plugin: &LinkedPlugin,
        policy: &SandboxPolicy,
        (limits, memory): (Limits, Arc<InstanceMemory>),
        calls: CallMode,
        config: Arc<BTreeMap<String, String>>,
    ) -> Result<Self, NotMade> {
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
        let guest = Guest::Plugin {
            instance,
            kind: plugin.kind,
            signals: plugin.signals,
            label: policy.label().into(),
            entries: Default::default(),
            requests: 0,
        };
        Ok(RouterInstance { store, guest, calls, arguments: empty_value() })
    }

    /// Whether this instance runs an Extism plugin.
    pub(super) fn is_plugin(&self) -> bool {
        matches!(self.guest, Guest::Plugin { .. })
    }

    fn plugin_kind(&self) -> PluginKind {
        match &self.guest {
            Guest::Plugin { kind, .. } => *kind,
            Guest::Component { .. } => unreachable!("asked only of plugin instances"),
        }
    }

    /// The `context` of the next v1-draft request: an id unique in the
    /// instance (the JSON-RPC id does not reach the router), and the
    /// request's progress token, which `notify_progress` names.
    fn next_context(&mut self) -> serde_json::Value {
        let Guest::Plugin { requests, .. } = &mut self.guest else { unreachable!("asked only of plugin instances") };
        *requests += 1;
        let id = requests.to_string();
        let token = self.store.data().client().and_then(|link| link.progress_token());
        mapping::context(&id, token)
    }

    /// The entry point `function` (one of [`ENTRY_POINTS`]), `None` when the
    /// plugin does not export it; looked up once per instance.
    fn entry(&mut self, function: &str) -> GuestResult<Option<TypedFunc<(), i32>>> {
        let Guest::Plugin { instance, entries, .. } = &mut self.guest else {
            unreachable!("plugin exports are called on plugin instances only")
        };
        let slot = ENTRY_POINTS.iter().position(|name| *name == function).expect("one of the entry points");
        if let Some(found) = &entries[slot] {
            return Ok(found.clone());
        }
        let found = match instance.get_func(&mut self.store, function) {
            None => None,
            Some(func) => Some(func.typed::<(), i32>(&self.store).map_err(|_| {
                GuestFault::new(FaultKind::Trap, format!("the plugin's `{function}` is not a function `() -> i32`"))
            })?),
        };
        entries[slot] = Some(found.clone());
        Ok(found)
    }

    /// Whether the plugin exports `function`.
    fn exports(&mut self, function: &str) -> bool {
        matches!(self.entry(function), Ok(Some(_)))
    }

    /// Calls `function` with `input` as Extism does: the kernel reset (the
    /// variables kept), the input set, the export run under the call's
    /// limits; non-zero is a failure.
    async fn plugin_export(&mut self, function: &str, input: &[u8]) -> GuestResult<Answer> {
        let Some(typed) = self.entry(function)? else { return Ok(Answer::Missing) };
        let kernel = self.store.data_mut().kernel();
        kernel.reset();
        if kernel.set_input(input).is_none() {
            return Err(GuestFault::new(
                FaultKind::MemoryLimit,
                format!("`{function}`: its input ({} bytes) does not fit the plugin's memory", input.len()),
            ));
        }
        self.store.data().sandbox.output().begin_call();
        self.store.set_epoch_deadline(1);
        let returned = match self.calls {
            CallMode::Blocking => typed.call(&mut self.store, ()),
            CallMode::Async => typed.call_async(&mut self.store, ()).await,
        };
        let code = returned.map_err(|e| GuestFault::from_error(function, e, self.store.data()))?;
        let kernel = self.store.data_mut().kernel();
        let logs = kernel.take_logs();
        let failed =
            (code != 0).then(|| kernel.error().unwrap_or_else(|| format!("Returned non-zero exit code: {code}")));
        let output = if failed.is_none() { kernel.output().to_vec() } else { Vec::new() };
        let Guest::Plugin { label, .. } = &self.guest else { unreachable!("a plugin instance") };
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
    async fn plugin_list(&mut self, function: &str, input: &[u8]) -> GuestResult<Option<Vec<u8>>> {
        match self.plugin_export(function, input).await? {
            Answer::Output(output) => Ok(Some(output)),
            Answer::Missing => Ok(None),
            Answer::Failed(message) => {
                Err(GuestFault::new(FaultKind::Trap, format!("the plugin's `{function}` failed: {message}")))
            }
        }
    }

    pub(super) async fn plugin_name(&mut self) -> GuestResult<String> {
        match &self.guest {
            Guest::Plugin { label, .. } => Ok(label.to_string()),
            Guest::Component { .. } => unreachable!("asked only of plugin instances"),
        }
    }

    pub(super) async fn plugin_instructions(&mut self) -> GuestResult<String> {
        Ok(String::new())
    }

    /// Tools, for a servlet; for a v1-draft plugin, what its exports offer.
    pub(super) async fn plugin_capabilities(&mut self) -> GuestResult<contract::ServerCapabilities> {
        let Guest::Plugin { signals, .. } = self.guest else { unreachable!("asked only of plugin instances") };
        let tools = Some(contract::ToolsCapability { list_changed: signals.tools.then_some(true) });
        Ok(match self.plugin_kind() {
            PluginKind::Servlet => {
                contract::ServerCapabilities { tools, prompts: None, resources: None, completions: None }
            }
            PluginKind::V1Draft => contract::ServerCapabilities {
                tools: tools.filter(|_| self.exports("list_tools") || self.exports("call_tool")),
                prompts: (self.exports("list_prompts") || self.exports("get_prompt"))
                    .then_some(contract::PromptsCapability { list_changed: signals.prompts.then_some(true) }),
                resources: (self.exports("list_resources")
                    || self.exports("read_resource")
                    || self.exports("list_resource_templates"))
                .then_some(contract::ResourcesCapability {
                    subscribe: signals.updates.then_some(true),
                    list_changed: signals.resources.then_some(true),
                }),
                completions: self.exports("complete").then_some(contract::CompletionsCapability { enabled: true }),
            },
        })
    }

    pub(super) async fn plugin_list_tools(&mut self) -> GuestResult<Vec<contract::Tool>> {
        let (function, input) = match self.plugin_kind() {
            PluginKind::Servlet => ("describe", Vec::new()),
            PluginKind::V1Draft => ("list_tools", mapping::list_input(&self.next_context())),
        };
        let Some(output) = self.plugin_list(function, &input).await? else { return Ok(Vec::new()) };
        mapping::tools(&output).map_err(|message| GuestFault::new(FaultKind::Trap, message))
    }

    pub(super) async fn plugin_call_tool(
        &mut self,
        name: &str,
        arguments: &wit::Value,
    ) -> GuestResult<Result<contract::CallToolResult, contract::ToolError>> {
        let (function, input) = match self.plugin_kind() {
            PluginKind::Servlet => ("call", mapping::call_input(name, &arguments.json)),
            PluginKind::V1Draft => ("call_tool", mapping::call_tool_input(name, &arguments.json, &self.next_context())),
        };
        Ok(match self.plugin_export(function, &input).await? {
            Answer::Output(output) => mapping::call_result(&output).map_err(contract::ToolError::ExecutionError),
            Answer::Failed(message) => Err(contract::ToolError::ExecutionError(message)),
            Answer::Missing => Err(contract::ToolError::NotFound(name.to_string())),
        })
    }

    /// A v1-draft request export called with `request`; `None` when the
    /// plugin does not export it (a servlet exports none of them).
    async fn plugin_request(&mut self, function: &str, request: serde_json::Value) -> GuestResult<Option<Answer>> {
        if self.plugin_kind() == PluginKind::Servlet {
            return Ok(None);
        }
        let input = mapping::request_input(&request, &self.next_context());
        Ok(match self.plugin_export(function, &input).await? {
            Answer::Missing => None,
            answer => Some(answer),
        })
    }

    /// A v1-draft list export's items, mapped; none for a servlet or a
    /// plugin without the export.
    async fn plugin_list_of<T>(
        &mut self,
        function: &str,
        map: impl FnOnce(&[u8]) -> Result<Vec<T>, String>,
    ) -> GuestResult<Vec<T>> {
        if self.plugin_kind() == PluginKind::Servlet {
            return Ok(Vec::new());
        }
        let input = mapping::list_input(&self.next_context());
        let Some(output) = self.plugin_list(function, &input).await? else { return Ok(Vec::new()) };
        map(&output).map_err(|message| GuestFault::new(FaultKind::Trap, message))
    }

    pub(super) async fn plugin_list_resources(&mut self) -> GuestResult<Vec<contract::McpResource>> {
        self.plugin_list_of("list_resources", mapping::resources).await
    }

    pub(super) async fn plugin_read_resource(
        &mut self,
        uri: &str,
    ) -> GuestResult<Result<contract::ReadResourceResult, contract::ResourceError>> {
        Ok(match self.plugin_request("read_resource", serde_json::json!({ "uri": uri })).await? {
            None => Err(contract::ResourceError::NotFound(uri.to_string())),
            Some(Answer::Output(output)) => {
                mapping::read_result(&output).map_err(contract::ResourceError::ExecutionError)
            }
            Some(Answer::Failed(message)) => Err(contract::ResourceError::ExecutionError(message)),
            Some(Answer::Missing) => unreachable!("folded into None"),
        })
    }

    pub(super) async fn plugin_list_prompts(&mut self) -> GuestResult<Vec<contract::Prompt>> {
        self.plugin_list_of("list_prompts", mapping::prompts).await
    }

    pub(super) async fn plugin_get_prompt(
        &mut self,
        name: &str,
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        self.plugin_get_prompt_with_arguments(name, &[]).await
    }

    /// `get_prompt` with the client's arguments (the extension's
    /// `get-prompt-with-arguments`, which v1-draft plugins offer).
    pub(in crate::runtime) async fn plugin_get_prompt_with_arguments(
        &mut self,
        name: &str,
        arguments: &[(String, String)],
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        let arguments: serde_json::Map<String, serde_json::Value> =
            arguments.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect();
        let request = serde_json::json!({ "name": name, "arguments": arguments });
        Ok(match self.plugin_request("get_prompt", request).await? {
            None => Err(contract::PromptError::NotFound(name.to_string())),
            Some(Answer::Output(output)) => {
                mapping::prompt_result(&output).map_err(contract::PromptError::InternalError)
            }
            Some(Answer::Failed(message)) => Err(contract::PromptError::InternalError(message)),
            Some(Answer::Missing) => unreachable!("folded into None"),
        })
    }

    pub(super) async fn plugin_complete(
        &mut self,
        request: &wit::CompletionRequest,
    ) -> GuestResult<Result<contract::CompletionResponse, contract::CompletionError>> {
        let request = match mapping::complete_request(&request.input.json) {
            Ok(request) => request,
            Err(message) => return Ok(Err(contract::CompletionError::InvalidParameters(message))),
        };
        Ok(match self.plugin_request("complete", request).await? {
            None => Err(contract::CompletionError::NotFound("the plugin offers no completions".into())),
            Some(Answer::Output(output)) => {
                mapping::completion(&output).map_err(contract::CompletionError::ExecutionError)
            }
            Some(Answer::Failed(message)) => Err(contract::CompletionError::ExecutionError(message)),
            Some(Answer::Missing) => unreachable!("folded into None"),
        })
    }

    /// The extension's `list-resource-templates`, for v1-draft plugins.
    pub(in crate::runtime) async fn plugin_list_resource_templates(
        &mut self,
    ) -> GuestResult<Vec<contract::ResourceTemplate>> {
        self.plugin_list_of("list_resource_templates", mapping::resource_templates).await
    }

    /// The client's roots changed: `on_roots_list_changed`, if exported.
    pub(in crate::runtime) async fn plugin_roots_list_changed(&mut self) -> GuestResult<()> {
        let input = br#"{"_meta":{}}"#;
        match self.plugin_export("on_roots_list_changed", input).await? {
            Answer::Failed(message) => {
                Err(GuestFault::new(FaultKind::Trap, format!("`on_roots_list_changed` failed: {message}")))
            }
            Answer::Output(_) | Answer::Missing => Ok(()),
        }
    }
}
