//! `mcp-wit:extension/client`: the host functions a router imports to reach
//! the client that called it. Each one hands its call to the request's
//! [`ClientLink`] (which the protocol core made); this module only converts
//! between WIT values and the core's, and bounds the waits.

use std::time::Instant;

use wasmtime::StoreContextMut;
use wasmtime::component::{ComponentType, Lift, Linker, LinkerInstance, Lower};

use mcp_wit_protocol::Calls;
use mcp_wit_protocol::client::{self, AskError, ClientLink, Keyed, Question as Asked, WaitBound};

use super::instance::StoreData;
use super::limits::Interrupted;

/// The interface's fully qualified name.
pub const CLIENT_INTERFACE: &str = "mcp-wit:extension/client@0.1.0";

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

type Store<'a> = StoreContextMut<'a, StoreData>;

/// Links the client interface for instances called `calls`: its questions
/// wait on the calling thread (blocking) or as futures (async).
pub(super) fn add_to_linker(linker: &mut Linker<StoreData>, calls: Calls) -> wasmtime::Result<()> {
    let mut client = linker.instance(CLIENT_INTERFACE)?;
    client.func_wrap(
        "notify-progress",
        |store: Store<'_>, (progress, total, message): (f64, Option<f64>, Option<String>)| {
            if let Some(link) = store.data().client() {
                link.progress(progress, total, message.as_deref());
            }
            Ok(())
        },
    )?;
    client.func_wrap(
        "notify-logging-message",
        |store: Store<'_>, (level, logger, data): (LogLevel, Option<String>, String)| {
            if let Some(link) = store.data().client() {
                link.log(level.into(), logger.as_deref(), &data);
            }
            Ok(())
        },
    )?;
    client.func_wrap("notify-list-changed", |store: Store<'_>, (kind,): (ListKind,)| {
        if let Some(link) = store.data().client() {
            link.list_changed(kind.into());
        }
        Ok(())
    })?;
    client.func_wrap("notify-resource-updated", |store: Store<'_>, (uri,): (String,)| {
        if let Some(link) = store.data().client() {
            link.resource_updated(&uri);
        }
        Ok(())
    })?;
    client.func_wrap("notify-url-elicitation-completed", |store: Store<'_>, (id,): (String,)| {
        if let Some(link) = store.data().client() {
            link.url_elicitation_completed(&id);
        }
        Ok(())
    })?;
    match calls {
        Calls::Blocking => link_blocking_questions(&mut client),
        Calls::Async => link_async_questions(&mut client),
    }
}

fn link_blocking_questions(client: &mut LinkerInstance<'_, StoreData>) -> wasmtime::Result<()> {
    use mcp_wit_protocol::block_on;
    client.func_wrap("create-message", |store: Store<'_>, (params,): (String,)| {
        let asking = Asking::of(&store);
        Ok((asking.answered(block_on(ask(asking.link.clone(), Asked::CreateMessage, params, asking.bound.clone())))?,))
    })?;
    client.func_wrap("create-elicitation", |store: Store<'_>, (params,): (String,)| {
        let asking = Asking::of(&store);
        Ok((asking.answered(block_on(ask(asking.link.clone(), Asked::Elicit, params, asking.bound.clone())))?,))
    })?;
    client.func_wrap("list-roots", |store: Store<'_>, (): ()| {
        let asking = Asking::of(&store);
        Ok((asking.answered(block_on(roots(asking.link.clone(), asking.bound.clone())))?,))
    })?;
    client.func_wrap("ask", |store: Store<'_>, (questions,): (Vec<Question>,)| {
        let asking = Asking::of(&store);
        Ok((asking.answered_all(block_on(ask_all(asking.link.clone(), questions, asking.bound.clone())))?,))
    })?;
    Ok(())
}

