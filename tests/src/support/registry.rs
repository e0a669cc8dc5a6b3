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

    /// A registry that speaks HTTPS with a certificate for 127.0.0.1 from a
    /// test certificate authority, whose certificate (PEM) is at
    /// [`Self::ca`].
    pub fn with_tls() -> LocalRegistry {
        Self::start_with_tls(None, true)
    }

    /// The test certificate authority of [`Self::with_tls`].
    pub fn ca(&self) -> PathBuf {
        self._dir.path().join("ca.pem")
    }

    fn start_with(login: Option<(&str, &str)>) -> LocalRegistry {
        Self::start_with_tls(login, false)
    }

    fn start_with_tls(login: Option<(&str, &str)>, tls: bool) -> LocalRegistry {
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
        if tls {
            make_certificates(dir.path());
            let (certificate, key) = (dir.path().join("tls.crt"), dir.path().join("tls.key"));
            config.push_str(&format!(
                "  tls:\n    certificate: {}\n    key: {}\n",
                certificate.display(),
                key.display()
            ));
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

/// A certificate authority (`ca.pem`) and a server certificate for
/// 127.0.0.1 it issued (`tls.crt`, `tls.key`), made with the `openssl` CLI.
fn make_certificates(dir: &std::path::Path) {
    let run = |args: &[&str]| {
        let done = Command::new("openssl").args(args).current_dir(dir).output().expect("openssl runs");
        assert!(done.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&done.stderr));
    };
    let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    run(&[
        &["req", "-x509"][..],
        &ec,
        &["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=mcp-wit test CA"],
    ]
    .concat());
    run(&[&["req"][..], &ec, &["-keyout", "tls.key", "-out", "tls.csr", "-subj", "/CN=127.0.0.1"]].concat());
    // A leaf, not a CA: webpki refuses a CA certificate as a server's.
    std::fs::write(
        dir.join("ext.cnf"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    run(&[
        "x509",
        "-req",
        "-in",
        "tls.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "tls.crt",
        "-days",
        "2",
        "-extfile",
        "ext.cnf",
    ]);
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

/// A registry that answers as a test tells it: crafted manifests and
/// blobs (a layer that is not what its digest says, a size nobody should
/// download, a container image), or nothing at all.
pub struct FakeRegistry {
    /// `127.0.0.1:PORT`.
    pub host: String,
    task: tokio::task::JoinHandle<()>,
}

impl FakeRegistry {
    /// Answers `GET`/`HEAD` of each path in `routes` with its content type
    /// and body, `/v2/` with `{}`, and anything else with a registry's 404.
    pub async fn start(routes: Vec<(String, &'static str, Vec<u8>)>) -> FakeRegistry {
        Self::listen(Some(routes)).await
    }

    /// Accepts connections and never answers.
    pub async fn hanging() -> FakeRegistry {
        Self::listen(None).await
    }

    async fn listen(routes: Option<Vec<(String, &'static str, Vec<u8>)>>) -> FakeRegistry {
        use tokio::io::AsyncWriteExt;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let host = listener.local_addr().unwrap().to_string();
        let routes = std::sync::Arc::new(routes);
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((mut socket, _)) = listener.accept().await {
                let Some(routes) = routes.as_ref().clone() else {
                    // Kept open, never answered.
                    held.push(socket);
                    continue;
                };
                tokio::spawn(async move {
                    let Some(head) = read_request_head(&mut socket).await else { return };
                    let line = head.lines().next().unwrap_or_default().to_owned();
                    let mut words = line.split_whitespace();
                    let (method, target) = (words.next().unwrap_or_default(), words.next().unwrap_or_default());
                    let path = target.split('?').next().unwrap_or_default();
                    let found = routes.iter().find(|(route, _, _)| route == path);
                    let (status, content_type, body) = match (path, found) {
                        ("/v2/", _) => ("200 OK", "application/json", b"{}".to_vec()),
                        (_, Some((_, content_type, body))) => ("200 OK", *content_type, body.clone()),
                        _ => (
                            "404 Not Found",
                            "application/json",
                            br#"{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}"#.to_vec(),
                        ),
                    };
                    let head = format!(
                        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                        body.len()
                    );
                    let _ = socket.write_all(head.as_bytes()).await;
                    if method != "HEAD" {
                        let _ = socket.write_all(&body).await;
                    }
                });
            }
        });
        FakeRegistry { host, task }
    }
}

/// The head of the HTTP/1.1 request on `socket` (its request line and
/// headers), or `None` if the connection ends first.
pub async fn read_request_head(socket: &mut tokio::net::TcpStream) -> Option<String> {
    use tokio::io::AsyncReadExt;
    let mut request = Vec::new();
    let mut buffer = [0u8; 4096];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
        match socket.read(&mut buffer).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => request.extend_from_slice(&buffer[..n]),
        }
    }
    Some(String::from_utf8_lossy(&request).into_owned())
}

impl Drop for FakeRegistry {
    fn drop(&mut self) {
        self.task.abort();
    }
}
