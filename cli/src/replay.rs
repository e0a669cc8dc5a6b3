//! `mcp-wit replay`: a recording's client messages sent again, session by
//! session, to routers in process, and every answer compared with the
//! recorded one.
//!
//! Each recorded session gets a fresh session on the routers, fed the
//! client's messages in their order. A router's questions to the client
//! (sampling, elicitation, roots) get the answers the client gave when the
//! recording was made, question by question; what the routers send is
//! compared with what they sent then, message by message, JSON-equal, but
//! for the fields `--ignore` names.

use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context;
use serde_json::Value;

use mcp_wit::client::{AskError, BoxFuture, ClientError, ClientRpcError, Peer, Response, WaitBound};
use mcp_wit::{Listeners, Session, Sink};
use mcp_wit_record::{Direction, Record, RecordWriter};

use crate::serve::{self, ServeArgs};

#[derive(clap::Args)]
pub struct ReplayArgs {
    /// The recording (`serve --record FILE.mcp`).
    recording: PathBuf,
    /// A field not compared: a path into the message (`result.content.0.text`,
    /// `result._meta`), or a key wherever it is (`timestamp`). Repeatable.
    #[arg(long = "ignore", value_name = "PATH")]
    ignore: Vec<String>,
    /// Rewrite the recording with what the routers answer now.
    #[arg(long)]
    update: bool,
    /// The routers, their grants and limits, as `serve` takes them.
    #[command(flatten)]
    serve: ServeArgs,
}

/// A message the routers sent that is not what they sent when recorded.
struct Difference {
    session: String,
    /// Its place among the session's messages from the server (from 1).
    index: usize,
    /// What it answers, if known (`tools/call echo`).
    answers: Option<String>,
    /// `(path, recorded, replayed)`; `None`: no such message or field.
    fields: Vec<(String, Option<Value>, Option<Value>)>,
}

