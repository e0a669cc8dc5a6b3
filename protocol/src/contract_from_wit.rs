//! The one list of the contract's WIT types and their fields, and how they
//! become [`crate::contract`]'s, for every binding generator (wasmtime's
//! `bindgen!` in the native host, wit-bindgen in components): all name the
//! types and fields as the WIT does, so one field-for-field list serves all.

/// Calls `$callback!` with every type of `wasix:mcp/router@25.3.26` that
/// carries data: `@records` (`Name { field, … }`, then `+ { field, … }` for
/// the fields only [`crate::contract`]'s type has, which a 25.3.26 router
/// leaves empty), `@variants` (cases with one payload each) and `@enums`
/// (cases without). For conversions between two bindings of the contract,
/// field for field: a field or case the list misses fails the build of
/// whoever converts.
#[macro_export]
macro_rules! contract_types {
    ($callback:path) => {
        $callback! { @records
            Value { json }
            Annotations { audience, priority, timestamp }
            ConfigDescriptor { name, description, required }
            SecretDescriptor { name, description, required }
            MetaEntry { key, value }
            ToolAnnotations { read_only, destructive, streaming, experimental } + { idempotent, open_world }
            ToolMeta { output_hint, config, secrets, config_meta, extra }
            Tool { name, description, input_schema, output_schema, annotations, meta } + { title, meta_object, icons }
            PromptsCapability { list_changed }
            ResourcesCapability { subscribe, list_changed }
            ToolsCapability { list_changed }
            CompletionsCapability { enabled }
            ServerCapabilities { prompts, resources, tools, completions }
            ProgressNotification { progress, message, annotations }
            CallToolResult { content, progress, meta, is_error } + { structured_content, meta_object }
            TextContent { text, annotations }
            ImageContent { data, mime_type, annotations }
            AudioContent { data, mime_type, annotations }
            EmbeddedResource { resource_contents, annotations }
            McpResource { uri, name, description, mime_type, annotations } + { title, meta_object, icons }
            TextResourceContents { uri, mime_type, text } + { meta_object }
            BlobResourceContents { uri, mime_type, blob } + { meta_object }
            ReadResourceResult { contents }
            Prompt { name, description, arguments } + { title, icons }
            PromptArgument { name, description, required } + { title }
            GetPromptResult { description, messages }
            PromptMessage { role, content }
            CompletionRequest { input, streaming, meta }
            CompletionResponse { content, meta, is_error }
        }
        $callback! { @variants
            Content { Text, Image, Audio, Embedded }
            ResourceContents { Text, Blob }
            ToolError { InvalidParameters, ExecutionError, SchemaError, NotFound }
            ResourceError { ExecutionError, NotFound }
            PromptError { InvalidParameters, InternalError, NotFound }
            CompletionError { InvalidParameters, ExecutionError, SchemaError, NotFound }
            PromptMessageContent { Text, Image, McpResource }
        }
        $callback! { @enums
            Role { User, Assistant }
            PromptMessageRole { User, Assistant }
        }
    };
}

/// Defines, in the calling module, `trait IntoContract<T> { fn
/// into_contract(self) -> T; }` and implements it for every type of
/// `wasix:mcp/router@25.3.26`, from the module the caller has in scope as
/// `wit` to [`crate::contract`], moving every string and list (no text is
/// copied). Also `completion_request`, the one record a router takes besides
/// plain text, the other way.
///
/// A field or case missing on either side fails the caller's build, so a
/// change of the contract that this list does not follow cannot compile.
///
/// `contract_from_wit!(@trait)` defines the trait and its impls for options,
/// lists and results only, for a caller that binds no 25.3.26 types.
#[macro_export]
macro_rules! contract_from_wit {
    () => {
        $crate::contract_from_wit!(@trait);
        $crate::contract_types!($crate::contract_from_wit);

        /// A completion request as the router takes it.
        pub(crate) fn completion_request(request: &$crate::contract::CompletionRequest) -> wit::CompletionRequest {
            let meta = |entries: &Vec<$crate::contract::MetaEntry>| {
                entries.iter().map(|e| wit::MetaEntry { key: e.key.clone(), value: e.value.clone() }).collect()
            };
            wit::CompletionRequest {
                input: wit::Value { json: request.input.json.clone() },
                streaming: request.streaming,
                meta: request.meta.as_ref().map(meta),
            }
        }
    };
    // The trait and its impls for plain values, options, lists and results,
    // without any contract's types: what [`crate::contract_from_wit_25_6_18`]
    // builds on where 25.3.26 is not bound.
    (@trait) => {
        /// A router's value as the protocol core's type.
        pub(crate) trait IntoContract<T> {
            fn into_contract(self) -> T;
        }

        $crate::contract_from_wit!(@same String, bool, f32, ());

        impl<A: IntoContract<B>, B> IntoContract<Option<B>> for Option<A> {
            fn into_contract(self) -> Option<B> {
                self.map(IntoContract::into_contract)
            }
        }

        impl<A: IntoContract<B>, B> IntoContract<Vec<B>> for Vec<A> {
            fn into_contract(self) -> Vec<B> {
                self.into_iter().map(IntoContract::into_contract).collect()
            }
        }

        impl<A: IntoContract<B>, B, E: IntoContract<F>, F> IntoContract<Result<B, F>> for Result<A, E> {
            fn into_contract(self) -> Result<B, F> {
                self.map(IntoContract::into_contract).map_err(IntoContract::into_contract)
            }
        }

    };
    (@same $($ty:ty),*) => {$(
        impl IntoContract<$ty> for $ty {
            fn into_contract(self) -> $ty {
                self
            }
        }
    )*};
    (@records $($name:ident { $($field:ident),* $(,)? } $(+ { $($beyond:ident),* })?)*) => {$(
        impl IntoContract<$crate::contract::$name> for wit::$name {
            fn into_contract(self) -> $crate::contract::$name {
                $crate::contract::$name {
                    $($field: self.$field.into_contract(),)*
                    $($($beyond: Default::default(),)*)?
                }
            }
        }
    )*};
    (@variants $($name:ident { $($case:ident),* $(,)? })*) => {$(
        impl IntoContract<$crate::contract::$name> for wit::$name {
            fn into_contract(self) -> $crate::contract::$name {
                match self { $(wit::$name::$case(payload) => $crate::contract::$name::$case(payload.into_contract())),* }
            }
        }
    )*};
    (@enums $($name:ident { $($case:ident),* $(,)? })*) => {$(
        impl IntoContract<$crate::contract::$name> for wit::$name {
            fn into_contract(self) -> $crate::contract::$name {
                match self { $(wit::$name::$case => $crate::contract::$name::$case),* }
            }
        }
    )*};
}
