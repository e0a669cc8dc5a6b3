//! What a tool promises, checked by the host for every guest: its arguments
//! against its input schema before the guest runs, its structured result
//! against its output schema after, and both schemas as JSON Schema when
//! the tool is learnt.
//!
//! A failed argument check is a tool error (`isError: true`, with the
//! validator's words), as MCP 2025-11-25 asks of input validation, so the
//! model can correct itself. A schema is read as draft 2020-12 unless its
//! `$schema` names another; references are resolved inside the schema only
//! (no file or network is ever read for one).
//!
//! What one check may cost is bounded: its `pattern`s run once per distinct
//! string (each run bounded by the regex engine's backtrack limit) and only
//! until the check's deadline, past which it fails closed
//! (refused as over budget); only the first failure is described, in at
//! most [`MAX_REASON_BYTES`], written as it is read (never in full, then
//! cut).

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::time::Instant;

use serde_json::{Map, Value};

use crate::contract;

/// The most of a failed check's description a caller is given (a value
/// quoted in it is cut, with its length said).
pub const MAX_REASON_BYTES: usize = 1024;

/// A tool's schemas, compiled once, to check its calls by.
pub struct ToolSchemas {
    /// `None` when the input schema accepts every object (checking would
    /// only cost a parse).
    input: Option<jsonschema::Validator>,
    output: Option<jsonschema::Validator>,
}

/// A schema a tool declares that is not valid JSON Schema.
#[derive(Debug, Clone)]
pub struct SchemaError {
    /// The tool, as its router names it.
    pub tool: String,
    /// `input-schema` or `output-schema`.
    pub field: &'static str,
    /// What is wrong, as the validator says it.
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool `{}`: its {} is not valid JSON Schema: {}", self.tool, self.field, self.message)
    }
}

impl std::error::Error for SchemaError {}

impl fmt::Debug for ToolSchemas {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolSchemas")
            .field("input", &self.input.is_some())
            .field("output", &self.output.is_some())
            .finish()
    }
}

/// Why a call's arguments are refused before its tool runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// They break the input schema (or are not JSON): the first reason, in
    /// at most [`MAX_REASON_BYTES`].
    Invalid(String),
    /// Checking them did not end by the deadline: the schema's patterns
    /// were still matching. Refused, not passed unchecked.
    OverBudget,
}

impl ToolSchemas {
    /// `tool`'s schemas compiled, or the first that is not valid JSON
    /// Schema.
    pub fn of(tool: &contract::Tool) -> Result<Self, SchemaError> {
        let compile = |json: &str, field| {
            let error = |message: String| SchemaError { tool: tool.name.clone(), field, message };
            let schema: Value = serde_json::from_str(json).map_err(|e| error(format!("not JSON: {e}")))?;
            // MCP asks for object schemas: the arguments and a structured
            // result are JSON objects.
            if schema.get("type").and_then(Value::as_str) != Some("object") {
                return Err(error("MCP needs an object schema (`\"type\": \"object\"` at its root)".into()));
            }
            if accepts_any_object(&schema) {
                return Ok(None);
            }
            jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                // Every `pattern` is matched through the check's budget.
                .with_keyword("pattern", BudgetedPattern::compile)
                .build(&schema)
                .map(Some)
                .map_err(|e| error(e.to_string()))
        };
        let input = compile(&tool.input_schema.json, "input-schema")?;
        let output = match &tool.output_schema {
            Some(schema) => compile(&schema.json, "output-schema")?,
            None => None,
        };
        Ok(ToolSchemas { input, output })
    }

    /// Whether the tool's arguments need checking at all.
    pub fn checks_arguments(&self) -> bool {
        self.input.is_some()
    }

    /// Whether either schema checks anything.
    pub fn checks_anything(&self) -> bool {
        self.input.is_some() || self.output.is_some()
    }

