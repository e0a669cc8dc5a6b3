//! One MCP session: its lifecycle, its guest instance and request dispatch.
//!
//! A [`Session`] takes one JSON-RPC message at a time and writes the messages
//! it produces (notifications, then the response) to an [`Outbox`]. It knows
//! nothing of transports: stdio, HTTP and the embedding API all drive it the
//! same way.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll, Wake, Waker};

use serde::Serialize;
use serde_json::value::RawValue;

use super::cancel::Canceller;
use super::jsonrpc::{self, Incoming, RpcError, code};
use super::mapping;
use super::params::{self, LogLevel};
use super::routers::Routers;
use super::version::ProtocolVersion;
use crate::runtime::bindings::wit;
use crate::runtime::limits::{CancelFlag, TickHook};
use crate::runtime::{FaultKind, GuestFault, LoadedComponent, RouterInstance};

/// Receives the serialised messages a session produces, in order.
pub trait Outbox {
    /// One complete JSON-RPC message (no trailing newline).
    fn send(&mut self, message: &[u8]);
}

impl Outbox for Vec<Vec<u8>> {
    fn send(&mut self, message: &[u8]) {
        self.push(message.to_vec());
    }
}

/// Output buffer capacity kept between messages.
const RETAINED_BUFFER: usize = 1 << 20;

/// Default for [`SessionOptions::max_output`]: 16 MiB.
pub const DEFAULT_MAX_OUTPUT: usize = 16 << 20;

/// Settings a session is created with.
#[derive(Debug, Clone)]
pub struct SessionOptions {
    /// Page size for list results; `None` returns every item in one page.
    pub page_size: Option<usize>,
    /// Largest result a guest may produce, in serialised bytes; a larger one
    /// is replaced by -32603 (nothing partial is sent).
    pub max_output: usize,
    /// How guest instances are shared.
    pub instances: InstanceMode,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions { page_size: None, max_output: DEFAULT_MAX_OUTPUT, instances: InstanceMode::PerSession }
    }
}

/// How guest instances map onto sessions and requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InstanceMode {
    /// One instance per session: guest state lives across a session's calls.
    #[default]
    PerSession,
    /// A fresh instance per request: no state survives a call.
    PerRequest,
    /// One instance for all sessions, calls serialised on it.
    Shared,
}

/// Where the session is in its lifecycle.
enum Phase {
    /// `initialize` not yet received: only `initialize` and `ping` are served.
    New,
    /// Initialized with this revision.
    Ready(Ready),
}

struct Ready {
    version: ProtocolVersion,
    subscribe: bool,
}

/// One client's session with the router components it is served.
pub struct Session {
    routers: Routers,
    options: SessionOptions,
    /// The session's instance of each mounted component (per-session mode).
    instances: Vec<Option<RouterInstance>>,
    phase: Phase,
    /// Per mount: names of tools that declare an output schema (filled on first need).
    structured_tools: Vec<Option<HashSet<String>>>,
    log_level: Option<LogLevel>,
    canceller: Canceller,
    cancel_flag: CancelFlag,
    tick_hook: Option<TickHook>,
    /// Set when the request being handled was cancelled: it gets no response.
    cancelled: bool,
    buf: Vec<u8>,
    /// Tool arguments handed to the guest, kept so that their buffer is
    /// reused from call to call.
    arguments: wit::Value,
    /// The message being handled came through [`Session::handle_async`]: its
    /// guest calls are async, on instances made for that.
    asynchronous: bool,
    /// The mount of the guest call in progress. Still set when the next call
    /// starts, it means the future of [`Session::handle_async`] was dropped
    /// mid-call, which leaves that instance unusable.
    in_call: Option<usize>,
}

impl Session {
    /// A new, uninitialised session with one component, or several
    /// ([`Routers`]). Guests are instantiated on first use.
    pub fn new(routers: impl Into<Routers>, options: SessionOptions) -> Self {
        let routers = routers.into();
        let count = routers.mounts().len();
        Session {
            routers,
            options,
            instances: (0..count).map(|_| None).collect(),
            phase: Phase::New,
            structured_tools: vec![None; count],
            log_level: None,
            canceller: Canceller::default(),
            cancel_flag: CancelFlag::default(),
            tick_hook: None,
            cancelled: false,
            buf: Vec::with_capacity(1024),
            arguments: wit::Value { json: String::new() },
            asynchronous: false,
            in_call: None,
        }
    }

