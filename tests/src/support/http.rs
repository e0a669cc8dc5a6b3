//! HTTP test support: `mcp-wit serve --http 127.0.0.1:0` as a child process,
//! a raw client whose every received message is checked against the MCP
//! schema, an SSE event reader, and an rmcp Streamable HTTP client that
//! records (and checks) everything the server sends it.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use reqwest::StatusCode;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpClientTransportConfig, StreamableHttpError,
    StreamableHttpPostResponse,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use super::{ANSWER_TIMEOUT, binary, initialize_params, schema};

/// A `mcp-wit serve --http` process on a free loopback port.
pub struct HttpServer {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// What it wrote to stderr so far.
    pub stderr: Arc<Mutex<String>>,
}

impl HttpServer {
    /// Starts `mcp-wit serve <args> --http 127.0.0.1:0` and waits until it
    /// listens (it logs the address it bound).
    pub async fn start(args: &[&str]) -> Self {
        let mut all = args.to_vec();
        all.extend(["--http", "127.0.0.1:0"]);
        Self::start_as_given(&all).await
    }

    /// Starts `mcp-wit serve <args>`, which must make it listen on HTTP.
    pub async fn start_as_given(args: &[&str]) -> Self {
        let mut child = Command::new(binary())
            .arg("serve")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("cannot start mcp-wit");
        let stderr = Arc::new(Mutex::new(String::new()));
        let (found, listening) = tokio::sync::oneshot::channel::<SocketAddr>();
        let sink = stderr.clone();
        let pipe = child.stderr.take().unwrap();
        tokio::spawn(async move {
            let mut found = Some(found);
            let mut lines = BufReader::new(pipe).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(addr) = listening_addr(&line)
                    && let Some(found) = found.take()
                {
                    let _ = found.send(addr);
                }
                let mut s = sink.lock().unwrap();
                s.push_str(&line);
                s.push('\n');
            }
        });
        let addr = tokio::time::timeout(Duration::from_secs(120), listening)
            .await
            .expect("the server did not start listening in time")
            .unwrap_or_else(|_| panic!("the server exited before listening; stderr:\n{}", stderr.lock().unwrap()));
        HttpServer { child, addr, stderr }
    }

    /// `http://ADDR/mcp`.
    pub fn pid(&self) -> u32 {
        self.child.id().expect("the server is running")
    }

    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// `http://ADDR` followed by `path`.
    pub fn at(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// A raw client for `/mcp`.
    pub fn client(&self) -> RawClient {
        RawClient::new(self.url())
    }

    /// Sends SIGTERM.
    pub fn terminate(&self) {
        let pid = self.child.id().expect("the server is running");
        let status = std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status().expect("kill");
        assert!(status.success(), "kill -TERM {pid} failed");
    }

    /// Waits for the process to exit.
    pub async fn wait(&mut self) -> ExitStatus {
        tokio::time::timeout(ANSWER_TIMEOUT, self.child.wait()).await.expect("the server did not exit").unwrap()
    }

    /// SIGTERM, then a clean exit.
    pub async fn stop(mut self) {
        self.terminate();
        let status = self.wait().await;
        assert!(status.success(), "server exited with {status}; stderr:\n{}", self.stderr.lock().unwrap());
    }
}

/// The address in the server's "listening on http://ADDR/mcp" log line.
fn listening_addr(line: &str) -> Option<SocketAddr> {
    let rest = &line[line.find("listening on http://")? + "listening on http://".len()..];
    rest[..rest.find("/mcp")?].parse().ok()
}

/// One HTTP answer, read to the end.
#[derive(Debug)]
pub struct Reply {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: HeaderMap,
    /// The body as text.
    pub body: String,
    /// The JSON-RPC messages it carried, in order: the JSON body, or the
    /// data of each SSE event.
    pub messages: Vec<Value>,
}

impl Reply {
    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The `Content-Type`, or "".
    pub fn content_type(&self) -> &str {
        self.header("content-type").unwrap_or_default()
    }

    /// Whether the body is an SSE stream.
    pub fn is_sse(&self) -> bool {
        self.content_type().starts_with("text/event-stream")
    }

    /// The last message with an `id`: the response.
    pub fn response(&self) -> &Value {
        self.messages
            .iter()
            .rev()
            .find(|m| m.get("id").is_some() && m.get("method").is_none())
            .unwrap_or_else(|| panic!("no response in {self:?}"))
    }

    /// The error code of a JSON-RPC error body.
    pub fn error_code(&self) -> Option<i64> {
        self.messages.last().and_then(|m| m["error"]["code"].as_i64())
    }
}

