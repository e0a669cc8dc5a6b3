//! Which instance serves a session's call: the instance policy.
//!
//! Each session gets a [`PooledRouter`] per component (the protocol core's
//! [`Router`]); it picks the instance by the component's [`InstanceMode`],
//! makes instances on first need, and replaces one after a fault, after a
//! call abandoned mid-way, or when it was made for the other way of calling.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use mcp_wit_protocol::{CallContext, GuestResult, Router, contract};

use super::{LoadedComponent, RouterInstance};

/// How guest instances map onto sessions and requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InstanceMode {
    /// One instance per session: guest state lives across a session's calls.
    #[default]
    PerSession,
    /// A fresh instance per call: no state survives a call.
    PerRequest,
    /// One instance for all sessions, calls serialised on it.
    Shared,
}

/// The instance all sessions of a component share in [`InstanceMode::Shared`].
#[derive(Default)]
pub(super) struct SharedInstance {
    /// An async lock: async calls hold it across their awaits.
    slot: tokio::sync::Mutex<Option<RouterInstance>>,
    /// The instance is to be replaced before its next call.
    retire: AtomicBool,
}

/// One session's way to a component's instances.
pub struct PooledRouter {
    component: LoadedComponent,
    /// The session's own instance ([`InstanceMode::PerSession`]).
    own: Option<RouterInstance>,
    /// A call is in progress. Still set when the next call starts, it means
    /// the future of that call was dropped mid-way, which leaves the instance
    /// in the middle of its work.
    in_call: bool,
    /// When `own` last finished a call (kept only for a component whose
    /// instances are released once idle).
    last_used: Option<Instant>,
}

impl PooledRouter {
    /// A session's router for `component`; makes no instance yet.
    pub fn new(component: LoadedComponent) -> Self {
        PooledRouter { component, own: None, in_call: false, last_used: None }
    }

    /// Runs `call` on the instance the component's mode picks, making it if
    /// needed. A fault drops the instance (a trap leaves it unusable).
    async fn with_instance<T>(
        &mut self,
        cx: &CallContext,
        call: impl AsyncFnOnce(&mut RouterInstance) -> GuestResult<T>,
    ) -> GuestResult<T> {
        if std::mem::take(&mut self.in_call) {
            tracing::debug!(component = %self.component.label(), "a guest call was abandoned mid-way; its instance is replaced");
            self.retire();
        }
        let unfit = |instance: &Option<RouterInstance>| instance.as_ref().is_none_or(|i| i.calls() != cx.calls);
        match self.component.instance_mode() {
            InstanceMode::PerSession => {
                if unfit(&self.own) {
                    self.own = Some(self.component.instantiate_for(cx.calls).await?);
                }
                let instance = self.own.as_mut().expect("instantiated above");
                instance.begin_request(cx);
                self.in_call = true;
                let result = call(instance).await;
                self.in_call = false;
                instance.end_request();
                if result.is_err() {
                    self.own = None;
                }
                if self.component.instance_idle_timeout().is_some() {
                    self.last_used = Some(Instant::now());
                }
                result
            }
            InstanceMode::PerRequest => {
                let mut instance = self.component.instantiate_for(cx.calls).await?;
                instance.begin_request(cx);
                call(&mut instance).await
            }
            InstanceMode::Shared => {
                let component = self.component.clone();
                let shared = &component.inner.shared;
                let mut slot = shared.slot.lock().await;
                if shared.retire.swap(false, Ordering::Relaxed) || unfit(&slot) {
                    *slot = None;
                    *slot = Some(component.instantiate_for(cx.calls).await?);
                }
                let instance = slot.as_mut().expect("instantiated above");
                instance.begin_request(cx);
                self.in_call = true;
                let result = call(instance).await;
                self.in_call = false;
                instance.end_request();
                if result.is_err() {
                    *slot = None;
                }
                result
            }
        }
    }
}