    /// Checks `arguments` (a JSON object's text) against the input schema,
    /// its patterns matched only until `deadline` (when there is one).
    pub(crate) fn check_arguments(&self, arguments: &str, deadline: Option<Instant>) -> Result<(), Refusal> {
        let Some(input) = &self.input else { return Ok(()) };
        let value: Value = serde_json::from_str(arguments)
            .map_err(|e| Refusal::Invalid(bounded(|w| write!(w, "the arguments are not JSON: {e}"))))?;
        check(input, &value, deadline)
    }

    /// Checks a structured result, as read from the guest's JSON, against
    /// the output schema: the first reason it fails.
    pub fn check_structured(&self, structured: &Value) -> Result<(), String> {
        let Some(output) = &self.output else { return Ok(()) };
        check(output, structured, None).map_err(|refusal| match refusal {
            Refusal::Invalid(why) => why,
            Refusal::OverBudget => unreachable!("a check without a deadline runs to its end"),
        })
    }
}

/// Checks `value` against `validator`, its patterns matched until
/// `deadline` (when there is one); a failure is described by its first
/// error only (finding every error may cost as much again, and describing
/// them many times the value's size).
fn check(validator: &jsonschema::Validator, value: &Value, deadline: Option<Instant>) -> Result<(), Refusal> {
    let running = Running::start(deadline);
    // `is_valid` stops at the first failure and builds no error; the
    // error is only looked for once there is one (the patterns' answers
    // are kept, so it costs no second match).
    let valid = validator.is_valid(value);
    let first = match valid {
        true => None,
        false => validator.validate(value).err(),
    };
    if running.over_budget() {
        return Err(Refusal::OverBudget);
    }
    if let Some(why) = running.gave_up() {
        return Err(Refusal::Invalid(why));
    }
    match first {
        None => Ok(()),
        Some(error) => Err(Refusal::Invalid(bounded(|w| match error.instance_path().as_str() {
            "" => write!(w, "{error}"),
            path => write!(w, "{path}: {error}"),
        }))),
    }
}

/// What `describe` writes, up to [`MAX_REASON_BYTES`] (cut on a character
/// boundary, marked `…`): the writer refuses more, so a large value quoted
/// in an error is never written out whole.
fn bounded(describe: impl FnOnce(&mut BoundedText) -> fmt::Result) -> String {
    let mut text = BoundedText(String::new());
    if describe(&mut text).is_err() || text.0.len() >= MAX_REASON_BYTES {
        text.0.push('…');
    }
    text.0
}

/// A `String` that takes at most [`MAX_REASON_BYTES`].
struct BoundedText(String);

impl fmt::Write for BoundedText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = MAX_REASON_BYTES - self.0.len();
        if s.len() <= room {
            self.0.push_str(s);
            return Ok(());
        }
        self.0.push_str(&s[..s.floor_char_boundary(room)]);
        Err(fmt::Error)
    }
}

thread_local! {
    /// The check running on this thread, when it has a deadline or keeps
    /// its patterns' answers (a check runs on one thread, start to end).
    static RUNNING: RefCell<Option<Running>> = const { RefCell::new(None) };
}

/// One check's state, for its patterns: its deadline, whether it passed,
/// and each pattern's answer for each string it was asked about.
struct Running {
    deadline: Option<Instant>,
    over_budget: bool,
    /// What the regex engine first gave up on, described: the check fails
    /// whatever the schema makes of it (under `not`, a refusal would read
    /// as a pass).
    gave_up: Option<String>,
    /// How many times a pattern was run (not answered from `answers`).
    runs: usize,
    /// Per pattern (by address), per string: its answer.
    answers: HashMap<usize, HashMap<Box<str>, Answer>>,
}

/// Ends the check it started when dropped, on every path out.
struct RunningGuard;

impl Running {
    fn start(deadline: Option<Instant>) -> RunningGuard {
        RUNNING.with(|running| {
            *running.borrow_mut() =
                Some(Running { deadline, over_budget: false, gave_up: None, runs: 0, answers: HashMap::new() })
        });
        RunningGuard
    }
}

impl RunningGuard {
    fn over_budget(&self) -> bool {
        RUNNING.with(|running| running.borrow().as_ref().is_some_and(|r| r.over_budget))
    }

