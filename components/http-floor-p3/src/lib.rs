//! The floor of `http-floor` as a `wasi:http@0.3` handler (WASIp3): the
//! same echo answer, for engines that reuse an instance for several
//! requests at once (`wasmtime serve --max-instance-concurrent-reuse-count`).
//! Served with `wasmtime serve -Wcomponent-model-async -Sp3`.

use wasip3::http::types::{ErrorCode, Fields, Request, Response};
use wasip3::{wit_bindgen, wit_future, wit_stream};

#[path = "../../http-floor/src/echo.rs"]
mod echo;

const JSON: &str = "application/json";
const TEXT: &str = "text/plain; charset=utf-8";

struct Floor;

wasip3::http::service::export!(Floor);

impl wasip3::exports::http::handler::Guest for Floor {
    async fn handle(request: Request) -> Result<Response, ErrorCode> {
        let (_, nothing_to_report) = wit_future::new(|| Ok(()));
        let (body, _trailers) = Request::consume_body(request, nothing_to_report);
        let (status, content_type, answer) = match echo::answer(&body.collect().await) {
            Ok(answer) => (200, JSON, answer),
            Err(why) => (400, TEXT, why.into_bytes()),
        };
        let fields = Fields::from_list(&[("content-type".into(), content_type.as_bytes().to_vec())])
            .map_err(|e| ErrorCode::InternalError(Some(format!("{e:?}"))))?;
        let (mut writer, reader) = wit_stream::new();
        let (_, no_trailers) = wit_future::new(|| Ok(None));
        let (response, _sent) = Response::new(fields, Some(reader), no_trailers);
        response.set_status_code(status).map_err(|()| ErrorCode::InternalError(None))?;
        // The body is written once the response is returned.
        wit_bindgen::spawn_local(async move {
            writer.write_all(answer).await;
        });
        Ok(response)
    }
}