/// One server-sent event.
#[derive(Debug, Clone, Default)]
pub struct SseEvent {
    /// `event:` (`message` when absent).
    pub event: String,
    /// The `data:` lines, joined.
    pub data: String,
    /// `id:`, if any.
    pub id: Option<String>,
    /// `retry:`, if any.
    pub retry: Option<u64>,
}

/// Parses an SSE body into events (comments skipped).
pub fn parse_events(text: &str) -> Vec<SseEvent> {
    let mut events = Vec::new();
    for block in text.split("\n\n") {
        let mut event = SseEvent { event: "message".into(), ..SseEvent::default() };
        let mut data: Vec<&str> = Vec::new();
        for line in block.lines() {
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "event" => event.event = value.to_string(),
                "data" => data.push(value),
                "id" => event.id = Some(value.to_string()),
                "retry" => event.retry = value.parse().ok(),
                _ => {}
            }
        }
        if !data.is_empty() {
            event.data = data.join("\n");
            events.push(event);
        }
    }
    events
}

/// A client that sends exactly what a test says to `/mcp` and checks every
/// message the server sends against the MCP schema.
pub struct RawClient {
    /// The HTTP client.
    pub http: reqwest::Client,
    /// The endpoint.
    pub url: String,
    /// Sent as `Mcp-Session-Id` when set (`initialize` sets it).
    pub session: Option<String>,
    /// Sent as `MCP-Protocol-Version` when set.
    pub version: Option<String>,
    /// Sent as `Authorization: Bearer …` when set.
    pub token: Option<String>,
    /// Method and schema revision of each request sent, by raw id.
    methods: Mutex<HashMap<String, (String, schema::Revision)>>,
}

impl RawClient {
    /// A client for `url`, with no session.
    pub fn new(url: String) -> Self {
        RawClient {
            http: reqwest::Client::new(),
            url,
            session: None,
            version: None,
            token: None,
            methods: Mutex::default(),
        }
    }

