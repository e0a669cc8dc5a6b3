//! The client of the request being served, as a guest reaches it: what
//! it sends, held back or sent at once, and what it asks, answered by the
//! client or from a 2026-07-28 round's answers.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use serde_json::value::RawValue;

use super::capabilities::{
    ClientCapabilities, Question, QuestionIds, check_params, check_result, is_url_elicitation, required_capability,
};
use super::peer::{AskError, ClientError, Peer, WaitBound};
use crate::jsonrpc;
use crate::listeners::{Change, ListKind, Listeners};
use crate::params::LogLevel;
use crate::rounds::Round;
use crate::version::ProtocolVersion;

/// Most questions one request may ask its client; beyond them the guest gets
/// [`ClientError::Unavailable`] and nothing is sent.
pub(crate) const MAX_QUESTIONS_PER_REQUEST: u32 = 64;

/// What a [`ClientLink`] is made of; the session fills it per request.
pub(crate) struct LinkSettings {
    /// The transport's way to the client, if it has one.
    pub peer: Option<Arc<dyn Peer>>,
    /// The revision the request is served at.
    pub version: ProtocolVersion,
    /// What the client declared.
    pub capabilities: ClientCapabilities,
    /// The request's `_meta.progressToken`.
    pub progress_token: Option<Box<RawValue>>,
    /// The least severe level the client wants.
    pub log_level: Option<LogLevel>,
    /// A 2026-07-28 request: without a `logLevel` it gets no log messages,
    /// and its questions never go to the client as requests.
    pub modern: bool,
    /// The connection's question ids.
    pub ids: QuestionIds,
    /// For a 2026-07-28 request that may end in `input_required`: the
    /// answers it brought. Its questions are answered from them, and the
    /// ones without an answer end the round.
    pub round: Option<Round>,
    /// Who hears of the routers' changes (list changes, resource updates):
    /// every listening client of the server. Without it, a 2025 request's
    /// client hears of them on its own stream, and a 2026-07-28 one not at
    /// all (it hears only on a `subscriptions/listen` stream).
    pub listeners: Option<Arc<Listeners>>,
    /// Each mount's prefix, when several routers are mounted: a router's
    /// resource URIs reach clients under its prefix.
    pub uri_prefixes: Option<Arc<[String]>>,
    /// The request's way to become a task, when it may become one.
    pub task: Option<crate::tasks::TaskOffer>,
}

/// A question of a batch: how a 2026-07-28 round knows it, what it asks,
/// and its params (JSON text).
#[derive(Debug, Clone)]
pub struct Keyed {
    /// Its key in `inputRequests`/`inputResponses`.
    pub key: String,
    /// What it asks.
    pub question: Question,
    /// Its params, as the guest gave them.
    pub params: Option<String>,
}

/// A question a round asks of the client: an entry of `inputRequests`.
pub(super) struct Missing {
    pub(super) key: String,
    pub(super) question: Question,
    pub(super) params: Option<Box<RawValue>>,
}

/// The client of the request being served, as a guest reaches it. Cheap to
/// clone; made per request by the session.
#[derive(Clone)]
pub struct ClientLink {
    inner: Arc<Link>,
}

struct Link {
    settings: LinkSettings,
    /// Messages sent without a peer, delivered before the request's answer.
    held: Mutex<Vec<Vec<u8>>>,
    asked: AtomicU32,
    /// The questions of this round without an answer yet.
    missing: Mutex<Vec<Missing>>,
    /// The keys of the questions of this round answered from the answers
    /// the request brought: the only answers its next state keeps.
    answered: Mutex<Vec<String>>,
    /// The capability a question needed that the client did not declare.
    required: Mutex<Option<serde_json::Value>>,
    /// The mount whose guest is being called.
    mount: AtomicUsize,
}

