//! A component that serves MCP itself, the host its client: each contract
//! call is a JSON-RPC request sent over the component's own transport (a
//! `Link`: its HTTP handler, or its stdin and stdout), its answer read
//! back into the contract's types. The host opens the component's session
//! once per instance (`initialize`, then `notifications/initialized`), so
//! the component sees one client however many reach it, in whichever era,
//! through the host's transports, authorization, limits and logs.

use std::sync::Arc;

use mcp_wit_protocol::jsonrpc::{ClientRpcError, Response, code};
use mcp_wit_protocol::{GuestFault, GuestResult, contract};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use wasmtime::Store;
use wasmtime::component::InstancePre;

use super::command_server::StdioLink;
use super::fault::server_fault as fault;
#[cfg(feature = "outgoing-http")]
use super::http_server::HttpLink;
use super::outgoing::Outgoing;
use crate::runtime::mcp_json;
use crate::runtime::store::StoreData;

/// The revision the host asks the component for; it may answer another.
const ASKED_VERSION: &str = "2025-11-25";

/// The revision of requests that stand alone, for a component that serves
/// no other.
const MODERN_VERSION: &str = "2026-07-28";

/// The most pages of a list followed.
const MAX_PAGES: usize = 100;

/// What a component's instance holds beside its store: how it is
/// reached, and its side of the session.
pub(super) struct McpServerGuest {
    link: Link,
    label: Arc<str>,
    /// The component's side of the session, once opened.
    session: Option<Opened>,
    /// The id of the host's next request to it.
    next_id: u64,
}

/// How the host reaches a component that serves MCP itself: one JSON-RPC
/// message at a time, over its transport.
pub(super) enum Link {
    /// Its HTTP handler.
    #[cfg(feature = "outgoing-http")]
    Http(HttpLink),
    /// A command's stdin and stdout.
    Stdio(StdioLink),
}

impl Link {
    /// Sends `message`; for a request (`id`), the component's answer to it.
    /// `label` names the component in faults.
    async fn send(
        &mut self,
        store: &mut Store<StoreData>,
        message: Outgoing<'_>,
        id: Option<u64>,
        label: &str,
    ) -> GuestResult<Option<Response>> {
        match self {
            #[cfg(feature = "outgoing-http")]
            Link::Http(link) => link.send(store, message, id, label).await,
            Link::Stdio(link) => link.send(store, message.text, id, label).await,
        }
    }

    /// The session is open at `version`: what later messages must carry.
    #[cfg_attr(not(feature = "outgoing-http"), expect(unused_variables, reason = "only HTTP messages carry it"))]
    fn opened(&mut self, version: &str) {
        match self {
            #[cfg(feature = "outgoing-http")]
            Link::Http(link) => link.opened(version),
            // Stdio messages carry nothing of the session.
            Link::Stdio(_) => {}
        }
    }
}

/// A component that serves MCP itself, linked with async WASI for its
/// transport: an HTTP handler, or a command's stdin and stdout.
#[derive(Clone)]
pub(crate) enum ServerPre {
    #[cfg(feature = "outgoing-http")]
    Http(wasmtime_wasi_http::p2::bindings::ProxyPre<StoreData>),
    /// A WASIp3 handler, on the engine with the component model's concurrency.
    #[cfg(feature = "outgoing-http")]
    HttpP3(wasmtime_wasi_http::p3::bindings::ServicePre<StoreData>),
    Command(wasmtime_wasi::p2::bindings::CommandPre<StoreData>),
}

impl ServerPre {
    /// The linked component, whatever its transport.
    pub(crate) fn instance_pre(&self) -> &InstancePre<StoreData> {
        match self {
            #[cfg(feature = "outgoing-http")]
            ServerPre::Http(pre) => pre.instance_pre(),
            #[cfg(feature = "outgoing-http")]
            ServerPre::HttpP3(pre) => pre.instance_pre(),
            ServerPre::Command(pre) => pre.instance_pre(),
        }
    }
}

/// What the component said when its session was opened.
struct Opened {
    /// It serves 2026-07-28 requests only: each carries its `_meta`, and
    /// there is no session.
    modern: bool,
    name: String,
    title: Option<String>,
    /// `serverInfo.icons`, as JSON text.
    icons: Option<String>,
    instructions: String,
    capabilities: Value,
}

impl McpServerGuest {
    pub(super) fn new(link: Link, label: Arc<str>) -> Self {
        McpServerGuest { link, label, session: None, next_id: 0 }
    }