    /// The headers every POST carries unless overridden.
    pub fn default_headers(&self) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("content-type", HeaderValue::from_static("application/json"));
        headers.insert("accept", HeaderValue::from_static("application/json, text/event-stream"));
        if let Some(session) = &self.session {
            headers.insert("mcp-session-id", HeaderValue::from_str(session).unwrap());
        }
        if let Some(version) = &self.version {
            headers.insert("mcp-protocol-version", HeaderValue::from_str(version).unwrap());
        }
        if let Some(token) = &self.token {
            headers.insert("authorization", HeaderValue::from_str(&format!("Bearer {token}")).unwrap());
        }
        headers
    }

    /// POSTs `body` with the default headers changed by `overrides` (an
    /// empty value removes the header) and reads the whole answer.
    pub async fn post_raw(&self, overrides: &[(&str, &str)], body: impl Into<String>) -> Reply {
        let body = body.into();
        self.note_request(&body);
        let mut headers = self.default_headers();
        apply(&mut headers, overrides);
        let request = self.http.post(&self.url).headers(headers).body(body);
        self.read(request).await
    }

    /// Sends `request` and reads the whole answer, checking its messages.
    pub async fn read(&self, request: reqwest::RequestBuilder) -> Reply {
        let response = tokio::time::timeout(ANSWER_TIMEOUT, request.send()).await.expect("no answer in time").unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let body = tokio::time::timeout(ANSWER_TIMEOUT, response.text()).await.expect("body not read in time").unwrap();
        let content_type = headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default();
        let messages: Vec<Value> = if content_type.starts_with("text/event-stream") {
            parse_events(&body)
                .into_iter()
                // Priming events (an id, no data) carry no message.
                .filter(|e| !e.data.is_empty())
                .map(|e| {
                    assert_eq!(e.event, "message", "unexpected event type in {body}");
                    serde_json::from_str(&e.data)
                        .unwrap_or_else(|err| panic!("event data is not JSON ({err}): {}", e.data))
                })
                .collect()
        } else if content_type.starts_with("application/json") {
            vec![serde_json::from_str(&body).unwrap_or_else(|e| panic!("body is not JSON ({e}): {body}"))]
        } else {
            Vec::new()
        };
        // Notifications in a reply belong to its request's revision.
        let revision = messages
            .iter()
            .find_map(|m| m.get("id").and_then(|id| self.methods.lock().unwrap().get(&id.to_string()).map(|k| k.1)))
            .unwrap_or_default();
        for message in &messages {
            self.check_at(revision, message);
        }
        Reply { status, headers, body, messages }
    }

    /// Remembers the method of a request so its response can be checked.
    pub fn note_request(&self, body: &str) {
        if let Ok(msg) = serde_json::from_str::<Value>(body)
            && let (Some(id), Some(method)) = (msg.get("id"), msg.get("method").and_then(Value::as_str))
        {
            let revision = schema::Revision::of_request(&msg);
            self.methods.lock().unwrap().insert(id.to_string(), (method.to_string(), revision));
        }
    }

    /// Checks one server message against the schema of the request it
    /// answers (panics on a violation).
    pub fn check(&self, message: &Value) {
        self.check_at(schema::Revision::Legacy, message);
    }

    /// Checks one server message: a response against the schema of its
    /// request's revision, anything else against `revision`.
    pub fn check_at(&self, revision: schema::Revision, message: &Value) {
        let known = message.get("id").and_then(|id| self.methods.lock().unwrap().get(&id.to_string()).cloned());
        let revision = known.as_ref().map_or(revision, |(_, revision)| *revision);
        let method = known.map(|(method, _)| method);
        if let Err(e) = schema::check_server_message_at(revision, message, method.as_deref()) {
            panic!("schema violation: {e}");
        }
    }

    /// POSTs one JSON-RPC message.
    pub async fn post(&self, message: Value) -> Reply {
        self.post_raw(&[], message.to_string()).await
    }

    /// Sends a request; asserts 200 and returns its response message.
    pub async fn request(&self, id: i64, method: &str, params: Value) -> Value {
        let reply = self.post(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })).await;
        assert_eq!(reply.status, StatusCode::OK, "{method}: {reply:?}");
        let response = reply.response().clone();
        assert_eq!(response["id"], id, "{response}");
        response
    }

    /// `initialize` at `version`, keeping the session id it returns, then
    /// `notifications/initialized` (which must get 202).
    pub async fn initialize(&mut self, version: &str) -> Reply {
        let reply = self
            .post(json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": initialize_params(version)
            }))
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
        assert_eq!(reply.response()["result"]["protocolVersion"], version, "{reply:?}");
        self.session = reply.header("mcp-session-id").map(str::to_string);
        self.version = Some(version.to_string());
        let notified = self.post(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })).await;
        assert_eq!(notified.status, StatusCode::ACCEPTED, "{notified:?}");
        assert!(notified.body.is_empty(), "{notified:?}");
        reply
    }

    /// Opens a GET stream on `url` with the default headers (minus the body
    /// ones) changed by `overrides`.
    pub async fn get_stream(&self, url: &str, overrides: &[(&str, &str)]) -> reqwest::Response {
        let mut headers = self.default_headers();
        headers.remove("content-type");
        headers.insert("accept", HeaderValue::from_static("text/event-stream"));
        apply(&mut headers, overrides);
        tokio::time::timeout(ANSWER_TIMEOUT, self.http.get(url).headers(headers).send())
            .await
            .expect("no answer in time")
            .unwrap()
    }

    /// DELETEs the session.
    pub async fn delete(&self) -> Reply {
        let mut headers = self.default_headers();
        headers.remove("content-type");
        self.read(self.http.delete(&self.url).headers(headers)).await
    }
}

fn apply(headers: &mut HeaderMap, overrides: &[(&str, &str)]) {
    for (name, value) in overrides {
        let name = HeaderName::from_bytes(name.as_bytes()).unwrap();
        if value.is_empty() {
            headers.remove(&name);
        } else {
            headers.insert(name, HeaderValue::from_str(value).unwrap());
        }
    }
}

/// Reads SSE events from a streaming response, one at a time.
pub struct EventReader {
    response: reqwest::Response,
    buf: String,
    /// Keep-alive comments seen.
    pub comments: usize,
}

impl EventReader {
    /// Reads events from `response`.
    pub fn new(response: reqwest::Response) -> Self {
        EventReader { response, buf: String::new(), comments: 0 }
    }

    /// The next event as `(event, data)`, `None` when the stream ended;
    /// panics after `wait`.
    pub async fn next(&mut self, wait: Duration) -> Option<(String, String)> {
        self.next_event(wait).await.map(|e| (e.event, e.data))
    }

    /// The next event, `None` when the stream ended; panics after `wait`.
    pub async fn next_event(&mut self, wait: Duration) -> Option<SseEvent> {
        loop {
            if let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                if block.lines().all(|l| l.starts_with(':')) {
                    self.comments += 1;
                    continue;
                }
                return parse_events(&block).into_iter().next();
            }
            let chunk = tokio::time::timeout(wait, self.response.chunk())
                .await
                .expect("no event in time")
                .expect("the stream failed");
            match chunk {
                Some(bytes) => self.buf.push_str(std::str::from_utf8(&bytes).expect("UTF-8 events")),
                None => return None,
            }
        }
    }

    /// Waits for the stream to end (skipping events), within `wait`.
    pub async fn end(mut self, wait: Duration) {
        let deadline = tokio::time::Instant::now() + wait;
        while self.next(deadline.saturating_duration_since(tokio::time::Instant::now())).await.is_some() {}
    }
}

