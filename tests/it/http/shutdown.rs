//! Shutdown: SIGTERM lets the requests in flight finish.

use std::time::Duration;

use mcp_wit_tests::support;
use reqwest::StatusCode;
use support::http::EventReader;
use support::text;
use tokio::net::TcpStream;

use super::fixture::initialized;
use super::sessions::post_wait;

#[tokio::test]
async fn sigterm_lets_requests_in_flight_finish() {
    let (mut server, client) = initialized(&[]).await;
    let stream = client.get_stream(&server.url(), &[]).await;
    assert_eq!(stream.status(), StatusCode::OK);
    let events = EventReader::new(stream);
    let slow = post_wait(&client, 1, 1500);
    let stop = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        server.terminate();
        // Open streams end at once.
        events.end(Duration::from_secs(5)).await;
    };
    // The request in flight still gets its answer.
    let (slow, ()) = tokio::join!(slow, stop);
    assert_eq!(slow.status, StatusCode::OK);
    assert_eq!(text(slow.response()), "waited 1500 ms");
    let status = server.wait().await;
    assert!(status.success(), "exit status {status}; stderr:\n{}", server.stderr.lock().unwrap());
    // Nothing listens any more.
    assert!(TcpStream::connect(server.addr).await.is_err());
}
