//! A task as the extension describes it: its status, times and, by status,
//! its result, error or questions; and what its call's last answer makes
//! of it ([`Ending`]).

use std::time::{Duration, SystemTime};

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

/// Where a task stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Its call is running.
    Working,
    /// Its call asked the client something: the questions are in
    /// `inputRequests`, answered through `tasks/update`.
    InputRequired,
    /// Its call ended with a result (a tool error among them).
    Completed,
    /// Its call ended with a JSON-RPC error.
    Failed,
    /// Its client cancelled it.
    Cancelled,
}

impl TaskStatus {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    /// Whether the task is over.
    pub fn is_terminal(self) -> bool {
        matches!(self, TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled)
    }

    /// Every status, for metrics.
    pub const ALL: [TaskStatus; 5] = [
        TaskStatus::Working,
        TaskStatus::InputRequired,
        TaskStatus::Completed,
        TaskStatus::Failed,
        TaskStatus::Cancelled,
    ];
}

/// What a task holds, as `tasks/get` shows it (its run's handles are kept
/// beside it, by whoever runs it).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct TaskRecord {
    /// Unguessable: 128 random bits.
    pub id: String,
    /// Who created it (the caller's principal), when requests are
    /// authenticated: no one else sees it.
    pub owner: Option<String>,
    /// Where it stands.
    pub status: TaskStatus,
    /// Why, in words (a failure's reason).
    pub status_message: Option<String>,
    /// When it was created.
    pub created: SystemTime,
    /// When its status or questions last changed.
    pub updated: SystemTime,
    /// How long it is kept once over.
    pub ttl: Duration,
    /// How often its client should poll.
    pub poll_interval: Duration,
    /// Once completed: the call's result; once failed: the JSON-RPC error.
    pub outcome: Option<Box<RawValue>>,
    /// While `input_required`: the questions not answered yet, by key.
    pub questions: Map<String, Value>,
    /// While `input_required`: the answers given so far to this round's
    /// questions, by key.
    pub answers: Map<String, Value>,
    /// While `input_required`: the round's `requestState`, which the next
    /// run brings back (never shown to the client: the task is the state).
    pub request_state: Option<String>,
}

impl TaskRecord {
    /// A task just created, working.
    pub fn new(id: String, owner: Option<String>, ttl: Duration, poll_interval: Duration) -> Self {
        let now = SystemTime::now();
        TaskRecord {
            id,
            owner,
            status: TaskStatus::Working,
            status_message: None,
            created: now,
            updated: now,
            ttl,
            poll_interval,
            outcome: None,
            questions: Map::new(),
            answers: Map::new(),
            request_state: None,
        }
    }

    /// The task's fields as the wire has them (`CreateTaskResult` and
    /// `tasks/get` add `resultType`).
    pub fn to_wire(&self) -> Map<String, Value> {
        let mut task = Map::new();
        task.insert("taskId".into(), self.id.clone().into());
        task.insert("status".into(), self.status.as_str().into());
        if let Some(message) = &self.status_message {
            task.insert("statusMessage".into(), message.clone().into());
        }
        task.insert("createdAt".into(), timestamp(self.created).into());
        task.insert("lastUpdatedAt".into(), timestamp(self.updated).into());
        task.insert("ttlMs".into(), positive_ms(self.ttl).into());
        task.insert("pollIntervalMs".into(), positive_ms(self.poll_interval).into());
        match self.status {
            TaskStatus::InputRequired => {
                task.insert("inputRequests".into(), Value::Object(self.questions.clone()));
            }
            TaskStatus::Completed | TaskStatus::Failed => {
                let key = if self.status == TaskStatus::Completed { "result" } else { "error" };
                if let Some(outcome) = &self.outcome
                    && let Ok(value) = serde_json::from_str::<Value>(outcome.get())
                {
                    task.insert(key.into(), value);
                }
            }
            TaskStatus::Working | TaskStatus::Cancelled => {}
        }
        task
    }

    /// Moves to `status`, now.
    pub fn set_status(&mut self, status: TaskStatus, message: Option<String>) {
        self.status = status;
        self.status_message = message;
        self.updated = SystemTime::now();
        if status != TaskStatus::InputRequired {
            self.questions.clear();
            self.answers.clear();
            self.request_state = None;
        }
    }

    /// Takes the answers to outstanding questions in `responses`, ignoring
    /// keys not outstanding (never asked, answered already, superseded), as
    /// the extension says. Once every question is answered, the answers and
    /// the round's state, for the next run.
    pub fn answer(&mut self, responses: Map<String, Value>) -> Option<(Map<String, Value>, Option<String>)> {
        if self.status != TaskStatus::InputRequired {
            return None;
        }
        for (key, response) in responses {
            if self.questions.remove(&key).is_some() {
                self.answers.insert(key, response);
            }
        }
        self.updated = SystemTime::now();
        if !self.questions.is_empty() {
            return None;
        }
        let answers = std::mem::take(&mut self.answers);
        let state = self.request_state.take();
        self.set_status(TaskStatus::Working, None);
        Some((answers, state))
    }