pub fn replay(args: ReplayArgs) -> anyhow::Result<()> {
    let bytes = std::fs::read(&args.recording).with_context(|| format!("cannot read {}", args.recording.display()))?;
    let recording = mcp_wit_record::read(&bytes)
        .with_context(|| format!("{} is not a readable recording", args.recording.display()))?;
    if let Some(offset) = recording.truncated_at {
        eprintln!(
            "mcp-wit replay: the last record of {}, at byte {offset}, is incomplete and left out",
            args.recording.display()
        );
    }
    let loaded = serve::load(&args.serve, crate::registry::RegistryArgs::resolve_checked)?;
    anyhow::ensure!(
        loaded.http_options.is_none(),
        "replay runs the routers in process, over no transport: leave out --http (or `listen` under [http] in \
         mcp-wit.toml)"
    );
    // In the order each session first appears.
    let mut sessions: Vec<(String, Vec<Record>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for record in recording.records {
        let at = *index.entry(record.session.clone()).or_insert_with(|| {
            sessions.push((record.session.clone(), Vec::new()));
            sessions.len() - 1
        });
        sessions[at].1.push(record);
    }
    let mut differences = Vec::new();
    let mut compared = 0;
    let mut rewritten = Vec::new();
    let mut skipped = 0;
    for (name, records) in &sessions {
        let replayed = replay_session(&loaded, records);
        // The answers to calls recorded without their arguments are not compared.
        let recorded: Vec<&Value> = records
            .iter()
            .filter(|r| r.direction == Direction::Out)
            .filter(|r| r.message.get("id").is_none_or(|id| !replayed.skipped.contains(id)))
            .map(|r| &r.message)
            .collect();
        skipped += replayed.skipped.len();
        compared += recorded.len().max(replayed.outputs.len());
        differences.extend(compare(name, records, &recorded, &replayed.outputs, &args.ignore));
        rewritten.extend(replayed.records);
    }
    for difference in &differences {
        eprint!("{}", describe(difference));
    }
    if skipped > 0 {
        eprintln!(
            "mcp-wit replay: {skipped} calls of tools recorded with --record-redact were not replayed: \
             their arguments were not recorded"
        );
    }
    if args.update {
        let mut writer = RecordWriter::create(&args.recording, &recording.transport)?;
        for record in &rewritten {
            writer.append(record)?;
        }
        writer.flush()?;
        eprintln!("mcp-wit replay: {} rewritten with the routers' answers", args.recording.display());
        return Ok(());
    }
    let sessions = sessions.len();
    if differences.is_empty() {
        eprintln!("mcp-wit replay: {sessions} sessions, {compared} messages from the server: all as recorded");
        return Ok(());
    }
    anyhow::bail!(
        "{} of {compared} messages from the server differ from {} ({sessions} sessions); \
         `--ignore PATH` leaves a field out, `--update` records the new answers",
        differences.len(),
        args.recording.display()
    )
}

/// What replaying one session gave.
struct Replayed {
    /// Every message the routers sent, in order.
    outputs: Vec<Value>,
    /// The session as a recording now: the client's messages and the routers' new answers.
    records: Vec<Record>,
    /// The ids of calls not replayed: their arguments were redacted.
    skipped: Vec<Value>,
}

fn replay_session(loaded: &serve::Loaded, records: &[Record]) -> Replayed {
    let sent = Arc::new(Mutex::new(Vec::new()));
    let peer = Arc::new(ReplayPeer::new(records, sent.clone()));
    let mut session = Session::new(loaded.routers.clone(), loaded.session_options.clone());
    session.set_peer(Some(peer.clone()));
    session.set_listeners(Listeners::new());
    session.set_sink(Some(peer));
    let session_name = records.first().map(|r| r.session.clone()).unwrap_or_default();
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut rewritten = Vec::new();
    let mut skipped = Vec::new();
    let take_outputs = |out: &mut Vec<Vec<u8>>, rewritten: &mut Vec<Record>| {
        let mut messages = std::mem::take(&mut *sent.lock().unwrap_or_else(|e| e.into_inner()));
        messages.append(out);
        for message in messages {
            let message = serde_json::from_slice(&message)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&message).into_owned()));
            rewritten.push(Record {
                session: session_name.clone(),
                direction: Direction::Out,
                at_micros: now(),
                message,
            });
        }
    };
    for record in records.iter().filter(|r| r.direction == Direction::In) {
        if is_response(&record.message) {
            // The client's answer to a router's question: the peer gives it.
            continue;
        }
        if record.message.pointer("/params/arguments") == Some(&Value::String(mcp_wit_record::REDACTED.into())) {
            skipped.extend(record.message.get("id").cloned());
            continue;
        }
        rewritten.push(record.clone());
        let bytes = match &record.message {
            Value::String(raw) => raw.as_bytes().to_vec(),
            message => serde_json::to_vec(message).expect("JSON serialises"),
        };
        session.handle(&bytes, &mut out);
        take_outputs(&mut out, &mut rewritten);
    }
    // As stdio does when its input ends: open subscriptions get their final result.
    session.end_subscriptions(&mut out);
    take_outputs(&mut out, &mut rewritten);
    session.set_peer(None);
    session.set_sink(None);
    let outputs = rewritten.iter().filter(|r| r.direction == Direction::Out).map(|r| r.message.clone()).collect();
    Replayed { outputs, records: rewritten, skipped }
}

/// A response (no method): the client answering a router's question.
fn is_response(message: &Value) -> bool {
    message.get("method").is_none() && message.get("id").is_some()
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_micros() as u64)
}

/// The client of a replayed session: what the routers send is kept; their
/// questions get the recorded answers, in the order they were asked.
struct ReplayPeer {
    sent: Arc<Mutex<Vec<Vec<u8>>>>,
    /// The recorded questions' answers, in the order asked: `(method, answer)`.
    answers: Mutex<VecDeque<(String, Response)>>,
}

