//! Registries, credentials, signatures and the files flags name (the second
//! review's M1, M2, M3, L4, L7): what a registry gone hostile can make a
//! command or a server read, where credentials may go, what `sign` keeps,
//! and what the command line requires that mcp-wit.toml cannot lower.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use mcp_wit_tests::support;
use support::registry::{Client, LocalRegistry, read_request_head};

/// `mcp-wit ARGS…` run to its end, or killed after a bound a hung read
/// would pass (the old code waited for ever on a FIFO): the bound is no
/// timing assertion, only how long a hang is waited for.
fn run_bounded(mut command: Command) -> Output {
    let mut child = command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    for _ in 0..600 {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap();
    let output = child.wait_with_output().unwrap();
    panic!("{command:?} never ended; stderr:\n{}", String::from_utf8_lossy(&output.stderr));
}

/// A cosign key pair in `dir` (`NAME.key` encrypted with `pw`, `NAME.pub`).
fn key_pair(dir: &Path, name: &str) -> (String, String) {
    use sigstore::crypto::SigningScheme;
    let signer = SigningScheme::ECDSA_P256_SHA256_ASN1.create_signer().unwrap();
    let pair = signer.to_sigstore_keypair().unwrap();
    let private = dir.join(format!("{name}.key"));
    let public = dir.join(format!("{name}.pub"));
    std::fs::write(&private, pair.private_key_to_encrypted_pem(b"pw").unwrap()).unwrap();
    std::fs::write(&public, pair.public_key_to_pem().unwrap()).unwrap();
    (private.display().to_string(), public.display().to_string())
}

/// L4: every file a flag names (keys, trust roots, certificate
/// authorities, the state key, the config file, secrets, a JWKS) is read only when it is a
/// regular file, and only up to a bound: a FIFO (as `/dev/zero`, a read
/// that never ends) or a directory is refused at once, and so is a file
/// larger than such a file can be, each with what it is and which flag.
#[test]
fn files_given_by_flag_are_refused_unless_regular_and_small() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    // Sparse: 64 MiB that take no disk, and no memory unless read.
    let large = dir.path().join("large.pem");
    std::fs::File::create(&large).unwrap().set_len(64 << 20).unwrap();
    let echo = support::fixture_arg("echo");
    // Nothing listens on port 1: every file is read before any registry is.
    let reference = "oci://127.0.0.1:1/tools/echo:1";
    let client = Client::new();
    for file in [fifo.to_str().unwrap(), dir.path().to_str().unwrap(), large.to_str().unwrap()] {
        let secret = format!("TOKEN=@{file}");
        let jwks = ["--http", "127.0.0.1:0", "--auth-issuer", "https://issuer.example", "--auth-jwks-file", file];
        let cases: [(&[&str], &str); 8] = [
            (&["serve", &echo, "--state-key-file", file], "the state key file"),
            (&[&["serve", echo.as_str()][..], &jwks[..]].concat(), "the JWKS file"),
            (&["serve", &echo, "--secret", &secret], "cannot read the file"),
            (&["inspect", reference, "--verify-key", file], "the key"),
            (
                &[
                    "inspect",
                    reference,
                    "--verify-identity",
                    "a@example.com",
                    "--verify-issuer",
                    "x",
                    "--trust-root",
                    file,
                ],
                "the trust root",
            ),
            (&["inspect", reference, "--registry-ca", file], "--registry-ca"),
            (&["sign", reference, "--key", file], "the key"),
            (&["serve", "--file", file], "the config file"),
        ];
        for (args, what) in cases {
            let output = run_bounded(client.command(args));
            let stderr = String::from_utf8_lossy(&output.stderr);
            let why = if file == large.to_str().unwrap() { "larger than the" } else { "not a regular file" };
            assert!(!output.status.success(), "{args:?} succeeded: {stderr}");
            assert!(stderr.contains(what) && stderr.contains(file) && stderr.contains(why), "{args:?}: {stderr}");
        }
    }
}

