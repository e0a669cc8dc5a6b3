//! One handler per request method: decode the params, call the routers, map
//! their values to MCP.

use serde::Serialize;
use serde_json::value::RawValue;

use super::era::RequestParams;
use super::exchange::Exchange;
use super::guest::guest_call;
use super::output::Outbox;
use super::state::SessionState;
#[cfg(feature = "validate")]
use super::tool_checks::{checked_output, refused_arguments};
use super::watch::TargetKind;
use crate::auth::OperationKind;
use crate::contract;
use crate::jsonrpc::{self, RpcError, code};
use crate::listeners::Interest;
use crate::mapping;
use crate::method::Method;
use crate::observe::{CLIENT_TEXT_BYTES, clipped};
use crate::params;
use crate::router::{Router, RouterComponent};
use crate::routers::{PromptNames, ToolFacts};
use crate::version::ProtocolVersion;

impl<C: RouterComponent> Exchange<C> {
    pub(super) async fn initialize(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        state: &mut SessionState,
    ) -> Result<(), RpcError> {
        if state.ready_version().is_some() {
            return Err(RpcError::invalid_request("the session is already initialized"));
        }
        self.initialize_with(id, params::decode(params)?, state).await
    }

    pub(super) async fn initialize_with(
        &mut self,
        id: &RawValue,
        p: params::InitializeParams<'_>,
        state: &mut SessionState,
    ) -> Result<(), RpcError> {
        if !p.capabilities.get().starts_with('{') {
            return Err(RpcError::invalid_params("`capabilities` must be an object"));
        }
        let version = ProtocolVersion::negotiate(&p.protocol_version);
        state.set_client(crate::client::ClientCapabilities::read(p.capabilities));
        // What the routers say of themselves does not change from one
        // instance to the next: asked of the first session's, then read, so
        // that a session makes an instance only of the routers it calls.
        let about = self.about().await?;
        let (name, instructions, caps) = (&about.name, &about.instructions, &about.capabilities);
        // The client names itself: clipped, as every client text in a log line.
        let (client, client_version) = (&p.client_info.name, &p.client_info.version);
        tracing::info!(client = %clipped(client, CLIENT_TEXT_BYTES), client_version = %clipped(client_version, CLIENT_TEXT_BYTES),
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
            #[serde(skip_serializing_if = "Option::is_none")]
            title: Option<&'a str>,
            version: &'static str,
            #[serde(skip_serializing_if = "Option::is_none")]
            icons: Option<&'a serde_json::value::RawValue>,
        }
        let result = InitializeResult {
            protocol_version: version.as_str(),
            capabilities: mapping::capabilities(caps, version),
            server_info: ServerInfo {
                name,
                title: about.title.as_deref().filter(|_| version.has_resource_links_and_titles()),
                version: env!("CARGO_PKG_VERSION"),
                // Checked when they were learnt.
                icons: about
                    .icons
                    .as_deref()
                    .filter(|_| version.has_icons())
                    .and_then(|icons| serde_json::from_str(icons).ok()),
            },
            instructions,
        };
        self.reply(id, &result)?;
        self.become_ready(version, caps, state);
        Ok(())
    }

    /// Starts serving a 2025 session at `version`, for routers that offer
    /// `caps`: from now on its client hears of the list changes they
    /// advertise, and of updates to the resources it subscribes to.
    pub(super) fn become_ready(
        &mut self,
        version: ProtocolVersion,
        caps: &contract::ServerCapabilities,
        state: &mut SessionState,
    ) {
        let subscribe = caps.resources.as_ref().and_then(|r| r.subscribe).unwrap_or(false);
        let changes = |flag: Option<bool>| flag.unwrap_or(false);
        let lists = [
            changes(caps.tools.as_ref().and_then(|t| t.list_changed)),
            changes(caps.prompts.as_ref().and_then(|p| p.list_changed)),
            changes(caps.resources.as_ref().and_then(|r| r.list_changed)),
        ];
        let interest = Interest { lists, ..Interest::default() };
        state.become_ready(version, subscribe, self.server.listeners(), interest);
    }