/// What the recording rmcp client saw.
#[derive(Default, Debug)]
pub struct Record {
    methods: HashMap<String, String>,
    /// Every message the server sent, with the method it answers.
    pub messages: Vec<(Option<String>, Value)>,
    /// Schema violations.
    pub violations: Vec<String>,
    /// Session ids the client sent.
    pub sessions: Vec<String>,
    /// POST answers by kind: "json", "sse", "accepted".
    pub answers: Vec<&'static str>,
}

impl Record {
    fn client(&mut self, message: &ClientJsonRpcMessage) {
        let value = serde_json::to_value(message).unwrap();
        if let (Some(id), Some(method)) = (value.get("id"), value.get("method").and_then(Value::as_str)) {
            self.methods.insert(id.to_string(), method.to_string());
        }
    }

    fn server(&mut self, message: Value) {
        let method = message.get("id").and_then(|id| self.methods.get(&id.to_string())).cloned();
        if let Err(e) = schema::check_server_message(&message, method.as_deref()) {
            self.violations.push(e);
        }
        self.messages.push((method, message));
    }

    fn server_text(&mut self, data: &str) {
        match serde_json::from_str(data) {
            Ok(message) => self.server(message),
            Err(e) => self.violations.push(format!("event data is not JSON ({e}): {data}")),
        }
    }

    /// Notifications with this method, in order.
    pub fn notifications(&self, method: &str) -> Vec<Value> {
        self.messages
            .iter()
            .filter(|(_, m)| m["method"] == method && m.get("id").is_none())
            .map(|(_, m)| m.clone())
            .collect()
    }
}

/// rmcp's reqwest client, recording what the server sends: SSE event data
/// as received, JSON bodies as rmcp parsed them.
#[derive(Clone, Default)]
pub struct RecordingClient {
    inner: reqwest::Client,
    /// What was seen.
    pub record: Arc<Mutex<Record>>,
}

type Events = BoxStream<'static, Result<sse_stream::Sse, SseError>>;

fn recorded(stream: Events, record: Arc<Mutex<Record>>) -> Events {
    stream
        .inspect(move |event| {
            if let Ok(event) = event
                && let Some(data) = event.data.as_deref()
                && !data.trim().is_empty()
            {
                record.lock().unwrap().server_text(data);
            }
        })
        .boxed()
}

impl StreamableHttpClient for RecordingClient {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        {
            let mut record = self.record.lock().unwrap();
            record.client(&message);
            if let Some(id) = &session_id {
                record.sessions.push(id.to_string());
            }
        }
        let response = self.inner.post_message(uri, message, session_id, auth_header, custom_headers).await?;
        let mut record = self.record.lock().unwrap();
        Ok(match response {
            StreamableHttpPostResponse::Json(message, session) => {
                record.answers.push("json");
                record.server(serde_json::to_value(&message).unwrap());
                StreamableHttpPostResponse::Json(message, session)
            }
            StreamableHttpPostResponse::Sse(stream, session) => {
                record.answers.push("sse");
                StreamableHttpPostResponse::Sse(recorded(stream, self.record.clone()), session)
            }
            other => {
                record.answers.push("accepted");
                other
            }
        })
    }

    fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> impl Future<Output = Result<(), StreamableHttpError<Self::Error>>> + Send + '_ {
        self.inner.delete_session(uri, session_id, auth_header, custom_headers)
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<Events, StreamableHttpError<Self::Error>> {
        let stream = self.inner.get_stream(uri, session_id, last_event_id, auth_header, custom_headers).await?;
        Ok(recorded(stream, self.record.clone()))
    }
}

/// An rmcp client connected to `url` over Streamable HTTP, recording what the
/// server sends. `stateless` lets it go on without a session id.
pub async fn connect<H: rmcp::ClientHandler>(
    url: &str,
    handler: H,
    stateless: bool,
) -> (RunningService<RoleClient, H>, Arc<Mutex<Record>>) {
    let client = RecordingClient::default();
    let record = client.record.clone();
    let mut config = StreamableHttpClientTransportConfig::with_uri(url);
    config.allow_stateless = stateless;
    let transport = StreamableHttpClientTransport::with_client(client, config);
    let running = tokio::time::timeout(ANSWER_TIMEOUT, rmcp::ServiceExt::serve(handler, transport))
        .await
        .expect("initialize timed out")
        .expect("initialize failed");
    (running, record)
}