    /// Ends the run as its last message says (see [`Ending`]), unless the
    /// task is over already (cancelled meanwhile).
    pub fn end_run(&mut self, ending: Ending) {
        if self.status.is_terminal() {
            return;
        }
        match ending {
            Ending::Completed(result) => {
                self.outcome = Some(result);
                self.set_status(TaskStatus::Completed, None);
            }
            Ending::Failed { error, reason } => {
                self.outcome = Some(error);
                self.set_status(TaskStatus::Failed, Some(reason));
            }
            Ending::InputRequired { questions, request_state } => {
                self.set_status(TaskStatus::InputRequired, None);
                self.questions = questions;
                self.request_state = request_state;
            }
        }
    }
}

/// What a task's run came to, read from the last message the request
/// wrote.
#[derive(Debug)]
pub enum Ending {
    /// A result: the task completes with it.
    Completed(Box<RawValue>),
    /// A JSON-RPC error (or no answer at all): the task fails.
    Failed {
        /// The error object.
        error: Box<RawValue>,
        /// Its message, as the task's `statusMessage`.
        reason: String,
    },
    /// Questions: the task waits for their answers.
    InputRequired {
        /// `inputRequests`, by key.
        questions: Map<String, Value>,
        /// The round's `requestState`.
        request_state: Option<String>,
    },
}

impl Ending {
    /// Reads the last message a run wrote (`None`: it wrote none, which a
    /// cancelled request does).
    pub fn read(last: Option<&[u8]>) -> Ending {
        #[derive(serde::Deserialize)]
        struct Response {
            result: Option<Box<RawValue>>,
            error: Option<Box<RawValue>>,
        }
        let failed = Ending::failed;
        let Some(last) = last else { return failed("the task's call ended without an answer") };
        let response: Response = match serde_json::from_slice(last) {
            Ok(response) => response,
            Err(e) => return failed(&format!("the task's call answered what is not a response: {e}")),
        };
        if let Some(error) = response.error {
            let reason = serde_json::from_str::<Value>(error.get())
                .ok()
                .and_then(|e| e["message"].as_str().map(str::to_owned))
                .unwrap_or_else(|| "the call failed".into());
            return Ending::Failed { error, reason };
        }
        let Some(result) = response.result else {
            return failed("the task's call answered neither a result nor an error");
        };
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Round {
            result_type: Option<String>,
            #[serde(default)]
            input_requests: Map<String, Value>,
            request_state: Option<String>,
        }
        match serde_json::from_str::<Round>(result.get()) {
            Ok(round) if round.result_type.as_deref() == Some("input_required") => {
                Ending::InputRequired { questions: round.input_requests, request_state: round.request_state }
            }
            _ => Ending::Completed(result),
        }
    }
}

impl Ending {
    /// A failure of the host's own (-32603), for `reason`.
    pub fn failed(reason: &str) -> Ending {
        let error = json!({ "code": mcp_wit_protocol::jsonrpc::code::INTERNAL_ERROR, "message": reason });
        Ending::Failed { error: raw(&error), reason: reason.to_string() }
    }
}

fn raw(value: &Value) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).expect("a JSON value serialises")
}

/// RFC 3339 with milliseconds, in UTC.
fn timestamp(at: SystemTime) -> String {
    humantime::format_rfc3339_millis(at).to_string()
}

/// Whole milliseconds, at least 1 (the extension wants positive integers).
fn positive_ms(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> TaskRecord {
        TaskRecord::new("t".into(), None, Duration::from_secs(60), Duration::from_millis(500))
    }

    #[test]
    fn the_wire_form_carries_what_each_status_has() {
        let mut task = record();
        let wire = task.to_wire();
        assert_eq!(wire["status"], "working");
        assert_eq!(wire["ttlMs"], 60_000);
        assert!(wire["createdAt"].as_str().unwrap().ends_with('Z'));
        for key in ["result", "error", "inputRequests", "requestState", "ttl", "pollInterval"] {
            assert!(!wire.contains_key(key), "{key}");
        }
        task.end_run(Ending::read(Some(
            br#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"resultType":"complete"}}"#,
        )));
        assert_eq!(task.to_wire()["result"]["content"], json!([]));
        task.end_run(Ending::read(None));
        assert_eq!(task.status, TaskStatus::Completed, "an ended task stays as it ended");
    }

    #[test]
    fn a_failure_keeps_the_error_and_says_why() {
        let mut task = record();
        task.end_run(Ending::read(Some(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"trapped"}}"#)));
        let wire = task.to_wire();
        assert_eq!((wire["status"].as_str(), wire["error"]["code"].as_i64()), (Some("failed"), Some(-32603)));
        assert_eq!(wire["statusMessage"], "trapped");
        assert!(!wire.contains_key("result"));
    }

    #[test]
    fn questions_are_answered_in_parts_and_then_run_again() {
        let mut task = record();
        let round = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create"},"b":{"method":"elicitation/create"}},"requestState":"s"}}"#;
        task.end_run(Ending::read(Some(round)));
        assert_eq!(task.to_wire()["status"], "input_required");
        let answer =
            |key: &str| serde_json::from_value::<Map<String, Value>>(json!({ key: { "action": "accept" } })).unwrap();
        assert_eq!(task.answer(answer("a")), None);
        assert_eq!(task.answer(answer("unknown")), None, "keys not outstanding are ignored");
        let wire = task.to_wire();
        assert!(wire["inputRequests"].get("a").is_none() && wire["inputRequests"].get("b").is_some());
        let (answers, state) = task.answer(answer("b")).expect("every question answered");
        assert_eq!((answers.len(), state.as_deref()), (2, Some("s")));
        assert_eq!(task.status, TaskStatus::Working);
    }
}
