//! What both load clients (stdio and HTTP) say and read of MCP: the era
//! they speak, a `tools/call` of the echo tool, and its answer.

use std::borrow::Cow;

use anyhow::{Context, bail, ensure};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// The revision a modern client speaks.
pub const MODERN_VERSION: &str = "2026-07-28";

/// Which era of MCP the load client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Era {
    /// Sessions: `initialize`, then calls naming the `Mcp-Session-Id`.
    #[default]
    Legacy,
    /// No sessions: each call stands alone, with its envelope and headers.
    Modern,
    /// As [`Era::Modern`], from a client that declares the tasks extension
    /// (`io.modelcontextprotocol/tasks`): what may make its calls tasks.
    ModernTasks,
}

impl Era {
    /// `legacy` or `modern`.
    pub fn name(self) -> &'static str {
        match self {
            Era::Legacy => "legacy",
            Era::Modern => "modern",
            Era::ModernTasks => "modern-tasks",
        }
    }

    /// Whether its requests are 2026-07-28 ones.
    pub fn is_modern(self) -> bool {
        matches!(self, Era::Modern | Era::ModernTasks)
    }
}

/// As the command lines spell it (`--era modern`), so `--help` shows defaults.
impl std::fmt::Display for Era {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Era {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "legacy" => Ok(Era::Legacy),
            "modern" => Ok(Era::Modern),
            "modern-tasks" => Ok(Era::ModernTasks),
            other => Err(format!("unknown era {other:?}: legacy, modern or modern-tasks")),
        }
    }
}

/// A `tools/call` of `tool` with `{"text": text}`, in `era`'s form.
pub(crate) fn call_body(era: Era, id: u64, tool: &str, text: &str) -> String {
    match era {
        Era::Legacy => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{"text":"{text}"}}}}}}"#
        ),
        Era::Modern => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{"text":"{text}"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN_VERSION}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
        ),
        Era::ModernTasks => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{"text":"{text}"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN_VERSION}","io.modelcontextprotocol/clientCapabilities":{{"extensions":{{"io.modelcontextprotocol/tasks":{{}}}}}}}}}}}}"#
        ),
    }
}

/// A JSON-RPC message from the server, as far as the load client cares.
#[derive(Deserialize)]
pub(crate) struct Answer<'a> {
    pub(crate) id: Option<u64>,
    #[serde(borrow)]
    result: Option<CallResult<'a>>,
    #[serde(borrow)]
    pub(crate) error: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct CallResult<'a> {
    #[serde(borrow)]
    content: Vec<ContentItem<'a>>,
    #[serde(rename = "isError")]
    is_error: Option<bool>,
}

#[derive(Deserialize)]
struct ContentItem<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
}

/// An echo answer is exactly one text item holding the text sent.
pub(crate) fn check_echo(answer: &Answer<'_>, expected: &str) -> anyhow::Result<()> {
    let result = answer.result.as_ref().context("no result")?;
    ensure!(result.is_error != Some(true), "the tool reported an error");
    match result.content.as_slice() {
        [item] if item.kind == "text" && item.text.as_deref() == Some(expected) => Ok(()),
        _ => bail!("expected one text item {expected:?}"),
    }
}
