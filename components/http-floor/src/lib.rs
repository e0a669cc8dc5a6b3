//! The floor of a wrapped router on an engine: a `wasi:http@0.2` handler
//! that answers one 2026-07-28 `tools/call` of `echo` with what the echo
//! router would return, parsing the body with serde_json and nothing more:
//! no header checks, no envelope, no router behind it. What an engine spends
//! serving it is what any MCP server on that engine spends at least, so the
//! `engines` benchmark measures the wrapped router against it as well as
//! against `mcp-wit serve`. `http-floor-p3` is the same as a WASIp3 handler.

use std::io::{Read, Write};

use wasip2::http::types::{Fields, IncomingRequest, OutgoingBody, OutgoingResponse, ResponseOutparam};

mod echo;

const JSON: &str = "application/json";
const TEXT: &str = "text/plain; charset=utf-8";

struct Floor;

wasip2::http::proxy::export!(Floor with_types_in wasip2);

impl wasip2::exports::http::incoming_handler::Guest for Floor {
    fn handle(request: IncomingRequest, out: ResponseOutparam) {
        let (status, content_type, body) = match read(&request).and_then(|body| echo::answer(&body)) {
            Ok(answer) => (200, JSON, answer),
            Err(why) => (400, TEXT, why.into_bytes()),
        };
        let fields =
            Fields::from_list(&[("content-type".into(), content_type.as_bytes().to_vec())]).expect("a valid header");
        let response = OutgoingResponse::new(fields);
        response.set_status_code(status).expect("a valid status");
        let outgoing = response.body().expect("a fresh response has a body");
        ResponseOutparam::set(out, Ok(response));
        {
            let mut stream = outgoing.write().expect("a fresh body has a stream");
            // Nothing to tell a client that went away.
            let _ = stream.write_all(&body).and_then(|()| Write::flush(&mut stream));
        }
        let _ = OutgoingBody::finish(outgoing, None);
    }
}

fn read(request: &IncomingRequest) -> Result<Vec<u8>, String> {
    let incoming = request.consume().map_err(|()| "no body")?;
    let mut body = Vec::new();
    incoming.stream().map_err(|()| "no body stream")?.read_to_end(&mut body).map_err(|e| e.to_string())?;
    Ok(body)
}