impl ReplayPeer {
    fn new(records: &[Record], sent: Arc<Mutex<Vec<Vec<u8>>>>) -> Self {
        let responses: HashMap<String, &Value> = records
            .iter()
            .filter(|r| r.direction == Direction::In && is_response(&r.message))
            .map(|r| (r.message["id"].to_string(), &r.message))
            .collect();
        let answers = records
            .iter()
            .filter(|r| {
                r.direction == Direction::Out && r.message.get("method").is_some() && r.message.get("id").is_some()
            })
            .filter_map(|question| {
                let response = responses.get(&question.message["id"].to_string())?;
                let method = question.message["method"].as_str().unwrap_or_default().to_string();
                let answer = match response.get("error") {
                    Some(error) => Err(ClientRpcError {
                        code: error["code"].as_i64().unwrap_or(0) as i32,
                        message: error["message"].as_str().unwrap_or_default().into(),
                        data: error.get("data").map(Value::to_string),
                    }),
                    None => Ok(serde_json::value::to_raw_value(&response["result"]).expect("JSON serialises")),
                };
                Some((method, answer))
            })
            .collect();
        ReplayPeer { sent, answers: Mutex::new(answers) }
    }

    fn keep(&self, message: &[u8]) {
        self.sent.lock().unwrap_or_else(|e| e.into_inner()).push(message.to_vec());
    }
}

impl Sink for ReplayPeer {
    fn offer(&self, message: &[u8]) {
        self.keep(message);
    }
}

impl Peer for ReplayPeer {
    fn notify(&self, message: &[u8]) {
        self.keep(message);
    }

    fn ask(&self, _id: u64, request: Vec<u8>, _bound: WaitBound) -> BoxFuture<Result<Response, AskError>> {
        self.keep(&request);
        let method = serde_json::from_slice::<Value>(&request)
            .ok()
            .and_then(|r| r["method"].as_str().map(str::to_owned))
            .unwrap_or_default();
        let mut answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        let answer = match answers.pop_front() {
            Some((asked, answer)) if asked == method => Ok(answer),
            Some((asked, _)) => Err(AskError::Client(ClientError::Unavailable(format!(
                "the recording's next question is `{asked}`; the router asked `{method}`"
            )))),
            None => Err(AskError::Client(ClientError::Unavailable(format!(
                "the recording has no answer to `{method}`: the router did not ask it then"
            )))),
        };
        Box::pin(std::future::ready(answer))
    }
}

/// The differences between the recorded and replayed messages of a session.
fn compare(
    session: &str,
    records: &[Record],
    recorded: &[&Value],
    replayed: &[Value],
    ignore: &[String],
) -> Vec<Difference> {
    let requests: HashMap<String, &Value> = records
        .iter()
        .filter(|r| r.direction == Direction::In && r.message.get("method").is_some())
        .filter_map(|r| Some((r.message.get("id")?.to_string(), &r.message)))
        .collect();
    let mut differences = Vec::new();
    for (index, old, new) in pair_up(recorded, replayed) {
        let mut fields = Vec::new();
        match (old, new) {
            (Some(old), Some(new)) => diff(old, new, &mut String::new(), ignore, &mut fields),
            (old, new) => fields.push((String::new(), old.cloned(), new.cloned())),
        }
        if fields.is_empty() {
            continue;
        }
        let id = old.or(new).and_then(|m| m.get("id")).map(Value::to_string);
        let answers = id.and_then(|id| requests.get(&id)).map(|request| {
            let method = request["method"].as_str().unwrap_or_default();
            match request.pointer("/params/name").and_then(Value::as_str) {
                Some(name) => format!("{method} `{name}` (id {})", request["id"]),
                None => format!("{method} (id {})", request["id"]),
            }
        });
        differences.push(Difference { session: session.to_string(), index, answers, fields });
    }
    differences
}

/// The recorded and replayed messages to compare, with the recorded one's
/// place (from 1; past the end for one only replayed): responses by their
/// id, so that a notification more or less does not shift every answer
/// after it; the rest (notifications, the router's questions) in order.
fn pair_up<'a>(recorded: &[&'a Value], replayed: &'a [Value]) -> Vec<(usize, Option<&'a Value>, Option<&'a Value>)> {
    let is_response = |m: &Value| m.get("method").is_none() && m.get("id").is_some();
    let mut answers: Vec<Option<&Value>> = replayed.iter().map(|m| Some(m).filter(|m| is_response(m))).collect();
    let mut others = replayed.iter().filter(|m| !is_response(m));
    let mut pairs = Vec::new();
    for (index, old) in recorded.iter().enumerate() {
        let new = if is_response(old) {
            answers.iter_mut().find(|new| new.is_some_and(|new| new["id"] == old["id"])).and_then(Option::take)
        } else {
            others.next()
        };
        pairs.push((index + 1, Some(*old), new));
    }
    let past = recorded.len() + 1;
    pairs.extend(answers.into_iter().flatten().chain(others).map(|new| (past, None, Some(new))));
    pairs
}

