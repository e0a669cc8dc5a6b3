//! Middlewares composed in front of a router on disk, as repeated
//! `wac plug` runs leave them, for `mcp-wit serve`.

use std::path::PathBuf;

use super::fixture;

/// A composed component on disk, as `composed.wasm` (its file stem is the
/// label the host gives guest output), removed when dropped.
pub struct Composed {
    pub path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Composed {
    /// The path, as a command-line argument.
    pub fn path(&self) -> &str {
        self.path.to_str().expect("a temporary path is UTF-8")
    }
}

/// The fixtures `middlewares` in front of the fixture `router`, outermost
/// first: `["filter", "namespace"]` gives filter → namespace → router, as
/// two `wac plug` runs do (namespace onto the router first, then filter
/// onto that).
pub fn compose(middlewares: &[&str], router: &str) -> Composed {
    let mut bytes = std::fs::read(fixture(router)).unwrap();
    for middleware in middlewares.iter().rev() {
        bytes = super::plug(&std::fs::read(fixture(middleware)).unwrap(), &bytes);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("composed.wasm");
    std::fs::write(&path, bytes).unwrap();
    Composed { path, _dir: dir }
}

/// [`super::plug`], with wac-graph's error as text when the plug does not
/// fit the socket: what `wac plug` would print.
pub fn try_plug(socket: &[u8], plug: &[u8]) -> Result<Vec<u8>, String> {
    use wac_graph::types::Package;
    let mut graph = wac_graph::CompositionGraph::new();
    let socket = Package::from_bytes("mcp-wit:socket", None, socket, graph.types_mut()).map_err(|e| e.to_string())?;
    let socket = graph.register_package(socket).map_err(|e| e.to_string())?;
    let plug = Package::from_bytes("mcp-wit:plug", None, plug, graph.types_mut()).map_err(|e| e.to_string())?;
    let plug = graph.register_package(plug).map_err(|e| e.to_string())?;
    wac_graph::plug(&mut graph, vec![plug], socket).map_err(|e| e.to_string())?;
    graph.encode(wac_graph::EncodeOptions::default()).map_err(|e| e.to_string())
}
