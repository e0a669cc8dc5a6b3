//! `wasi:cli/run`: one session on stdin and stdout, newline-delimited
//! JSON-RPC, until stdin ends.

use std::io::{BufRead, Read, Write};

use mcp_wit_protocol::Session;
use mcp_wit_protocol::jsonrpc::{self, RpcError};

use crate::Adapter;
use crate::router::Imported;
use crate::settings::{Settings, StateKeySetting};

impl wasip2::exports::cli::run::Guest for Adapter {
    fn run() -> Result<(), ()> {
        crate::log::install();
        let settings = Settings::from_env();
        if let StateKeySetting::Broken(why) = &settings.state_key {
            eprintln!("adapter: cannot serve: {why}");
            return Err(());
        }
        let mut session = Session::new(Imported, settings.session);
        let mut input = std::io::stdin().lock();
        let mut output = std::io::stdout().lock();
        let mut line = Vec::with_capacity(4096);
        let mut out: Vec<Vec<u8>> = Vec::new();
        loop {
            line.clear();
            let limit = settings.max_message_size as u64 + 1;
            let read = match (&mut input).take(limit).read_until(b'\n', &mut line) {
                Ok(read) => read,
                Err(e) => {
                    eprintln!("adapter: cannot read stdin: {e}");
                    return Err(());
                }
            };
            if read == 0 {
                session.end_subscriptions(&mut out);
                break;
            }
            if line.len() > settings.max_message_size {
                // Too long: skip the rest of the line, answer without an id.
                if line.last() != Some(&b'\n') {
                    let mut rest = Vec::new();
                    let _ = input.read_until(b'\n', &mut rest);
                }
                let error = RpcError::invalid_request(format!(
                    "message exceeds the limit of {} bytes",
                    settings.max_message_size
                ));
                let mut answer = Vec::new();
                jsonrpc::write_error(&mut answer, None, &error);
                out.push(answer);
            } else {
                let message = line.trim_ascii();
                if !message.is_empty() {
                    session.handle(message, &mut out);
                }
            }
            for message in out.drain(..) {
                if output.write_all(&message).and_then(|()| output.write_all(b"\n")).is_err() {
                    return Err(());
                }
            }
            if output.flush().is_err() {
                return Err(());
            }
        }
        for message in out.drain(..) {
            let _ = output.write_all(&message).and_then(|()| output.write_all(b"\n"));
        }
        output.flush().map_err(|_| ())
    }
}
