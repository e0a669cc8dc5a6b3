//! A component that serves MCP itself over `wasi:http` (it exports
//! `wasi:http/incoming-handler@0.2`, as `mcp-wit wrap` writes them): the
//! host is its client. Each contract call is a JSON-RPC request POSTed to
//! the component's handler, in this process, without a socket; its answer
//! (JSON or an event stream) is read back into the contract's types. The
//! host opens the component's own MCP session once per instance
//! (`initialize`, then `notifications/initialized`, its session id kept), so
//! the component sees one client however many reach it, in whichever era,
//! through the host's transports, authorization, limits and logs.

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use mcp_wit_protocol::{FaultKind, GuestFault, GuestResult, contract};
use serde_json::{Value, json};
use wasmtime::Store;
use wasmtime_wasi_http::WasiHttpView;
use wasmtime_wasi_http::p2::bindings::Proxy;
use wasmtime_wasi_http::p2::bindings::http::types::Scheme;

use super::fault::FaultFrom;
use crate::runtime::limits::CallView;
use crate::runtime::mcp_json;
use crate::runtime::store::StoreData;

/// The revision the host asks the component for; it may answer another.
const ASKED_VERSION: &str = "2025-11-25";

/// The most pages of a list followed.
const MAX_PAGES: usize = 100;

/// What a component's instance holds beside its store.
pub(super) struct HttpServerGuest {
    proxy: Proxy,
    label: Arc<str>,
    /// The component's side of the session, once opened.
    session: Option<Opened>,
    /// The id of the host's next request to it.
    next_id: u64,
}

/// What the component said when its session was opened.
struct Opened {
    version: String,
    /// Its `Mcp-Session-Id`, if it gave one.
    id: Option<String>,
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

impl HttpServerGuest {
    pub(super) fn new(proxy: Proxy, label: Arc<str>) -> Self {
        HttpServerGuest { proxy, label, session: None, next_id: 0 }
    }

    /// POSTs `body` to the component's handler, as a client would; its
    /// status, session id and body. The handler's call runs under the
    /// call's limits, its body read while it writes it.
    async fn post(
        &mut self,
        store: &mut Store<StoreData>,
        body: Vec<u8>,
    ) -> GuestResult<(u16, Option<String>, String, Bytes)> {
        let mut request = http::Request::builder()
            .method(http::Method::POST)
            .uri("http://localhost/mcp")
            .header(http::header::HOST, "localhost")
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::ACCEPT, "application/json, text/event-stream");
        if let Some(opened) = &self.session {
            request = request.header("mcp-protocol-version", &opened.version);
            if let Some(id) = &opened.id {
                request = request.header("mcp-session-id", id);
            }
        }
        let body = Full::new(Bytes::from(body));
        let request = request.body(body).map_err(|e| GuestFault::new(FaultKind::Trap, e.to_string()))?;
        let handling = |e: wasmtime::Error| {
            GuestFault::new(FaultKind::Trap, format!("cannot hand the request to the component: {e:#}"))
        };
        let incoming = store.data_mut().http().new_incoming_request(Scheme::Http, request).map_err(handling)?;
        let (sender, receiver) = tokio::sync::oneshot::channel();
        let outparam = store.data_mut().http().new_response_outparam(sender).map_err(handling)?;
        store.data().sandbox.output().begin_call();
        store.set_epoch_deadline(1);
        let handler = self.proxy.wasi_http_incoming_handler();
        let answer = async {
            let response = receiver.await.map_err(|_| "the component set no response".to_string())?;
            let response = response.map_err(|code| format!("the component answered with an error: {code:?}"))?;
            let (parts, body) = response.into_parts();
            let body = body.collect().await.map_err(|e| format!("cannot read the component's answer: {e:?}"))?;
            Ok::<_, String>((parts, body.to_bytes()))
        };
        // The body is read while the handler writes it; once the handler has
        // returned, nothing more will be written: a body it left open ends
        // the wait at the call's deadline, and a trap ends it at once.
        let (trapped, mut on_trap) = tokio::sync::watch::channel(false);
        let left = store.data().call_control().wait_controls().left;
        let calling = async {
            let called = handler.call_handle(&mut *store, incoming, outparam).await;
            if called.is_err() {
                let _ = trapped.send(true);
            }
            called
        };
        let reading = async {
            let trap = async {
                // Dropped without a trap: the answer alone ends the wait.
                if on_trap.wait_for(|trapped| *trapped).await.is_err() {
                    std::future::pending::<()>().await;
                }
            };
            tokio::select! {
                answered = tokio::time::timeout(left, answer) => {
                    answered.unwrap_or_else(|_| Err("the component's answer did not end in time".to_string()))
                }
                () = trap => Err("the component trapped".to_string()),
            }
        };
        let (called, answered) = tokio::join!(calling, reading);
        called.map_err(|e| GuestFault::from_error("wasi:http/incoming-handler#handle", e, store.data()))?;
        let (parts, body) = answered.map_err(|message| GuestFault::new(FaultKind::Trap, message))?;
        let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        let kind = header("content-type").unwrap_or_default();
        Ok((parts.status.as_u16(), header("mcp-session-id"), kind, body))
    }