    /// Sends `method` with `params` and reads its answer: the result, or the
    /// JSON-RPC error the component refused it with.
    async fn exchange(&mut self, store: &mut Store<StoreData>, method: &str, params: Value) -> GuestResult<Response> {
        self.next_id += 1;
        let id = self.next_id;
        let modern = self.session.as_ref().is_some_and(|opened| opened.modern);
        let mut params = params;
        if modern || method == "server/discover" {
            params["_meta"] = modern_meta();
        }
        let text = serde_json::to_vec(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .expect("JSON serialises");
        let target = params["name"].as_str().or_else(|| params["uri"].as_str());
        let answer = self.link.send(store, Outgoing { text, method, target }, Some(id), &self.label).await?;
        let answer = answer.ok_or_else(|| self.fault(format!("`{method}`: no answer")))?;
        // Only a 2026-07-28 answer can ask the client for input.
        if modern && let Ok(result) = &answer {
            #[derive(serde::Deserialize)]
            struct Kind<'a> {
                #[serde(rename = "resultType", borrow, default)]
                result_type: Option<&'a str>,
            }
            let kind: Option<Kind<'_>> = serde_json::from_str(result.get()).ok();
            if kind.and_then(|kind| kind.result_type) == Some("input_required") {
                return Err(
                    self.fault(format!("`{method}`: asked the client for input, which this host does not relay"))
                );
            }
        }
        Ok(answer)
    }

    /// Sends the notification `method`.
    async fn notify(&mut self, store: &mut Store<StoreData>, method: &str) -> GuestResult<()> {
        let text = serde_json::to_vec(&json!({ "jsonrpc": "2.0", "method": method })).expect("JSON serialises");
        self.link.send(store, Outgoing { text, method, target: None }, None, &self.label).await.map(drop)
    }

    /// [`Self::exchange`] in the component's open session.
    async fn request(&mut self, store: &mut Store<StoreData>, method: &str, params: Value) -> GuestResult<Response> {
        self.open(store).await?;
        self.exchange(store, method, params).await
    }

    /// Opens the component's session if it is not open: `initialize`, then
    /// `notifications/initialized`.
    async fn open(&mut self, store: &mut Store<StoreData>) -> GuestResult<&Opened> {
        if self.session.is_none() {
            let params = json!({
                "protocolVersion": ASKED_VERSION,
                "capabilities": {},
                "clientInfo": { "name": "mcp-wit", "version": env!("CARGO_PKG_VERSION") },
            });
            let answer = self.exchange(store, "initialize", params).await?;
            let result = match answer {
                Ok(result) => self.value_of(&result, "initialize")?,
                // A server of 2026-07-28 alone: asked what it is instead.
                Err(refused) => return self.discover(store, refused).await,
            };
            let text = |value: &Value| value.as_str().map(str::to_string);
            let version = text(&result["protocolVersion"])
                .ok_or_else(|| self.fault("`initialize`: no protocolVersion".into()))?;
            self.link.opened(&version);
            self.session = Some(Opened {
                modern: false,
                name: text(&result["serverInfo"]["name"]).unwrap_or_else(|| self.label.to_string()),
                title: text(&result["serverInfo"]["title"]),
                icons: icons_of(&result["serverInfo"]),
                instructions: text(&result["instructions"]).unwrap_or_default(),
                capabilities: result["capabilities"].clone(),
            });
            if let Err(fault) = self.notify(store, "notifications/initialized").await {
                self.session = None;
                return Err(fault);
            }
        }
        Ok(self.session.as_ref().expect("opened above"))
    }

    /// After `initialize` was refused: `server/discover`, and if the
    /// component serves 2026-07-28, its requests from now on stand alone.
    /// Else the refusal of `initialize` is the fault.
    async fn discover(&mut self, store: &mut Store<StoreData>, refused: ClientRpcError) -> GuestResult<&Opened> {
        let refusal = |this: &Self| {
            this.fault(format!(
                "refused `initialize`: {} ({}), and serves no 2026-07-28 either",
                refused.message, refused.code
            ))
        };
        let Ok(result) = self.exchange(store, "server/discover", json!({})).await? else { return Err(refusal(self)) };
        let result = self.value_of(&result, "server/discover")?;
        let modern = result["supportedVersions"].as_array().is_some_and(|v| v.iter().any(|v| v == MODERN_VERSION));
        if !modern {
            return Err(refusal(self));
        }
        self.link.opened(MODERN_VERSION);
        let text = |value: &Value| value.as_str().map(str::to_string);
        let info = &result["_meta"]["io.modelcontextprotocol/serverInfo"];
        self.session = Some(Opened {
            modern: true,
            name: text(&info["name"]).unwrap_or_else(|| self.label.to_string()),
            title: text(&info["title"]),
            icons: icons_of(info),
            instructions: text(&result["instructions"]).unwrap_or_default(),
            capabilities: result["capabilities"].clone(),
        });
        Ok(self.session.as_ref().expect("opened above"))
    }

    /// A fault of the component's, said as such.
    fn fault(&self, message: String) -> GuestFault {
        fault(&self.label, message)
    }

