//! `mcp-wit:extension/client`: the host functions a router imports to reach
//! the client that called it. Each one hands its call to the request's
//! [`ClientLink`] (which the protocol core made); this module only converts
//! between WIT values and the core's, and bounds the waits.

use mcp_wit_protocol::observe::TRACE_TARGET;
use std::time::Instant;
use tracing::Instrument;

use std::future::Future;
use wasmtime::StoreContextMut;

use wasmtime::component::{ComponentNamedList, ComponentType, Lift, Linker, LinkerInstance, Lower};

use mcp_wit_protocol::CallMode;
use mcp_wit_protocol::client::{self, AskError, ClientLink, Keyed, Question as Asked, WaitBound};

use super::limits::{CallView, Interrupted};

/// The interface's fully qualified name.
pub const CLIENT_INTERFACE: &str = "mcp-wit:extension/client@0.1.0";

/// The client of the request a store serves, as the host functions that
/// reach it see the store.
pub trait ClientView: CallView {
    /// The client of the request being served; none between requests.
    fn client(&self) -> Option<&ClientLink>;
}

/// `log-level`.
#[allow(dead_code, reason = "the guest's values are made by `Lift`")]
#[derive(ComponentType, Lift, Clone, Copy)]
#[component(enum)]
#[repr(u8)]
enum LogLevel {
    #[component(name = "debug")]
    Debug,
    #[component(name = "info")]
    Info,
    #[component(name = "notice")]
    Notice,
    #[component(name = "warning")]
    Warning,
    #[component(name = "error")]
    Error,
    #[component(name = "critical")]
    Critical,
    #[component(name = "alert")]
    Alert,
    #[component(name = "emergency")]
    Emergency,
}

impl From<LogLevel> for client::LogLevel {
    fn from(level: LogLevel) -> Self {
        match level {
            LogLevel::Debug => client::LogLevel::Debug,
            LogLevel::Info => client::LogLevel::Info,
            LogLevel::Notice => client::LogLevel::Notice,
            LogLevel::Warning => client::LogLevel::Warning,
            LogLevel::Error => client::LogLevel::Error,
            LogLevel::Critical => client::LogLevel::Critical,
            LogLevel::Alert => client::LogLevel::Alert,
            LogLevel::Emergency => client::LogLevel::Emergency,
        }
    }
}

/// `list-kind`.
#[allow(dead_code, reason = "the guest's values are made by `Lift`")]
#[derive(ComponentType, Lift, Clone, Copy)]
#[component(enum)]
#[repr(u8)]
enum ListKind {
    #[component(name = "tools")]
    Tools,
    #[component(name = "prompts")]
    Prompts,
    #[component(name = "resources")]
    Resources,
}

impl From<ListKind> for client::ListKind {
    fn from(kind: ListKind) -> Self {
        match kind {
            ListKind::Tools => client::ListKind::Tools,
            ListKind::Prompts => client::ListKind::Prompts,
            ListKind::Resources => client::ListKind::Resources,
        }
    }
}

/// `question-kind`.
#[allow(dead_code, reason = "the guest's values are made by `Lift`")]
#[derive(ComponentType, Lift, Clone, Copy)]
#[component(enum)]
#[repr(u8)]
enum QuestionKind {
    #[component(name = "create-message")]
    CreateMessage,
    #[component(name = "create-elicitation")]
    CreateElicitation,
    #[component(name = "list-roots")]
    ListRoots,
}

/// `question`.
#[derive(ComponentType, Lift)]
#[component(record)]
struct Question {
    key: String,
    kind: QuestionKind,
    params: Option<String>,
}

impl From<Question> for Keyed {
    fn from(q: Question) -> Self {
        let question = match q.kind {
            QuestionKind::CreateMessage => client::Question::CreateMessage,
            QuestionKind::CreateElicitation => client::Question::Elicit,
            QuestionKind::ListRoots => client::Question::ListRoots,
        };
        Keyed { key: q.key, question, params: q.params }
    }
}

/// `root`.
#[derive(ComponentType, Lower)]
#[component(record)]
struct Root {
    uri: String,
    name: Option<String>,
}

/// `rpc-error`.
#[derive(ComponentType, Lower)]
#[component(record)]
struct RpcError {
    code: i32,
    message: String,
    data: Option<String>,
}

/// `client-error`.
#[derive(ComponentType, Lower)]
#[component(variant)]
enum ClientError {
    #[component(name = "unsupported")]
    Unsupported(String),
    #[component(name = "rejected")]
    Rejected(RpcError),
    #[component(name = "invalid-params")]
    InvalidParams(String),
    #[component(name = "invalid-response")]
    InvalidResponse(String),
    #[component(name = "unavailable")]
    Unavailable(String),
}

