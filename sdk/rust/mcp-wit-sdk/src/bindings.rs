//! The WIT bindings, generated from `wit/` (byte-for-byte copies of mcp-wit's
//! contract and extension).
//!
//! One world is compiled in, chosen by the `extension` feature: wit-bindgen
//! names each interface's export glue after the interface, so two worlds that
//! both export `wasix:mcp/router` cannot live in one crate. Imports the
//! component never calls (`client` and `caller` when no handler reaches the
//! client) are left out of the component when it is built.

#[cfg(feature = "extension")]
wit_bindgen::generate!({
    path: "wit",
    world: "mcp-wit:extension/router",
    pub_export_macro: true,
    export_macro_name: "__export_world",
    default_bindings_module: "::mcp_wit_sdk::bindings",
    runtime_path: "::mcp_wit_sdk::__private::wit_bindgen::rt",
    additional_derives: [PartialEq],
});

#[cfg(not(feature = "extension"))]
wit_bindgen::generate!({
    path: "wit",
    world: "mcp-wit:extension/talking-router",
    pub_export_macro: true,
    export_macro_name: "__export_world",
    default_bindings_module: "::mcp_wit_sdk::bindings",
    runtime_path: "::mcp_wit_sdk::__private::wit_bindgen::rt",
    additional_derives: [PartialEq],
});