    /// A result read whole, for what the session's opening keeps of it.
    fn value_of(&self, result: &RawValue, method: &str) -> GuestResult<Value> {
        serde_json::from_str(result.get()).map_err(|e| self.fault(format!("`{method}`: its result is not JSON: {e}")))
    }

    /// Every item of the list `method` answers under `field`, page by page:
    /// a single page as the component wrote it.
    async fn list(&mut self, store: &mut Store<StoreData>, method: &str, field: &str) -> GuestResult<Vec<u8>> {
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let params = match &cursor {
                Some(cursor) => json!({ "cursor": cursor }),
                None => json!({}),
            };
            let page = match self.request(store, method, params).await? {
                Ok(page) => page,
                // A method it does not serve: nothing to list.
                Err(refused) if refused.code == code::METHOD_NOT_FOUND => break,
                Err(refused) => return Err(self.fault(format!("refused `{method}`: {}", refused.message))),
            };
            #[derive(serde::Deserialize)]
            struct Next {
                #[serde(rename = "nextCursor", default)]
                next_cursor: Option<String>,
            }
            let next = serde_json::from_str::<Next>(page.get()).ok().and_then(|next| next.next_cursor);
            if next.is_none() && cursor.is_none() {
                return Ok(page.get().as_bytes().to_vec());
            }
            if let Some(Value::Array(found)) = self.value_of(&page, method)?.get_mut(field).map(Value::take) {
                items.extend(found);
            }
            cursor = next;
            if cursor.is_none() {
                break;
            }
        }
        Ok(serde_json::to_vec(&json!({ field: items })).expect("JSON serialises"))
    }

    /// Whether the component said it serves `capability`.
    fn serves(&self, capability: &str) -> bool {
        self.session.as_ref().is_some_and(|opened| opened.capabilities.get(capability).is_some())
    }
}

impl McpServerGuest {
    pub(super) async fn name(&mut self, store: &mut Store<StoreData>) -> GuestResult<String> {
        Ok(self.open(store).await?.name.clone())
    }

    /// Its `serverInfo.title`, if it gave one.
    pub(super) async fn title(&mut self, store: &mut Store<StoreData>) -> GuestResult<Option<String>> {
        Ok(self.open(store).await?.title.clone())
    }

    /// Its `serverInfo.icons`, if it gave them (JSON text).
    pub(super) async fn icons(&mut self, store: &mut Store<StoreData>) -> GuestResult<Option<String>> {
        Ok(self.open(store).await?.icons.clone())
    }

    pub(super) async fn instructions(&mut self, store: &mut Store<StoreData>) -> GuestResult<String> {
        Ok(self.open(store).await?.instructions.clone())
    }

    /// What the component said it serves at `initialize`.
    pub(super) async fn capabilities(
        &mut self,
        store: &mut Store<StoreData>,
    ) -> GuestResult<contract::ServerCapabilities> {
        let said = &self.open(store).await?.capabilities;
        let flag = |value: &Value, key: &str| value.get(key).and_then(Value::as_bool);
        Ok(contract::ServerCapabilities {
            tools: said.get("tools").map(|t| contract::ToolsCapability { list_changed: flag(t, "listChanged") }),
            prompts: said.get("prompts").map(|p| contract::PromptsCapability { list_changed: flag(p, "listChanged") }),
            resources: said.get("resources").map(|r| contract::ResourcesCapability {
                subscribe: flag(r, "subscribe"),
                list_changed: flag(r, "listChanged"),
            }),
            completions: said.get("completions").map(|_| contract::CompletionsCapability { enabled: true }),
        })
    }

    pub(super) async fn list_tools(&mut self, store: &mut Store<StoreData>) -> GuestResult<Vec<contract::Tool>> {
        let listed = self.list(store, "tools/list", "tools").await?;
        mcp_json::tools(&listed).map_err(|why| self.fault(why))
    }