impl Router for PooledRouter {
    async fn name(&mut self, cx: &CallContext) -> GuestResult<String> {
        self.with_instance(cx, async |i| i.name_async().await).await
    }

    async fn instructions(&mut self, cx: &CallContext) -> GuestResult<String> {
        self.with_instance(cx, async |i| i.instructions_async().await).await
    }

    async fn capabilities(&mut self, cx: &CallContext) -> GuestResult<contract::ServerCapabilities> {
        self.with_instance(cx, async |i| i.capabilities_async().await).await
    }

    async fn list_tools(&mut self, cx: &CallContext) -> GuestResult<Vec<contract::Tool>> {
        self.with_instance(cx, async |i| i.list_tools_async().await).await
    }

    async fn call_tool(
        &mut self,
        cx: &CallContext,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<contract::CallToolResult, contract::ToolError>> {
        self.with_instance(cx, async |i| i.call_tool_async(name, arguments).await).await
    }

    async fn list_resources(&mut self, cx: &CallContext) -> GuestResult<Vec<contract::McpResource>> {
        self.with_instance(cx, async |i| i.list_resources_async().await).await
    }

    async fn read_resource(
        &mut self,
        cx: &CallContext,
        uri: &str,
    ) -> GuestResult<Result<contract::ReadResourceResult, contract::ResourceError>> {
        self.with_instance(cx, async |i| i.read_resource_async(uri).await).await
    }

    async fn list_prompts(&mut self, cx: &CallContext) -> GuestResult<Vec<contract::Prompt>> {
        self.with_instance(cx, async |i| i.list_prompts_async().await).await
    }

    async fn get_prompt(
        &mut self,
        cx: &CallContext,
        name: &str,
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        self.with_instance(cx, async |i| i.get_prompt_async(name).await).await
    }

    async fn complete(
        &mut self,
        cx: &CallContext,
        request: &contract::CompletionRequest,
    ) -> GuestResult<Result<contract::CompletionResponse, contract::CompletionError>> {
        self.with_instance(cx, async |i| i.complete_async(request).await).await
    }

    async fn list_resource_templates(&mut self, cx: &CallContext) -> GuestResult<Vec<contract::ResourceTemplate>> {
        self.with_instance(cx, async |i| i.list_resource_templates_async().await).await
    }

    async fn get_prompt_with_arguments(
        &mut self,
        cx: &CallContext,
        name: &str,
        arguments: &[(String, String)],
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        self.with_instance(cx, async |i| i.get_prompt_with_arguments_async(name, arguments).await).await
    }

    async fn subscription(
        &mut self,
        cx: &CallContext,
        uri: &str,
        subscribe: bool,
    ) -> GuestResult<Result<(), contract::ResourceError>> {
        self.with_instance(cx, async |i| i.subscription_async(uri, subscribe).await).await
    }

    async fn roots_list_changed(&mut self, cx: &CallContext) -> GuestResult<()> {
        self.with_instance(cx, async |i| i.roots_list_changed_async().await).await
    }

    fn retire(&mut self) {
        match self.component.instance_mode() {
            InstanceMode::PerSession => self.own = None,
            InstanceMode::PerRequest => {}
            // Replaced by the next call that holds its lock.
            InstanceMode::Shared => self.component.inner.shared.retire.store(true, Ordering::Relaxed),
        }
    }

    fn holds_instance(&self) -> bool {
        // An instance abandoned mid-call is replaced at the next call anyway.
        self.component.instance_mode() == InstanceMode::PerSession && self.own.is_some() && !self.in_call
    }

    fn release_if_idle(&mut self, now: Instant) -> bool {
        let Some(timeout) = self.component.instance_idle_timeout() else { return false };
        let idle = self.last_used.is_some_and(|last| now.saturating_duration_since(last) >= timeout);
        if self.in_call || self.own.is_none() || !idle {
            return false;
        }
        self.own = None;
        self.last_used = None;
        true
    }
}