    /// A handle that cancels this session's requests from another thread or
    /// task (see [`Canceller`]).
    pub fn canceller(&self) -> Canceller {
        self.canceller.clone()
    }

    /// Runs `hook` at every epoch tick while a guest call is in progress
    /// (transports use it to look for cancellations during long calls).
    pub fn set_tick_hook(&mut self, hook: TickHook) {
        self.tick_hook = Some(hook);
    }

    /// Marks the session initialized at `version` without an `initialize`
    /// exchange: for transports where each request stands alone (stateless
    /// HTTP, where the revision comes from the `MCP-Protocol-Version` header).
    /// The guests are asked for their capabilities with blocking calls.
    pub fn assume_initialized(&mut self, version: ProtocolVersion) -> Result<(), RpcError> {
        self.asynchronous = false;
        block_on(self.assume_ready(version))
    }

    /// [`Self::assume_initialized`] with async guest calls (see
    /// [`Self::handle_async`]).
    pub async fn assume_initialized_async(&mut self, version: ProtocolVersion) -> Result<(), RpcError> {
        self.asynchronous = true;
        self.assume_ready(version).await
    }

    async fn assume_ready(&mut self, version: ProtocolVersion) -> Result<(), RpcError> {
        let mut subscribe = false;
        for i in 0..self.routers.mounts().len() {
            let caps = self.guest(i, async |g| g.capabilities_async().await).await?;
            subscribe |= caps.resources.and_then(|r| r.subscribe).unwrap_or(false);
        }
        self.phase = Phase::Ready(Ready { version, subscribe });
        Ok(())
    }