    fn gave_up(&self) -> Option<String> {
        RUNNING.with(|running| running.borrow_mut().as_mut().and_then(|r| r.gave_up.take()))
    }
}

impl Drop for RunningGuard {
    fn drop(&mut self) {
        RUNNING.with(|running| running.borrow_mut().take());
    }
}

/// A pattern's answer about one string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Matches,
    NoMatch,
    /// The regex engine gave up (its backtrack limit): the whole check
    /// fails, as the value can be shown neither to match nor not to.
    Undecided,
    /// Not run: the check's deadline had passed.
    OverBudget,
}

/// The `pattern` keyword, run as jsonschema runs it (ECMA-262 dialect,
/// backtrack limit) but through the running check: once per distinct
/// string, and not after its deadline.
struct BudgetedPattern {
    pattern: String,
    /// A validator of `{"pattern": ...}` alone: jsonschema's own matching.
    alone: jsonschema::Validator,
}

impl BudgetedPattern {
    fn compile<'a>(
        _parent: &'a Map<String, Value>,
        value: &'a Value,
        _location: jsonschema::paths::Location,
    ) -> Result<Box<dyn for<'i> jsonschema::Keyword<'i>>, jsonschema::ValidationError<'a>> {
        let alone = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&serde_json::json!({ "pattern": value }))?;
        let pattern = value.as_str().unwrap_or_default().to_owned();
        Ok(Box::new(BudgetedPattern { pattern, alone }))
    }

    /// The answer about `text`: kept from an earlier run in this check,
    /// or found now if the deadline allows.
    fn answer(&self, instance: &Value, text: &str) -> Answer {
        let key = std::ptr::from_ref(self) as usize;
        let known = RUNNING.with(|running| {
            let mut running = running.borrow_mut();
            let running = running.as_mut()?;
            if let Some(answer) = running.answers.get(&key).and_then(|answers| answers.get(text)) {
                return Some(*answer);
            }
            if running.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                running.over_budget = true;
                return Some(Answer::OverBudget);
            }
            running.runs += 1;
            None
        });
        if let Some(answer) = known {
            return answer;
        }
        let answer = match self.alone.validate(instance) {
            Ok(()) => Answer::Matches,
            Err(error) if matches!(error.kind(), jsonschema::error::ValidationErrorKind::Pattern { .. }) => {
                Answer::NoMatch
            }
            Err(_) => Answer::Undecided,
        };
        RUNNING.with(|running| {
            if let Some(running) = running.borrow_mut().as_mut() {
                if answer == Answer::Undecided && running.gave_up.is_none() {
                    running.gave_up = Some(bounded(|w| {
                        write!(
                            w,
                            "{instance} could not be matched against {:?} (the regex engine gave up: the pattern \
                             backtracks too much on it)",
                            self.pattern
                        )
                    }));
                }
                running.answers.entry(key).or_default().insert(text.into(), answer);
            }
        });
        answer
    }
}

impl<'i> jsonschema::Keyword<'i> for BudgetedPattern {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        let Some(text) = instance.as_str() else { return Ok(()) };
        let quoted = || bounded(|w| write!(w, "{instance}"));
        let pattern = &self.pattern;
        match self.answer(instance, text) {
            Answer::Matches => Ok(()),
            Answer::NoMatch => {
                Err(jsonschema::ValidationError::custom(format!("{} does not match {pattern:?}", quoted())))
            }
            // The check fails on these whatever this error becomes.
            Answer::Undecided => Err(jsonschema::ValidationError::custom(format!(
                "{} could not be matched against {pattern:?}",
                quoted()
            ))),
            Answer::OverBudget => Err(jsonschema::ValidationError::custom(format!(
                "not checked against {pattern:?}: the check ran out of time"
            ))),
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        instance.as_str().is_none_or(|text| self.answer(instance, text) == Answer::Matches)
    }
}