fn link_async_questions(client: &mut LinkerInstance<'_, StoreData>) -> wasmtime::Result<()> {
    client.func_wrap_async("create-message", |store: Store<'_>, (params,): (String,)| {
        let asking = Asking::of(&store);
        Box::new(async move {
            let outcome = ask(asking.link.clone(), Asked::CreateMessage, params, asking.bound.clone()).await;
            Ok((asking.answered(outcome)?,))
        })
    })?;
    client.func_wrap_async("create-elicitation", |store: Store<'_>, (params,): (String,)| {
        let asking = Asking::of(&store);
        Box::new(async move {
            let outcome = ask(asking.link.clone(), Asked::Elicit, params, asking.bound.clone()).await;
            Ok((asking.answered(outcome)?,))
        })
    })?;
    client.func_wrap_async("list-roots", |store: Store<'_>, (): ()| {
        let asking = Asking::of(&store);
        Box::new(async move {
            let outcome = roots(asking.link.clone(), asking.bound.clone()).await;
            Ok((asking.answered(outcome)?,))
        })
    })?;
    client.func_wrap_async("ask", |store: Store<'_>, (questions,): (Vec<Question>,)| {
        let asking = Asking::of(&store);
        Box::new(async move {
            let outcome = ask_all(asking.link.clone(), questions, asking.bound.clone()).await;
            Ok((asking.answered_all(outcome)?,))
        })
    })?;
    Ok(())
}

/// A question about to be asked: the request's link (none outside of a
/// request), how long it may wait, and the call's budget for the error if
/// that runs out.
struct Asking {
    link: Option<ClientLink>,
    bound: WaitBound,
    timeout: std::time::Duration,
}

impl Asking {
    fn of(store: &Store<'_>) -> Self {
        let data = store.data();
        let (left, cancel, _) = data.call_wait_controls();
        Asking {
            link: data.client().cloned(),
            bound: WaitBound { deadline: Instant::now() + left, cancel },
            timeout: data.timeout(),
        }
    }

    /// The guest's answers to a batch (see [`Self::answered`]).
    fn answered_all(
        &self,
        outcome: Result<Vec<Result<String, client::ClientError>>, AskError>,
    ) -> wasmtime::Result<Vec<Result<String, ClientError>>> {
        match outcome {
            Ok(answers) => Ok(answers.into_iter().map(|answer| answer.map_err(ClientError::from)).collect()),
            // A batch's errors are per question: a whole one can only stop it.
            Err(AskError::Client(error)) => Err(wasmtime::Error::msg(error.to_string())),
            Err(other) => Err(self.interruption(other)),
        }
    }

    /// The guest's answer; a wait that ran out of time or was cancelled
    /// stops the call, as any other wait on the host does, and so does a
    /// question that ends a 2026-07-28 round.
    fn answered<T>(
        &self,
        outcome: Result<Result<T, client::ClientError>, AskError>,
    ) -> wasmtime::Result<Result<T, ClientError>> {
        match outcome {
            Ok(answer) => Ok(answer.map_err(ClientError::from)),
            Err(AskError::Client(error)) => Ok(Err(error.into())),
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

async fn ask(
    link: Option<ClientLink>,
    question: Asked,
    params: String,
    bound: WaitBound,
) -> Result<Result<String, client::ClientError>, AskError> {
    let Some(link) = link else { return Ok(Err(no_client())) };
    match link.ask(question, Some(&params), bound).await {
        Ok(result) => Ok(Ok(result.get().to_owned())),
        Err(AskError::Client(error)) => Ok(Err(error)),
        Err(interrupted) => Err(interrupted),
    }
}

async fn roots(link: Option<ClientLink>, bound: WaitBound) -> Result<Result<Vec<Root>, client::ClientError>, AskError> {
    let Some(link) = link else { return Ok(Err(no_client())) };
    match link.list_roots(bound).await {
        Ok(roots) => Ok(Ok(roots.into_iter().map(|r| Root { uri: r.uri, name: r.name }).collect())),
        Err(AskError::Client(error)) => Ok(Err(error)),
        Err(interrupted) => Err(interrupted),
    }
}

async fn ask_all(
    link: Option<ClientLink>,
    questions: Vec<Question>,
    bound: WaitBound,
) -> Result<Vec<Result<String, client::ClientError>>, AskError> {
    let Some(link) = link else { return Ok(questions.iter().map(|_| Err(no_client())).collect()) };
    let answers = link.ask_all(questions.into_iter().map(Keyed::from).collect(), bound).await?;
    Ok(answers.into_iter().map(|answer| answer.map(|json| json.get().to_owned())).collect())
}

fn no_client() -> client::ClientError {
    client::ClientError::Unavailable("no request is being served: the client can be asked only during one".into())
}

/// Whether `component` imports the client interface.
pub(super) fn imports_client(engine: &wasmtime::Engine, component: &wasmtime::component::Component) -> bool {
    component.component_type().imports(engine).any(|(name, _)| name == CLIENT_INTERFACE)
}