impl From<client::ClientError> for ClientError {
    fn from(error: client::ClientError) -> Self {
        match error {
            client::ClientError::Unsupported(m) => ClientError::Unsupported(m),
            client::ClientError::Rejected(e) => {
                ClientError::Rejected(RpcError { code: e.code, message: e.message, data: e.data })
            }
            client::ClientError::InvalidParams(m) => ClientError::InvalidParams(m),
            client::ClientError::InvalidResponse(m) => ClientError::InvalidResponse(m),
            client::ClientError::Unavailable(m) => ClientError::Unavailable(m),
        }
    }
}

type Store<'a, T> = StoreContextMut<'a, T>;

/// Links the client interface for instances called `calls`: its questions
/// wait on the calling thread (blocking) or as futures (async).
pub(super) fn add_to_linker<T: ClientView + Send + 'static>(
    linker: &mut Linker<T>,
    calls: CallMode,
) -> wasmtime::Result<()> {
    let mut client = linker.instance(CLIENT_INTERFACE)?;
    client.func_wrap(
        "notify-progress",
        |store: Store<'_, T>, (progress, total, message): (f64, Option<f64>, Option<String>)| {
            if let Some(link) = store.data().client() {
                link.progress(progress, total, message.as_deref());
            }
            Ok(())
        },
    )?;
    client.func_wrap(
        "notify-logging-message",
        |store: Store<'_, T>, (level, logger, data): (LogLevel, Option<String>, String)| {
            if let Some(link) = store.data().client() {
                link.log(level.into(), logger.as_deref(), &data);
            }
            Ok(())
        },
    )?;
    client.func_wrap("notify-list-changed", |store: Store<'_, T>, (kind,): (ListKind,)| {
        if let Some(link) = store.data().client() {
            link.list_changed(kind.into());
        }
        Ok(())
    })?;
    client.func_wrap("notify-resource-updated", |store: Store<'_, T>, (uri,): (String,)| {
        if let Some(link) = store.data().client() {
            link.resource_updated(&uri);
        }
        Ok(())
    })?;
    client.func_wrap("notify-url-elicitation-completed", |store: Store<'_, T>, (id,): (String,)| {
        if let Some(link) = store.data().client() {
            link.url_elicitation_completed(&id);
        }
        Ok(())
    })?;
    client.func_wrap("extension-settings", |store: Store<'_, T>, (id,): (String,)| {
        Ok((store.data().client().and_then(|link| link.extension_settings(&id)),))
    })?;
    client.func_wrap("run-as-task", |store: Store<'_, T>, (): ()| {
        Ok((store.data().client().is_some_and(ClientLink::run_as_task),))
    })?;
    question(&mut client, calls, "create-message", |asking, (params,): (String,)| async move {
        Ok(asking.ask(Asked::CreateMessage, Some(&params)).await?.map_err(ClientError::from))
    })?;
    question(&mut client, calls, "create-elicitation", |asking, (params,): (String,)| async move {
        Ok(asking.ask(Asked::Elicit, Some(&params)).await?.map_err(ClientError::from))
    })?;
    question(&mut client, calls, "list-roots", |asking, (): ()| async move {
        let roots = asking.ask(Asked::ListRoots, None).await?;
        Ok(roots.and_then(|json| read_roots(&json)).map_err(ClientError::from))
    })?;
    question(&mut client, calls, "ask", |asking, (questions,): (Vec<Question>,)| asking.ask_all(questions))?;
    Ok(())
}

/// Links the question `name`, answered by `ask`: on the calling thread for
/// blocking instances, as a future that gives the thread back for async ones.
fn question<T, P, R, F, Fut>(
    client: &mut LinkerInstance<'_, T>,
    calls: CallMode,
    name: &str,
    ask: F,
) -> wasmtime::Result<()>
where
    T: ClientView + Send + 'static,
    P: ComponentNamedList + Lift + 'static,
    (R,): ComponentNamedList + Lower + 'static,
    F: Fn(Asking, P) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = wasmtime::Result<R>> + Send + 'static,
{
    match calls {
        CallMode::Blocking => client.func_wrap(name, move |store: Store<'_, T>, params: P| {
            Ok((mcp_wit_protocol::block_on(ask(Asking::of(store.data()), params))?,))
        }),
        CallMode::Async => client.func_wrap_async(name, move |store: Store<'_, T>, params: P| {
            let asked = ask(Asking::of(store.data()), params);
            Box::new(async move { Ok((asked.await?,)) })
        }),
    }
}

