//! The link to a command component that serves MCP over its stdin and
//! stdout (it exports `wasi:cli/run`, as rmcp's `examples/wasi` and any
//! stdio server built for `wasm32-wasip2` do): its `run` is started once per
//! instance and runs for the instance's life, its stdin and stdout pipes to
//! the host, one JSON-RPC message a line.
//!
//! `run` is driven only while the host waits on the component for a
//! message: between requests it is parked where it waits, so an idle
//! session costs nothing, even for a server that polls its stdin in a loop.
//! A wait is bounded by the call's deadline and its cancel flag; a command
//! that exits, traps or overruns ends its instance, and the next request
//! gets a fresh one.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use mcp_wit_protocol::RpcError;
use mcp_wit_protocol::jsonrpc::{self, Incoming, Response, code, read_response};
use mcp_wit_protocol::{FaultKind, GuestFault, GuestResult};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use wasmtime::Store;

use super::command_pipes::{StdinWriter, StdoutReader};
use super::fault::server_fault as fault;
use crate::runtime::limits::CallView;
use crate::runtime::store::StoreData;

/// How much the pipes hold each way before a writer waits.
pub(super) const PIPE_BYTES: usize = 1 << 20;

/// The longest line read from a command's stdout.
const MAX_LINE: usize = 16 << 20;

/// How often a wait looks at the call's cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(10);

/// A command's `run`, owning its store, until it returns.
pub(super) type Running = Pin<Box<dyn Future<Output = Result<(), String>> + Send>>;

/// A running command and the host's ends of its pipes.
pub(super) struct StdioLink {
    stdin: StdinWriter,
    stdout: BufReader<StdoutReader>,
    /// `None` once it ended, with why in `ended`.
    running: Option<Running>,
    ended: Option<String>,
}

impl StdioLink {
    /// `running`, reached through the host's ends of its stdin and stdout.
    pub(super) fn new(running: Running, stdin: StdinWriter, stdout: StdoutReader) -> Self {
        StdioLink { stdin, stdout: BufReader::new(stdout), running: Some(running), ended: None }
    }

    /// Runs `work` while the command runs; an error if the command ends
    /// first.
    async fn beside<T>(
        running: &mut Option<Running>,
        ended: &mut Option<String>,
        work: impl Future<Output = T>,
    ) -> Result<T, String> {
        let Some(command) = running else { return Err(ended.clone().unwrap_or_default()) };
        tokio::select! {
            done = work => Ok(done),
            finished = command => {
                let why = match finished {
                    Ok(()) => "exited".to_string(),
                    Err(why) => why,
                };
                *running = None;
                *ended = Some(why.clone());
                Err(why)
            }
        }
    }

    /// Writes `message` as one line, then, for a request, reads lines until
    /// the one that answers it. Requests of the command's own (sampling,
    /// elicitation) are answered that this host does not serve them.
    async fn converse(&mut self, message: Vec<u8>, id: Option<u64>) -> Result<Option<Response>, String> {
        let StdioLink { stdin, stdout, running, ended } = self;
        let mut line = message;
        line.push(b'\n');
        Self::beside(running, ended, async { stdin.write_all(&line).await.and(stdin.flush().await) })
            .await?
            .map_err(|e| format!("closed its stdin ({e})"))?;
        let Some(id) = id else { return Ok(None) };
        let mut text = String::new();
        loop {
            text.clear();
            let read = Self::beside(running, ended, read_line(stdout, &mut text)).await?;
            read?;
            let line = text.trim().as_bytes();
            if let Some(response) = read_response(line) {
                if response.id == Some(id) {
                    return Ok(Some(response.answer));
                }
                continue;
            }
            // Not JSON-RPC (a log line on stdout) is passed over.
            if let Ok(Incoming::Request { id: asked, .. }) = jsonrpc::parse(line) {
                let refusal = RpcError::new(
                    code::METHOD_NOT_FOUND,
                    "this host does not take requests from the servers it serves",
                );
                let mut reply = Vec::new();
                jsonrpc::write_error(&mut reply, Some(asked), &refusal);
                reply.push(b'\n');
                Self::beside(running, ended, async { stdin.write_all(&reply).await.and(stdin.flush().await) })
                    .await?
                    .map_err(|e| format!("closed its stdin ({e})"))?;
            }
        }
    }
}

/// One line of `stdout` into `text`, at most [`MAX_LINE`] bytes.
async fn read_line(stdout: &mut BufReader<StdoutReader>, text: &mut String) -> Result<(), String> {
    let mut bytes = Vec::new();
    let read = tokio::io::AsyncReadExt::take(&mut *stdout, MAX_LINE as u64 + 1).read_until(b'\n', &mut bytes).await;
    match read {
        Err(e) => Err(format!("cannot be read from ({e})")),
        Ok(0) => Err("closed its stdout".into()),
        Ok(_) if bytes.len() > MAX_LINE => Err(format!("wrote a line over {MAX_LINE} bytes")),
        Ok(_) => {
            *text = String::from_utf8(bytes).map_err(|_| "wrote a line that is not UTF-8".to_string())?;
            Ok(())
        }
    }
}

impl StdioLink {
    pub(super) async fn send(
        &mut self,
        store: &mut Store<StoreData>,
        message: Vec<u8>,
        id: Option<u64>,
        label: &str,
    ) -> GuestResult<Option<Response>> {
        // The instance's store says how long the call may take and whether
        // it was cancelled; the command's own store runs `run`.
        let controls = store.data().call_control().wait_controls();
        let cancelled = async {
            while !controls.cancel.is_cancelled() {
                tokio::time::sleep(CANCEL_POLL).await;
            }
        };
        tokio::select! {
            answered = tokio::time::timeout(controls.left, self.converse(message, id)) => match answered {
                Ok(Ok(answer)) => Ok(answer),
                Ok(Err(why)) => Err(fault(label, why)),
                Err(_) => {
                    // Parked mid-message: this instance cannot be trusted again.
                    self.running = None;
                    self.ended = Some("timed out".into());
                    Err(GuestFault::new(FaultKind::Timeout, format!(
                        "the MCP server in `{label}` did not answer within {:?}", controls.timeout
                    )))
                }
            },
            () = cancelled => {
                self.running = None;
                self.ended = Some("cancelled".into());
                Err(GuestFault::new(FaultKind::Cancelled, format!("the call to `{label}` was cancelled")))
            }
        }
    }
}