    /// Sends `method` with `params` and reads its answer: the result or the
    /// JSON-RPC error the component refused it with, and the session id its
    /// answer carried.
    async fn exchange(
        &mut self,
        store: &mut Store<StoreData>,
        method: &str,
        params: Value,
    ) -> GuestResult<(Result<Value, Refused>, Option<String>)> {
        self.next_id += 1;
        let id = self.next_id;
        let body = serde_json::to_vec(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .expect("JSON serialises");
        let (status, session, kind, body) = self.post(store, body).await?;
        if !(200..300).contains(&status) {
            return Err(self.fault(format!(
                "answered `{method}` with HTTP {status}: {}",
                String::from_utf8_lossy(&body[..body.len().min(300)])
            )));
        }
        let message = answer_to(id, &kind, &body).map_err(|why| self.fault(format!("`{method}`: {why}")))?;
        let answer = match (message.get("result"), message.get("error")) {
            (Some(result), _) => Ok(result.clone()),
            (None, Some(error)) => Err(Refused {
                code: error["code"].as_i64().unwrap_or(-32603),
                message: error["message"].as_str().unwrap_or("the component refused the request").to_string(),
            }),
            (None, None) => return Err(self.fault(format!("`{method}`: an answer with neither result nor error"))),
        };
        Ok((answer, session))
    }

    /// [`Self::exchange`] in the component's open session.
    async fn request(
        &mut self,
        store: &mut Store<StoreData>,
        method: &str,
        params: Value,
    ) -> GuestResult<Result<Value, Refused>> {
        self.open(store).await?;
        Ok(self.exchange(store, method, params).await?.0)
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
            let (answer, id) = self.exchange(store, "initialize", params).await?;
            let result = answer.map_err(|refused| {
                self.fault(format!("refused `initialize`: {} ({})", refused.message, refused.code))
            })?;
            let text = |value: &Value| value.as_str().map(str::to_string);
            let version = text(&result["protocolVersion"])
                .ok_or_else(|| self.fault("`initialize`: no protocolVersion".into()))?;
            self.session = Some(Opened {
                version,
                id,
                name: text(&result["serverInfo"]["name"]).unwrap_or_else(|| self.label.to_string()),
                title: text(&result["serverInfo"]["title"]),
                instructions: text(&result["instructions"]).unwrap_or_default(),
                capabilities: result["capabilities"].clone(),
            });
            let notice = serde_json::to_vec(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
                .expect("JSON serialises");
            let (status, ..) = self.post(store, notice).await?;
            if !(200..300).contains(&status) {
                self.session = None;
                return Err(self.fault(format!("answered `notifications/initialized` with HTTP {status}")));
            }
        }
        Ok(self.session.as_ref().expect("opened above"))
    }

    /// A fault of the component's, said as such.
    fn fault(&self, message: String) -> GuestFault {
        GuestFault::new(FaultKind::Trap, format!("the MCP server in `{}` {message}", self.label))
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

impl HttpServerGuest {
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
        let notice = serde_json::to_vec(&json!({ "jsonrpc": "2.0", "method": "notifications/roots/list_changed" }))
            .expect("JSON serialises");
        self.post(store, notice).await.map(drop)
    }
}

/// The response to request `id` in a component's answer: one JSON message,
/// or an event stream whose `data:` lines carry messages (notifications and
/// requests of its own before it are passed over).
fn answer_to(id: u64, kind: &str, body: &[u8]) -> Result<Value, String> {
    let text = std::str::from_utf8(body).map_err(|_| "its answer is not UTF-8".to_string())?;
    let is_ours = |message: &Value| message.get("id").and_then(Value::as_u64) == Some(id);
    if kind.starts_with("text/event-stream") {
        let mut data = String::new();
        for line in text.lines().chain([""]) {
            if let Some(rest) = line.strip_prefix("data:") {
                data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
                data.push('\n');
            } else if line.is_empty() && !data.is_empty() {
                let message: Value = serde_json::from_str(&data).map_err(|e| format!("an event is not JSON: {e}"))?;
                if is_ours(&message) {
                    return Ok(message);
                }
                data.clear();
            }
        }
        return Err("its event stream ended without the response".into());
    }
    let message: Value = serde_json::from_str(text).map_err(|e| format!("its answer is not JSON: {e}"))?;
    match is_ours(&message) {
        true => Ok(message),
        false => Err("its answer is not the response to the request".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_response_is_found_in_json_and_in_an_event_stream() {
        let json = br#"{"jsonrpc":"2.0","id":3,"result":{}}"#;
        assert_eq!(answer_to(3, "application/json", json).unwrap()["result"], json!({}));
        assert!(answer_to(4, "application/json", json).is_err());
        let stream = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n\
                      id: 7\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"ok\":true}}\n\n";
        assert_eq!(answer_to(3, "text/event-stream", stream.as_bytes()).unwrap()["result"]["ok"], true);
        assert!(answer_to(3, "text/event-stream", b"data: {}\n\n").is_err());
    }
}
