//! Extism's HTTP functions of `extism:host/env`: `http_request`,
//! `http_status_code` and `http_headers`, over the sandbox's outgoing HTTP
//! (the `--allow-http` allowlist, wasmtime-wasi-http's client, timeouts
//! capped by the call), waiting no longer than the call's deadline and
//! stopping at its cancellation.
//!
//! As in Extism: the request is `{"url", "method", "headers"}` JSON in a
//! kernel block and the body another block (0: none); a destination not
//! allowed stops the call with "HTTP request to … is not allowed"; a
//! response of any status gives its body in a new block (0 when empty) and
//! sets the status and headers the other two functions report; a request
//! that gets no response gives 0, with status 0 (Extism keeps the previous
//! status, which a plugin would take for this request's).

use std::collections::BTreeMap;
use std::time::Instant;

use bytes::Bytes;
use mcp_wit_protocol::CallMode;
use mcp_wit_protocol::client::{AskError, WaitBound};
use serde::Deserialize;
use wasmtime::{Caller, Linker};

use super::kernel::{ENV_MODULE, KernelView};
use crate::runtime::limits::{CallView, Interrupted};
use crate::runtime::waits::answer_within;
use crate::sandbox::outgoing_http::{OutgoingHttp, PlainRequestError, PlainResponse};

/// Extism's cap on a response body; the kernel's room is the other.
const MAX_BODY: usize = 50 << 20;

/// `extism_manifest::HttpRequest`.
#[derive(Deserialize)]
struct PlainRequest {
    url: String,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    #[serde(default)]
    method: Option<String>,
}

/// A plugin's store as its HTTP functions see it: the kernel that holds
/// the request and response, the running call, and the sandbox's outgoing
/// HTTP.
pub trait PluginHttpView: KernelView + CallView {
    /// The sandbox's outgoing HTTP (allowlist, client, timeouts).
    fn outgoing_http(&self) -> &OutgoingHttp;
}

/// Defines the HTTP functions in `linker`: a request waits on the calling
/// thread (blocking) or as a future (async).
pub(super) fn add_to_linker<T: PluginHttpView + Send + 'static>(
    linker: &mut Linker<T>,
    calls: CallMode,
) -> wasmtime::Result<()> {
    let m = ENV_MODULE;
    match calls {
        CallMode::Blocking => linker.func_wrap(m, "http_request", |mut c: Caller<'_, T>, req: u64, body: u64| {
            wasmtime_wasi::runtime::in_tokio(request(&mut c, req, body))
        })?,
        CallMode::Async => {
            linker.func_wrap_async(m, "http_request", |mut c: Caller<'_, T>, (req, body): (u64, u64)| {
                Box::new(async move { request(&mut c, req, body).await })
            })?
        }
    };
    linker.func_wrap(m, "http_status_code", |mut c: Caller<'_, T>| c.data_mut().kernel().http_status())?;
    linker.func_wrap(m, "http_headers", |mut c: Caller<'_, T>| {
        let kernel = c.data_mut().kernel();
        let headers = Some(kernel.http_headers()).filter(|headers| !headers.is_empty());
        match headers.map(|headers| serde_json::to_vec(headers).expect("a map of strings serialises")) {
            Some(json) => kernel.new_block(&json),
            None => 0,
        }
    })?;
    Ok(())
}

/// `http_request`: the response's body in a new block.
async fn request<T: PluginHttpView>(c: &mut Caller<'_, T>, req: u64, body: u64) -> wasmtime::Result<u64> {
    let kernel = c.data_mut().kernel();
    if kernel.length(req) == 0 {
        return Err(fail(format!("invalid handle offset for http request: {req}")));
    }
    let parsed: PlainRequest = serde_json::from_slice(kernel.block(req)).map_err(|e| {
        fail(format!("the request is not Extism's HttpRequest JSON ({{\"url\", \"method\", \"headers\"}}): {e}"))
    })?;
    let body = match body {
        0 => Bytes::new(),
        handle if kernel.length(handle) == 0 => {
            return Err(fail(format!("invalid handle offset for http request body: {handle}")));
        }
        handle => Bytes::copy_from_slice(kernel.block(handle)),
    };
    let max_body = MAX_BODY.min(kernel.room());
    let request = build(parsed, body)?;
    let sent = c.data().outgoing_http().send_plain(request, max_body);
    let controls = c.data().call_control().wait_controls();
    let bound = WaitBound { deadline: Instant::now() + controls.left, cancel: controls.cancel };
    let answer = answer_within(sent, &bound).await.map_err(|stopped| {
        wasmtime::Error::new(match stopped {
            AskError::Cancelled => Interrupted::Cancelled,
            _ => Interrupted::Timeout(controls.timeout),
        })
    })?;
    let kernel = c.data_mut().kernel();
    match answer {
        Ok(PlainResponse { status, headers, body }) => {
            kernel.set_http_response(i32::from(status), headers);
            if body.is_empty() {
                return Ok(0);
            }
            match kernel.new_block(&body) {
                0 => Err(fail(format!("the response body ({} bytes) does not fit the plugin's memory", body.len()))),
                block => Ok(block),
            }
        }
        Err(PlainRequestError::Failed(why)) => {
            tracing::warn!("a plugin's HTTP request got no response: {why}");
            kernel.set_http_response(0, BTreeMap::new());
            Ok(0)
        }
        Err(refused) => Err(fail(refused.to_string())),
    }
}

/// The `http::Request` the plugin described.
fn build(parsed: PlainRequest, body: Bytes) -> wasmtime::Result<http::Request<Bytes>> {
    let method = parsed.method.as_deref().unwrap_or("GET").to_ascii_uppercase();
    let method = http::Method::from_bytes(method.as_bytes()).map_err(|e| fail(format!("Invalid HTTP method: {e}")))?;
    let uri: http::Uri = parsed.url.parse().map_err(|e| fail(format!("Invalid URL: {e}")))?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) || uri.authority().is_none() {
        return Err(fail(format!("Invalid URL: {} (an http or https URL with a host is needed)", parsed.url)));
    }
    let mut request = http::Request::builder().method(method).uri(uri);
    for (name, value) in &parsed.headers {
        request = request.header(name, value);
    }
    request.body(body).map_err(|e| fail(format!("Invalid HTTP request: {e}")))
}

fn fail(message: String) -> wasmtime::Error {
    wasmtime::Error::msg(format!("`http_request`: {message}"))
}
