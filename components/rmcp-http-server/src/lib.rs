//! An MCP server written with rmcp (its `#[tool]` macros and its Streamable
//! HTTP transport, stateless), exported as a WASIp3 HTTP handler
//! (`wasi:http/handler@0.3`): what the Cosmonic template builds and
//! wasmCloud deploys. Each request is read whole, handed to rmcp on a
//! single-threaded tokio runtime, and its answer written back whole: a
//! stateless transport answers one message per request.
//!
//! Its tools are in `calculator.rs`, which `components/rmcp-stdio-server`
//! serves over stdio.

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use wasip3::http::types::{ErrorCode, Request, Response};
use wasip3::http_compat::{http_from_wasi_request, http_into_wasi_response};

mod calculator;
use calculator::Calculator;

/// The largest request body read.
const MAX_BODY: usize = 1 << 20;

struct Component;

wasip3::http::service::export!(Component);

impl wasip3::exports::http::handler::Guest for Component {
    async fn handle(request: Request) -> Result<Response, ErrorCode> {
        let (parts, body) = http_from_wasi_request(request)?.into_parts();
        let body = http_body_util::Limited::new(body, MAX_BODY)
            .collect()
            .await
            .map_err(|e| ErrorCode::InternalError(Some(format!("cannot read the request: {e}"))))?
            .to_bytes();
        let request = http::Request::from_parts(parts, Full::new(body));
        let mut config = StreamableHttpServerConfig::default();
        config.legacy_session_mode = false;
        config.json_response = true;
        let service = StreamableHttpService::new(|| Ok(Calculator), Arc::new(NeverSessionManager::default()), config);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .map_err(|e| ErrorCode::InternalError(Some(e.to_string())))?;
        let (parts, body) = runtime
            .block_on(async {
                let (parts, body) = service.handle(request).await.into_parts();
                body.collect().await.map(|body| (parts, body.to_bytes()))
            })
            .map_err(|e| ErrorCode::InternalError(Some(format!("{e:?}"))))?;
        http_into_wasi_response(http::Response::from_parts(parts, Full::<Bytes>::new(body)))
    }
}