    pub(super) async fn call_tool(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<contract::CallToolResult, contract::ToolError>> {
        let arguments: Value = match arguments.trim() {
            "" => json!({}),
            text => match serde_json::from_str(text) {
                Ok(arguments) => arguments,
                Err(e) => {
                    return Ok(Err(contract::ToolError::InvalidParameters(format!("the arguments are not JSON: {e}"))));
                }
            },
        };
        Ok(match self.request(store, "tools/call", json!({ "name": name, "arguments": arguments })).await? {
            Ok(result) => mcp_json::call_result(result.get().as_bytes()).map_err(contract::ToolError::ExecutionError),
            Err(refused) if refused.code == code::INVALID_PARAMS => {
                Err(contract::ToolError::InvalidParameters(refused.message))
            }
            Err(refused) => Err(contract::ToolError::ExecutionError(refused.message)),
        })
    }

    pub(super) async fn list_resources(
        &mut self,
        store: &mut Store<StoreData>,
    ) -> GuestResult<Vec<contract::McpResource>> {
        self.open(store).await?;
        if !self.serves("resources") {
            return Ok(Vec::new());
        }
        let listed = self.list(store, "resources/list", "resources").await?;
        mcp_json::resources(&listed).map_err(|why| self.fault(why))
    }

    pub(super) async fn list_resource_templates(
        &mut self,
        store: &mut Store<StoreData>,
    ) -> GuestResult<Vec<contract::ResourceTemplate>> {
        self.open(store).await?;
        if !self.serves("resources") {
            return Ok(Vec::new());
        }
        let listed = self.list(store, "resources/templates/list", "resourceTemplates").await?;
        mcp_json::resource_templates(&listed).map_err(|why| self.fault(why))
    }

    pub(super) async fn read_resource(
        &mut self,
        store: &mut Store<StoreData>,
        uri: &str,
    ) -> GuestResult<Result<contract::ReadResourceResult, contract::ResourceError>> {
        Ok(match self.request(store, "resources/read", json!({ "uri": uri })).await? {
            Ok(result) => {
                mcp_json::read_result(result.get().as_bytes()).map_err(contract::ResourceError::ExecutionError)
            }
            // MCP's "resource not found"; servers send invalid params for it too.
            Err(refused)
                if matches!(refused.code, code::RESOURCE_NOT_FOUND | code::INVALID_PARAMS | code::METHOD_NOT_FOUND) =>
            {
                Err(contract::ResourceError::NotFound(uri.to_string()))
            }
            Err(refused) => Err(contract::ResourceError::ExecutionError(refused.message)),
        })
    }

    pub(super) async fn subscription(
        &mut self,
        store: &mut Store<StoreData>,
        uri: &str,
        subscribe: bool,
    ) -> GuestResult<Result<(), contract::ResourceError>> {
        let method = if subscribe { "resources/subscribe" } else { "resources/unsubscribe" };
        Ok(match self.request(store, method, json!({ "uri": uri })).await? {
            Ok(_) => Ok(()),
            Err(refused) => Err(contract::ResourceError::ExecutionError(refused.message)),
        })
    }

    pub(super) async fn list_prompts(&mut self, store: &mut Store<StoreData>) -> GuestResult<Vec<contract::Prompt>> {
        self.open(store).await?;
        if !self.serves("prompts") {
            return Ok(Vec::new());
        }
        let listed = self.list(store, "prompts/list", "prompts").await?;
        mcp_json::prompts(&listed).map_err(|why| self.fault(why))
    }

    pub(super) async fn get_prompt(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        self.get_prompt_with_arguments(store, name, &[]).await
    }

    pub(super) async fn get_prompt_with_arguments(
        &mut self,
        store: &mut Store<StoreData>,
        name: &str,
        arguments: &[(String, String)],
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        let arguments: serde_json::Map<String, Value> =
            arguments.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
        Ok(match self.request(store, "prompts/get", json!({ "name": name, "arguments": arguments })).await? {
            Ok(result) => {
                mcp_json::prompt_result(result.get().as_bytes()).map_err(contract::PromptError::InternalError)
            }
            Err(refused) if refused.code == code::INVALID_PARAMS => {
                Err(contract::PromptError::NotFound(refused.message))
            }
            Err(refused) => Err(contract::PromptError::InternalError(refused.message)),
        })
    }

    pub(super) async fn complete(
        &mut self,
        store: &mut Store<StoreData>,
        request: &contract::CompletionRequest,
    ) -> GuestResult<Result<contract::CompletionResponse, contract::CompletionError>> {
        let params: Value = match serde_json::from_str(&request.input.json) {
            Ok(params) => params,
            Err(e) => return Ok(Err(contract::CompletionError::InvalidParameters(e.to_string()))),
        };
        Ok(match self.request(store, "completion/complete", params).await? {
            Ok(result) => {
                mcp_json::completion(result.get().as_bytes()).map_err(contract::CompletionError::ExecutionError)
            }
            Err(refused) if refused.code == code::METHOD_NOT_FOUND => {
                Err(contract::CompletionError::NotFound(refused.message))
            }
            Err(refused) => Err(contract::CompletionError::ExecutionError(refused.message)),
        })
    }

    /// The client's roots changed: told to the component.
    pub(super) async fn roots_list_changed(&mut self, store: &mut Store<StoreData>) -> GuestResult<()> {
        self.open(store).await?;
        self.notify(store, "notifications/roots/list_changed").await
    }
}

/// The `icons` of a server's `Implementation`, as JSON text.
fn icons_of(info: &Value) -> Option<String> {
    info.get("icons").map(Value::to_string)
}

/// The `_meta` of a 2026-07-28 request the host sends.
fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
        "io.modelcontextprotocol/clientInfo": { "name": "mcp-wit", "version": env!("CARGO_PKG_VERSION") },
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}
