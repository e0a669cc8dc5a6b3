//! `client-cell`: the client of the request being served, relayed from the
//! adapter (which serves the request) to the router (which imports
//! `mcp-wit:extension/client`); see `mcp-wit:adapter/client-cell`.
//!
//! Each call of the router's is answered by the protocol core's own
//! [`ClientLink`], made from the link the adapter relays: the same checks of
//! params and answers, the same keys, the same answers from a 2026-07-28
//! request's earlier rounds. What has no answer here ends the round: the
//! router hears `unavailable` (nothing can stop its call short of a trap,
//! which would end the adapter's too), and the adapter, told by the report,
//! discards what the router returns and ends the request with the questions.

wit_bindgen::generate!({
    path: "../../wit",
    world: "mcp-wit:adapter/client-cell",
    generate_all,
});

use std::cell::RefCell;

use exports::mcp_wit::adapter::client_relay;
use exports::mcp_wit::extension::client::{self, ClientError, ListKind, LogLevel, Question, QuestionKind, Root};
use mcp_wit_protocol::block_on;
use mcp_wit_protocol::client::{
    self as core, AskError, ClientLink, Keyed, ListKind as CoreListKind, LogLevel as CoreLogLevel, RelayedLink,
    WaitBound,
};
use serde_json::value::RawValue;

struct ClientCell;

thread_local! {
    /// The link of the request being served; `None` between requests. A
    /// component instance runs on one thread at a time.
    static LINK: RefCell<Option<ClientLink>> = const { RefCell::new(None) };
}

impl client_relay::Guest for ClientCell {
    fn connected() -> bool {
        true
    }

    fn begin(link: String) {
        let relayed =
            serde_json::from_str::<RelayedLink>(&link).map_err(|e| e.to_string()).and_then(ClientLink::relayed);
        match relayed {
            Ok(link) => LINK.set(Some(link)),
            Err(why) => {
                // Built with the adapter from one source: not expected.
                eprintln!("client-cell: cannot read the request's link ({why}); the router's client is unavailable");
                LINK.set(None);
            }
        }
    }

    fn finish() -> String {
        let report = LINK.take().map(|link| link.report()).unwrap_or_default();
        serde_json::to_string(&report).expect("a report serialises")
    }
}

/// The link, unless there is none or the round already ended (then what the
/// router does next would not have happened natively: its call would have
/// stopped at the question).
fn open_link() -> Option<ClientLink> {
    LINK.with_borrow(|link| link.clone().filter(|link| !link.round_ended()))
}

fn unavailable() -> ClientError {
    ClientError::Unavailable(
        "no client can be asked now: outside of a request, or the request already waits for its client's answers \
         (it ends with input_required and runs again with them)"
            .into(),
    )
}

fn ask(question: core::Question, params: Option<&str>) -> Result<Box<RawValue>, ClientError> {
    let Some(link) = open_link() else { return Err(unavailable()) };
    match block_on(link.ask(question, params, WaitBound::answered_at_hand())) {
        Ok(answer) => Ok(answer),
        Err(AskError::Client(error)) => Err(client_error(error)),
        Err(AskError::InputRequired | AskError::CapabilityRequired | AskError::TimedOut | AskError::Cancelled) => {
            Err(unavailable())
        }
    }
}

impl client::Guest for ClientCell {
    fn notify_progress(progress: f64, total: Option<f64>, message: Option<String>) {
        if let Some(link) = open_link() {
            link.progress(progress, total, message.as_deref());
        }
    }

    fn notify_logging_message(level: LogLevel, logger: Option<String>, data: String) {
        if let Some(link) = open_link() {
            link.log(log_level(level), logger.as_deref(), &data);
        }
    }

    fn create_message(params: String) -> Result<String, ClientError> {
        ask(core::Question::CreateMessage, Some(&params)).map(|answer| answer.get().to_owned())
    }

    fn create_elicitation(params: String) -> Result<String, ClientError> {
        ask(core::Question::Elicit, Some(&params)).map(|answer| answer.get().to_owned())
    }

    fn extension_settings(id: String) -> Option<String> {
        open_link().and_then(|link| link.extension_settings(&id))
    }

    fn run_as_task() -> bool {
        // A router in another component asks its own host's request, which
        // a relayed link does not reach.
        false
    }

    fn list_roots() -> Result<Vec<Root>, ClientError> {
        let answer = ask(core::Question::ListRoots, None)?;
        let roots = core::read_roots(answer.get()).map_err(client_error)?;
        Ok(roots.into_iter().map(|root| Root { uri: root.uri, name: root.name }).collect())
    }

    fn ask(questions: Vec<Question>) -> Vec<Result<String, ClientError>> {
        let Some(link) = open_link() else { return questions.iter().map(|_| Err(unavailable())).collect() };
        let count = questions.len();
        let keyed =
            questions.into_iter().map(|q| Keyed { key: q.key, question: question(q.kind), params: q.params }).collect();
        // A batch's client errors are per question; as a whole it can only
        // end the round.
        match block_on(link.ask_all(keyed, WaitBound::answered_at_hand())) {
            Ok(answers) => answers
                .into_iter()
                .map(|answer| answer.map(|json| json.get().to_owned()).map_err(client_error))
                .collect(),
            Err(_) => (0..count).map(|_| Err(unavailable())).collect(),
        }
    }

    fn notify_list_changed(kind: ListKind) {
        if let Some(link) = open_link() {
            link.list_changed(match kind {
                ListKind::Tools => CoreListKind::Tools,
                ListKind::Prompts => CoreListKind::Prompts,
                ListKind::Resources => CoreListKind::Resources,
            });
        }
    }

    fn notify_resource_updated(uri: String) {
        if let Some(link) = open_link() {
            link.resource_updated(&uri);
        }
    }

    fn notify_url_elicitation_completed(elicitation_id: String) {
        if let Some(link) = open_link() {
            link.url_elicitation_completed(&elicitation_id);
        }
    }
}

fn question(kind: QuestionKind) -> core::Question {
    match kind {
        QuestionKind::CreateMessage => core::Question::CreateMessage,
        QuestionKind::CreateElicitation => core::Question::Elicit,
        QuestionKind::ListRoots => core::Question::ListRoots,
    }
}

fn log_level(level: LogLevel) -> CoreLogLevel {
    match level {
        LogLevel::Debug => CoreLogLevel::Debug,
        LogLevel::Info => CoreLogLevel::Info,
        LogLevel::Notice => CoreLogLevel::Notice,
        LogLevel::Warning => CoreLogLevel::Warning,
        LogLevel::Error => CoreLogLevel::Error,
        LogLevel::Critical => CoreLogLevel::Critical,
        LogLevel::Alert => CoreLogLevel::Alert,
        LogLevel::Emergency => CoreLogLevel::Emergency,
    }
}

fn client_error(error: core::ClientError) -> ClientError {
    match error {
        core::ClientError::Unsupported(why) => ClientError::Unsupported(why),
        core::ClientError::Rejected(error) => {
            ClientError::Rejected(client::RpcError { code: error.code, message: error.message, data: error.data })
        }
        core::ClientError::InvalidParams(why) => ClientError::InvalidParams(why),
        core::ClientError::InvalidResponse(why) => ClientError::InvalidResponse(why),
        core::ClientError::Unavailable(why) => ClientError::Unavailable(why),
    }
}

export!(ClientCell);
