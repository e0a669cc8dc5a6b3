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

use std::fmt;

use serde_json::Value;

use crate::contract;

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

    /// Checks `arguments` (a JSON object's text) against the input schema;
    /// the reasons it fails, one per line.
    pub fn check_arguments(&self, arguments: &str) -> Result<(), String> {
        let Some(input) = &self.input else { return Ok(()) };
        let value: Value = serde_json::from_str(arguments).map_err(|e| format!("the arguments are not JSON: {e}"))?;
        reasons(input, &value)
    }

    /// Checks a structured result (JSON text) against the output schema.
    pub fn check_structured(&self, structured: &str) -> Result<(), String> {
        let Some(output) = &self.output else { return Ok(()) };
        let value: Value =
            serde_json::from_str(structured).map_err(|e| format!("the structured content is not JSON: {e}"))?;
        reasons(output, &value)
    }
}

/// Every reason `value` fails `validator`, each with where it failed.
fn reasons(validator: &jsonschema::Validator, value: &Value) -> Result<(), String> {
    if validator.is_valid(value) {
        return Ok(());
    }
    let reasons: Vec<String> = validator
        .iter_errors(value)
        .map(|error| match error.instance_path().to_string() {
            path if path.is_empty() => error.to_string(),
            path => format!("{path}: {error}"),
        })
        .collect();
    Err(reasons.join("\n"))
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
        }
    }

    #[test]
    fn arguments_are_checked_with_their_reasons() {
        let schema = r#"{"type":"object","properties":{"text":{"type":"string","minLength":1}},"required":["text"]}"#;
        let schemas = ToolSchemas::of(&tool(schema, None)).unwrap();
        assert!(schemas.check_arguments(r#"{"text":"hi"}"#).is_ok());
        let short = schemas.check_arguments(r#"{"text":""}"#).unwrap_err();
        assert!(short.starts_with("/text: ") && short.contains("shorter than 1 character"), "{short}");
        let missing = schemas.check_arguments("{}").unwrap_err();
        assert!(missing.contains("\"text\" is a required property"), "{missing}");
    }

    #[test]
    fn an_open_object_schema_checks_nothing() {
        let schemas = ToolSchemas::of(&tool(r#"{"type":"object","properties":{}}"#, None)).unwrap();
        assert!(!schemas.checks_arguments());
        assert!(schemas.check_arguments("not even JSON").is_ok());
    }

    #[test]
    fn structured_results_are_checked_against_the_output_schema() {
        let output = r#"{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}"#;
        let schemas = ToolSchemas::of(&tool(r#"{"type":"object"}"#, Some(output))).unwrap();
        assert!(schemas.check_structured(r#"{"n":3}"#).is_ok());
        let wrong = schemas.check_structured(r#"{"n":"three"}"#).unwrap_err();
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
    }
}
