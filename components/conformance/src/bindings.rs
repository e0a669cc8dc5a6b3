//! The world's types and exports, generated from the WIT files.

wit_bindgen::generate!({
    path: "../../wit",
    world: "mcp-wit:extension/router",
});
