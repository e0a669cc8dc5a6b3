//! One pipeline phase's calls: what was sent when, what came back, and what
//! is queued and not yet written.

use std::io::{self, Write};
use std::process::ChildStdin;
use std::time::Instant;

use anyhow::{Context, bail, ensure};

use crate::mcp::{Answer, Era, MODERN_VERSION, call_body, check_echo};

/// The calls of one pipeline phase: what was sent when, and what came back.
pub(super) struct Calls {
    pub(super) era: Era,
    pub(super) first_id: u64,
    /// Calls queued so far (the next one's index).
    queued: usize,
    pub(super) received: usize,
    /// Send time of each call in ns since the phase began; 0 = not sent yet.
    pub(super) sent_ns: Vec<u64>,
    pub(super) latencies_ns: Vec<u64>,
    pub(super) answered: Vec<bool>,
    expected: String,
}

impl Calls {
    pub(super) fn new(first_id: u64, count: usize, era: Era) -> Self {
        Calls {
            era,
            first_id,
            queued: 0,
            received: 0,
            sent_ns: vec![0; count],
            latencies_ns: vec![0; count],
            answered: vec![false; count],
            expected: String::new(),
        }
    }

    /// Queues up to `n` more calls, as many as remain.
    pub(super) fn queue(&mut self, n: usize, out: &mut Outgoing) -> anyhow::Result<()> {
        let end = (self.queued + n).min(self.sent_ns.len());
        for index in self.queued..end {
            let id = self.first_id + index as u64;
            match self.era {
                Era::Legacy => write!(
                    out.bytes,
                    r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"echo {id}"}}}}}}"#
                )?,
                Era::Modern => write!(
                    out.bytes,
                    r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"echo {id}"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN_VERSION}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
                )?,
                // Rarely measured: built as the HTTP client builds it.
                Era::ModernTasks => {
                    out.bytes.extend_from_slice(call_body(self.era, id, "echo", &format!("echo {id}")).as_bytes())
                }
            }
            out.bytes.push(b'\n');
        }
        self.queued = end;
        out.calls_end = end;
        Ok(())
    }

    /// Checks one message from the server; `true` if it answered a call.
    pub(super) fn answer(&mut self, line: &[u8], now: u64) -> anyhow::Result<bool> {
        let answer: Answer = serde_json::from_slice(line)
            .with_context(|| format!("not a JSON-RPC message: {}", String::from_utf8_lossy(line)))?;
        if let Some(error) = answer.error {
            bail!("a call failed: {}", error.get());
        }
        let Some(id) = answer.id else { return Ok(false) }; // a notification
        let index = id
            .checked_sub(self.first_id)
            .map(|i| i as usize)
            .filter(|&i| i < self.queued)
            .with_context(|| format!("an answer to unknown id {id}"))?;
        ensure!(!self.answered[index], "a second answer to id {id}");
        self.expected.clear();
        {
            use std::fmt::Write as _;
            write!(self.expected, "echo {id}").expect("writing to a String");
        }
        check_echo(&answer, &self.expected).with_context(|| format!("wrong answer to id {id}"))?;
        let stamp = self.sent_ns[index];
        ensure!(stamp != 0, "an answer to id {id} before it was sent");
        self.latencies_ns[index] = now.saturating_sub(stamp);
        self.answered[index] = true;
        self.received += 1;
        Ok(true)
    }
}

/// Calls queued for the server and not yet written.
#[derive(Default)]
pub(super) struct Outgoing {
    bytes: Vec<u8>,
    written: usize,
    /// Calls before this index are queued; those from `stamped` on have no
    /// send time yet.
    calls_end: usize,
    stamped: usize,
}

impl Outgoing {
    pub(super) fn is_pending(&self) -> bool {
        self.written < self.bytes.len()
    }

    /// Writes as much as the pipe takes without blocking. Calls get their send
    /// time just before the first write that carries them, so an answer can
    /// never come before its call's stamp.
    pub(super) fn send(&mut self, stdin: &mut ChildStdin, sent_ns: &mut [u64], base: Instant) -> anyhow::Result<()> {
        if !self.is_pending() {
            return Ok(());
        }
        let now = (base.elapsed().as_nanos() as u64).max(1);
        sent_ns[self.stamped..self.calls_end].fill(now);
        self.stamped = self.calls_end;
        while self.is_pending() {
            match stdin.write(&self.bytes[self.written..]) {
                Ok(n) => self.written += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e).context("the server stopped reading its input"),
            }
        }
        self.bytes.clear();
        self.written = 0;
        Ok(())
    }
}
