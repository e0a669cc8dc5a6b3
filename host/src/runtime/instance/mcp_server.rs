//! A component that serves MCP itself, the host its client: each contract
//! call is a JSON-RPC request sent over the component's own transport (a
//! `ServerLink`: its HTTP handler, or its stdin and stdout), its answer read
//! back into the contract's types. The host opens the component's session
//! once per instance (`initialize`, then `notifications/initialized`), so
//! the component sees one client however many reach it, in whichever era,
//! through the host's transports, authorization, limits and logs.

use std::sync::Arc;

use mcp_wit_protocol::{FaultKind, GuestFault, GuestResult, contract};
use serde_json::{Value, json};
use wasmtime::Store;

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
pub(super) struct McpServerGuest<L> {
    link: L,
    label: Arc<str>,
    /// The component's side of the session, once opened.
    session: Option<Opened>,
    /// The id of the host's next request to it.
    next_id: u64,
}

/// How the host reaches a component that serves MCP itself: one JSON-RPC
/// message at a time.
pub(super) trait ServerLink: Send {
    /// Sends `message` (JSON text); for a request (`id`), the message that
    /// answers it. `label` names the component in faults.
    fn send(
        &mut self,
        store: &mut Store<StoreData>,
        message: Vec<u8>,
        id: Option<u64>,
        label: &str,
    ) -> impl Future<Output = GuestResult<Option<Value>>> + Send;

    /// The session is open at `version`: what later messages must carry.
    fn opened(&mut self, version: &str);
}

/// What the component said when its session was opened.
struct Opened {
    /// It serves 2026-07-28 requests only: each carries its `_meta`, and
    /// there is no session.
    modern: bool,
    name: String,
    title: Option<String>,
    instructions: String,
    capabilities: Value,
}

/// A JSON-RPC error the component answered with.
struct Refused {
    code: i64,
    message: String,
}

impl<L: ServerLink> McpServerGuest<L> {
    pub(super) fn new(link: L, label: Arc<str>) -> Self {
        McpServerGuest { link, label, session: None, next_id: 0 }
    }

    /// Sends `method` with `params` and reads its answer: the result, or the
    /// JSON-RPC error the component refused it with.
    async fn exchange(
        &mut self,
        store: &mut Store<StoreData>,
        method: &str,
        params: Value,
    ) -> GuestResult<Result<Value, Refused>> {
        self.next_id += 1;
        let id = self.next_id;
        let mut params = params;
        if self.session.as_ref().is_some_and(|opened| opened.modern) || method == "server/discover" {
            params["_meta"] = modern_meta();
        }
        let body = serde_json::to_vec(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .expect("JSON serialises");
        let label = self.label.clone();
        let message = self.link.send(store, body, Some(id), &label).await?;
        let message = message.ok_or_else(|| self.fault(format!("`{method}`: no answer")))?;
        Ok(match (message.get("result"), message.get("error")) {
            (Some(result), _) if result.get("resultType").and_then(Value::as_str) == Some("input_required") => {
                return Err(
                    self.fault(format!("`{method}`: asked the client for input, which this host does not relay"))
                );
            }
            (Some(result), _) => Ok(result.clone()),
            (None, Some(error)) => Err(Refused {
                code: error["code"].as_i64().unwrap_or(-32603),
                message: error["message"].as_str().unwrap_or("the component refused the request").to_string(),
            }),
            (None, None) => return Err(self.fault(format!("`{method}`: an answer with neither result nor error"))),
        })
    }

    /// Sends the notification `method`.
    async fn notify(&mut self, store: &mut Store<StoreData>, method: &str) -> GuestResult<()> {
        let body = serde_json::to_vec(&json!({ "jsonrpc": "2.0", "method": method })).expect("JSON serialises");
        let label = self.label.clone();
        self.link.send(store, body, None, &label).await.map(drop)
    }

    /// [`Self::exchange`] in the component's open session.
    async fn request(
        &mut self,
        store: &mut Store<StoreData>,
        method: &str,
        params: Value,
    ) -> GuestResult<Result<Value, Refused>> {
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
                Ok(result) => result,
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
    async fn discover(&mut self, store: &mut Store<StoreData>, refused: Refused) -> GuestResult<&Opened> {
        let refusal = |this: &Self| {
            this.fault(format!(
                "refused `initialize`: {} ({}), and serves no 2026-07-28 either",
                refused.message, refused.code
            ))
        };
        let Ok(result) = self.exchange(store, "server/discover", json!({})).await? else { return Err(refusal(self)) };
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
            instructions: text(&result["instructions"]).unwrap_or_default(),
            capabilities: result["capabilities"].clone(),
        });
        Ok(self.session.as_ref().expect("opened above"))
    }

