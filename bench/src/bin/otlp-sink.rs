//! An OTLP/HTTP collector that keeps nothing: it answers every export 200
//! with an empty `ExportTraceServiceResponse` (zero bytes of protobuf) and
//! counts what it was sent. The benchmarks of traces at 100% sampling point
//! the server at it, so that what is measured is the server's cost of
//! making and exporting spans, not a collector's of storing them.
//!
//! Prints `listening ADDR` first; on SIGTERM or SIGINT prints the requests
//! and bytes it received as JSON and exits.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("listening {}", listener.local_addr()?);
    let counts = Arc::new((AtomicU64::new(0), AtomicU64::new(0)));
    let serving = {
        let counts = counts.clone();
        async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { continue };
                let counts = counts.clone();
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                        let counts = counts.clone();
                        async move {
                            let body = request.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
                            counts.0.fetch_add(1, Ordering::Relaxed);
                            counts.1.fetch_add(body.len() as u64, Ordering::Relaxed);
                            let mut response = Response::new(Full::new(Bytes::new()));
                            response.headers_mut().insert("content-type", "application/x-protobuf".parse().unwrap());
                            Ok::<_, Infallible>(response)
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        }
    };
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    tokio::select! {
        () = serving => {}
        _ = terminate.recv() => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    println!("{{\"requests\":{},\"bytes\":{}}}", counts.0.load(Ordering::Relaxed), counts.1.load(Ordering::Relaxed));
    Ok(())
}
