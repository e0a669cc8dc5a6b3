//! A progress line while a component compiles.
//!
//! Compiling a large component takes seconds (a cached one, milliseconds):
//! after a short grace period a line says what is happening, updated in place
//! on a terminal, logged once otherwise. Nothing is shown for fast loads.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use mcp_wit::{CompileCache, Engine};

/// How long a load runs before the line appears.
const GRACE: Duration = Duration::from_millis(400);

/// Shows progress until dropped.
pub struct CompileProgress {
    done: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl CompileProgress {
    /// Watches the load of `path` on `engine`, unless `cache` holds its
    /// code: a cached load takes milliseconds and never shows the line, so
    /// its start is spared the watching thread (the check reads only the
    /// file's note, which the load then reads again).
    pub fn unless_cached(path: &Path, engine: &Engine, cache: Option<&CompileCache>) -> Option<Self> {
        match cache {
            Some(cache) if cache.holds_file(engine, path) => None,
            _ => Some(Self::start(path)),
        }
    }

    /// Starts watching the load of `path`.
    pub fn start(path: &Path) -> Self {
        let (done, finished) = mpsc::channel::<()>();
        let name = path.display().to_string();
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let thread = std::thread::Builder::new()
            .name("compile-progress".into())
            .spawn(move || show(&name, size, &finished))
            .ok();
        CompileProgress { done: Some(done), thread }
    }
}

impl Drop for CompileProgress {
    fn drop(&mut self) {
        drop(self.done.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn show(name: &str, size: u64, finished: &mpsc::Receiver<()>) {
    let started = Instant::now();
    if finished.recv_timeout(GRACE) != Err(RecvTimeoutError::Timeout) {
        return;
    }
    let what = format!("compiling {name} ({:.1} MB)", size as f64 / 1e6);
    let terminal = std::io::stderr().is_terminal();
    if !terminal {
        tracing::info!("{what}…");
    }
    loop {
        if terminal {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{what}… {}s\x1b[K", started.elapsed().as_secs());
            let _ = err.flush();
        }
        match finished.recv_timeout(Duration::from_millis(250)) {
            Err(RecvTimeoutError::Timeout) => continue,
            _ => break,
        }
    }
    if terminal {
        let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
    }
    tracing::info!("{name} ready in {:.1?}", started.elapsed());
}