/// The client's roots, from its `roots/list` result.
fn read_roots(json: &str) -> Result<Vec<Root>, client::ClientError> {
    let roots = client::read_roots(json)?;
    Ok(roots.into_iter().map(|r| Root { uri: r.uri, name: r.name }).collect())
}

/// A question about to be asked: the request's link (none outside of a
/// request), how long it may wait, and the call's budget for the error if
/// that runs out.
pub(super) struct Asking {
    link: Option<ClientLink>,
    bound: WaitBound,
    timeout: std::time::Duration,
    /// A wait shorter than the call's own, which ends in an error the guest
    /// gets rather than in the call's interruption.
    patience: Option<std::time::Duration>,
}

/// What a question gives the guest: the client's answer (JSON text) or why
/// there is none; `Err` when the call stops.
pub(super) type Answer<T> = wasmtime::Result<Result<T, client::ClientError>>;

impl Asking {
    /// A question of the call running in the store of `data`.
    pub(super) fn of(data: &impl ClientView) -> Self {
        let controls = data.call_control().wait_controls();
        Asking {
            link: data.client().cloned(),
            bound: WaitBound { deadline: Instant::now() + controls.left, cancel: controls.cancel },
            timeout: controls.timeout,
            patience: None,
        }
    }

    /// Waits at most `patience` (if that is sooner than the call's
    /// deadline); running out of it is the guest's error, not the call's end.
    #[cfg_attr(not(feature = "extism"), allow(dead_code, reason = "plugins' questions carry a timeout"))]
    pub(super) fn within(mut self, patience: std::time::Duration) -> Self {
        let deadline = Instant::now() + patience;
        if deadline < self.bound.deadline {
            self.bound.deadline = deadline;
            self.patience = Some(patience);
        }
        self
    }

    /// Asks `question` with `params` (JSON text).
    pub(super) async fn ask(self, question: Asked, params: Option<&str>) -> Answer<String> {
        let Some(link) = &self.link else { return Ok(Err(no_client())) };
        let span = tracing::debug_span!(target: TRACE_TARGET, "ask client", mcp.method.name = question.method());
        let asked = link.ask(question, params, self.bound.clone()).instrument(span).await;
        self.answered(asked.map(|json| json.get().to_owned()))
    }

    /// A batch's answers: each question's own answer or error.
    async fn ask_all(self, questions: Vec<Question>) -> wasmtime::Result<Vec<Result<String, ClientError>>> {
        let Some(link) = &self.link else { return Ok(questions.iter().map(|_| Err(no_client().into())).collect()) };
        let keyed = questions.into_iter().map(Keyed::from).collect();
        let span = tracing::debug_span!(target: TRACE_TARGET, "ask client", mcp.method.name = "batch");
        match link.ask_all(keyed, self.bound.clone()).instrument(span).await {
            Ok(answers) => {
                Ok(answers.into_iter().map(|a| a.map(|json| json.get().to_owned()).map_err(Into::into)).collect())
            }
            // A batch's errors are per question: a whole one can only stop it.
            Err(AskError::Client(error)) => Err(wasmtime::Error::msg(error.to_string())),
            Err(other) => Err(self.interruption(other)),
        }
    }

    /// The guest's answer; a wait that ran out of time or was cancelled
    /// stops the call, as any other wait on the host does, and so does a
    /// question that ends a 2026-07-28 round.
    fn answered<T>(&self, outcome: Result<T, AskError>) -> Answer<T> {
        match outcome {
            Ok(answer) => Ok(Ok(answer)),
            Err(AskError::Client(error)) => Ok(Err(error)),
            Err(AskError::TimedOut) if let Some(patience) = self.patience => Ok(Err(client::ClientError::Unavailable(
                format!("the client did not answer within {} ms", patience.as_millis()),
            ))),
            Err(other) => Err(self.interruption(other)),
        }
    }

    fn interruption(&self, stopped: AskError) -> wasmtime::Error {
        wasmtime::Error::new(match stopped {
            AskError::TimedOut => Interrupted::Timeout(self.timeout),
            AskError::Cancelled => Interrupted::Cancelled,
            AskError::InputRequired | AskError::CapabilityRequired | AskError::Client(_) => Interrupted::InputRequired,
        })
    }
}

fn no_client() -> client::ClientError {
    client::ClientError::Unavailable("no request is being served: the client can be asked only during one".into())
}