    /// The negotiated revision, once initialized.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        match &self.phase {
            Phase::New => None,
            Phase::Ready(ready) => Some(ready.version),
        }
    }

    /// The level the client asked for with `logging/setLevel`, if any.
    pub fn log_level(&self) -> Option<LogLevel> {
        self.log_level
    }

    /// Handles one incoming message, writing whatever it produces to `out`:
    /// nothing for notifications and responses, else zero or more
    /// notifications followed by exactly one response.
    ///
    /// Guest calls block the calling thread (see [`Self::handle_async`] for
    /// async ones).
    pub fn handle(&mut self, message: &[u8], out: &mut dyn Outbox) {
        self.asynchronous = false;
        block_on(self.handle_message(message, out));
    }

    /// [`Self::handle`] with async guest calls: the guests run on the
    /// executor's thread, each call on a fiber that gives the thread back
    /// while the guest waits on the host and at every epoch tick (see
    /// [`LoadedComponent::instantiate_async`]). The session's instances are
    /// made for async calls; one made for blocking calls is replaced.
    ///
    /// Run the future to its end (spawn it, so that it goes on if its caller
    /// leaves): dropped mid-call, it abandons the guest in the middle of its
    /// work, and the session replaces that instance at its next call.
    ///
    /// [`LoadedComponent::instantiate_async`]: crate::LoadedComponent::instantiate_async
    pub async fn handle_async(&mut self, message: &[u8], out: &mut (dyn Outbox + Send)) {
        self.asynchronous = true;
        self.handle_message(message, out).await;
    }

    async fn handle_message<O: Outbox + ?Sized>(&mut self, message: &[u8], out: &mut O) {
        match jsonrpc::parse(message) {
            Ok(Incoming::Request { id, method, params }) => {
                if !self.canceller.start(id.get(), &self.cancel_flag) {
                    tracing::debug!(id = id.get(), "dropping a request cancelled before it started");
                    return;
                }
                self.cancelled = false;
                let result = self.dispatch(id, &method, params, out).await;
                self.canceller.finish();
                match result {
                    Err(_) if self.cancelled => tracing::debug!(id = id.get(), "request cancelled: no response"),
                    Err(error) => self.send_error(Some(id), &error, out),
                    Ok(()) => {}
                }
            }
            Ok(Incoming::Notification { method, .. }) => self.notification(&method),
            Ok(Incoming::Response { id }) => {
                // The host sends no requests yet, so every response is unsolicited.
                tracing::debug!(id = id.get(), "ignoring a response to an unknown request");
            }
            Err(rejection) => self.send_error(rejection.id, &rejection.error, out),
        }
        if self.buf.capacity() > RETAINED_BUFFER {
            // One huge result must not pin its size for the session's life.
            self.buf = Vec::with_capacity(1024);
        }
    }

    fn notification(&mut self, method: &str) {
        match method {
            "notifications/initialized" | "notifications/roots/list_changed" => {}
            // In message order, the request a cancellation names has already
            // been answered; transports deliver earlier ones via `canceller()`.
            "notifications/cancelled" => {}
            other => tracing::debug!(method = other, "ignoring an unknown notification"),
        }
    }

    async fn dispatch<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        method: &str,
        params: Option<&RawValue>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let known = matches!(
            method,
            "initialize"
                | "ping"
                | "tools/list"
                | "tools/call"
                | "resources/list"
                | "resources/read"
                | "resources/templates/list"
                | "resources/subscribe"
                | "resources/unsubscribe"
                | "prompts/list"
                | "prompts/get"
                | "completion/complete"
                | "logging/setLevel"
        );
        if !known {
            return Err(RpcError::new(code::METHOD_NOT_FOUND, format!("Method not found: {method}")));
        }
        let version = match (&self.phase, method) {
            (_, "ping") => return self.reply(id, &mapping::Empty {}, out),
            (Phase::New, "initialize") => return self.initialize(id, params, out).await,
            (Phase::Ready(_), "initialize") => {
                return Err(RpcError::invalid_request("the session is already initialized"));
            }
            (Phase::New, _) => {
                return Err(RpcError::invalid_request(format!("`{method}` before `initialize`; initialize first")));
            }
            (Phase::Ready(ready), _) => ready.version,
        };
        match method {
            "tools/list" => self.list_tools(id, params, version, out).await,
            "tools/call" => self.call_tool(id, params, version, out).await,
            "resources/list" => self.list_resources(id, params, version, out).await,
            "resources/read" => self.read_resource(id, params, out).await,
            "resources/templates/list" => {
                params::decode::<params::ListParams<'_>>(params)?;
                self.reply(id, &serde_json::json!({ "resourceTemplates": [] }), out)
            }
            "resources/subscribe" | "resources/unsubscribe" => self.subscription(id, params, method, out),
            "prompts/list" => self.list_prompts(id, params, out).await,
            "prompts/get" => self.get_prompt(id, params, version, out).await,
            "completion/complete" => self.complete(id, params, out).await,
            "logging/setLevel" => {
                let p: params::SetLevelParams = params::decode_owned(params)?;
                self.log_level = Some(p.level);
                self.reply(id, &mapping::Empty {}, out)
            }
            _ => unreachable!("every known method is dispatched"),
        }
    }

    async fn initialize<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let p: params::InitializeParams<'_> = params::decode(params)?;
        if !p.capabilities.get().starts_with('{') {
            return Err(RpcError::invalid_params("`capabilities` must be an object"));
        }
        let version = ProtocolVersion::negotiate(&p.protocol_version);
        let mut about = Vec::with_capacity(self.routers.mounts().len());
        for i in 0..self.routers.mounts().len() {
            about.push(
                self.guest(i, async |g| {
                    Ok((g.name_async().await?, g.instructions_async().await?, g.capabilities_async().await?))
                })
                .await?,
            );
        }
        let (name, instructions, caps) =
            if self.routers.is_single() { about.pop().expect("one mount") } else { merge_about(&self.routers, about) };
        tracing::info!(client = %p.client_info.name, client_version = %p.client_info.version,
            %version, server = %name, "session initialized");

        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct InitializeResult<'a> {
            protocol_version: &'static str,
            capabilities: mapping::Capabilities,
            server_info: ServerInfo<'a>,
            #[serde(skip_serializing_if = "str::is_empty")]
            instructions: &'a str,
        }
        #[derive(Serialize)]
        struct ServerInfo<'a> {
            name: &'a str,
            version: &'static str,
        }
        let result = InitializeResult {
            protocol_version: version.as_str(),
            capabilities: mapping::capabilities(&caps, version),
            server_info: ServerInfo { name: &name, version: env!("CARGO_PKG_VERSION") },
            instructions: &instructions,
        };
        self.reply(id, &result, out)?;
        let subscribe = caps.resources.and_then(|r| r.subscribe).unwrap_or(false);
        self.phase = Phase::Ready(Ready { version, subscribe });
        Ok(())
    }

    async fn list_tools<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        v: ProtocolVersion,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let p: params::ListParams<'_> = params::decode(params)?;
        let mut per_mount = Vec::with_capacity(self.routers.mounts().len());
        for i in 0..self.routers.mounts().len() {
            let tools = self.guest(i, async |g| g.list_tools_async().await).await?;
            self.structured_tools[i] = Some(structured_tool_names(&tools));
            per_mount.push(tools);
        }
        let routers = &self.routers;
        let valid: Vec<mapping::Tool<'_>> = per_mount
            .iter()
            .enumerate()
            .flat_map(|(i, tools)| tools.iter().map(move |t| (i, t)))
            .filter_map(|(i, t)| match mapping::tool(t, v) {
                Ok(tool) => Some(tool.with_name(routers.outward_name(i, &t.name))),
                Err(why) => {
                    let label = routers.mounts()[i].component.label();
                    tracing::warn!(component = %label, tool = %t.name, "leaving tool `{}` out of tools/list: {why}", t.name);
                    None
                }
            })
            .collect();
        let (page, next_cursor) = paginate(&valid, p.cursor.as_deref(), self.options.page_size)?;
        self.reply(id, &ListPage { key: "tools", items: page, next_cursor }, out)
    }

    async fn call_tool<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        v: ProtocolVersion,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let p: params::CallToolParams<'_> = params::decode(params)?;
        let arguments = match p.arguments.map(RawValue::get) {
            None | Some("null") => "{}",
            Some(text) if text.starts_with('{') => text,
            Some(_) => return Err(RpcError::invalid_params("`arguments` must be an object")),
        };
        let token = p.meta.and_then(|m| m.progress_token);
        if let Some(token) = token {
            let t = token.get();
            if !(t.starts_with('"') || t.parse::<i64>().is_ok()) {
                return Err(RpcError::invalid_params("`_meta.progressToken` must be a string or an integer"));
            }
        }
        let Some((mount, name)) = self.routers.route_name(&p.name) else {
            return Err(RpcError::new(code::INVALID_PARAMS, format!("Unknown tool: {}", p.name)));
        };
        let structured = v.has_structured_output() && self.declares_output_schema(mount, name).await?;
        let mut value = std::mem::take(&mut self.arguments.json);
        value.clear();
        value.push_str(arguments);
        let value = wit::Value { json: value };
        let result = self.guest(mount, async |g| g.call_tool_async(name, &value).await).await;
        if value.json.capacity() <= RETAINED_BUFFER {
            self.arguments = value;
        }
        let result = result?;
        match &result {
            Ok(result) => {
                if let (Some(token), Some(entries)) = (token, &result.progress) {
                    for params in mapping::progress_notifications(entries, token, v) {
                        self.notify("notifications/progress", &params, out);
                    }
                }
                self.reply(id, &mapping::call_tool_result(result, structured, v), out)
            }
            Err(wit::ToolError::NotFound(_)) => {
                Err(RpcError::new(code::INVALID_PARAMS, format!("Unknown tool: {}", p.name)))
            }
            Err(
                wit::ToolError::InvalidParameters(message)
                | wit::ToolError::ExecutionError(message)
                | wit::ToolError::SchemaError(message),
            ) => self.reply(id, &mapping::tool_error_result(message), out),
        }
    }

    /// Whether `name` of mount `mount` declares an output schema (lists
    /// tools once to learn).
    async fn declares_output_schema(&mut self, mount: usize, name: &str) -> Result<bool, RpcError> {
        if self.structured_tools[mount].is_none() {
            let tools = self.guest(mount, async |g| g.list_tools_async().await).await?;
            self.structured_tools[mount] = Some(structured_tool_names(&tools));
        }
        Ok(self.structured_tools[mount].as_ref().is_some_and(|names| names.contains(name)))
    }

    async fn list_resources<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        v: ProtocolVersion,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let p: params::ListParams<'_> = params::decode(params)?;
        let mut per_mount = Vec::with_capacity(self.routers.mounts().len());
        for i in 0..self.routers.mounts().len() {
            per_mount.push(self.guest(i, async |g| g.list_resources_async().await).await?);
        }
        let routers = &self.routers;
        let mapped: Vec<_> = per_mount
            .iter()
            .enumerate()
            .flat_map(|(i, list)| {
                list.iter().map(move |r| mapping::resource(r, v).with_uri(routers.outward_uri(i, &r.uri)))
            })
            .collect();
        let (page, next_cursor) = paginate(&mapped, p.cursor.as_deref(), self.options.page_size)?;
        self.reply(id, &ListPage { key: "resources", items: page, next_cursor }, out)
    }

    async fn read_resource<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let p: params::UriParams<'_> = params::decode(params)?;
        let not_found = || RpcError {
            code: code::RESOURCE_NOT_FOUND,
            message: format!("Resource not found: {}", p.uri),
            data: Some(serde_json::json!({ "uri": p.uri })),
        };
        let Some((mount, uri)) = self.routers.route_uri(&p.uri) else {
            return Err(not_found());
        };
        match self.guest(mount, async |g| g.read_resource_async(uri).await).await? {
            Ok(result) => {
                let routers = self.routers.clone();
                let mapped = mapping::read_resource_result(&result, |uri| routers.outward_uri(mount, uri));
                self.reply(id, &mapped, out)
            }
            Err(wit::ResourceError::NotFound(_)) => Err(not_found()),
            Err(wit::ResourceError::ExecutionError(message)) => Err(RpcError::internal(message)),
        }
    }

    fn subscription<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        method: &str,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let subscribe = matches!(&self.phase, Phase::Ready(r) if r.subscribe);
        if !subscribe {
            return Err(RpcError::new(
                code::METHOD_NOT_FOUND,
                format!("Method not found: {method} (the router does not offer resource subscriptions)"),
            ));
        }
        let p: params::UriParams<'_> = params::decode(params)?;
        if self.routers.route_uri(&p.uri).is_none() {
            return Err(RpcError::invalid_params(format!("no router serves {}", p.uri)));
        }
        // Accepted; the 25.3.26 contract has no way for a guest to signal an
        // update, so no `notifications/resources/updated` ever follows.
        self.reply(id, &mapping::Empty {}, out)
    }

    async fn list_prompts<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let p: params::ListParams<'_> = params::decode(params)?;
        let mut per_mount = Vec::with_capacity(self.routers.mounts().len());
        for i in 0..self.routers.mounts().len() {
            per_mount.push(self.guest(i, async |g| g.list_prompts_async().await).await?);
        }
        let routers = &self.routers;
        let mapped: Vec<_> = per_mount
            .iter()
            .enumerate()
            .flat_map(|(i, list)| {
                list.iter().map(move |p| mapping::prompt(p).with_name(routers.outward_name(i, &p.name)))
            })
            .collect();
        let (page, next_cursor) = paginate(&mapped, p.cursor.as_deref(), self.options.page_size)?;
        self.reply(id, &ListPage { key: "prompts", items: page, next_cursor }, out)
    }

    async fn get_prompt<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        v: ProtocolVersion,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let p: params::GetPromptParams<'_> = params::decode(params)?;
        let Some((mount, name)) = self.routers.route_name(&p.name) else {
            return Err(RpcError::new(code::INVALID_PARAMS, format!("Unknown prompt: {}", p.name)));
        };
        match self.guest(mount, async |g| g.get_prompt_async(name).await).await? {
            Ok(result) => self.reply(id, &mapping::get_prompt_result(&result, v), out),
            Err(wit::PromptError::NotFound(_)) => {
                Err(RpcError::new(code::INVALID_PARAMS, format!("Unknown prompt: {}", p.name)))
            }
            Err(wit::PromptError::InvalidParameters(message)) => Err(RpcError::new(code::INVALID_PARAMS, message)),
            Err(wit::PromptError::InternalError(message)) => Err(RpcError::internal(message)),
        }
    }

    async fn complete<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let p: params::CompleteParams<'_> = params::decode(params)?;
        // Type-check the parts the guest relies on before handing them over raw.
        let reference = serde_json::from_str::<params::CompletionReference>(p.reference.get())
            .map_err(|e| RpcError::invalid_params(format!("`ref`: {e}")))?;
        serde_json::from_str::<params::CompletionArgument>(p.argument.get())
            .map_err(|e| RpcError::invalid_params(format!("`argument`: {e}")))?;
        if p.context.is_some_and(|c| !c.get().starts_with('{')) {
            return Err(RpcError::invalid_params("`context` must be an object"));
        }
        let (mount, reference) = match &reference {
            _ if self.routers.is_single() => (0, Cow::Borrowed(p.reference.get())),
            params::CompletionReference::Prompt { name } => {
                let (mount, name) = self
                    .routers
                    .route_name(name)
                    .ok_or_else(|| RpcError::new(code::INVALID_PARAMS, format!("Unknown prompt: {name}")))?;
                (mount, Cow::Owned(serde_json::json!({ "type": "ref/prompt", "name": name }).to_string()))
            }
            params::CompletionReference::Resource { uri } => {
                let (mount, uri) = self
                    .routers
                    .route_uri(uri)
                    .ok_or_else(|| RpcError::new(code::INVALID_PARAMS, format!("Unknown resource: {uri}")))?;
                (mount, Cow::Owned(serde_json::json!({ "type": "ref/resource", "uri": uri }).to_string()))
            }
        };
        let mut input = format!(r#"{{"ref":{},"argument":{}"#, reference, p.argument.get());
        if let Some(context) = p.context {
            input.push_str(r#","context":"#);
            input.push_str(context.get());
        }
        input.push('}');
        let request = wit::CompletionRequest {
            input: wit::Value { json: input },
            streaming: None,
            meta: p.meta.map(meta_entries).transpose()?,
        };
        match self.guest(mount, async |g| g.complete_async(&request).await).await? {
            Ok(response) if response.is_error == Some(true) => {
                let text: Vec<&str> = response
                    .content
                    .iter()
                    .filter_map(|c| match c {
                        wit::Content::Text(t) => Some(t.text.as_str()),
                        _ => None,
                    })
                    .collect();
                Err(RpcError::internal(format!("completion failed: {}", text.join(" "))))
            }
            Ok(response) => self.reply(id, &mapping::complete_result(&response), out),
            // An empty guest message would make an empty error message: say what kind it was.
            Err(wit::CompletionError::NotFound(message)) => {
                Err(RpcError::new(code::INVALID_PARAMS, or_else(message, "no completions for this reference")))
            }
            Err(wit::CompletionError::InvalidParameters(message)) => {
                Err(RpcError::new(code::INVALID_PARAMS, or_else(message, "invalid completion request")))
            }
            Err(wit::CompletionError::SchemaError(message)) => {
                Err(RpcError::new(code::INVALID_PARAMS, or_else(message, "completion schema error")))
            }
            Err(wit::CompletionError::ExecutionError(message)) => {
                Err(RpcError::internal(or_else(message, "completion failed")))
            }
        }
    }

    /// Runs `call` on the session's instance of mount `mount`, creating it
    /// if needed. A fault drops the instance (a trap leaves it unusable) and
    /// becomes -32603.
    async fn guest<T>(
        &mut self,
        mount: usize,
        call: impl AsyncFnOnce(&mut RouterInstance) -> Result<T, GuestFault>,
    ) -> Result<T, RpcError> {
        // Cloned (an Arc) only where a branch needs it past `self`'s borrow:
        // not on the per-session path of every call.
        let component = |s: &Self| s.routers.mounts()[mount].component.clone();
        if let Some(abandoned) = self.in_call.take() {
            tracing::debug!(mount = abandoned, "a guest call was abandoned mid-way; its instance is replaced");
            self.retire_instance(abandoned);
        }
        let asynchronous = self.asynchronous;
        let unfit = |instance: &Option<RouterInstance>| instance.as_ref().is_none_or(|i| i.is_async() != asynchronous);
        match self.options.instances {
            InstanceMode::PerSession => {
                if unfit(&self.instances[mount]) {
                    let fresh = instantiate(&component(self), asynchronous).await;
                    self.instances[mount] = Some(fresh.map_err(|fault| self.fault(mount, fault))?);
                }
                let instance = self.instances[mount].as_mut().expect("instantiated above");
                instance.begin_request(&self.cancel_flag, self.tick_hook.as_ref());
                self.in_call = Some(mount);
                let result = call(instance).await;
                self.in_call = None;
                result.map_err(|fault| {
                    self.instances[mount] = None;
                    self.fault(mount, fault)
                })
            }
            InstanceMode::PerRequest => {
                let fresh = instantiate(&component(self), asynchronous).await;
                let mut instance = fresh.map_err(|fault| self.fault(mount, fault))?;
                instance.begin_request(&self.cancel_flag, self.tick_hook.as_ref());
                let result = call(&mut instance).await;
                result.map_err(|fault| self.fault(mount, fault))
            }
            InstanceMode::Shared => {
                let component = component(self);
                let shared = component.shared_instance();
                let mut slot = shared.slot.lock().await;
                if shared.retire.swap(false, Ordering::Relaxed) || unfit(&slot) {
                    *slot = None;
                    *slot =
                        Some(instantiate(&component, asynchronous).await.map_err(|fault| self.fault(mount, fault))?);
                }
                let instance = slot.as_mut().expect("instantiated above");
                instance.begin_request(&self.cancel_flag, self.tick_hook.as_ref());
                self.in_call = Some(mount);
                let result = call(instance).await;
                self.in_call = None;
                result.map_err(|fault| {
                    *slot = None;
                    self.fault(mount, fault)
                })
            }
        }
    }

    /// Drops every instance the next request would use (after a result over
    /// the output cap the instance that produced it is not known here).
    fn retire_instances(&mut self) {
        for mount in 0..self.routers.mounts().len() {
            self.retire_instance(mount);
        }
    }

    /// Drops the instance of `mount` the next request would use.
    fn retire_instance(&mut self, mount: usize) {
        match self.options.instances {
            InstanceMode::PerSession => self.instances[mount] = None,
            InstanceMode::PerRequest => {}
            // Replaced by the next call that holds its lock.
            InstanceMode::Shared => {
                self.routers.mounts()[mount].component.shared_instance().retire.store(true, Ordering::Relaxed);
            }
        }
    }

    fn fault(&mut self, mount: usize, fault: GuestFault) -> RpcError {
        let label = self.routers.mounts()[mount].component.label().to_owned();
        match fault.kind {
            FaultKind::Cancelled => {
                self.cancelled = true;
                tracing::info!(component = %label, "{}; the instance is replaced", fault.message);
            }
            FaultKind::Instantiate => {
                tracing::warn!(component = %label, "cannot instantiate: {}", fault.message);
            }
            _ => tracing::warn!(
                component = %label,
                "{}; the next request gets a fresh instance",
                fault.message
            ),
        }
        RpcError::internal(fault.message)
    }

    fn reply<T: Serialize, O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        result: &T,
        out: &mut O,
    ) -> Result<(), RpcError> {
        match jsonrpc::write_result(&mut self.buf, id, result) {
            Ok(()) if self.buf.len() > self.options.max_output => {
                let error = RpcError::internal(format!(
                    "the result of {} bytes exceeds the output limit of {} bytes",
                    self.buf.len(),
                    self.options.max_output
                ));
                tracing::warn!("{}; the instance is replaced", error.message);
                // The guest's memory grew to hold the oversized result and
                // never shrinks: a fresh instance gives it back.
                self.retire_instances();
                Err(error)
            }
            Ok(()) => {
                out.send(&self.buf);
                Ok(())
            }
            Err(e) => Err(RpcError::internal(format!("cannot serialise the result: {e}"))),
        }
    }

    fn notify<P: Serialize, O: Outbox + ?Sized>(&mut self, method: &str, params: &P, out: &mut O) {
        match jsonrpc::write_notification(&mut self.buf, method, params) {
            Ok(()) => out.send(&self.buf),
            Err(e) => tracing::warn!("cannot serialise a {method} notification: {e}"),
        }
    }

    fn send_error<O: Outbox + ?Sized>(&mut self, id: Option<&RawValue>, error: &RpcError, out: &mut O) {
        jsonrpc::write_error(&mut self.buf, id, error);
        out.send(&self.buf);
    }
}

