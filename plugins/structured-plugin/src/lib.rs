//! `structured-plugin`: a v1-draft Extism plugin whose results use every
//! field `xtp-plugin-schema-v1-draft.json` gives them, as published plugins
//! do (hyper-mcp's `rstime` declares an output schema and returns
//! `structuredContent`):
//!
//! | tool | result |
//! | --- | --- |
//! | `get_time` | the time of day as text, and as `structuredContent` under its `outputSchema` |
//! | `link` | a `resource_link` content item (title, description, MIME type, size, `_meta`) and the result's `_meta` |
//!
//! Both tools have a `title`.

use extism_pdk::{FnResult, Json, plugin_fn};
use serde_json::{Value, json};

/// Seconds since the Unix epoch, as `HH:MM:SS` (UTC) and its parts.
fn time_of_day() -> (String, u64, u64, u64) {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (hour, minute, second) = ((now / 3600) % 24, (now / 60) % 60, now % 60);
    (format!("{hour:02}:{minute:02}:{second:02}"), hour, minute, second)
}

#[plugin_fn]
pub fn list_tools(Json(_input): Json<Value>) -> FnResult<Json<Value>> {
    Ok(Json(json!({ "tools": [
        {
            "name": "get_time",
            "title": "Time of day",
            "description": "The time of day in UTC",
            "inputSchema": { "type": "object", "properties": {} },
            "outputSchema": {
                "type": "object",
                "properties": {
                    "time": { "type": "string" },
                    "hour": { "type": "integer" },
                    "minute": { "type": "integer" },
                    "second": { "type": "integer" }
                },
                "required": ["time", "hour", "minute", "second"]
            }
        },
        {
            "name": "link",
            "title": "A link to a report",
            "description": "Points to a report rather than returning it",
            "inputSchema": { "type": "object", "properties": {} }
        }
    ]})))
}

#[plugin_fn]
pub fn call_tool(Json(input): Json<Value>) -> FnResult<Json<Value>> {
    Ok(Json(match input["request"]["name"].as_str().unwrap_or_default() {
        "get_time" => {
            let (time, hour, minute, second) = time_of_day();
            json!({
                "content": [{ "type": "text", "text": time }],
                "structuredContent": { "time": time, "hour": hour, "minute": minute, "second": second }
            })
        }
        "link" => json!({
            "content": [
                { "type": "text", "text": "The report is linked." },
                {
                    "type": "resource_link",
                    "uri": "file:///reports/2026-11.md",
                    "name": "2026-11.md",
                    "title": "November report",
                    "description": "The monthly report",
                    "mimeType": "text/markdown",
                    "size": 1234,
                    "_meta": { "example.com/origin": "structured-plugin" }
                }
            ],
            "_meta": { "example.com/trace": { "id": 7, "sampled": true } }
        }),
        other => json!({ "content": [{ "type": "text", "text": format!("no tool {other}") }], "isError": true }),
    }))
}