/// L7: under --require-signatures, the command line's --verify-key is a
/// floor. A component's own `verify` in mcp-wit.toml (whoever can edit the
/// file) adds a requirement, and cannot replace the flag's: a component
/// signed only by the file's key is refused; signed by both, it is served.
#[test]
fn a_components_own_verify_section_cannot_lower_the_command_lines_requirement() {
    let registry = LocalRegistry::start();
    let host = registry.host.clone();
    let insecure = ["--insecure-registry", host.as_str()];
    let dir = tempfile::tempdir().unwrap();
    let (operator_key, operator_pub) = key_pair(dir.path(), "operator");
    let (mallory_key, _) = key_pair(dir.path(), "mallory");
    let mut client = Client::new();
    client.env.push(("COSIGN_PASSWORD".into(), "pw".into()));
    let tag = registry.reference("tools/echo:1");
    let echo = support::fixture_arg("echo");
    let pinned = client.ok(&[&["push", &echo, &tag][..], &insecure[..]].concat()).trim().to_owned();
    client.ok(&[&["sign", &tag, "--key", &mallory_key][..], &insecure[..]].concat());

    let config = dir.path().join("mcp-wit.toml");
    std::fs::write(
        &config,
        format!("[[component]]\npath = \"oci://{pinned}\"\nverify = {{ key = \"mallory.pub\" }}\n"),
    )
    .unwrap();
    let cache_dir = client.cache_dir().display().to_string();
    let serve = |client: &Client| {
        let floor = ["--require-signatures", "--verify-key", operator_pub.as_str()];
        let mut command = client.command(&["serve", "-f", config.to_str().unwrap(), "--cache-dir", &cache_dir]);
        command.args(floor).args(insecure);
        run_bounded(command)
    };
    let refused = serve(&client);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "served with only the file's key: {stderr}");
    assert!(stderr.contains("refused") && stderr.contains("operator.pub"), "{stderr}");

    // Signed by the operator's key too: both requirements hold, it serves
    // (stdio, whose input is closed at once: a clean end).
    client.ok(&[&["sign", &tag, "--key", &operator_key][..], &insecure[..]].concat());
    let served = serve(&client);
    let stderr = String::from_utf8_lossy(&served.stderr);
    assert!(served.status.success(), "{stderr}");
    assert!(stderr.contains("operator.pub") && stderr.contains("mallory.pub"), "both checked: {stderr}");
}

/// What a [`Hostile`] registry answers.
enum Answer {
    /// A status, headers and a body.
    Bytes(u16, Vec<(String, String)>, Vec<u8>),
    /// 200, then `bytes` of zeros, sent as they are read, with no length
    /// given (as long as the old code would read: the test's own bound).
    Endless(u64),
}

/// A registry written for the attack: answers each request as `answer`
/// says (given the method and path), and keeps every request's head
/// (its headers: who sent what credentials where).
struct Hostile {
    host: String,
    heads: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

type Answers = dyn Fn(&str, &str) -> Answer + Send + Sync;

impl Hostile {
    async fn start(answer: impl Fn(&str, &str) -> Answer + Send + Sync + 'static) -> Hostile {
        use tokio::io::AsyncWriteExt;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let host = listener.local_addr().unwrap().to_string();
        let heads = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let answer: std::sync::Arc<Answers> = std::sync::Arc::new(answer);
        let kept = heads.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let (answer, heads) = (answer.clone(), kept.clone());
                tokio::spawn(async move {
                    let Some(head) = read_request_head(&mut socket).await else { return };
                    heads.lock().unwrap().push(head.clone());
                    let mut words = head.split_whitespace();
                    let (method, target) = (words.next().unwrap_or_default(), words.next().unwrap_or_default());
                    let path = target.split('?').next().unwrap_or_default();
                    match answer(method, path) {
                        Answer::Bytes(status, headers, body) => {
                            let mut text = format!("HTTP/1.1 {status} X\r\ncontent-length: {}\r\n", body.len());
                            for (name, value) in headers {
                                text.push_str(&format!("{name}: {value}\r\n"));
                            }
                            text.push_str("connection: close\r\n\r\n");
                            let _ = socket.write_all(text.as_bytes()).await;
                            if method != "HEAD" {
                                let _ = socket.write_all(&body).await;
                            }
                        }
                        Answer::Endless(bytes) => {
                            let head = "HTTP/1.1 200 OK\r\ncontent-type: application/vnd.oci.image.manifest.v1+json\r\n\
                                        connection: close\r\n\r\n";
                            if socket.write_all(head.as_bytes()).await.is_err() {
                                return;
                            }
                            let chunk = vec![b' '; 64 << 10];
                            let mut sent = 0;
                            while sent < bytes && socket.write_all(&chunk).await.is_ok() {
                                sent += chunk.len() as u64;
                            }
                        }
                    }
                });
            }
        });
        Hostile { host, heads, task }
    }

    /// The request heads that carried an `Authorization` header.
    fn authorized(&self) -> Vec<String> {
        let heads = self.heads.lock().unwrap();
        heads.iter().filter(|head| head.to_ascii_lowercase().contains("\r\nauthorization:")).cloned().collect()
    }
}