impl ClientLink {
    /// A link for one request.
    pub(crate) fn new(settings: LinkSettings) -> Self {
        ClientLink {
            inner: Arc::new(Link {
                settings,
                held: Mutex::new(Vec::new()),
                asked: AtomicU32::new(0),
                missing: Mutex::new(Vec::new()),
                answered: Mutex::new(Vec::new()),
                mount: AtomicUsize::new(0),
                required: Mutex::new(None),
            }),
        }
    }

    /// Reports progress (`notifications/progress`), if the request carries a
    /// progress token.
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Progress<'a> {
            progress_token: &'a RawValue,
            progress: f64,
            #[serde(skip_serializing_if = "Option::is_none")]
            total: Option<f64>,
            #[serde(skip_serializing_if = "Option::is_none")]
            message: Option<&'a str>,
        }
        let settings = &self.inner.settings;
        let Some(token) = settings.progress_token.as_deref() else { return };
        if !progress.is_finite() || total.is_some_and(|t| !t.is_finite()) {
            tracing::debug!("dropping a progress report that is not a finite number");
            return;
        }
        let message = message.filter(|_| settings.version.has_progress_message());
        self.notify("notifications/progress", &Progress { progress_token: token, progress, total, message });
    }

    /// Sends a log message (`notifications/message`) if the client's level
    /// lets it through. `data` is JSON text; anything else is sent as a
    /// string.
    pub fn log(&self, level: LogLevel, logger: Option<&str>, data: &str) {
        #[derive(Serialize)]
        struct Message<'a> {
            level: LogLevel,
            #[serde(skip_serializing_if = "Option::is_none")]
            logger: Option<&'a str>,
            data: &'a RawValue,
        }
        let settings = &self.inner.settings;
        let passes = match settings.log_level {
            Some(least) => level >= least,
            None => !settings.modern,
        };
        if !passes {
            return;
        }
        let text;
        let data = match serde_json::from_str::<&RawValue>(data) {
            Ok(json) => json,
            Err(_) => {
                text = serde_json::value::to_raw_value(data).expect("a string serialises");
                &text
            }
        };
        self.notify("notifications/message", &Message { level, logger, data });
    }

    /// Says that one of the router's lists changed: to every client of the
    /// server that listens for it.
    pub fn list_changed(&self, kind: ListKind) {
        self.announce(Change::List(kind), kind.method(), &serde_json::Map::new());
    }

    /// Says that the resource at `uri` (as the router calls it) changed: to
    /// every client subscribed to it.
    pub fn resource_updated(&self, uri: &str) {
        #[derive(Serialize)]
        struct Updated<'a> {
            uri: &'a str,
        }
        let mount = self.inner.mount.load(Ordering::Relaxed);
        let uri = match &self.inner.settings.uri_prefixes {
            Some(prefixes) => std::borrow::Cow::Owned(crate::prefixes::outward_uri(&prefixes[mount], uri)),
            None => std::borrow::Cow::Borrowed(uri),
        };
        self.announce(Change::ResourceUpdated(&uri), "notifications/resources/updated", &Updated { uri: &uri });
    }

    fn announce<P: Serialize>(&self, change: Change<'_>, method: &str, params: &P) {
        let settings = &self.inner.settings;
        match &settings.listeners {
            Some(listeners) => listeners.announce(change),
            None if !settings.modern => self.notify(method, params),
            None => tracing::debug!("{method}: no client listens"),
        }
    }

    /// Marks the mount whose guest is called next: its URIs get its prefix.
    pub(crate) fn enter(&self, mount: usize) {
        self.inner.mount.store(mount, Ordering::Relaxed);
    }

    /// Says that the URL-mode elicitation `elicitation_id` finished.
    pub fn url_elicitation_completed(&self, elicitation_id: &str) {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Completed<'a> {
            elicitation_id: &'a str,
        }
        self.notify("notifications/elicitation/complete", &Completed { elicitation_id });
    }

    /// Asks the client `question` with `params` (JSON text; `None` for
    /// questions without params), waiting within `bound`. Returns the
    /// client's result as JSON text.
    pub async fn ask(
        &self,
        question: Question,
        params: Option<&str>,
        bound: WaitBound,
    ) -> Result<Box<RawValue>, AskError> {
        let Some(round) = &self.inner.settings.round else {
            return self.ask_now(question, params, bound).await;
        };
        // A single question is one the call cannot do without: asked of a
        // client that did not declare it, it fails the request (-32021). (In
        // a batch, `ask_all`, the guest gets `unsupported` instead.)
        let params = params.map(|p| check_params(question, p)).transpose()?;
        if self.check_declared(question, params.as_deref()).is_err() {
            *self.inner.required.lock().unwrap_or_else(|e| e.into_inner()) =
                Some(required_capability(question, params.as_deref()));
            return Err(AskError::CapabilityRequired);
        }
        // Keyed in the order asked: the same on every run of the request.
        let key = format!("q{}", self.inner.asked.load(Ordering::Relaxed) + 1);
        match self.answer_in_round(round, key, question, params)? {
            Some(answer) => Ok(answer),
            None => Err(AskError::InputRequired),
        }
    }

    /// Asks `questions`; the answers come in the same order. In a 2025
    /// session each is asked in turn; in a 2026-07-28 round each is answered
    /// from the answers the request brought, and if any has none, the round
    /// ends with all of those ([`AskError::InputRequired`]).
    pub async fn ask_all(
        &self,
        questions: Vec<Keyed>,
        bound: WaitBound,
    ) -> Result<Vec<Result<Box<RawValue>, ClientError>>, AskError> {
        let Some(round) = &self.inner.settings.round else {
            let mut answers = Vec::with_capacity(questions.len());
            for keyed in questions {
                match self.ask_now(keyed.question, keyed.params.as_deref(), bound.clone()).await {
                    Ok(answer) => answers.push(Ok(answer)),
                    Err(AskError::Client(error)) => answers.push(Err(error)),
                    Err(interrupted) => return Err(interrupted),
                }
            }
            return Ok(answers);
        };
        let mut answers = Vec::with_capacity(questions.len());
        let mut unanswered = false;
        for Keyed { key, question, params } in questions {
            let answer = params
                .as_deref()
                .map(|p| check_params(question, p))
                .transpose()
                .and_then(|params| self.check_declared(question, params.as_deref()).map(|()| params))
                .and_then(|params| self.answer_in_round(round, key, question, params));
            unanswered |= matches!(answer, Ok(None));
            answers.push(
                answer.and_then(|answer| answer.ok_or_else(|| ClientError::Unavailable("not answered yet".into()))),
            );
        }
        if unanswered { Err(AskError::InputRequired) } else { Ok(answers) }
    }

    /// The answer the round brought to question `key` (its params checked),
    /// checked in turn; `None` when it has none yet: the question is then
    /// one of the round's `inputRequests`.
    fn answer_in_round(
        &self,
        round: &Round,
        key: String,
        question: Question,
        params: Option<Box<RawValue>>,
    ) -> Result<Option<Box<RawValue>>, ClientError> {
        self.count_question()?;
        match round.answer(&key) {
            Some(answer) => {
                self.inner.answered.lock().unwrap_or_else(|e| e.into_inner()).push(key);
                check_result(question, answer.to_owned()).map(Some)
            }
            None => {
                self.inner.missing.lock().unwrap_or_else(|e| e.into_inner()).push(Missing { key, question, params });
                Ok(None)
            }
        }
    }

    /// Counts a question against [`MAX_QUESTIONS_PER_REQUEST`].
    fn count_question(&self) -> Result<(), ClientError> {
        if self.inner.asked.fetch_add(1, Ordering::Relaxed) >= MAX_QUESTIONS_PER_REQUEST {
            return Err(ClientError::Unavailable(format!(
                "a request may ask its client at most {MAX_QUESTIONS_PER_REQUEST} questions"
            )));
        }
        Ok(())
    }

    /// The error that ends the request if a question needed a capability the
    /// client did not declare (-32021, naming it).
    pub fn capability_required(&self) -> Option<crate::jsonrpc::RpcError> {
        let required = self.inner.required.lock().unwrap_or_else(|e| e.into_inner()).take()?;
        let name = required.as_object().and_then(|o| o.keys().next().cloned()).unwrap_or_default();
        Some(crate::jsonrpc::RpcError {
            code: crate::jsonrpc::code::MISSING_REQUIRED_CLIENT_CAPABILITY,
            message: format!("Missing required client capability: {name} (declare it in `clientCapabilities`)"),
            data: Some(serde_json::json!({ "requiredCapabilities": required })),
        })
    }

    /// The result that ends this round, if a question had no answer: an
    /// `InputRequiredResult` whose state is signed with `key` and honoured
    /// for `ttl`, keeping the answers this run used. -32602 when those make
    /// too long a state.
    pub fn input_required(
        &self,
        key: &crate::rounds::StateKey,
        ttl: Duration,
    ) -> Result<Option<serde_json::Value>, crate::jsonrpc::RpcError> {
        let missing = std::mem::take(&mut *self.inner.missing.lock().unwrap_or_else(|e| e.into_inner()));
        let Some(round) = self.inner.settings.round.as_ref() else { return Ok(None) };
        if missing.is_empty() {
            return Ok(None);
        }
        let answered = self.inner.answered.lock().unwrap_or_else(|e| e.into_inner());
        let state =
            round.seal(key, ttl, answered.iter().map(String::as_str), missing.iter().map(|m| m.key.as_str()))?;
        let requests: serde_json::Map<String, serde_json::Value> = missing
            .into_iter()
            .map(|m| {
                let mut request = serde_json::json!({ "method": m.question.method() });
                let params = match &m.params {
                    Some(params) => serde_json::from_str(params.get()).expect("checked params are JSON"),
                    None => serde_json::json!({}),
                };
                request["params"] = params;
                (m.key, request)
            })
            .collect();
        Ok(Some(serde_json::json!({
            "resultType": "input_required",
            "inputRequests": requests,
            "requestState": state,
        })))
    }

    /// Asks the client now, with a request (2025 sessions).
    async fn ask_now(
        &self,
        question: Question,
        params: Option<&str>,
        bound: WaitBound,
    ) -> Result<Box<RawValue>, AskError> {
        let settings = &self.inner.settings;
        let params = match params {
            Some(text) => Some(check_params(question, text)?),
            None => None,
        };
        self.check_declared(question, params.as_deref())?;
        if settings.modern {
            return Err(ClientError::Unavailable(format!(
                "`{}`: a 2026-07-28 request can ask its client only from tools/call, prompts/get or resources/read",
                question.method()
            ))
            .into());
        }
        let Some(peer) = settings.peer.clone() else {
            return Err(ClientError::Unavailable(format!(
                "`{}` needs a transport that carries requests to the client; this one does not",
                question.method()
            ))
            .into());
        };
        self.count_question()?;
        let id = settings.ids.next();
        let mut message = Vec::with_capacity(128);
        let written = match &params {
            Some(params) => jsonrpc::write_request(&mut message, id, question.method(), params),
            None => jsonrpc::write_request(&mut message, id, question.method(), &serde_json::Map::new()),
        };
        written.map_err(|e| ClientError::InvalidParams(e.to_string()))?;
        match peer.ask(id, message, bound).await? {
            Ok(result) => check_result(question, result).map_err(AskError::Client),
            Err(error) => Err(ClientError::Rejected(error).into()),
        }
    }

    /// What the client declared of extension `id` (its capabilities'
    /// `extensions[id]`), as JSON text; `None` when it did not declare it
    /// (a router offers such a client a fallback: text for an MCP App).
    pub fn extension_settings(&self, id: &str) -> Option<String> {
        self.inner.settings.capabilities.extension(id)
    }

    /// Asks for the request to go on as a task (the tasks extension): its
    /// client gets the task at once and polls for the result. Whether the
    /// request is a task now: `false` when it cannot become one (the client
    /// did not declare the extension, the tool's policy says never, the
    /// transport serves no tasks).
    pub fn run_as_task(&self) -> bool {
        self.inner.settings.task.as_ref().is_some_and(|offer| {
            offer.take();
            true
        })
    }

    /// The progress token of the request being served, if it has one.
    pub fn progress_token(&self) -> Option<&RawValue> {
        self.inner.settings.progress_token.as_deref()
    }

    /// Messages sent while no peer was there, to go out before the answer.
    pub fn take_held(&self) -> Vec<Vec<u8>> {
        std::mem::take(&mut *self.inner.held.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn check_declared(&self, question: Question, params: Option<&RawValue>) -> Result<(), ClientError> {
        let caps = &self.inner.settings.capabilities;
        let (declared, what) = match question {
            Question::CreateMessage => (caps.sampling, "sampling"),
            Question::ListRoots => (caps.roots, "roots"),
            Question::Elicit if is_url_elicitation(params) => (caps.elicitation_url, "URL-mode elicitation"),
            Question::Elicit => (caps.elicitation_form, "elicitation"),
        };
        if declared {
            Ok(())
        } else {
            Err(ClientError::Unsupported(format!("{what} (it did not declare the capability)")))
        }
    }

    fn notify<P: Serialize>(&self, method: &str, params: &P) {
        let mut message = Vec::with_capacity(128);
        if let Err(e) = jsonrpc::write_notification(&mut message, method, params) {
            tracing::warn!("cannot serialise a {method} notification: {e}");
            return;
        }
        self.send(message);
    }

    /// Sends a notification: at once through the peer, else held for the
    /// request's answer.
    pub(super) fn send(&self, message: Vec<u8>) {
        match &self.inner.settings.peer {
            Some(peer) => peer.notify(&message),
            None => self.inner.held.lock().unwrap_or_else(|e| e.into_inner()).push(message),
        }
    }
}

/// What a link saw, taken and given back: how a [`RelayedLink`](super::RelayedLink)
/// carries it to a router in another component and back.
impl ClientLink {
    pub(super) fn settings(&self) -> &LinkSettings {
        &self.inner.settings
    }

    /// Questions asked so far.
    pub(super) fn asked(&self) -> u32 {
        self.inner.asked.load(Ordering::Relaxed)
    }

    /// Counts `asked` questions as asked, if more than so far.
    pub(super) fn count_asked(&self, asked: u32) {
        self.inner.asked.fetch_max(asked, Ordering::Relaxed);
    }

    /// Whether a question ended the round (one had no answer, or needed a
    /// capability the client lacks): what the router asks or sends after
    /// that would not have happened natively.
    pub fn round_ended(&self) -> bool {
        !self.inner.missing.lock().unwrap_or_else(|e| e.into_inner()).is_empty()
            || self.inner.required.lock().unwrap_or_else(|e| e.into_inner()).is_some()
    }

    pub(super) fn take_missing(&self) -> Vec<Missing> {
        std::mem::take(&mut *self.inner.missing.lock().unwrap_or_else(|e| e.into_inner()))
    }

    pub(super) fn add_missing(&self, missing: impl IntoIterator<Item = Missing>) {
        self.inner.missing.lock().unwrap_or_else(|e| e.into_inner()).extend(missing);
    }

    pub(super) fn take_answered(&self) -> Vec<String> {
        std::mem::take(&mut *self.inner.answered.lock().unwrap_or_else(|e| e.into_inner()))
    }

    pub(super) fn add_answered(&self, answered: Vec<String>) {
        self.inner.answered.lock().unwrap_or_else(|e| e.into_inner()).extend(answered);
    }

    pub(super) fn take_required(&self) -> Option<serde_json::Value> {
        self.inner.required.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    pub(super) fn set_required(&self, required: serde_json::Value) {
        *self.inner.required.lock().unwrap_or_else(|e| e.into_inner()) = Some(required);
    }
}
