//! A tool's schemas compiled, and its arguments and results checked
//! against them.

use std::fmt::{self, Write as _};
use std::time::Instant;

use jsonschema::json::Json;
use serde_json::Value;

use super::budget::{BudgetedPattern, Running};
use super::json_tree::{JsonTree, TreeJson};
use super::reason::bounded;
use crate::contract;

/// A tool's schemas, compiled once, to check its calls by.
pub struct ToolSchemas {
    /// `None` when the input schema accepts every object (checking would
    /// only cost a parse).
    input: Option<InputSchema>,
    output: Option<jsonschema::Validator>,
}

/// The input schema, compiled twice: for the arguments read as a
/// [`JsonTree`] (every call: no allocation for the usual arguments), and
/// for them read as a `Value`, which says why arguments fail (in the words
/// and order the check has always given) and checks the values a tree
/// does not stand for.
struct InputSchema {
    tree: jsonschema::Validator<TreeJson>,
    value: jsonschema::Validator,
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
        let read = |json: &str, field| {
            let error = move |message: String| SchemaError { tool: tool.name.clone(), field, message };
            let schema: Value = serde_json::from_str(json).map_err(|e| error(format!("not JSON: {e}")))?;
            // MCP asks for object schemas: the arguments and a structured
            // result are JSON objects.
            if schema.get("type").and_then(Value::as_str) != Some("object") {
                return Err(error("MCP needs an object schema (`\"type\": \"object\"` at its root)".into()));
            }
            match accepts_any_object(&schema) {
                true => Ok(None),
                false => Ok(Some((schema, error))),
            }
        };
        let input = match read(&tool.input_schema.json, "input-schema")? {
            Some((schema, error)) => {
                Some(InputSchema { value: compile(&schema).map_err(error)?, tree: compile(&schema).map_err(error)? })
            }
            None => None,
        };
        let output = match &tool.output_schema {
            Some(schema) => match read(&schema.json, "output-schema")? {
                Some((schema, error)) => Some(compile(&schema).map_err(error)?),
                None => None,
            },
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
        // Read as a tree: valid arguments, the usual case, are let through
        // here. Any others are read again as a `Value`, to say why.
        let quick = JsonTree::with(arguments, |tree| {
            if !tree.faithful() {
                return None;
            }
            let running = Running::start(deadline);
            let valid = input.tree.is_valid(tree.root());
            if running.over_budget() {
                return Some(Err(Refusal::OverBudget));
            }
            if let Some(why) = running.gave_up() {
                return Some(Err(Refusal::Invalid(why)));
            }
            valid.then_some(Ok(()))
        });
        if let Ok(Some(answer)) = quick {
            return answer;
        }
        let value: Value = serde_json::from_str(arguments)
            .map_err(|e| Refusal::Invalid(bounded(|w| write!(w, "the arguments are not JSON: {e}"))))?;
        check(&input.value, &value, deadline)
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

/// A schema compiled for values of representation `F`, every `pattern`
/// matched through the check's budget.
fn compile<F: Json>(schema: &Value) -> Result<jsonschema::Validator<F>, String> {
    jsonschema::options_for::<F>()
        .with_draft(jsonschema::Draft::Draft202012)
        .with_keyword("pattern", BudgetedPattern::<F>::compile)
        .build(schema)
        .map_err(|e| e.to_string())
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

    use super::super::budget::RUNNING;
    use super::super::reason::MAX_REASON_BYTES;
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

    /// The arguments read as a tree are valid exactly where their `Value`
    /// is, keyword by keyword; and where a tree cannot stand for the value
    /// (a key given twice), the `Value` decides.
    #[test]
    fn the_tree_and_the_value_agree_on_every_keyword() {
        let schemas = [
            r#"{"type":"object","properties":{"text":{"type":"string","minLength":2,"maxLength":3}},"required":["text"]}"#,
            r#"{"type":"object","additionalProperties":false,"properties":{"a":{}}}"#,
            r#"{"type":"object","patternProperties":{"^x":{"type":"integer"}},"propertyNames":{"maxLength":2}}"#,
            r#"{"type":"object","minProperties":2,"maxProperties":2}"#,
            r#"{"type":"object","properties":{"e":{"enum":[1,"one",[1],{"k":null}]},"c":{"const":{"a":[1.0,2]}}}}"#,
            r#"{"type":"object","properties":{"l":{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"number"},"uniqueItems":true,"minItems":1}}}"#,
            r#"{"type":"object","properties":{"n":{"type":"integer","minimum":1,"exclusiveMaximum":10,"multipleOf":0.5}}}"#,
            r#"{"type":"object","properties":{"p":{"type":"string","pattern":"^[a-c]+$"}}}"#,
            r#"{"type":"object","properties":{"o":{"anyOf":[{"type":"null"},{"oneOf":[{"type":"boolean"},{"not":{"type":"string"}}]}]}}}"#,
            r##"{"type":"object","$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"},"v":{"type":"integer"}}}},"properties":{"list":{"$ref":"#/$defs/node"}}}"##,
            r#"{"type":"object","dependentRequired":{"a":["b"]},"if":{"required":["x"]},"then":{"required":["y"]},"else":{"maxProperties":3}}"#,
        ];
        let instances = [
            r#"{}"#,
            r#"{"text":"hi"}"#,
            r#"{"text":"hé!"}"#,
            r#"{"text":"h\u00e9llo"}"#,
            r#"{"text":7,"a":1}"#,
            r#"{"a":1,"b":2}"#,
            r#"{"xa":1,"xb":1.5,"yyy":null}"#,
            r#"{"e":"one","c":{"a":[1,2]}}"#,
            r#"{"e":[1],"c":{"a":[1.0,2.0]}}"#,
            r#"{"e":{"k":0}}"#,
            r#"{"l":["s",1,2.5]}"#,
            r#"{"l":["s",1,1.0]}"#,
            r#"{"l":[1]}"#,
            r#"{"n":2.5}"#,
            r#"{"n":3}"#,
            r#"{"n":10}"#,
            r#"{"n":3.0}"#,
            r#"{"p":"abc"}"#,
            r#"{"p":"abd"}"#,
            r#"{"o":null}"#,
            r#"{"o":true}"#,
            r#"{"o":"s"}"#,
            r#"{"o":5}"#,
            r#"{"list":{"v":1,"next":{"v":2,"next":{"v":"3"}}}}"#,
            r#"{"list":{"v":1,"next":{"v":2}}}"#,
            r#"{"a":1}"#,
            r#"{"x":1}"#,
            r#"{"x":1,"y":2}"#,
            r#"{"k":1,"k":2}"#,
            r#"{"a":1,"a":"x"}"#,
        ];
        for schema in schemas {
            let tool = tool(schema, None);
            let schemas = ToolSchemas::of(&tool).unwrap();
            let input = schemas.input.as_ref().unwrap();
            for text in instances {
                let value: Value = serde_json::from_str(text).unwrap();
                let by_value = input.value.is_valid(&value);
                let by_tree = JsonTree::with(text, |tree| tree.faithful().then(|| input.tree.is_valid(tree.root())));
                match by_tree.unwrap() {
                    Some(by_tree) => assert_eq!(by_tree, by_value, "{schema} on {text}"),
                    None => assert!(text.contains("\"k\":1,\"k\"") || text.contains("\"a\":1,\"a\""), "{text}"),
                }
                assert_eq!(schemas.check_arguments(text, far()).is_ok(), by_value, "{schema} on {text}");
            }
        }
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
        let input = &schemas.input.as_ref().unwrap().value;
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
