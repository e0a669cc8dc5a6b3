//! The echo call both floors answer: parsed and written with serde_json, as
//! the echo router's answer (one text item holding the text sent).

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

#[derive(Deserialize)]
struct Call<'a> {
    #[serde(borrow)]
    id: &'a RawValue,
    params: Params,
}

#[derive(Deserialize)]
struct Params {
    arguments: Arguments,
}

#[derive(Deserialize)]
struct Arguments {
    text: String,
}

#[derive(Serialize)]
struct Answer<'a> {
    jsonrpc: &'static str,
    id: &'a RawValue,
    result: CallResult<'a>,
}

#[derive(Serialize)]
struct CallResult<'a> {
    content: [Text<'a>; 1],
}

#[derive(Serialize)]
struct Text<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    text: &'a str,
}

/// The JSON-RPC answer to the `tools/call` in `body`, or why there is none.
pub fn answer(body: &[u8]) -> Result<Vec<u8>, String> {
    let call: Call<'_> = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    let text = Text { kind: "text", text: &call.params.arguments.text };
    let answer = Answer { jsonrpc: "2.0", id: call.id, result: CallResult { content: [text] } };
    serde_json::to_vec(&answer).map_err(|e| e.to_string())
}