/// A fresh instance of `component` for blocking or async calls.
async fn instantiate(component: &LoadedComponent, asynchronous: bool) -> Result<RouterInstance, GuestFault> {
    if asynchronous { component.instantiate_async().await } else { component.instantiate() }
}

/// Runs `future` to its end on this thread. Blocking guest calls finish at
/// the first poll; only waiting for the shared instance's lock suspends it,
/// and the lock's release wakes this thread.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    if let Poll::Ready(output) = future.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        return output;
    }
    let waker = Waker::from(Arc::new(ThreadWaker(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        match future.as_mut().poll(&mut cx) {
            Poll::Ready(output) => return output,
            Poll::Pending => std::thread::park(),
        }
    }
}

/// Wakes a thread parked in [`block_on`].
struct ThreadWaker(std::thread::Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Name, instructions and capabilities of several routers as one server:
/// names joined with `+`, each router's instructions under its prefix, and
/// the union of the capabilities.
fn merge_about(
    routers: &Routers,
    about: Vec<(String, String, wit::ServerCapabilities)>,
) -> (String, String, wit::ServerCapabilities) {
    let or = |a: Option<bool>, b: Option<bool>| match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(false) || b.unwrap_or(false)),
    };
    let mut names = Vec::new();
    let mut instructions = Vec::new();
    let mut caps = wit::ServerCapabilities { prompts: None, resources: None, tools: None, completions: None };
    for ((name, text, c), mount) in about.into_iter().zip(routers.mounts()) {
        names.push(name);
        if !text.trim().is_empty() {
            instructions.push(format!("[{}] {}", mount.prefix, text.trim()));
        }
        if let Some(p) = c.prompts {
            let prev = caps.prompts.take().and_then(|p| p.list_changed);
            caps.prompts = Some(wit::PromptsCapability { list_changed: or(prev, p.list_changed) });
        }
        if let Some(t) = c.tools {
            let prev = caps.tools.take().and_then(|t| t.list_changed);
            caps.tools = Some(wit::ToolsCapability { list_changed: or(prev, t.list_changed) });
        }
        if let Some(r) = c.resources {
            let prev = caps.resources.take();
            caps.resources = Some(wit::ResourcesCapability {
                subscribe: or(prev.as_ref().and_then(|p| p.subscribe), r.subscribe),
                list_changed: or(prev.as_ref().and_then(|p| p.list_changed), r.list_changed),
            });
        }
        if c.completions.is_some_and(|c| c.enabled) {
            caps.completions = Some(wit::CompletionsCapability { enabled: true });
        }
    }
    (names.join("+"), instructions.join("\n\n"), caps)
}