/// Whether `schema` is `{"type": "object"}` and nothing else that
/// constrains (a title or description aside): the usual schema of a tool
/// without arguments.
fn accepts_any_object(schema: &Value) -> bool {
    let Value::Object(keys) = schema else { return false };
    keys.iter().all(|(key, value)| match key.as_str() {
        "type" => value == "object",
        "title" | "description" | "$schema" | "$comment" => true,
        "properties" => value.as_object().is_some_and(|p| p.is_empty()),
        "required" => value.as_array().is_some_and(|r| r.is_empty()),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn tool(input: &str, output: Option<&str>) -> contract::Tool {
        contract::Tool {
            name: "t".into(),
            description: String::new(),
            input_schema: contract::Value { json: input.into() },
            output_schema: output.map(|json| contract::Value { json: json.into() }),
            annotations: None,
            meta: None,
            title: None,
            meta_object: None,
            icons: None,
        }
    }

    /// A deadline no test reaches.
    fn far() -> Option<Instant> {
        Instant::now().checked_add(Duration::from_secs(3600))
    }

    fn refusal(schemas: &ToolSchemas, arguments: &str) -> String {
        match schemas.check_arguments(arguments, far()) {
            Err(Refusal::Invalid(why)) => why,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn arguments_are_checked_with_their_reasons() {
        let schema = r#"{"type":"object","properties":{"text":{"type":"string","minLength":1}},"required":["text"]}"#;
        let schemas = ToolSchemas::of(&tool(schema, None)).unwrap();
        assert!(schemas.check_arguments(r#"{"text":"hi"}"#, far()).is_ok());
        let short = refusal(&schemas, r#"{"text":""}"#);
        assert!(short.starts_with("/text: ") && short.contains("shorter than 1 character"), "{short}");
        let missing = refusal(&schemas, "{}");
        assert!(missing.contains("\"text\" is a required property"), "{missing}");
    }

    #[test]
    fn an_open_object_schema_checks_nothing() {
        let schemas = ToolSchemas::of(&tool(r#"{"type":"object","properties":{}}"#, None)).unwrap();
        assert!(!schemas.checks_arguments());
        assert!(schemas.check_arguments("not even JSON", far()).is_ok());
    }

    #[test]
    fn structured_results_are_checked_against_the_output_schema() {
        let output = r#"{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}"#;
        let schemas = ToolSchemas::of(&tool(r#"{"type":"object"}"#, Some(output))).unwrap();
        assert!(schemas.check_structured(&serde_json::json!({"n": 3})).is_ok());
        let wrong = schemas.check_structured(&serde_json::json!({"n": "three"})).unwrap_err();
        assert!(wrong.contains("/n") && wrong.contains("integer"), "{wrong}");
    }

    #[test]
    fn an_invalid_schema_names_the_tool_and_field() {
        let error =
            ToolSchemas::of(&tool(r#"{"type":"object","properties":{"a":{"type":"strng"}}}"#, None)).unwrap_err();
        assert_eq!((error.tool.as_str(), error.field), ("t", "input-schema"));
        let text = error.to_string();
        assert!(text.starts_with("tool `t`: its input-schema is not valid JSON Schema: "), "{text}");
        let error = ToolSchemas::of(&tool(r#"{"type":"string"}"#, None)).unwrap_err();
        assert!(error.message.contains("object schema"), "{}", error.message);
        let error = ToolSchemas::of(&tool(r#"{"type":"object"}"#, Some("{nope"))).unwrap_err();
        assert_eq!(error.field, "output-schema");
        assert!(error.message.starts_with("not JSON"), "{}", error.message);
        let error = ToolSchemas::of(&tool(r#"{"type":"object","properties":{"a":{"pattern":"(unclosed"}}}"#, None))
            .unwrap_err();
        assert!(error.message.contains("(unclosed"), "{}", error.message);
    }

    /// The review's M5: every item of a 7 MiB array broke the schema, and
    /// every error was written out (68 MB of text); `allOf` of 200 types
    /// wrote each error 200 times.
    #[test]
    fn a_failed_check_is_described_once_and_briefly_however_large_the_value() {
        let integers = r#"{"type":"object","properties":{"n":{"type":"array","items":{"type":"integer"}}}}"#;
        let schemas = ToolSchemas::of(&tool(integers, None)).unwrap();
        let strings = serde_json::json!({ "n": vec!["12345"; 7 << 18] }).to_string();
        assert!(strings.len() > 7 << 20);
        let why = refusal(&schemas, &strings);
        assert!(why.len() <= MAX_REASON_BYTES + '…'.len_utf8(), "{} bytes", why.len());
        assert!(why.starts_with(r#"/n/0: "12345" is not of type "integer""#), "{why}");

        let types: Vec<Value> = (0..200).map(|_| serde_json::json!({ "type": "integer" })).collect();
        let all_of = serde_json::json!({ "type": "object", "properties": { "s": { "allOf": types } } }).to_string();
        let schemas = ToolSchemas::of(&tool(&all_of, None)).unwrap();
        let long = serde_json::json!({ "s": "x".repeat(4 << 20) }).to_string();
        let why = refusal(&schemas, &long);
        assert!(why.len() <= MAX_REASON_BYTES + '…'.len_utf8(), "{} bytes", why.len());
        assert!(why.starts_with(r#"/s: "xxxx"#) && why.ends_with('…'), "{why:.80}");
    }

    /// A pattern with nested quantifiers and a lookahead, which backtracks
    /// heavily on strings that almost match (`aaa…a1`).
    const BACKTRACKING: &str = r#"{"type":"object","properties":{"items":{"type":"array","items":{"type":"string","pattern":"^((?=a)a+)+$"}}}}"#;

    /// The review's M4: each of many items ran the pattern again, for as
    /// long as it took.
    #[test]
    fn a_pattern_runs_once_per_distinct_value() {
        let schemas = ToolSchemas::of(&tool(BACKTRACKING, None)).unwrap();
        let input = schemas.input.as_ref().unwrap();
        let same = serde_json::json!({ "items": vec!["aaa"; 1000] });
        let runs = |value: &Value| {
            let running = Running::start(far());
            assert!(input.is_valid(value));
            RUNNING.with(|r| r.borrow().as_ref().map(|r| r.runs)).map(|runs| (runs, running.over_budget()))
        };
        assert_eq!(runs(&same), Some((1, false)));
        let distinct = serde_json::json!({ "items": ["aaa", "aa", "aaa", "aa"] });
        assert_eq!(runs(&distinct), Some((2, false)));
        // Found invalid, the error is looked for again: from the answers kept.
        let mut items = vec!["aaa"; 999];
        items.push("aa1");
        let refused = refusal(&schemas, &serde_json::json!({ "items": items }).to_string());
        assert!(refused.starts_with(r#"/items/999: "aa1" does not match "^((?=a)a+)+$""#), "{refused}");
    }

    #[test]
    fn a_check_past_its_deadline_fails_closed() {
        let schemas = ToolSchemas::of(&tool(BACKTRACKING, None)).unwrap();
        let arguments = serde_json::json!({ "items": ["aaa"] }).to_string();
        assert_eq!(schemas.check_arguments(&arguments, far()), Ok(()));
        assert_eq!(schemas.check_arguments(&arguments, Some(Instant::now())), Err(Refusal::OverBudget));
        // A value the engine gives up on is refused, not let through, even
        // where a failed match would pass (under `not`).
        let hostile = serde_json::json!({ "items": [format!("{}1", "a".repeat(64))] }).to_string();
        let why = refusal(&schemas, &hostile);
        assert!(why.contains("could not be matched") && why.contains("backtracks"), "{why}");
        let negated = BACKTRACKING.replace(r#""pattern":"^((?=a)a+)+$""#, r#""not":{"pattern":"^((?=a)a+)+$"}"#);
        let schemas = ToolSchemas::of(&tool(&negated, None)).unwrap();
        assert_eq!(schemas.check_arguments(r#"{"items":["aa1"]}"#, far()), Ok(()));
        let why = refusal(&schemas, &hostile);
        assert!(why.starts_with(r#""aaaa"#) && why.contains("could not be matched"), "{why}");
    }
}
