//! The router functions of an Extism plugin's instance: each an export
//! called the way Extism calls it, its JSON mapped onto the contract (see
//! `runtime::plugin`).

use std::collections::BTreeMap;
use std::sync::Arc;

use mcp_wit_protocol::{Calls, FaultKind, GuestFault, GuestResult, contract};

use super::{FaultFrom, Guest, RouterInstance, empty_value, store_with, wit};
use crate::runtime::limits::Limits;
use crate::runtime::plugin::kernel::{Kernel, KernelView, PluginLogLevel};
use crate::runtime::plugin::{LinkedPlugin, PluginKind, mapping};
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
        limits: Limits,
        calls: Calls,
        config: Arc<BTreeMap<String, String>>,
    ) -> Result<Self, GuestFault> {
        let pre = plugin.pre(calls)?;
        let sandbox = policy
            .plugin_state(limits.timeout)
            .map_err(|e| GuestFault { kind: FaultKind::Instantiate, message: e.to_string() })?;
        let mut store = store_with(pre.module().engine(), sandbox, limits, calls);
        store.data_mut().kernel = Some(Box::new(Kernel::new(limits.max_memory, config)));
        let made = match calls {
            Calls::Blocking => pre.instantiate(&mut store),
            Calls::Async => pre.instantiate_async(&mut store).await,
        };
        let instance = made.map_err(|e| GuestFault::instantiate(e, store.data()))?;
        if let Ok(initialize) = instance.get_typed_func::<(), ()>(&mut store, "_initialize") {
            let done = match calls {
                Calls::Blocking => initialize.call(&mut store, ()),
                Calls::Async => initialize.call_async(&mut store, ()).await,
            };
            done.map_err(|e| GuestFault::instantiate(e, store.data()))?;
        }
        let guest = Guest::Plugin { instance, kind: plugin.kind, label: policy.label().into() };
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

    /// The `context.id` of the next v1-draft request: unique in the
    /// instance (the JSON-RPC id does not reach the router).
    fn next_request_id(&mut self) -> String {
        let kernel = self.store.data_mut().kernel();
        kernel.requests += 1;
        kernel.requests.to_string()
    }

    /// Whether the plugin exports `function`.
    fn exports(&mut self, function: &str) -> bool {
        match &self.guest {
            Guest::Plugin { instance, .. } => instance.get_func(&mut self.store, function).is_some(),
            Guest::Component { .. } => false,
        }
    }

    /// Calls `function` with `input` as Extism does: the kernel reset (the
    /// variables kept), the input set, the export run under the call's
    /// limits; non-zero is a failure.
    async fn plugin_export(&mut self, function: &str, input: &[u8]) -> GuestResult<Answer> {
        let Guest::Plugin { instance, label, .. } = &self.guest else {
            unreachable!("plugin exports are called on plugin instances only")
        };
        let label = label.clone();
        let Some(func) = instance.get_func(&mut self.store, function) else { return Ok(Answer::Missing) };
        let typed = func.typed::<(), i32>(&self.store).map_err(|_| GuestFault {
            kind: FaultKind::Trap,
            message: format!("the plugin's `{function}` is not a function `() -> i32`"),
        })?;
        let kernel = self.store.data_mut().kernel();
        kernel.reset();
        if kernel.set_input(input).is_none() {
            return Err(GuestFault {
                kind: FaultKind::MemoryLimit,
                message: format!("`{function}`: its input ({} bytes) does not fit the plugin's memory", input.len()),
            });
        }
        self.store.data().sandbox.output().begin_call();
        self.store.set_epoch_deadline(1);
        let returned = match self.calls {
            Calls::Blocking => typed.call(&mut self.store, ()),
            Calls::Async => typed.call_async(&mut self.store, ()).await,
        };
        let code = returned.map_err(|e| GuestFault::from_error(function, e, self.store.data()))?;
        let kernel = self.store.data_mut().kernel();
        for log in kernel.take_logs() {
            let message = log.message;
            match log.level {
                PluginLogLevel::Trace => tracing::trace!(plugin = %label, "{message}"),
                PluginLogLevel::Debug => tracing::debug!(plugin = %label, "{message}"),
                PluginLogLevel::Info => tracing::info!(plugin = %label, "{message}"),
                PluginLogLevel::Warn => tracing::warn!(plugin = %label, "{message}"),
                PluginLogLevel::Error => tracing::error!(plugin = %label, "{message}"),
            }
        }
        if code != 0 {
            return Ok(Answer::Failed(
                kernel.error().unwrap_or_else(|| format!("Returned non-zero exit code: {code}")),
            ));
        }
        Ok(Answer::Output(kernel.output().to_vec()))
    }

    /// The plugin's answer to a list, as a fault when it failed.
    async fn plugin_list(&mut self, function: &str, input: &[u8]) -> GuestResult<Option<Vec<u8>>> {
        match self.plugin_export(function, input).await? {
            Answer::Output(output) => Ok(Some(output)),
            Answer::Missing => Ok(None),
            Answer::Failed(message) => Err(GuestFault {
                kind: FaultKind::Trap,
                message: format!("the plugin's `{function}` failed: {message}"),
            }),
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

    /// Tools: a servlet's, or a v1-draft plugin's when it exports them
    /// (its resources, prompts and completions are not served yet).
    pub(super) async fn plugin_capabilities(&mut self) -> GuestResult<contract::ServerCapabilities> {
        let tools = match self.plugin_kind() {
            PluginKind::Servlet => true,
            PluginKind::V1Draft => self.exports("list_tools") || self.exports("call_tool"),
        };
        let tools = tools.then_some(contract::ToolsCapability { list_changed: None });
        Ok(contract::ServerCapabilities { tools, prompts: None, resources: None, completions: None })
    }

    pub(super) async fn plugin_list_tools(&mut self) -> GuestResult<Vec<contract::Tool>> {
        let (function, input) = match self.plugin_kind() {
            PluginKind::Servlet => ("describe", Vec::new()),
            PluginKind::V1Draft => ("list_tools", mapping::list_input(&self.next_request_id())),
        };
        let Some(output) = self.plugin_list(function, &input).await? else { return Ok(Vec::new()) };
        mapping::tools(&output).map_err(|message| GuestFault { kind: FaultKind::Trap, message })
    }

    pub(super) async fn plugin_call_tool(
        &mut self,
        name: &str,
        arguments: &wit::Value,
    ) -> GuestResult<Result<contract::CallToolResult, contract::ToolError>> {
        let (function, input) = match self.plugin_kind() {
            PluginKind::Servlet => ("call", mapping::call_input(name, &arguments.json)),
            PluginKind::V1Draft => {
                ("call_tool", mapping::call_tool_input(name, &arguments.json, &self.next_request_id()))
            }
        };
        Ok(match self.plugin_export(function, &input).await? {
            Answer::Output(output) => mapping::call_result(&output).map_err(contract::ToolError::ExecutionError),
            Answer::Failed(message) => Err(contract::ToolError::ExecutionError(message)),
            Answer::Missing => Err(contract::ToolError::NotFound(name.to_string())),
        })
    }

    // What the plugin kinds served here do not offer yet answers as a
    // router without it.

    pub(super) async fn plugin_list_resources(&mut self) -> GuestResult<Vec<contract::McpResource>> {
        Ok(Vec::new())
    }

    pub(super) async fn plugin_read_resource(
        &mut self,
        uri: &str,
    ) -> GuestResult<Result<contract::ReadResourceResult, contract::ResourceError>> {
        Ok(Err(contract::ResourceError::NotFound(uri.to_string())))
    }

    pub(super) async fn plugin_list_prompts(&mut self) -> GuestResult<Vec<contract::Prompt>> {
        Ok(Vec::new())
    }

    pub(super) async fn plugin_get_prompt(
        &mut self,
        name: &str,
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        Ok(Err(contract::PromptError::NotFound(name.to_string())))
    }

    pub(super) async fn plugin_complete(
        &mut self,
        _request: &wit::CompletionRequest,
    ) -> GuestResult<Result<contract::CompletionResponse, contract::CompletionError>> {
        Ok(Err(contract::CompletionError::NotFound("the plugin offers no completions".into())))
    }
}