fn structured_tool_names(tools: &[wit::Tool]) -> HashSet<String> {
    tools.iter().filter(|t| t.output_schema.is_some()).map(|t| t.name.clone()).collect()
}

/// `_meta` of a request → the contract's meta entries (non-string values as JSON text).
fn meta_entries(meta: &RawValue) -> Result<Vec<wit::MetaEntry>, RpcError> {
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(meta.get()).map_err(|e| RpcError::invalid_params(format!("`_meta`: {e}")))?;
    Ok(map
        .into_iter()
        .map(|(key, value)| {
            let value = match value {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            wit::MetaEntry { key, value }
        })
        .collect())
}

/// One page of a list result: `{"<key>": [...], "nextCursor"?: "..."}`.
struct ListPage<'a, T> {
    key: &'static str,
    items: &'a [T],
    next_cursor: Option<String>,
}

impl<T: Serialize> Serialize for ListPage<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(self.key, self.items)?;
        if let Some(next) = &self.next_cursor {
            map.serialize_entry("nextCursor", next)?;
        }
        map.end()
    }
}

const CURSOR_PREFIX: &str = "mcp-wit:";

/// Cuts one page out of `items`. Cursors are opaque to clients; they carry
/// the offset of the next page.
fn paginate<'a, T>(
    items: &'a [T],
    cursor: Option<&str>,
    page_size: Option<usize>,
) -> Result<(&'a [T], Option<String>), RpcError> {
    let start = match cursor {
        None => 0,
        Some(c) => c
            .strip_prefix(CURSOR_PREFIX)
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n <= items.len())
            .ok_or_else(|| RpcError::invalid_params(format!("invalid cursor {c:?}")))?,
    };
    let end = page_size.map_or(items.len(), |size| (start + size.max(1)).min(items.len()));
    let next = (end < items.len()).then(|| format!("{CURSOR_PREFIX}{end}"));
    Ok((&items[start..end], next))
}

/// `message`, or `fallback` when the guest gave none.
fn or_else(message: String, fallback: &str) -> String {
    if message.trim().is_empty() { fallback.to_string() } else { message }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_with_opaque_cursors() {
        let items = [1, 2, 3, 4, 5];
        let (page, next) = paginate(&items, None, Some(2)).unwrap();
        assert_eq!((page, next.as_deref()), (&[1, 2][..], Some("mcp-wit:2")));
        let (page, next) = paginate(&items, next.as_deref(), Some(2)).unwrap();
        assert_eq!((page, next.as_deref()), (&[3, 4][..], Some("mcp-wit:4")));
        let (page, next) = paginate(&items, next.as_deref(), Some(2)).unwrap();
        assert_eq!((page, next), (&[5][..], None));
        assert_eq!(paginate(&items, None, None).unwrap(), (&items[..], None));
        for bad in ["nope", "mcp-wit:x", "mcp-wit:6"] {
            assert_eq!(paginate(&items, Some(bad), None).unwrap_err().code, code::INVALID_PARAMS);
        }
    }
}