    pub(super) async fn list_tools(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        v: ProtocolVersion,
    ) -> Result<(), RpcError> {
        let p: params::ListParams<'_> = params::decode(params)?;
        let per_mount = self.list_every_mount(async |r, cx| r.list_tools(cx).await).await?;
        for (mount, tools) in per_mount.iter().enumerate() {
            self.server.learn_tools(mount, tools);
        }
        let routers = self.server.routers();
        let valid: Vec<mapping::Tool<'_>> = per_mount
            .iter()
            .enumerate()
            .flat_map(|(i, tools)| tools.iter().map(move |t| (i, t)))
            .filter(|(i, t)| self.shows(OperationKind::Tool, &routers.outward_name(*i, &t.name)))
            .filter_map(|(i, t)| match mapping::tool(t, v) {
                Ok(tool) => Some(tool.with_name(routers.outward_name(i, &t.name))),
                Err(why) => {
                    let label = routers.mounts()[i].component.label();
                    // Escaped and clipped: the name may be what is wrong with it.
                    let tool = clipped(&t.name, CLIENT_TEXT_BYTES);
                    let tool = tool.escape_debug();
                    tracing::warn!(component = %label, "leaving tool `{tool}` out of tools/list: {why}");
                    None
                }
            })
            .collect();
        self.reply_page(id, "tools", &valid, p.cursor.as_deref())
    }