    /// A fault of the component's, said as such.
    fn fault(&self, message: String) -> GuestFault {
        fault(&self.label, message)
    }

    /// Every item of the list `method` answers under `field`, page by page.
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
                Err(refused) if refused.code == -32601 => break,
                Err(refused) => return Err(self.fault(format!("refused `{method}`: {}", refused.message))),
            };
            if let Some(Value::Array(found)) = page.get(field) {
                items.extend(found.iter().cloned());
            }
            cursor = page.get("nextCursor").and_then(Value::as_str).map(str::to_string);
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

impl<L: ServerLink> McpServerGuest<L> {
    pub(super) async fn name(&mut self, store: &mut Store<StoreData>) -> GuestResult<String> {
        Ok(self.open(store).await?.name.clone())
    }

    /// Its `serverInfo.title`, if it gave one.
    pub(super) async fn title(&mut self, store: &mut Store<StoreData>) -> GuestResult<Option<String>> {
        Ok(self.open(store).await?.title.clone())
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
            Ok(result) => {
                let bytes = serde_json::to_vec(&result).expect("JSON serialises");
                mcp_json::call_result(&bytes).map_err(contract::ToolError::ExecutionError)
            }
            Err(refused) if refused.code == -32602 => Err(contract::ToolError::InvalidParameters(refused.message)),
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
                let bytes = serde_json::to_vec(&result).expect("JSON serialises");
                mcp_json::read_result(&bytes).map_err(contract::ResourceError::ExecutionError)
            }
            // -32002: MCP's "resource not found"; -32602 is what servers send for it too.
            Err(refused) if matches!(refused.code, -32002 | -32602 | -32601) => {
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
                let bytes = serde_json::to_vec(&result).expect("JSON serialises");
                mcp_json::prompt_result(&bytes).map_err(contract::PromptError::InternalError)
            }
            Err(refused) if refused.code == -32602 => Err(contract::PromptError::NotFound(refused.message)),
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
                let bytes = serde_json::to_vec(&result).expect("JSON serialises");
                mcp_json::completion(&bytes).map_err(contract::CompletionError::ExecutionError)
            }
            Err(refused) if refused.code == -32601 => Err(contract::CompletionError::NotFound(refused.message)),
            Err(refused) => Err(contract::CompletionError::ExecutionError(refused.message)),
        })
    }

    /// The client's roots changed: told to the component.
    pub(super) async fn roots_list_changed(&mut self, store: &mut Store<StoreData>) -> GuestResult<()> {
        self.open(store).await?;
        self.notify(store, "notifications/roots/list_changed").await
    }
}

/// The `_meta` of a 2026-07-28 request the host sends.
fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
        "io.modelcontextprotocol/clientInfo": { "name": "mcp-wit", "version": env!("CARGO_PKG_VERSION") },
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

/// A fault of the component `label`'s, said as such.
pub(super) fn fault(label: &str, message: String) -> GuestFault {
    GuestFault::new(FaultKind::Trap, format!("the MCP server in `{label}` {message}"))
}

/// The response to request `id` among `messages`: what is not it (its
/// notifications, requests of its own) is passed over.
pub(super) fn is_response_to(message: &Value, id: u64) -> bool {
    message.get("id").and_then(Value::as_u64) == Some(id) && message.get("method").is_none()
}