impl Drop for Hostile {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The echo fixture as a registry serves it: its manifest's digest, and
/// each path of `/v2/REPOSITORY/…` (the tag `1`, its config and layer)
/// with its answer.
fn echo_artifact(repository: &str) -> (String, Vec<(String, Answer)>) {
    use mcp_wit_registry::layout::{Annotations, Artifact, sha256_digest};
    let wasm = std::fs::read(support::fixture("echo")).unwrap();
    let artifact = Artifact::new(&wasm, Some("2026-01-01T00:00:00Z".into()), &Annotations::default()).unwrap();
    let typed = |kind: &str| vec![("content-type".to_owned(), kind.to_owned())];
    let routes = vec![
        (
            format!("/v2/{repository}/manifests/1"),
            Answer::Bytes(200, typed("application/vnd.oci.image.manifest.v1+json"), artifact.manifest.clone()),
        ),
        (
            format!("/v2/{repository}/blobs/{}", sha256_digest(&artifact.config)),
            Answer::Bytes(200, typed("application/octet-stream"), artifact.config.clone()),
        ),
        (
            format!("/v2/{repository}/blobs/{}", artifact.layer_digest),
            Answer::Bytes(200, typed("application/octet-stream"), wasm),
        ),
    ];
    (sha256_digest(&artifact.manifest), routes)
}

/// An answer of `routes` (the first whose path is `path`), copied.
fn route(routes: &[(String, Answer)], path: &str) -> Option<Answer> {
    routes.iter().find(|(route, _)| route == path).map(|(_, answer)| match answer {
        Answer::Bytes(status, headers, body) => Answer::Bytes(*status, headers.clone(), body.clone()),
        Answer::Endless(bytes) => Answer::Endless(*bytes),
    })
}

fn not_found() -> Answer {
    Answer::Bytes(404, Vec::new(), br#"{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}"#.to_vec())
}

/// What the old code read whole from a hostile registry: a bound of the
/// test's own, far over every limit (the review saw 3.2 GB).
const ENDLESS: u64 = 256 << 20;

/// M1: what a registry sends is capped by what it is. An endless
/// manifest, an endless token answer, an endless error body: each read
/// stops at its limit, and the error says which and how much; nothing of
/// it reaches the message shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_read_from_a_registry_is_capped_by_what_it_is() {
    let hostile = Hostile::start(|_, path| match path {
        "/v2/" => Answer::Bytes(200, Vec::new(), b"{}".to_vec()),
        "/v2/tools/endless/manifests/1" => Answer::Endless(ENDLESS),
        "/v2/tools/large-error/manifests/1" => Answer::Bytes(400, Vec::new(), vec![b'e'; 32 << 20]),
        _ => not_found(),
    })
    .await;
    let tokens = Hostile::start(|_, path| match path {
        "/token" => Answer::Endless(ENDLESS),
        _ => not_found(),
    })
    .await;
    let client = Client::new();
    let inspect = |host: &str, repository: &str| {
        let reference = format!("oci://{host}/tools/{repository}:1");
        let output = run_bounded(client.command(&["inspect", &reference, "--insecure-registry", host]));
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(!output.status.success(), "{repository}: {stderr}");
        // Whatever the registry sent, the message is a few lines.
        assert!(stderr.len() < 4096, "{repository}: {} bytes of stderr", stderr.len());
        stderr
    };
    let endless = inspect(&hostile.host, "endless");
    assert!(endless.contains("more than 4194304 bytes, the most a manifest may have"), "{endless}");
    let large_error = inspect(&hostile.host, "large-error");
    assert!(large_error.contains("400"), "{large_error}");

    // A token service whose answer never ends.
    let bearer = Hostile::start({
        let realm = format!("http://{}/token", tokens.host);
        move |_, path| match path {
            "/v2/" => Answer::Bytes(
                401,
                vec![("www-authenticate".into(), format!("Bearer realm=\"{realm}\",service=\"x\""))],
                Vec::new(),
            ),
            _ => not_found(),
        }
    })
    .await;
    let token = inspect(&bearer.host, "echo");
    assert!(token.contains("the most a token answer may have"), "{token}");

    // Signatures: a layer declared as 300 bytes that never ends, and a
    // `.sig` manifest that never ends, each under a component that is
    // there.
    use mcp_wit_registry::layout::sha256_digest;
    let (digest, mut routes) = echo_artifact("tools/echo");
    let (_, more) = echo_artifact("tools/endless-sig");
    routes.extend(more);
    let sig_tag = format!("{}.sig", digest.replace(':', "-"));
    let config = b"{}".to_vec();
    let layer = "sha256:".to_owned() + &"a".repeat(64);
    let signatures = serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": { "mediaType": "application/vnd.oci.image.config.v1+json", "digest": sha256_digest(&config), "size": 2 },
        "layers": [{
            "mediaType": "application/vnd.dev.cosign.simplesigning.v1+json", "digest": layer, "size": 300,
            "annotations": { "dev.cosignproject.cosign/signature": "MEUCIQ==" },
        }],
    });
    let typed = vec![("content-type".to_owned(), "application/vnd.oci.image.manifest.v1+json".to_owned())];
    routes.push((
        format!("/v2/tools/echo/manifests/{sig_tag}"),
        Answer::Bytes(200, typed, signatures.to_string().into()),
    ));
    routes.push((format!("/v2/tools/echo/blobs/{}", sha256_digest(&config)), Answer::Bytes(200, Vec::new(), config)));
    routes.push((format!("/v2/tools/echo/blobs/{layer}"), Answer::Endless(ENDLESS)));
    routes.push((format!("/v2/tools/endless-sig/manifests/{sig_tag}"), Answer::Endless(ENDLESS)));
    let signed = Hostile::start(move |_, path| match path {
        "/v2/" => Answer::Bytes(200, Vec::new(), b"{}".to_vec()),
        _ => route(&routes, path).unwrap_or_else(not_found),
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let (_, public) = key_pair(dir.path(), "release");
    let verify = |repository: &str| {
        let reference = format!("oci://{}/tools/{repository}:1", signed.host);
        let args = ["verify", &reference, "--verify-key", &public, "--insecure-registry", &signed.host];
        let output = run_bounded(client.command(&args));
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(!output.status.success(), "{repository}: {stderr}");
        stderr
    };
    let layer = verify("echo");
    assert!(layer.contains("more than the 300 bytes the descriptor declares"), "{layer}");
    let manifest = verify("endless-sig");
    assert!(manifest.contains("the most a manifest may have"), "{manifest}");
}

/// M1, on a running server: a tag served from a registry that turns
/// hostile (its manifest never ends) is reloaded; the read is refused with
/// the limit, the server keeps serving what it served, and its memory does
/// not follow the registry's stream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_reloading_from_a_registry_gone_hostile_keeps_serving_within_bounds() {
    use support::http::HttpServer;
    let hostile_now = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (_, routes) = echo_artifact("tools/echo");
    let turned = hostile_now.clone();
    let registry = Hostile::start(move |_, path| {
        if path == "/v2/" {
            return Answer::Bytes(200, Vec::new(), b"{}".to_vec());
        }
        if turned.load(std::sync::atomic::Ordering::SeqCst) && path.contains("/manifests/") {
            return Answer::Endless(ENDLESS);
        }
        route(&routes, path).unwrap_or_else(not_found)
    })
    .await;
    let store = tempfile::tempdir().unwrap();
    let store_dir = store.path().display().to_string();
    let tag = format!("oci://{}/tools/echo:1", registry.host);
    let flags = ["--insecure-registry", registry.host.as_str(), "--cache-dir", store_dir.as_str(), "--json-response"];
    let server = HttpServer::start(&[&[tag.as_str()][..], &flags[..]].concat()).await;
    let echo = |server: &HttpServer| {
        let mut client = server.client();
        async move {
            client.initialize("2025-11-25").await;
            let reply = client
                .request(2, "tools/call", serde_json::json!({"name": "echo", "arguments": {"text": "still"}}))
                .await;
            reply["result"]["content"][0]["text"].as_str().map(str::to_owned)
        }
    };
    assert_eq!(echo(&server).await.as_deref(), Some("still"));
    let before = support::rss_bytes(server.pid());
    hostile_now.store(true, std::sync::atomic::Ordering::SeqCst);
    let pid = server.pid().to_string();
    assert!(Command::new("kill").args(["-HUP", &pid]).status().unwrap().success());
    let refused = "the most a manifest may have";
    let mut seen = false;
    for _ in 0..300 {
        if server.stderr.lock().unwrap().contains(refused) {
            seen = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(seen, "the reload's refusal is logged: {}", server.stderr.lock().unwrap());
    let after = support::rss_bytes(server.pid());
    assert!(after < before + (32 << 20), "RSS {before} -> {after} bytes while the registry streamed");
    assert_eq!(echo(&server).await.as_deref(), Some("still"), "the previous version is served");
    server.stop().await;
}

/// M2: credentials go to the registry they are for, and nowhere else: not
/// to a token service on another host (unless allowed by name), and not
/// to a third-party registry in the same mcp-wit.toml (credentials that
/// name no registry, with components from several, are refused with what
/// to do).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_reach_only_the_registry_they_are_for() {
    // A token service on another host (`localhost`, where the registry is
    // `127.0.0.1`) that hands out a token to anyone.
    let tokens = Hostile::start(|_, path| match path {
        "/token" => Answer::Bytes(200, Vec::new(), br#"{"token":"anonymous-token"}"#.to_vec()),
        _ => not_found(),
    })
    .await;
    let port = tokens.host.rsplit_once(':').unwrap().1.to_owned();
    let (_, routes) = echo_artifact("tools/echo");
    let realm = format!("http://localhost:{port}/token");
    let registry = Hostile::start(move |_, path| match path {
        "/v2/" => Answer::Bytes(
            401,
            vec![("www-authenticate".into(), format!("Bearer realm=\"{realm}\",service=\"registry\""))],
            Vec::new(),
        ),
        _ => route(&routes, path).unwrap_or_else(not_found),
    })
    .await;
    let tag = format!("oci://{}/tools/echo:1", registry.host);
    let pull = |client: &Client, extra: &[&str]| {
        let mut command = client.command(&["pull", &tag, "--insecure-registry", &registry.host]);
        command.args(extra);
        let output = run_bounded(command);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let secret = "ci:s3cret-token";
    let encoded = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(secret)
    };
    let mut client = Client::new();
    client.env.push(("MCP_WIT_REGISTRY_AUTH".into(), secret.into()));
    let stderr = pull(&client, &[]);
    assert!(tokens.authorized().is_empty(), "the token service got: {:?}", tokens.authorized());
    assert!(stderr.contains("--registry-token-host localhost"), "{stderr}");
    // The Docker config's credentials alike.
    let docker = tempfile::tempdir().unwrap();
    let config = serde_json::json!({ "auths": { registry.host.as_str(): { "auth": encoded } } });
    std::fs::write(docker.path().join("config.json"), config.to_string()).unwrap();
    let mut from_docker = Client::new();
    from_docker.env.push(("DOCKER_CONFIG".into(), docker.path().display().to_string()));
    pull(&from_docker, &[]);
    assert!(tokens.authorized().is_empty(), "the token service got: {:?}", tokens.authorized());
    // Allowed by name: then it gets them (a loopback host: plain HTTP is
    // allowed on this machine).
    pull(&Client::new(), &["--registry-auth", secret, "--registry-token-host", "localhost"]);
    let sent = tokens.authorized();
    assert!(sent.len() == 1 && sent[0].contains(&encoded), "{sent:?}");
    // The registry itself only ever saw the token.
    assert!(registry.authorized().iter().all(|head| head.contains("Bearer anonymous-token")));

    // A private registry and a third party's in one mcp-wit.toml; the
    // third party asks for credentials too (HTTP basic).
    let private = LocalRegistry::with_login("ci", "s3cret-token");
    let publisher = Client::new();
    let echo = support::fixture_arg("echo");
    let private_tag = private.reference("private/echo:1");
    let login = format!("{}={secret}", private.host);
    publisher.ok(&["push", &echo, &private_tag, "--insecure-registry", &private.host, "--registry-auth", &login]);
    let (_, routes) = echo_artifact("tools/echo");
    let third_party = Hostile::start(move |_, path| match path {
        "/v2/" => Answer::Bytes(401, vec![("www-authenticate".into(), "Basic realm=\"x\"".into())], Vec::new()),
        _ => route(&routes, path).unwrap_or_else(not_found),
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mcp-wit.toml");
    let third_tag = format!("oci://{}/tools/echo:1", third_party.host);
    std::fs::write(
        &file,
        format!("[[component]]\npath = {private_tag:?}\nname = \"mine\"\n[[component]]\npath = {third_tag:?}\nname = \"theirs\"\n"),
    )
    .unwrap();
    let serve = |client: &Client| {
        let mut command = client.command(&["serve", "-f", file.to_str().unwrap()]);
        command.args(["--insecure-registry", &private.host, "--insecure-registry", &third_party.host]);
        run_bounded(command)
    };
    let unscoped = serve(&client);
    let stderr = String::from_utf8_lossy(&unscoped.stderr);
    assert!(!unscoped.status.success() && stderr.contains("REGISTRY=USER:PASSWORD"), "{stderr}");
    assert!(third_party.authorized().is_empty(), "{:?}", third_party.authorized());
    let mut scoped = Client::new();
    scoped.env.push(("MCP_WIT_REGISTRY_AUTH".into(), login.clone()));
    let served = serve(&scoped);
    assert!(served.status.success(), "{}", String::from_utf8_lossy(&served.stderr));
    assert!(third_party.authorized().is_empty(), "the third party got: {:?}", third_party.authorized());
}

/// M3: `sign --key` adds its signature to the `.sig` manifest and keeps
/// every one already there: a keyless signature (its certificate and log
/// bundle) still verifies by its identity after a key signs too.
#[test]
fn signing_with_a_key_keeps_the_keyless_signatures_already_there() {
    let registry = LocalRegistry::start();
    let host = registry.host.clone();
    let insecure = ["--insecure-registry", host.as_str()];
    let dir = tempfile::tempdir().unwrap();
    let mut client = Client::new();
    let tag = registry.reference("tools/echo:1");
    let echo = support::fixture_arg("echo");
    let pinned = client.ok(&[&["push", &echo, &tag][..], &insecure[..]].concat()).trim().to_owned();
    let identity = "https://github.com/example/echo/.github/workflows/release.yml@refs/tags/v1";
    let issuer = "https://token.actions.githubusercontent.com";
    let (name, digest) = pinned.split_once('@').unwrap();
    let (_, repository) = name.split_once('/').unwrap();
    let out = dir.path().join("keyless");
    let script = support::peers::scripts().join("cosign_keyless.py");
    let made = Command::new(support::peers::python())
        .arg(script)
        .args([&host, repository, digest, identity, issuer, out.to_str().unwrap(), "good"])
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let root = out.join("trusted_root.json").display().to_string();
    let keyless = ["--verify-identity", identity, "--verify-issuer", issuer, "--trust-root", root.as_str()];
    client.ok(&[&["verify", &tag][..], &keyless[..], &insecure[..]].concat());

    let (key, public) = key_pair(dir.path(), "release");
    client.env.push(("COSIGN_PASSWORD".into(), "pw".into()));
    client.ok(&[&["sign", &tag, "--key", &key][..], &insecure[..]].concat());
    let by_identity = client.ok(&[&["verify", &tag][..], &keyless[..], &insecure[..]].concat());
    assert!(by_identity.contains("verified: a keyless signature"), "{by_identity}");
    let by_key = client.ok(&[&["verify", &tag, "--verify-key", &public][..], &insecure[..]].concat());
    assert!(by_key.contains("verified: a signature by the key"), "{by_key}");
    let listed = client.ok(&[&["verify", &tag, "--trust-root", &root][..], &insecure[..]].concat());
    assert!(listed.contains("2 signature(s)") && listed.contains("in a transparency log"), "{listed}");
    // Signing again adds a third; both earlier ones stay.
    client.ok(&[&["sign", &tag, "--key", &key][..], &insecure[..]].concat());
    let listed = client.ok(&[&["verify", &tag, "--trust-root", &root][..], &insecure[..]].concat());
    assert!(listed.contains("3 signature(s)") && listed.contains(&format!("keyless: {identity}")), "{listed}");
}