    pub(super) async fn call_tool<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        params: RequestParams<'_>,
        v: ProtocolVersion,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let read;
        let p = match params.call_tool {
            Some(p) => p,
            None => {
                read = params::decode::<params::CallToolParams<'_>>(params.raw)?;
                &read
            }
        };
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
        let Some((mount, name)) = self.server.routers().route_name(&p.name) else { return Err(unknown_tool(&p.name)) };
        #[cfg(feature = "validate")]
        let validate_input = self.server.options().validate_input;
        #[cfg(not(feature = "validate"))]
        let validate_input = false;
        // What the tool declares, looked up once for the report, the input
        // check and the structured result (and learnt only if one needs it).
        let fact = match self.observed() || validate_input || v.has_structured_output() {
            true => self.tool_facts(mount).await?.tool(name).cloned(),
            false => None,
        };
        self.watch_named(mount, TargetKind::Tool, &p.name, fact.is_some());
        #[cfg(feature = "validate")]
        let schemas =
            fact.as_ref().and_then(|fact| fact.schemas.clone()).filter(|_| validate_input || v.has_structured_output());
        #[cfg(feature = "validate")]
        if let Some(schemas) = schemas.as_ref().filter(|s| validate_input && s.checks_arguments())
            && let Err(refusal) = self.check_arguments(schemas.clone(), arguments).await
        {
            let message = refused_arguments(&p.name, &refusal, self.server.options().validation_budget);
            self.request.watch_mut().note_tool_error(true);
            return self.reply(id, &mapping::tool_error_result(&message));
        }
        let structured = v.has_structured_output() && fact.is_some_and(|fact| fact.structured);
        match guest_call!(self, mount, Some(("tool", name)), |r, cx| r.call_tool(cx, name, arguments))? {
            Ok(result) => {
                // The structured content as its check read it, sent as read.
                #[cfg_attr(not(feature = "validate"), expect(unused_mut))]
                let mut checked = None;
                #[cfg(feature = "validate")]
                if let Some(schemas) = schemas.as_ref().filter(|_| structured) {
                    match checked_output(schemas, &result) {
                        Ok(value) => checked = value,
                        Err(why) => {
                            let label = self.server.label(mount);
                            tracing::warn!(component = %label, tool = %name, "a structured result that breaks its output schema: {why}");
                            let message = format!(
                                "The tool `{}` returned a result that does not match its output schema: {why}",
                                p.name
                            );
                            self.request.watch_mut().note_tool_error(true);
                            return self.reply(id, &mapping::tool_error_result(&message));
                        }
                    }
                }
                // Progress counts against the output cap with the result:
                // written first, sent only if both fit (nothing partial).
                let mut progress: Vec<Vec<u8>> = Vec::new();
                let mut progress_bytes = 0;
                if let (Some(token), Some(entries)) = (token, &result.progress) {
                    for params in mapping::progress_notifications(entries, token, v) {
                        if progress_bytes > self.server.options().max_output {
                            break;
                        }
                        let mut message = Vec::new();
                        match jsonrpc::write_notification(&mut message, "notifications/progress", &params) {
                            Ok(()) => {
                                progress_bytes += message.len();
                                progress.push(message);
                            }
                            Err(e) => tracing::warn!("cannot serialise a progress notification: {e}"),
                        }
                    }
                }
                self.request.watch_mut().note_tool_error(result.is_error == Some(true));
                let mapped = mapping::checked_call_tool_result(&result, structured, checked, v);
                let replied = self.reply_after(id, &mapped, progress_bytes);
                if replied.is_ok() {
                    progress.iter().for_each(|message| out.send(message));
                }
                replied
            }
            Err(contract::ToolError::NotFound(_)) => Err(unknown_tool(&p.name)),
            Err(
                contract::ToolError::InvalidParameters(message)
                | contract::ToolError::ExecutionError(message)
                | contract::ToolError::SchemaError(message),
            ) => {
                self.request.watch_mut().note_tool_error(true);
                self.reply(id, &mapping::tool_error_result(&message))
            }
        }
    }

    /// What mount `mount`'s tools declare (lists its tools once to learn).
    async fn tool_facts(&mut self, mount: usize) -> Result<&ToolFacts, RpcError> {
        if self.server.tool_facts(mount).is_none() {
            // Boxed, as every learning is: it happens once a deployment, and
            // inline its guest call would swell (and be copied with) the
            // future of every request.
            let tools = Box::pin(self.guest(mount, async |r, cx| r.list_tools(cx).await)).await?;
            self.server.learn_tools(mount, &tools);
        }
        Ok(self.server.tool_facts(mount).expect("learnt above"))
    }

    /// [`Exchange::watch_named`] for a prompt call: listed if the mount's
    /// prompts name it (`name`; learnt only when an observer watches).
    async fn watch_prompt(&mut self, mount: usize, outward: &str, name: &str) -> Result<(), RpcError> {
        if !self.observed() {
            return Ok(());
        }
        let listed = self.prompt_names(mount).await?.contains(name);
        self.watch_named(mount, TargetKind::Prompt, outward, listed);
        Ok(())
    }

    /// Notes the mount a tool or prompt call goes to, and its name (`outward`,
    /// as the client sent it) only if the mount lists it (`listed`): any
    /// other name is the client's own, never reported (a metric's label, a
    /// span's name). The call still goes to the router, which says whether
    /// it knows the name (it may serve tools it does not list).
    fn watch_named(&mut self, mount: usize, kind: TargetKind, outward: &str, listed: bool) {
        if !self.observed() {
            return;
        }
        if listed {
            self.watch_target(mount, kind, outward);
        } else {
            self.watch_mount(mount);
        }
    }

    /// The names of mount `mount`'s prompts (lists them once to learn).
    async fn prompt_names(&mut self, mount: usize) -> Result<&PromptNames, RpcError> {
        if self.server.prompt_names(mount).is_none() {
            let prompts = Box::pin(self.guest(mount, async |r, cx| r.list_prompts(cx).await)).await?;
            self.server.learn_prompts(mount, &prompts);
        }
        Ok(self.server.prompt_names(mount).expect("learnt above"))
    }

    /// The arguments of tool `name` (as the client names it) that its input
    /// schema marks with `x-mcp-header`, with their header names: on HTTP
    /// each must come as an `Mcp-Param-{header}` equal to its value.
    /// Unknown tools have none (the call itself then fails).
    pub(super) async fn header_arguments(&mut self, name: &str) -> Result<Vec<(String, String)>, RpcError> {
        let Some((mount, name)) = self.server.routers().route_name(name) else { return Ok(Vec::new()) };
        let facts = self.tool_facts(mount).await?;
        Ok(facts.tool(name).map(|fact| fact.header_arguments.clone()).unwrap_or_default())
    }

    pub(super) async fn list_resources(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        v: ProtocolVersion,
    ) -> Result<(), RpcError> {
        let p: params::ListParams<'_> = params::decode(params)?;
        let per_mount = self.list_every_mount(async |r, cx| r.list_resources(cx).await).await?;
        let routers = self.server.routers();
        let mapped: Vec<_> = per_mount
            .iter()
            .enumerate()
            .flat_map(|(i, list)| list.iter().map(move |r| (i, r, routers.outward_uri(i, &r.uri))))
            .filter(|(_, _, uri)| self.shows(OperationKind::Resource, uri))
            .map(|(_, r, uri)| mapping::resource(r, v).with_uri(uri))
            .collect();
        self.reply_page(id, "resources", &mapped, p.cursor.as_deref())
    }

    pub(super) async fn list_resource_templates(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        v: ProtocolVersion,
    ) -> Result<(), RpcError> {
        let p: params::ListParams<'_> = params::decode(params)?;
        // Only routers that offer the extension have templates.
        let mut per_mount = Vec::with_capacity(self.server.mounts());
        for mount in 0..self.server.mounts() {
            per_mount.push(match self.server.extends(mount) {
                true => self.guest(mount, async |r, cx| r.list_resource_templates(cx).await).await?,
                false => Vec::new(),
            });
        }
        let routers = self.server.routers();
        let mapped: Vec<_> = per_mount
            .iter()
            .enumerate()
            .flat_map(|(i, list)| {
                list.iter().map(move |t| mapping::resource_template(t, routers.outward_uri(i, &t.uri_template), v))
            })
            .collect();
        self.reply_page(id, "resourceTemplates", &mapped, p.cursor.as_deref())
    }

    pub(super) async fn read_resource(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        v: ProtocolVersion,
    ) -> Result<(), RpcError> {
        let p: params::UriParams<'_> = params::decode(params)?;
        // 2026-07-28 made a missing resource an invalid parameter.
        let not_found = || RpcError {
            code: if v.is_modern() { code::INVALID_PARAMS } else { code::RESOURCE_NOT_FOUND },
            message: format!("Resource not found: {}", p.uri),
            data: Some(serde_json::json!({ "uri": p.uri })),
        };
        let Some((mount, uri)) = self.server.routers().route_uri(&p.uri) else {
            return Err(not_found());
        };
        self.watch_target(mount, TargetKind::Resource, &p.uri);
        match guest_call!(self, mount, Some(("resource", uri)), |r, cx| r.read_resource(cx, uri))? {
            Ok(result) => {
                let routers = self.server.routers().clone();
                let mapped = mapping::read_resource_result(&result, |uri| routers.outward_uri(mount, uri));
                self.reply(id, &mapped)
            }
            Err(contract::ResourceError::NotFound(_)) => Err(not_found()),
            Err(contract::ResourceError::ExecutionError(message)) => Err(RpcError::internal(message)),
        }
    }

    pub(super) async fn subscription(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        method: Method,
        state: &mut SessionState,
    ) -> Result<(), RpcError> {
        if !state.offers_subscriptions() {
            return Err(RpcError::new(
                code::METHOD_NOT_FOUND,
                format!("Method not found: {method} (the router does not offer resource subscriptions)"),
            ));
        }
        let p: params::UriParams<'_> = params::decode(params)?;
        let Some((mount, uri)) = self.server.routers().route_uri(&p.uri) else {
            return Err(RpcError::invalid_params(format!("no router serves {}", p.uri)));
        };
        // A router with the extension is told, and may refuse; one without
        // it has no way to signal an update, so the subscription is only
        // acknowledged.
        if self.server.extends(mount) {
            let subscribe = method == Method::Subscribe;
            match self.guest(mount, async |r, cx| r.subscription(cx, uri, subscribe).await).await? {
                Ok(()) => {}
                Err(contract::ResourceError::NotFound(_)) => {
                    return Err(RpcError {
                        code: code::RESOURCE_NOT_FOUND,
                        message: format!("Resource not found: {}", p.uri),
                        data: Some(serde_json::json!({ "uri": p.uri })),
                    });
                }
                Err(contract::ResourceError::ExecutionError(message)) => return Err(RpcError::internal(message)),
            }
        }
        if let Some(listening) = state.listening() {
            match method {
                Method::Subscribe => listening.subscribe(&p.uri),
                _ => listening.unsubscribe(&p.uri),
            }
        }
        self.reply(id, &mapping::Empty {})
    }

    pub(super) async fn list_prompts(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        v: ProtocolVersion,
    ) -> Result<(), RpcError> {
        let p: params::ListParams<'_> = params::decode(params)?;
        let per_mount = self.list_every_mount(async |r, cx| r.list_prompts(cx).await).await?;
        // Only telemetry reads prompt names (`watch_prompt`).
        if self.observed() {
            for (mount, prompts) in per_mount.iter().enumerate() {
                self.server.learn_prompts(mount, prompts);
            }
        }
        let routers = self.server.routers();
        let mapped: Vec<_> = per_mount
            .iter()
            .enumerate()
            .flat_map(|(i, list)| list.iter().map(move |p| (p, routers.outward_name(i, &p.name))))
            .filter(|(_, name)| self.shows(OperationKind::Prompt, name))
            .map(|(p, name)| mapping::prompt(p, v).with_name(name))
            .collect();
        self.reply_page(id, "prompts", &mapped, p.cursor.as_deref())
    }

    pub(super) async fn get_prompt(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        v: ProtocolVersion,
    ) -> Result<(), RpcError> {
        let p: params::GetPromptParams<'_> = params::decode(params)?;
        let Some((mount, name)) = self.server.routers().route_name(&p.name) else {
            return Err(unknown_prompt(&p.name));
        };
        self.watch_prompt(mount, &p.name, name).await?;
        let answered = match self.server.extends(mount) {
            true => {
                let arguments = &p.arguments;
                guest_call!(self, mount, Some(("prompt", name)), |r, cx| r
                    .get_prompt_with_arguments(cx, name, arguments))?
            }
            false => guest_call!(self, mount, Some(("prompt", name)), |r, cx| r.get_prompt(cx, name))?,
        };
        match answered {
            Ok(result) => self.reply(id, &mapping::get_prompt_result(&result, v)),
            Err(contract::PromptError::NotFound(_)) => Err(unknown_prompt(&p.name)),
            Err(contract::PromptError::InvalidParameters(message)) => Err(RpcError::new(code::INVALID_PARAMS, message)),
            Err(contract::PromptError::InternalError(message)) => Err(RpcError::internal(message)),
        }
    }

    pub(super) fn set_log_level(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        state: &mut SessionState,
    ) -> Result<(), RpcError> {
        let p: params::SetLevelParams = params::decode_owned(params)?;
        state.set_log_level(p.level);
        self.reply(id, &mapping::Empty {})
    }
}

/// The error for a tool no router lists (-32602, as MCP asks in every
/// revision).
fn unknown_tool(name: &str) -> RpcError {
    RpcError::new(code::INVALID_PARAMS, format!("Unknown tool: {name}"))
}

/// The error for a prompt no router lists (-32602).
fn unknown_prompt(name: &str) -> RpcError {
    RpcError::new(code::INVALID_PARAMS, format!("Unknown prompt: {name}"))
}
