//! A real OCI registry for tests: Debian's `docker-registry` (Distribution
//! 2.8) on a loopback port, with its storage in a temporary directory, and
//! `mcp-wit` run against it with a store of its own.

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::binary;
use super::engines::free_port;

/// `docker-registry serve` on `127.0.0.1`; killed when dropped.
pub struct LocalRegistry {
    child: Child,
    /// `127.0.0.1:PORT`, as references write it.
    pub host: String,
    _dir: tempfile::TempDir,
}

impl LocalRegistry {
    /// A registry anyone may push to.
    pub fn start() -> LocalRegistry {
        Self::start_with(None)
    }

    /// A registry that takes only `user` with `password` (HTTP basic, as
    /// `htpasswd -B` writes it).
    pub fn with_login(user: &str, password: &str) -> LocalRegistry {
        Self::start_with(Some((user, password)))
    }

    fn start_with(login: Option<(&str, &str)>) -> LocalRegistry {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let mut config = format!(
            "version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n    rootdirectory: {}\n  delete:\n    \
             enabled: true\nhttp:\n  addr: 127.0.0.1:{port}\n",
            dir.path().join("data").display()
        );
        if let Some((user, password)) = login {
            let htpasswd = dir.path().join("htpasswd");
            let made = Command::new("htpasswd")
                .args(["-Bbc", htpasswd.to_str().unwrap(), user, password])
                .output()
                .expect("htpasswd (Debian's apache2-utils) runs");
            assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
            config.push_str(&format!("auth:\n  htpasswd:\n    realm: tests\n    path: {}\n", htpasswd.display()));
        }
        let config_path = dir.path().join("config.yml");
        std::fs::write(&config_path, config).unwrap();
        let child = Command::new("docker-registry")
            .arg("serve")
            .arg(&config_path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("docker-registry (Debian's docker-registry package) runs");
        let host = format!("127.0.0.1:{port}");
        let started = Instant::now();
        while std::net::TcpStream::connect(&host).is_err() {
            assert!(started.elapsed() < Duration::from_secs(30), "docker-registry did not listen on {host}");
            std::thread::sleep(Duration::from_millis(50));
        }
        LocalRegistry { child, host, _dir: dir }
    }

    /// `oci://HOST/REPOSITORY:TAG` on it.
    pub fn reference(&self, repository_and_tag: &str) -> String {
        format!("oci://{}/{repository_and_tag}", self.host)
    }
}

impl Drop for LocalRegistry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `mcp-wit` with a store (and compile cache) of its own, so that tests do
/// not see each other's pulls.
pub struct Client {
    cache: tempfile::TempDir,
    /// Extra environment (credentials, `DOCKER_CONFIG`).
    pub env: Vec<(String, String)>,
}

impl Default for Client {
    fn default() -> Self {
        Client::new()
    }
}

impl Client {
    /// An empty store.
    pub fn new() -> Client {
        Client { cache: tempfile::tempdir().unwrap(), env: Vec::new() }
    }

    /// The store's directory (`$XDG_CACHE_HOME/mcp-wit`).
    pub fn cache_dir(&self) -> PathBuf {
        self.cache.path().join("mcp-wit")
    }

    /// `mcp-wit ARGS…`, with the store and no Docker config unless `env`
    /// names one.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(binary());
        command
            .args(args)
            .env("XDG_CACHE_HOME", self.cache.path())
            .env("DOCKER_CONFIG", self.cache.path().join("no-docker-config"))
            .env_remove("MCP_WIT_REGISTRY_AUTH");
        for (name, value) in &self.env {
            command.env(name, value);
        }
        command
    }

    /// Runs `mcp-wit ARGS…` to its end.
    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("mcp-wit runs")
    }

    /// Runs it and returns its stdout, failing the test with its stderr if
    /// it fails.
    pub fn ok(&self, args: &[&str]) -> String {
        let output = self.run(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "mcp-wit {args:?} failed:\n{stderr}");
        String::from_utf8(output.stdout).unwrap()
    }

    /// Runs it, expects it to fail, and returns its stderr.
    pub fn fails(&self, args: &[&str]) -> String {
        let output = self.run(args);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(!output.status.success(), "mcp-wit {args:?} succeeded:\n{stderr}");
        stderr
    }
}
