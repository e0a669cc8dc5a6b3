//! Helper processes a test starts on 127.0.0.1 (a load balancer, a metrics
//! server): started once they answer, their stderr kept for the message of
//! a failure.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often a starting process is asked whether it is ready.
const POLL: Duration = Duration::from_millis(50);

/// Runs `command` (stdin and stdout closed, stderr read as it goes) and
/// waits until `ready` says so, for at most `deadline`. The error names the
/// process, says whether it exited or never got ready, and quotes its
/// stderr.
pub async fn start_until_ready<F, Fut>(
    mut command: Command,
    name: &str,
    deadline: Duration,
    mut ready: F,
) -> Result<(Child, Arc<Mutex<String>>), String>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {name}: {e}"));
    let stderr = collect_stderr(child.stderr.take().expect("stderr is piped"));
    let started = Instant::now();
    loop {
        if ready().await {
            return Ok((child, stderr));
        }
        if let Ok(Some(status)) = child.try_wait() {
            // Let the reader take the last of what it wrote.
            tokio::time::sleep(Duration::from_millis(100)).await;
            return Err(format!("{name} exited ({status}):\n{}", stderr.lock().unwrap()));
        }
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{name} was not ready in {deadline:?}:\n{}", stderr.lock().unwrap()));
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Reads a child's stderr (the pipe, or a reader over it that may hold what
/// was read ahead) into a string, on a thread of its own (it ends when the
/// child does).
pub fn collect_stderr(pipe: impl std::io::Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let sink = text.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            let mut text = sink.lock().unwrap();
            text.push_str(&line);
            text.push('\n');
        }
    });
    text
}