/// Collects the paths where `old` and `new` differ, but for `ignore`d ones.
fn diff(
    old: &Value,
    new: &Value,
    path: &mut String,
    ignore: &[String],
    out: &mut Vec<(String, Option<Value>, Option<Value>)>,
) {
    if ignored(path, ignore) || old == new {
        return;
    }
    let mut visit = |key: &str, old: Option<&Value>, new: Option<&Value>| {
        let len = path.len();
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
        match (old, new) {
            (Some(old), Some(new)) => diff(old, new, path, ignore, out),
            (old, new) if !ignored(path, ignore) => out.push((path.clone(), old.cloned(), new.cloned())),
            _ => {}
        }
        path.truncate(len);
    };
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))).collect();
            keys.sort();
            for key in keys {
                visit(key, a.get(key), b.get(key));
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for i in 0..a.len().max(b.len()) {
                visit(&i.to_string(), a.get(i), b.get(i));
            }
        }
        _ => out.push((path.clone(), Some(old.clone()), Some(new.clone()))),
    }
}

/// Whether `path` is one `ignore` names: that path or one under it, or a
/// key (a pattern without dots) where it ends.
fn ignored(path: &str, ignore: &[String]) -> bool {
    !path.is_empty()
        && ignore.iter().any(|pattern| {
            path == pattern
                || path.strip_prefix(pattern.as_str()).is_some_and(|rest| rest.starts_with('.'))
                || (!pattern.contains('.') && path.rsplit('.').next() == Some(pattern.as_str()))
        })
}

fn describe(difference: &Difference) -> String {
    let mut text = format!("session {}, message {} from the server", difference.session, difference.index);
    if let Some(answers) = &difference.answers {
        let _ = write!(text, " (the answer to {answers})");
    }
    text.push_str(":\n");
    let show = |value: &Option<Value>| value.as_ref().map_or_else(|| "(none)".to_string(), Value::to_string);
    for (path, old, new) in &difference.fields {
        let path = if path.is_empty() { "(the whole message)" } else { path };
        let _ = writeln!(text, "  {path}\n    - recorded: {}\n    + replayed: {}", show(old), show(new));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_pair_up_by_id_and_the_rest_in_order() {
        let recorded = [
            json!({ "id": 1, "result": {} }),
            json!({ "method": "notifications/progress" }),
            json!({ "id": 2, "result": { "n": 2 } }),
        ];
        let replayed = [
            json!({ "id": 2, "result": { "n": 2 } }),
            json!({ "method": "notifications/progress" }),
            json!({ "method": "notifications/message" }),
            json!({ "id": 1, "result": {} }),
        ];
        let recorded: Vec<&Value> = recorded.iter().collect();
        let pairs = pair_up(&recorded, &replayed);
        let unequal: Vec<usize> = pairs.iter().filter(|(_, a, b)| a != b).map(|(i, _, _)| *i).collect();
        assert_eq!(unequal, [4], "only the extra log message differs: {pairs:?}");
    }

    #[test]
    fn differences_are_paths_and_ignored_ones_are_left_out() {
        let old = json!({ "id": 1, "result": { "content": [{ "type": "text", "text": "hi" }], "_meta": { "t": 1 } } });
        let new = json!({ "id": 1, "result": { "content": [{ "type": "text", "text": "HI" }, { "type": "text", "text": "x" }], "_meta": { "t": 2 } } });
        let mut found = Vec::new();
        diff(&old, &new, &mut String::new(), &["result._meta".into()], &mut found);
        let paths: Vec<&str> = found.iter().map(|(p, _, _)| p.as_str()).collect();
        assert_eq!(paths, ["result.content.0.text", "result.content.1"]);
        assert_eq!(found[1].1, None, "a message the recording did not have");
        let mut found = Vec::new();
        diff(&old, &new, &mut String::new(), &["text".into(), "content".into(), "t".into()], &mut found);
        assert!(found.is_empty(), "{found:?}");
    }
}
