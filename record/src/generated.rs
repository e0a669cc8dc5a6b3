pub use root::*;

const _: () = ::planus::check_version_compatibility("planus-1.3.0");

/// The root namespace
///
/// Generated from these locations:
/// * File `record/schema/mcp.fbs`
#[no_implicit_prelude]
#[allow(clippy::needless_lifetimes)]
mod root {
    /// The namespace `mcp`
    ///
    /// Generated from these locations:
    /// * File `record/schema/mcp.fbs`
    pub mod mcp {
        /// The namespace `mcp.fb`
        ///
        /// Generated from these locations:
        /// * File `record/schema/mcp.fbs`
        pub mod fb {
            ///  The sender or recipient of messages and data in a conversation.
            ///
            /// Generated from these locations:
            /// * Enum `Role` in the file `record/schema/mcp.fbs:30`
            #[derive(
                Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ::serde::Serialize, ::serde::Deserialize,
            )]
            #[repr(i8)]
            pub enum Role {
                /// The variant `User` in the enum `Role`
                User = 0,

                /// The variant `Assistant` in the enum `Role`
                Assistant = 1,
            }

            impl Role {
                /// Array containing all valid variants of Role
                pub const ENUM_VALUES: [Self; 2] = [Self::User, Self::Assistant];
            }

            impl ::core::convert::TryFrom<i8> for Role {
                type Error = ::planus::errors::UnknownEnumTagKind;
                #[inline]
                fn try_from(value: i8) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTagKind> {
                    #[allow(clippy::match_single_binding)]
                    match value {
                        0 => ::core::result::Result::Ok(Role::User),
                        1 => ::core::result::Result::Ok(Role::Assistant),

                        _ => ::core::result::Result::Err(::planus::errors::UnknownEnumTagKind { tag: value as i128 }),
                    }
                }
            }

            impl ::core::convert::From<Role> for i8 {
                #[inline]
                fn from(value: Role) -> Self {
                    value as i8
                }
            }

            /// # Safety
            /// The Planus compiler correctly calculates `ALIGNMENT` and `SIZE`.
            unsafe impl ::planus::Primitive for Role {
                const ALIGNMENT: usize = 1;
                const SIZE: usize = 1;
            }

            impl ::planus::WriteAsPrimitive<Role> for Role {
                #[inline]
                fn write<const N: usize>(&self, cursor: ::planus::Cursor<'_, N>, buffer_position: u32) {
                    (*self as i8).write(cursor, buffer_position);
                }
            }

            impl ::planus::WriteAs<Role> for Role {
                type Prepared = Self;

                #[inline]
                fn prepare(&self, _builder: &mut ::planus::Builder) -> Role {
                    *self
                }
            }

            impl ::planus::WriteAsDefault<Role, Role> for Role {
                type Prepared = Self;

                #[inline]
                fn prepare(&self, _builder: &mut ::planus::Builder, default: &Role) -> ::core::option::Option<Role> {
                    if self == default {
                        ::core::option::Option::None
                    } else {
                        ::core::option::Option::Some(*self)
                    }
                }
            }

            impl ::planus::WriteAsOptional<Role> for Role {
                type Prepared = Self;

                #[inline]
                fn prepare(&self, _builder: &mut ::planus::Builder) -> ::core::option::Option<Role> {
                    ::core::option::Option::Some(*self)
                }
            }

            impl<'buf> ::planus::TableRead<'buf> for Role {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'buf>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    let n: i8 = ::planus::TableRead::from_buffer(buffer, offset)?;
                    ::core::result::Result::Ok(::core::convert::TryInto::try_into(n)?)
                }
            }

            impl<'buf> ::planus::VectorReadInner<'buf> for Role {
                type Error = ::planus::errors::UnknownEnumTag;
                const STRIDE: usize = 1;
                #[inline]
                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'buf>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTag> {
                    let value = unsafe { *buffer.buffer.get_unchecked(offset) as i8 };
                    let value: ::core::result::Result<Self, _> = ::core::convert::TryInto::try_into(value);
                    value.map_err(|error_kind| {
                        error_kind.with_error_location("Role", "VectorRead::from_buffer", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<Role> for Role {
                const STRIDE: usize = 1;

                type Value = Self;

                #[inline]
                fn prepare(&self, _builder: &mut ::planus::Builder) -> Self {
                    *self
                }

                #[inline]
                unsafe fn write_values(
                    values: &[Self],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 1];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - i as u32,
                        );
                    }
                }
            }

            ///  The severity of a log message, mapping to syslog message severities (RFC-5424)
            ///
            /// Generated from these locations:
            /// * Enum `LoggingLevel` in the file `record/schema/mcp.fbs:35`
            #[derive(
                Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ::serde::Serialize, ::serde::Deserialize,
            )]
            #[repr(i8)]
            pub enum LoggingLevel {
                /// The variant `Debug` in the enum `LoggingLevel`
                Debug = 0,

                /// The variant `Info` in the enum `LoggingLevel`
                Info = 1,

                /// The variant `Notice` in the enum `LoggingLevel`
                Notice = 2,

                /// The variant `Warning` in the enum `LoggingLevel`
                Warning = 3,

                /// The variant `Error` in the enum `LoggingLevel`
                Error = 4,

                /// The variant `Critical` in the enum `LoggingLevel`
                Critical = 5,

                /// The variant `Alert` in the enum `LoggingLevel`
                Alert = 6,

                /// The variant `Emergency` in the enum `LoggingLevel`
                Emergency = 7,
            }

            impl LoggingLevel {
                /// Array containing all valid variants of LoggingLevel
                pub const ENUM_VALUES: [Self; 8] = [
                    Self::Debug,
                    Self::Info,
                    Self::Notice,
                    Self::Warning,
                    Self::Error,
                    Self::Critical,
                    Self::Alert,
                    Self::Emergency,
                ];
            }

            impl ::core::convert::TryFrom<i8> for LoggingLevel {
                type Error = ::planus::errors::UnknownEnumTagKind;
                #[inline]
                fn try_from(value: i8) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTagKind> {
                    #[allow(clippy::match_single_binding)]
                    match value {
                        0 => ::core::result::Result::Ok(LoggingLevel::Debug),
                        1 => ::core::result::Result::Ok(LoggingLevel::Info),
                        2 => ::core::result::Result::Ok(LoggingLevel::Notice),
                        3 => ::core::result::Result::Ok(LoggingLevel::Warning),
                        4 => ::core::result::Result::Ok(LoggingLevel::Error),
                        5 => ::core::result::Result::Ok(LoggingLevel::Critical),
                        6 => ::core::result::Result::Ok(LoggingLevel::Alert),
                        7 => ::core::result::Result::Ok(LoggingLevel::Emergency),

                        _ => ::core::result::Result::Err(::planus::errors::UnknownEnumTagKind { tag: value as i128 }),
                    }
                }
            }

            impl ::core::convert::From<LoggingLevel> for i8 {
                #[inline]
                fn from(value: LoggingLevel) -> Self {
                    value as i8
                }
            }

            /// # Safety
            /// The Planus compiler correctly calculates `ALIGNMENT` and `SIZE`.
            unsafe impl ::planus::Primitive for LoggingLevel {
                const ALIGNMENT: usize = 1;
                const SIZE: usize = 1;
            }

            impl ::planus::WriteAsPrimitive<LoggingLevel> for LoggingLevel {
                #[inline]
                fn write<const N: usize>(&self, cursor: ::planus::Cursor<'_, N>, buffer_position: u32) {
                    (*self as i8).write(cursor, buffer_position);
                }
            }

            impl ::planus::WriteAs<LoggingLevel> for LoggingLevel {
                type Prepared = Self;

                #[inline]
                fn prepare(&self, _builder: &mut ::planus::Builder) -> LoggingLevel {
                    *self
                }
            }

            impl ::planus::WriteAsDefault<LoggingLevel, LoggingLevel> for LoggingLevel {
                type Prepared = Self;

                #[inline]
                fn prepare(
                    &self,
                    _builder: &mut ::planus::Builder,
                    default: &LoggingLevel,
                ) -> ::core::option::Option<LoggingLevel> {
                    if self == default {
                        ::core::option::Option::None
                    } else {
                        ::core::option::Option::Some(*self)
                    }
                }
            }

            impl ::planus::WriteAsOptional<LoggingLevel> for LoggingLevel {
                type Prepared = Self;

                #[inline]
                fn prepare(&self, _builder: &mut ::planus::Builder) -> ::core::option::Option<LoggingLevel> {
                    ::core::option::Option::Some(*self)
                }
            }

            impl<'buf> ::planus::TableRead<'buf> for LoggingLevel {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'buf>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    let n: i8 = ::planus::TableRead::from_buffer(buffer, offset)?;
                    ::core::result::Result::Ok(::core::convert::TryInto::try_into(n)?)
                }
            }

            impl<'buf> ::planus::VectorReadInner<'buf> for LoggingLevel {
                type Error = ::planus::errors::UnknownEnumTag;
                const STRIDE: usize = 1;
                #[inline]
                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'buf>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTag> {
                    let value = unsafe { *buffer.buffer.get_unchecked(offset) as i8 };
                    let value: ::core::result::Result<Self, _> = ::core::convert::TryInto::try_into(value);
                    value.map_err(|error_kind| {
                        error_kind.with_error_location(
                            "LoggingLevel",
                            "VectorRead::from_buffer",
                            buffer.offset_from_start,
                        )
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<LoggingLevel> for LoggingLevel {
                const STRIDE: usize = 1;

                type Value = Self;

                #[inline]
                fn prepare(&self, _builder: &mut ::planus::Builder) -> Self {
                    *self
                }

                #[inline]
                unsafe fn write_values(
                    values: &[Self],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 1];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - i as u32,
                        );
                    }
                }
            }

            ///  A uniquely identifying ID for a request in JSON-RPC
            ///
            /// Generated from these locations:
            /// * Struct `RequestId` in the file `record/schema/mcp.fbs:46`
            #[derive(
                Copy,
                Clone,
                Debug,
                PartialEq,
                PartialOrd,
                Eq,
                Ord,
                Hash,
                Default,
                ::serde::Serialize,
                ::serde::Deserialize,
            )]
            pub struct RequestId {
                /// The field `id` in the struct `RequestId`
                pub id: u64,
            }

            /// # Safety
            /// The Planus compiler correctly calculates `ALIGNMENT` and `SIZE`.
            unsafe impl ::planus::Primitive for RequestId {
                const ALIGNMENT: usize = 8;
                const SIZE: usize = 8;
            }

            #[allow(clippy::identity_op)]
            impl ::planus::WriteAsPrimitive<RequestId> for RequestId {
                #[inline]
                fn write<const N: usize>(&self, cursor: ::planus::Cursor<'_, N>, buffer_position: u32) {
                    let (cur, cursor) = cursor.split::<8, 0>();
                    self.id.write(cur, buffer_position - 0);
                    cursor.finish([]);
                }
            }

            impl ::planus::WriteAsOffset<RequestId> for RequestId {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<RequestId> {
                    unsafe {
                        builder.write_with(8, 7, |buffer_position, bytes| {
                            let bytes = bytes.as_mut_ptr();

                            ::planus::WriteAsPrimitive::write(
                                self,
                                ::planus::Cursor::new(&mut *(bytes as *mut [::core::mem::MaybeUninit<u8>; 8])),
                                buffer_position,
                            );
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<RequestId> for RequestId {
                type Prepared = Self;
                #[inline]
                fn prepare(&self, _builder: &mut ::planus::Builder) -> Self {
                    *self
                }
            }

            impl ::planus::WriteAsOptional<RequestId> for RequestId {
                type Prepared = Self;
                #[inline]
                fn prepare(&self, _builder: &mut ::planus::Builder) -> ::core::option::Option<Self> {
                    ::core::option::Option::Some(*self)
                }
            }

            /// Reference to a deserialized [RequestId].
            #[derive(Copy, Clone)]
            pub struct RequestIdRef<'a>(::planus::ArrayWithStartOffset<'a, 8>);

            impl<'a> RequestIdRef<'a> {
                /// Getter for the [`id` field](RequestId#structfield.id).
                pub fn id(&self) -> u64 {
                    let buffer = self.0.advance_as_array::<8>(0).unwrap();

                    u64::from_le_bytes(*buffer.as_array())
                }
            }

            impl<'a> ::core::fmt::Debug for RequestIdRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("RequestIdRef");
                    f.field("id", &self.id());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::From<::planus::ArrayWithStartOffset<'a, 8>> for RequestIdRef<'a> {
                fn from(array: ::planus::ArrayWithStartOffset<'a, 8>) -> Self {
                    Self(array)
                }
            }

            impl<'a> ::core::convert::From<RequestIdRef<'a>> for RequestId {
                #[allow(unreachable_code)]
                fn from(value: RequestIdRef<'a>) -> Self {
                    Self { id: value.id() }
                }
            }

            impl<'a, 'b> ::core::cmp::PartialEq<RequestIdRef<'a>> for RequestIdRef<'b> {
                fn eq(&self, other: &RequestIdRef<'_>) -> bool {
                    self.id() == other.id()
                }
            }

            impl<'a> ::core::cmp::Eq for RequestIdRef<'a> {}
            impl<'a, 'b> ::core::cmp::PartialOrd<RequestIdRef<'a>> for RequestIdRef<'b> {
                fn partial_cmp(&self, other: &RequestIdRef<'_>) -> ::core::option::Option<::core::cmp::Ordering> {
                    ::core::option::Option::Some(::core::cmp::Ord::cmp(self, other))
                }
            }

            impl<'a> ::core::cmp::Ord for RequestIdRef<'a> {
                fn cmp(&self, other: &RequestIdRef<'_>) -> ::core::cmp::Ordering {
                    self.id().cmp(&other.id())
                }
            }

            impl<'a> ::core::hash::Hash for RequestIdRef<'a> {
                fn hash<H: ::core::hash::Hasher>(&self, state: &mut H) {
                    self.id().hash(state);
                }
            }

            impl<'a> ::planus::TableRead<'a> for RequestIdRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    let buffer = buffer.advance_as_array::<8>(offset)?;
                    ::core::result::Result::Ok(Self(buffer))
                }
            }

            impl<'a> ::planus::VectorRead<'a> for RequestIdRef<'a> {
                const STRIDE: usize = 8;

                #[inline]
                unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> Self {
                    Self(unsafe { buffer.unchecked_advance_as_array(offset) })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<RequestId> for RequestId {
                const STRIDE: usize = 8;

                type Value = RequestId;

                #[inline]
                fn prepare(&self, _builder: &mut ::planus::Builder) -> Self::Value {
                    *self
                }

                #[inline]
                unsafe fn write_values(
                    values: &[RequestId],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 8];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (8 * i) as u32,
                        );
                    }
                }
            }

            ///  Describes the name and version of an MCP implementation
            ///
            /// Generated from these locations:
            /// * Table `Implementation` in the file `record/schema/mcp.fbs:50`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Implementation {
                /// The field `name` in the table `Implementation`
                pub name: ::planus::alloc::string::String,
                /// The field `version` in the table `Implementation`
                pub version: ::planus::alloc::string::String,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Implementation {
                fn default() -> Self {
                    Self { name: ::core::default::Default::default(), version: ::core::default::Default::default() }
                }
            }

            impl Implementation {
                /// Creates a [ImplementationBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ImplementationBuilder<()> {
                    ImplementationBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_version: impl ::planus::WriteAs<::planus::Offset<str>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_name = field_name.prepare(builder);
                    let prepared_version = field_version.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    table_writer.write_entry::<::planus::Offset<str>>(1);

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_name);
                            object_writer.write::<_, _, 4>(&prepared_version);
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Implementation>> for Implementation {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Implementation> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Implementation>> for Implementation {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Implementation>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Implementation> for Implementation {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Implementation> {
                    Implementation::create(builder, &self.name, &self.version)
                }
            }

            /// Builder for serializing an instance of the [Implementation] type.
            ///
            /// Can be created using the [Implementation::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ImplementationBuilder<State>(State);

            impl ImplementationBuilder<()> {
                /// Setter for the [`name` field](Implementation#structfield.name).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn name<T0>(self, value: T0) -> ImplementationBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    ImplementationBuilder((value,))
                }
            }

            impl<T0> ImplementationBuilder<(T0,)> {
                /// Setter for the [`version` field](Implementation#structfield.version).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn version<T1>(self, value: T1) -> ImplementationBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    let (v0,) = self.0;
                    ImplementationBuilder((v0, value))
                }
            }

            impl<T0, T1> ImplementationBuilder<(T0, T1)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Implementation].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Implementation>
                where
                    Self: ::planus::WriteAsOffset<Implementation>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<str>>>
                ::planus::WriteAs<::planus::Offset<Implementation>> for ImplementationBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<Implementation>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Implementation> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<str>>>
                ::planus::WriteAsOptional<::planus::Offset<Implementation>> for ImplementationBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<Implementation>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Implementation>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<str>>>
                ::planus::WriteAsOffset<Implementation> for ImplementationBuilder<(T0, T1)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Implementation> {
                    let (v0, v1) = &self.0;
                    Implementation::create(builder, v0, v1)
                }
            }

            /// Reference to a deserialized [Implementation].
            #[derive(Copy, Clone)]
            pub struct ImplementationRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ImplementationRef<'a> {
                /// Getter for the [`name` field](Implementation#structfield.name).
                #[inline]
                pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "Implementation", "name")
                }

                /// Getter for the [`version` field](Implementation#structfield.version).
                #[inline]
                pub fn version(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(1, "Implementation", "version")
                }
            }

            impl<'a> ::core::fmt::Debug for ImplementationRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ImplementationRef");
                    f.field("name", &self.name());
                    f.field("version", &self.version());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ImplementationRef<'a>> for Implementation {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ImplementationRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        name: ::core::convert::Into::into(value.name()?),
                        version: ::core::convert::Into::into(value.version()?),
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ImplementationRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ImplementationRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ImplementationRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Implementation>> for Implementation {
                type Value = ::planus::Offset<Implementation>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Implementation>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ImplementationRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ImplementationRef]", "read_as_root", 0))
                }
            }

            ///  Capabilities a client may support. Known capabilities are defined here,
            ///  but this is not a closed set: any client can define its own additional capabilities
            ///
            /// Generated from these locations:
            /// * Table `ClientCapabilities` in the file `record/schema/mcp.fbs:56`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct ClientCapabilities {
                /// The field `experimental` in the table `ClientCapabilities`
                pub experimental: ::core::option::Option<::planus::alloc::vec::Vec<self::Capability>>,
                /// The field `roots` in the table `ClientCapabilities`
                pub roots: ::core::option::Option<::planus::alloc::boxed::Box<self::RootsCapability>>,
                /// The field `sampling` in the table `ClientCapabilities`
                pub sampling: ::core::option::Option<::planus::alloc::boxed::Box<self::SamplingCapability>>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for ClientCapabilities {
                fn default() -> Self {
                    Self {
                        experimental: ::core::default::Default::default(),
                        roots: ::core::default::Default::default(),
                        sampling: ::core::default::Default::default(),
                    }
                }
            }

            impl ClientCapabilities {
                /// Creates a [ClientCapabilitiesBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ClientCapabilitiesBuilder<()> {
                    ClientCapabilitiesBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_experimental: impl ::planus::WriteAsOptional<
                        ::planus::Offset<[::planus::Offset<self::Capability>]>,
                    >,
                    field_roots: impl ::planus::WriteAsOptional<::planus::Offset<self::RootsCapability>>,
                    field_sampling: impl ::planus::WriteAsOptional<::planus::Offset<self::SamplingCapability>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_experimental = field_experimental.prepare(builder);
                    let prepared_roots = field_roots.prepare(builder);
                    let prepared_sampling = field_sampling.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                    if prepared_experimental.is_some() {
                        table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::Capability>]>>(0);
                    }
                    if prepared_roots.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::RootsCapability>>(1);
                    }
                    if prepared_sampling.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::SamplingCapability>>(2);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            if let ::core::option::Option::Some(prepared_experimental) = prepared_experimental {
                                object_writer.write::<_, _, 4>(&prepared_experimental);
                            }
                            if let ::core::option::Option::Some(prepared_roots) = prepared_roots {
                                object_writer.write::<_, _, 4>(&prepared_roots);
                            }
                            if let ::core::option::Option::Some(prepared_sampling) = prepared_sampling {
                                object_writer.write::<_, _, 4>(&prepared_sampling);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<ClientCapabilities>> for ClientCapabilities {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ClientCapabilities> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<ClientCapabilities>> for ClientCapabilities {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ClientCapabilities>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<ClientCapabilities> for ClientCapabilities {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ClientCapabilities> {
                    ClientCapabilities::create(builder, &self.experimental, &self.roots, &self.sampling)
                }
            }

            /// Builder for serializing an instance of the [ClientCapabilities] type.
            ///
            /// Can be created using the [ClientCapabilities::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ClientCapabilitiesBuilder<State>(State);

            impl ClientCapabilitiesBuilder<()> {
                /// Setter for the [`experimental` field](ClientCapabilities#structfield.experimental).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn experimental<T0>(self, value: T0) -> ClientCapabilitiesBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Capability>]>>,
                {
                    ClientCapabilitiesBuilder((value,))
                }

                /// Sets the [`experimental` field](ClientCapabilities#structfield.experimental) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn experimental_as_null(self) -> ClientCapabilitiesBuilder<((),)> {
                    self.experimental(())
                }
            }

            impl<T0> ClientCapabilitiesBuilder<(T0,)> {
                /// Setter for the [`roots` field](ClientCapabilities#structfield.roots).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn roots<T1>(self, value: T1) -> ClientCapabilitiesBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsOptional<::planus::Offset<self::RootsCapability>>,
                {
                    let (v0,) = self.0;
                    ClientCapabilitiesBuilder((v0, value))
                }

                /// Sets the [`roots` field](ClientCapabilities#structfield.roots) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn roots_as_null(self) -> ClientCapabilitiesBuilder<(T0, ())> {
                    self.roots(())
                }
            }

            impl<T0, T1> ClientCapabilitiesBuilder<(T0, T1)> {
                /// Setter for the [`sampling` field](ClientCapabilities#structfield.sampling).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn sampling<T2>(self, value: T2) -> ClientCapabilitiesBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::SamplingCapability>>,
                {
                    let (v0, v1) = self.0;
                    ClientCapabilitiesBuilder((v0, v1, value))
                }

                /// Sets the [`sampling` field](ClientCapabilities#structfield.sampling) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn sampling_as_null(self) -> ClientCapabilitiesBuilder<(T0, T1, ())> {
                    self.sampling(())
                }
            }

            impl<T0, T1, T2> ClientCapabilitiesBuilder<(T0, T1, T2)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [ClientCapabilities].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<ClientCapabilities>
                where
                    Self: ::planus::WriteAsOffset<ClientCapabilities>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Capability>]>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<self::RootsCapability>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::SamplingCapability>>,
                > ::planus::WriteAs<::planus::Offset<ClientCapabilities>> for ClientCapabilitiesBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<ClientCapabilities>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ClientCapabilities> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Capability>]>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<self::RootsCapability>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::SamplingCapability>>,
                > ::planus::WriteAsOptional<::planus::Offset<ClientCapabilities>>
                for ClientCapabilitiesBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<ClientCapabilities>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ClientCapabilities>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Capability>]>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<self::RootsCapability>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::SamplingCapability>>,
                > ::planus::WriteAsOffset<ClientCapabilities> for ClientCapabilitiesBuilder<(T0, T1, T2)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ClientCapabilities> {
                    let (v0, v1, v2) = &self.0;
                    ClientCapabilities::create(builder, v0, v1, v2)
                }
            }

            /// Reference to a deserialized [ClientCapabilities].
            #[derive(Copy, Clone)]
            pub struct ClientCapabilitiesRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ClientCapabilitiesRef<'a> {
                /// Getter for the [`experimental` field](ClientCapabilities#structfield.experimental).
                #[inline]
                pub fn experimental(
                    &self,
                ) -> ::planus::Result<
                    ::core::option::Option<::planus::Vector<'a, ::planus::Result<self::CapabilityRef<'a>>>>,
                > {
                    self.0.access(0, "ClientCapabilities", "experimental")
                }

                /// Getter for the [`roots` field](ClientCapabilities#structfield.roots).
                #[inline]
                pub fn roots(&self) -> ::planus::Result<::core::option::Option<self::RootsCapabilityRef<'a>>> {
                    self.0.access(1, "ClientCapabilities", "roots")
                }

                /// Getter for the [`sampling` field](ClientCapabilities#structfield.sampling).
                #[inline]
                pub fn sampling(&self) -> ::planus::Result<::core::option::Option<self::SamplingCapabilityRef<'a>>> {
                    self.0.access(2, "ClientCapabilities", "sampling")
                }
            }

            impl<'a> ::core::fmt::Debug for ClientCapabilitiesRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ClientCapabilitiesRef");
                    if let ::core::option::Option::Some(field_experimental) = self.experimental().transpose() {
                        f.field("experimental", &field_experimental);
                    }
                    if let ::core::option::Option::Some(field_roots) = self.roots().transpose() {
                        f.field("roots", &field_roots);
                    }
                    if let ::core::option::Option::Some(field_sampling) = self.sampling().transpose() {
                        f.field("sampling", &field_sampling);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ClientCapabilitiesRef<'a>> for ClientCapabilities {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ClientCapabilitiesRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        experimental: if let ::core::option::Option::Some(experimental) = value.experimental()? {
                            ::core::option::Option::Some(experimental.to_vec_result()?)
                        } else {
                            ::core::option::Option::None
                        },
                        roots: if let ::core::option::Option::Some(roots) = value.roots()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(roots)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                        sampling: if let ::core::option::Option::Some(sampling) = value.sampling()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(sampling)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ClientCapabilitiesRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ClientCapabilitiesRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ClientCapabilitiesRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<ClientCapabilities>> for ClientCapabilities {
                type Value = ::planus::Offset<ClientCapabilities>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<ClientCapabilities>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ClientCapabilitiesRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ClientCapabilitiesRef]", "read_as_root", 0))
                }
            }

            ///  Capabilities that a server may support. Known capabilities are defined here,
            ///  but this is not a closed set: any server can define its own additional capabilities
            ///
            /// Generated from these locations:
            /// * Table `ServerCapabilities` in the file `record/schema/mcp.fbs:63`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct ServerCapabilities {
                /// The field `experimental` in the table `ServerCapabilities`
                pub experimental: ::core::option::Option<::planus::alloc::vec::Vec<self::Capability>>,
                /// The field `logging` in the table `ServerCapabilities`
                pub logging: bool,
                /// The field `prompts` in the table `ServerCapabilities`
                pub prompts: ::core::option::Option<::planus::alloc::boxed::Box<self::PromptsCapability>>,
                /// The field `resources` in the table `ServerCapabilities`
                pub resources: ::core::option::Option<::planus::alloc::boxed::Box<self::ResourcesCapability>>,
                /// The field `tools` in the table `ServerCapabilities`
                pub tools: ::core::option::Option<::planus::alloc::boxed::Box<self::ToolsCapability>>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for ServerCapabilities {
                fn default() -> Self {
                    Self {
                        experimental: ::core::default::Default::default(),
                        logging: false,
                        prompts: ::core::default::Default::default(),
                        resources: ::core::default::Default::default(),
                        tools: ::core::default::Default::default(),
                    }
                }
            }

            impl ServerCapabilities {
                /// Creates a [ServerCapabilitiesBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ServerCapabilitiesBuilder<()> {
                    ServerCapabilitiesBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_experimental: impl ::planus::WriteAsOptional<
                        ::planus::Offset<[::planus::Offset<self::Capability>]>,
                    >,
                    field_logging: impl ::planus::WriteAsDefault<bool, bool>,
                    field_prompts: impl ::planus::WriteAsOptional<::planus::Offset<self::PromptsCapability>>,
                    field_resources: impl ::planus::WriteAsOptional<::planus::Offset<self::ResourcesCapability>>,
                    field_tools: impl ::planus::WriteAsOptional<::planus::Offset<self::ToolsCapability>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_experimental = field_experimental.prepare(builder);
                    let prepared_logging = field_logging.prepare(builder, &false);
                    let prepared_prompts = field_prompts.prepare(builder);
                    let prepared_resources = field_resources.prepare(builder);
                    let prepared_tools = field_tools.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<14> = ::core::default::Default::default();
                    if prepared_experimental.is_some() {
                        table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::Capability>]>>(0);
                    }
                    if prepared_prompts.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::PromptsCapability>>(2);
                    }
                    if prepared_resources.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::ResourcesCapability>>(3);
                    }
                    if prepared_tools.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::ToolsCapability>>(4);
                    }
                    if prepared_logging.is_some() {
                        table_writer.write_entry::<bool>(1);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            if let ::core::option::Option::Some(prepared_experimental) = prepared_experimental {
                                object_writer.write::<_, _, 4>(&prepared_experimental);
                            }
                            if let ::core::option::Option::Some(prepared_prompts) = prepared_prompts {
                                object_writer.write::<_, _, 4>(&prepared_prompts);
                            }
                            if let ::core::option::Option::Some(prepared_resources) = prepared_resources {
                                object_writer.write::<_, _, 4>(&prepared_resources);
                            }
                            if let ::core::option::Option::Some(prepared_tools) = prepared_tools {
                                object_writer.write::<_, _, 4>(&prepared_tools);
                            }
                            if let ::core::option::Option::Some(prepared_logging) = prepared_logging {
                                object_writer.write::<_, _, 1>(&prepared_logging);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<ServerCapabilities>> for ServerCapabilities {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ServerCapabilities> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<ServerCapabilities>> for ServerCapabilities {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ServerCapabilities>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<ServerCapabilities> for ServerCapabilities {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ServerCapabilities> {
                    ServerCapabilities::create(
                        builder,
                        &self.experimental,
                        self.logging,
                        &self.prompts,
                        &self.resources,
                        &self.tools,
                    )
                }
            }

            /// Builder for serializing an instance of the [ServerCapabilities] type.
            ///
            /// Can be created using the [ServerCapabilities::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ServerCapabilitiesBuilder<State>(State);

            impl ServerCapabilitiesBuilder<()> {
                /// Setter for the [`experimental` field](ServerCapabilities#structfield.experimental).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn experimental<T0>(self, value: T0) -> ServerCapabilitiesBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Capability>]>>,
                {
                    ServerCapabilitiesBuilder((value,))
                }

                /// Sets the [`experimental` field](ServerCapabilities#structfield.experimental) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn experimental_as_null(self) -> ServerCapabilitiesBuilder<((),)> {
                    self.experimental(())
                }
            }

            impl<T0> ServerCapabilitiesBuilder<(T0,)> {
                /// Setter for the [`logging` field](ServerCapabilities#structfield.logging).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn logging<T1>(self, value: T1) -> ServerCapabilitiesBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsDefault<bool, bool>,
                {
                    let (v0,) = self.0;
                    ServerCapabilitiesBuilder((v0, value))
                }

                /// Sets the [`logging` field](ServerCapabilities#structfield.logging) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn logging_as_default(self) -> ServerCapabilitiesBuilder<(T0, ::planus::DefaultValue)> {
                    self.logging(::planus::DefaultValue)
                }
            }

            impl<T0, T1> ServerCapabilitiesBuilder<(T0, T1)> {
                /// Setter for the [`prompts` field](ServerCapabilities#structfield.prompts).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn prompts<T2>(self, value: T2) -> ServerCapabilitiesBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::PromptsCapability>>,
                {
                    let (v0, v1) = self.0;
                    ServerCapabilitiesBuilder((v0, v1, value))
                }

                /// Sets the [`prompts` field](ServerCapabilities#structfield.prompts) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn prompts_as_null(self) -> ServerCapabilitiesBuilder<(T0, T1, ())> {
                    self.prompts(())
                }
            }

            impl<T0, T1, T2> ServerCapabilitiesBuilder<(T0, T1, T2)> {
                /// Setter for the [`resources` field](ServerCapabilities#structfield.resources).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn resources<T3>(self, value: T3) -> ServerCapabilitiesBuilder<(T0, T1, T2, T3)>
                where
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::ResourcesCapability>>,
                {
                    let (v0, v1, v2) = self.0;
                    ServerCapabilitiesBuilder((v0, v1, v2, value))
                }

                /// Sets the [`resources` field](ServerCapabilities#structfield.resources) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn resources_as_null(self) -> ServerCapabilitiesBuilder<(T0, T1, T2, ())> {
                    self.resources(())
                }
            }

            impl<T0, T1, T2, T3> ServerCapabilitiesBuilder<(T0, T1, T2, T3)> {
                /// Setter for the [`tools` field](ServerCapabilities#structfield.tools).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn tools<T4>(self, value: T4) -> ServerCapabilitiesBuilder<(T0, T1, T2, T3, T4)>
                where
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::ToolsCapability>>,
                {
                    let (v0, v1, v2, v3) = self.0;
                    ServerCapabilitiesBuilder((v0, v1, v2, v3, value))
                }

                /// Sets the [`tools` field](ServerCapabilities#structfield.tools) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn tools_as_null(self) -> ServerCapabilitiesBuilder<(T0, T1, T2, T3, ())> {
                    self.tools(())
                }
            }

            impl<T0, T1, T2, T3, T4> ServerCapabilitiesBuilder<(T0, T1, T2, T3, T4)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [ServerCapabilities].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<ServerCapabilities>
                where
                    Self: ::planus::WriteAsOffset<ServerCapabilities>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Capability>]>>,
                    T1: ::planus::WriteAsDefault<bool, bool>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::PromptsCapability>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::ResourcesCapability>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::ToolsCapability>>,
                > ::planus::WriteAs<::planus::Offset<ServerCapabilities>>
                for ServerCapabilitiesBuilder<(T0, T1, T2, T3, T4)>
            {
                type Prepared = ::planus::Offset<ServerCapabilities>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ServerCapabilities> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Capability>]>>,
                    T1: ::planus::WriteAsDefault<bool, bool>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::PromptsCapability>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::ResourcesCapability>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::ToolsCapability>>,
                > ::planus::WriteAsOptional<::planus::Offset<ServerCapabilities>>
                for ServerCapabilitiesBuilder<(T0, T1, T2, T3, T4)>
            {
                type Prepared = ::planus::Offset<ServerCapabilities>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ServerCapabilities>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Capability>]>>,
                    T1: ::planus::WriteAsDefault<bool, bool>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::PromptsCapability>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::ResourcesCapability>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::ToolsCapability>>,
                > ::planus::WriteAsOffset<ServerCapabilities> for ServerCapabilitiesBuilder<(T0, T1, T2, T3, T4)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ServerCapabilities> {
                    let (v0, v1, v2, v3, v4) = &self.0;
                    ServerCapabilities::create(builder, v0, v1, v2, v3, v4)
                }
            }

            /// Reference to a deserialized [ServerCapabilities].
            #[derive(Copy, Clone)]
            pub struct ServerCapabilitiesRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ServerCapabilitiesRef<'a> {
                /// Getter for the [`experimental` field](ServerCapabilities#structfield.experimental).
                #[inline]
                pub fn experimental(
                    &self,
                ) -> ::planus::Result<
                    ::core::option::Option<::planus::Vector<'a, ::planus::Result<self::CapabilityRef<'a>>>>,
                > {
                    self.0.access(0, "ServerCapabilities", "experimental")
                }

                /// Getter for the [`logging` field](ServerCapabilities#structfield.logging).
                #[inline]
                pub fn logging(&self) -> ::planus::Result<bool> {
                    ::core::result::Result::Ok(self.0.access(1, "ServerCapabilities", "logging")?.unwrap_or(false))
                }

                /// Getter for the [`prompts` field](ServerCapabilities#structfield.prompts).
                #[inline]
                pub fn prompts(&self) -> ::planus::Result<::core::option::Option<self::PromptsCapabilityRef<'a>>> {
                    self.0.access(2, "ServerCapabilities", "prompts")
                }

                /// Getter for the [`resources` field](ServerCapabilities#structfield.resources).
                #[inline]
                pub fn resources(&self) -> ::planus::Result<::core::option::Option<self::ResourcesCapabilityRef<'a>>> {
                    self.0.access(3, "ServerCapabilities", "resources")
                }

                /// Getter for the [`tools` field](ServerCapabilities#structfield.tools).
                #[inline]
                pub fn tools(&self) -> ::planus::Result<::core::option::Option<self::ToolsCapabilityRef<'a>>> {
                    self.0.access(4, "ServerCapabilities", "tools")
                }
            }

            impl<'a> ::core::fmt::Debug for ServerCapabilitiesRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ServerCapabilitiesRef");
                    if let ::core::option::Option::Some(field_experimental) = self.experimental().transpose() {
                        f.field("experimental", &field_experimental);
                    }
                    f.field("logging", &self.logging());
                    if let ::core::option::Option::Some(field_prompts) = self.prompts().transpose() {
                        f.field("prompts", &field_prompts);
                    }
                    if let ::core::option::Option::Some(field_resources) = self.resources().transpose() {
                        f.field("resources", &field_resources);
                    }
                    if let ::core::option::Option::Some(field_tools) = self.tools().transpose() {
                        f.field("tools", &field_tools);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ServerCapabilitiesRef<'a>> for ServerCapabilities {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ServerCapabilitiesRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        experimental: if let ::core::option::Option::Some(experimental) = value.experimental()? {
                            ::core::option::Option::Some(experimental.to_vec_result()?)
                        } else {
                            ::core::option::Option::None
                        },
                        logging: ::core::convert::TryInto::try_into(value.logging()?)?,
                        prompts: if let ::core::option::Option::Some(prompts) = value.prompts()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(prompts)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                        resources: if let ::core::option::Option::Some(resources) = value.resources()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(resources)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                        tools: if let ::core::option::Option::Some(tools) = value.tools()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(tools)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ServerCapabilitiesRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ServerCapabilitiesRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ServerCapabilitiesRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<ServerCapabilities>> for ServerCapabilities {
                type Value = ::planus::Offset<ServerCapabilities>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<ServerCapabilities>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ServerCapabilitiesRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ServerCapabilitiesRef]", "read_as_root", 0))
                }
            }

            ///  A generic capability with name and value
            ///
            /// Generated from these locations:
            /// * Table `Capability` in the file `record/schema/mcp.fbs:71`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Capability {
                /// The field `name` in the table `Capability`
                pub name: ::planus::alloc::string::String,
                /// The field `value` in the table `Capability`
                pub value: ::core::option::Option<::planus::alloc::string::String>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Capability {
                fn default() -> Self {
                    Self { name: ::core::default::Default::default(), value: ::core::default::Default::default() }
                }
            }

            impl Capability {
                /// Creates a [CapabilityBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> CapabilityBuilder<()> {
                    CapabilityBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_value: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_name = field_name.prepare(builder);
                    let prepared_value = field_value.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    if prepared_value.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(1);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_name);
                            if let ::core::option::Option::Some(prepared_value) = prepared_value {
                                object_writer.write::<_, _, 4>(&prepared_value);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Capability>> for Capability {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Capability> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Capability>> for Capability {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Capability>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Capability> for Capability {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Capability> {
                    Capability::create(builder, &self.name, &self.value)
                }
            }

            /// Builder for serializing an instance of the [Capability] type.
            ///
            /// Can be created using the [Capability::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct CapabilityBuilder<State>(State);

            impl CapabilityBuilder<()> {
                /// Setter for the [`name` field](Capability#structfield.name).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn name<T0>(self, value: T0) -> CapabilityBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    CapabilityBuilder((value,))
                }
            }

            impl<T0> CapabilityBuilder<(T0,)> {
                /// Setter for the [`value` field](Capability#structfield.value).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn value<T1>(self, value: T1) -> CapabilityBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0,) = self.0;
                    CapabilityBuilder((v0, value))
                }

                /// Sets the [`value` field](Capability#structfield.value) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn value_as_null(self) -> CapabilityBuilder<(T0, ())> {
                    self.value(())
                }
            }

            impl<T0, T1> CapabilityBuilder<(T0, T1)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Capability].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Capability>
                where
                    Self: ::planus::WriteAsOffset<Capability>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAs<::planus::Offset<Capability>> for CapabilityBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<Capability>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Capability> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAsOptional<::planus::Offset<Capability>> for CapabilityBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<Capability>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Capability>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAsOffset<Capability> for CapabilityBuilder<(T0, T1)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Capability> {
                    let (v0, v1) = &self.0;
                    Capability::create(builder, v0, v1)
                }
            }

            /// Reference to a deserialized [Capability].
            #[derive(Copy, Clone)]
            pub struct CapabilityRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> CapabilityRef<'a> {
                /// Getter for the [`name` field](Capability#structfield.name).
                #[inline]
                pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "Capability", "name")
                }

                /// Getter for the [`value` field](Capability#structfield.value).
                #[inline]
                pub fn value(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(1, "Capability", "value")
                }
            }

            impl<'a> ::core::fmt::Debug for CapabilityRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("CapabilityRef");
                    f.field("name", &self.name());
                    if let ::core::option::Option::Some(field_value) = self.value().transpose() {
                        f.field("value", &field_value);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<CapabilityRef<'a>> for Capability {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: CapabilityRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        name: ::core::convert::Into::into(value.name()?),
                        value: value.value()?.map(::core::convert::Into::into),
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for CapabilityRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for CapabilityRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[CapabilityRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Capability>> for Capability {
                type Value = ::planus::Offset<Capability>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Capability>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for CapabilityRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[CapabilityRef]", "read_as_root", 0))
                }
            }

            ///  Support for roots functionality in clients
            ///
            /// Generated from these locations:
            /// * Table `RootsCapability` in the file `record/schema/mcp.fbs:76`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct RootsCapability {
                /// The field `list_changed` in the table `RootsCapability`
                pub list_changed: bool,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for RootsCapability {
                fn default() -> Self {
                    Self { list_changed: false }
                }
            }

            impl RootsCapability {
                /// Creates a [RootsCapabilityBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> RootsCapabilityBuilder<()> {
                    RootsCapabilityBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_list_changed: impl ::planus::WriteAsDefault<bool, bool>,
                ) -> ::planus::Offset<Self> {
                    let prepared_list_changed = field_list_changed.prepare(builder, &false);

                    let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                    if prepared_list_changed.is_some() {
                        table_writer.write_entry::<bool>(0);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            if let ::core::option::Option::Some(prepared_list_changed) = prepared_list_changed {
                                object_writer.write::<_, _, 1>(&prepared_list_changed);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<RootsCapability>> for RootsCapability {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<RootsCapability> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<RootsCapability>> for RootsCapability {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<RootsCapability>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<RootsCapability> for RootsCapability {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<RootsCapability> {
                    RootsCapability::create(builder, self.list_changed)
                }
            }

            /// Builder for serializing an instance of the [RootsCapability] type.
            ///
            /// Can be created using the [RootsCapability::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct RootsCapabilityBuilder<State>(State);

            impl RootsCapabilityBuilder<()> {
                /// Setter for the [`list_changed` field](RootsCapability#structfield.list_changed).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn list_changed<T0>(self, value: T0) -> RootsCapabilityBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsDefault<bool, bool>,
                {
                    RootsCapabilityBuilder((value,))
                }

                /// Sets the [`list_changed` field](RootsCapability#structfield.list_changed) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn list_changed_as_default(self) -> RootsCapabilityBuilder<(::planus::DefaultValue,)> {
                    self.list_changed(::planus::DefaultValue)
                }
            }

            impl<T0> RootsCapabilityBuilder<(T0,)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [RootsCapability].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<RootsCapability>
                where
                    Self: ::planus::WriteAsOffset<RootsCapability>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAsDefault<bool, bool>> ::planus::WriteAs<::planus::Offset<RootsCapability>>
                for RootsCapabilityBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<RootsCapability>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<RootsCapability> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAsDefault<bool, bool>> ::planus::WriteAsOptional<::planus::Offset<RootsCapability>>
                for RootsCapabilityBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<RootsCapability>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<RootsCapability>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAsDefault<bool, bool>> ::planus::WriteAsOffset<RootsCapability>
                for RootsCapabilityBuilder<(T0,)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<RootsCapability> {
                    let (v0,) = &self.0;
                    RootsCapability::create(builder, v0)
                }
            }

            /// Reference to a deserialized [RootsCapability].
            #[derive(Copy, Clone)]
            pub struct RootsCapabilityRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> RootsCapabilityRef<'a> {
                /// Getter for the [`list_changed` field](RootsCapability#structfield.list_changed).
                #[inline]
                pub fn list_changed(&self) -> ::planus::Result<bool> {
                    ::core::result::Result::Ok(self.0.access(0, "RootsCapability", "list_changed")?.unwrap_or(false))
                }
            }

            impl<'a> ::core::fmt::Debug for RootsCapabilityRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("RootsCapabilityRef");
                    f.field("list_changed", &self.list_changed());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<RootsCapabilityRef<'a>> for RootsCapability {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: RootsCapabilityRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        list_changed: ::core::convert::TryInto::try_into(value.list_changed()?)?,
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for RootsCapabilityRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for RootsCapabilityRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[RootsCapabilityRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<RootsCapability>> for RootsCapability {
                type Value = ::planus::Offset<RootsCapability>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<RootsCapability>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for RootsCapabilityRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[RootsCapabilityRef]", "read_as_root", 0))
                }
            }

            ///  Support for LLM sampling in clients
            ///
            /// Generated from these locations:
            /// * Table `SamplingCapability` in the file `record/schema/mcp.fbs:80`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct SamplingCapability {}

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for SamplingCapability {
                fn default() -> Self {
                    Self {}
                }
            }

            impl SamplingCapability {
                /// Creates a [SamplingCapabilityBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> SamplingCapabilityBuilder<()> {
                    SamplingCapabilityBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(builder: &mut ::planus::Builder) -> ::planus::Offset<Self> {
                    let table_writer: ::planus::table_writer::TableWriter<4> = ::core::default::Default::default();
                    unsafe {
                        table_writer.finish(builder, |_table_writer| {});
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<SamplingCapability>> for SamplingCapability {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<SamplingCapability> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<SamplingCapability>> for SamplingCapability {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<SamplingCapability>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<SamplingCapability> for SamplingCapability {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<SamplingCapability> {
                    SamplingCapability::create(builder)
                }
            }

            /// Builder for serializing an instance of the [SamplingCapability] type.
            ///
            /// Can be created using the [SamplingCapability::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct SamplingCapabilityBuilder<State>(State);

            impl SamplingCapabilityBuilder<()> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [SamplingCapability].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<SamplingCapability>
                where
                    Self: ::planus::WriteAsOffset<SamplingCapability>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl ::planus::WriteAs<::planus::Offset<SamplingCapability>> for SamplingCapabilityBuilder<()> {
                type Prepared = ::planus::Offset<SamplingCapability>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<SamplingCapability> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<SamplingCapability>> for SamplingCapabilityBuilder<()> {
                type Prepared = ::planus::Offset<SamplingCapability>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<SamplingCapability>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<SamplingCapability> for SamplingCapabilityBuilder<()> {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<SamplingCapability> {
                    SamplingCapability::create(builder)
                }
            }

            /// Reference to a deserialized [SamplingCapability].
            #[derive(Copy, Clone)]
            pub struct SamplingCapabilityRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> SamplingCapabilityRef<'a> {}

            impl<'a> ::core::fmt::Debug for SamplingCapabilityRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("SamplingCapabilityRef");

                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<SamplingCapabilityRef<'a>> for SamplingCapability {
                type Error = ::planus::Error;

                fn try_from(_value: SamplingCapabilityRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {})
                }
            }

            impl<'a> ::planus::TableRead<'a> for SamplingCapabilityRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for SamplingCapabilityRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[SamplingCapabilityRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<SamplingCapability>> for SamplingCapability {
                type Value = ::planus::Offset<SamplingCapability>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<SamplingCapability>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for SamplingCapabilityRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[SamplingCapabilityRef]", "read_as_root", 0))
                }
            }

            ///  Server capability for prompt template management
            ///
            /// Generated from these locations:
            /// * Table `PromptsCapability` in the file `record/schema/mcp.fbs:84`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct PromptsCapability {
                /// The field `list_changed` in the table `PromptsCapability`
                pub list_changed: bool,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for PromptsCapability {
                fn default() -> Self {
                    Self { list_changed: false }
                }
            }

            impl PromptsCapability {
                /// Creates a [PromptsCapabilityBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> PromptsCapabilityBuilder<()> {
                    PromptsCapabilityBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_list_changed: impl ::planus::WriteAsDefault<bool, bool>,
                ) -> ::planus::Offset<Self> {
                    let prepared_list_changed = field_list_changed.prepare(builder, &false);

                    let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                    if prepared_list_changed.is_some() {
                        table_writer.write_entry::<bool>(0);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            if let ::core::option::Option::Some(prepared_list_changed) = prepared_list_changed {
                                object_writer.write::<_, _, 1>(&prepared_list_changed);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<PromptsCapability>> for PromptsCapability {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptsCapability> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<PromptsCapability>> for PromptsCapability {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<PromptsCapability>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<PromptsCapability> for PromptsCapability {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptsCapability> {
                    PromptsCapability::create(builder, self.list_changed)
                }
            }

            /// Builder for serializing an instance of the [PromptsCapability] type.
            ///
            /// Can be created using the [PromptsCapability::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct PromptsCapabilityBuilder<State>(State);

            impl PromptsCapabilityBuilder<()> {
                /// Setter for the [`list_changed` field](PromptsCapability#structfield.list_changed).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn list_changed<T0>(self, value: T0) -> PromptsCapabilityBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsDefault<bool, bool>,
                {
                    PromptsCapabilityBuilder((value,))
                }

                /// Sets the [`list_changed` field](PromptsCapability#structfield.list_changed) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn list_changed_as_default(self) -> PromptsCapabilityBuilder<(::planus::DefaultValue,)> {
                    self.list_changed(::planus::DefaultValue)
                }
            }

            impl<T0> PromptsCapabilityBuilder<(T0,)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [PromptsCapability].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptsCapability>
                where
                    Self: ::planus::WriteAsOffset<PromptsCapability>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAsDefault<bool, bool>> ::planus::WriteAs<::planus::Offset<PromptsCapability>>
                for PromptsCapabilityBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<PromptsCapability>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptsCapability> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAsDefault<bool, bool>>
                ::planus::WriteAsOptional<::planus::Offset<PromptsCapability>> for PromptsCapabilityBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<PromptsCapability>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<PromptsCapability>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAsDefault<bool, bool>> ::planus::WriteAsOffset<PromptsCapability>
                for PromptsCapabilityBuilder<(T0,)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptsCapability> {
                    let (v0,) = &self.0;
                    PromptsCapability::create(builder, v0)
                }
            }

            /// Reference to a deserialized [PromptsCapability].
            #[derive(Copy, Clone)]
            pub struct PromptsCapabilityRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> PromptsCapabilityRef<'a> {
                /// Getter for the [`list_changed` field](PromptsCapability#structfield.list_changed).
                #[inline]
                pub fn list_changed(&self) -> ::planus::Result<bool> {
                    ::core::result::Result::Ok(self.0.access(0, "PromptsCapability", "list_changed")?.unwrap_or(false))
                }
            }

            impl<'a> ::core::fmt::Debug for PromptsCapabilityRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("PromptsCapabilityRef");
                    f.field("list_changed", &self.list_changed());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<PromptsCapabilityRef<'a>> for PromptsCapability {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: PromptsCapabilityRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        list_changed: ::core::convert::TryInto::try_into(value.list_changed()?)?,
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for PromptsCapabilityRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for PromptsCapabilityRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[PromptsCapabilityRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<PromptsCapability>> for PromptsCapability {
                type Value = ::planus::Offset<PromptsCapability>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<PromptsCapability>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for PromptsCapabilityRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[PromptsCapabilityRef]", "read_as_root", 0))
                }
            }

            ///  Server capability for resource management
            ///
            /// Generated from these locations:
            /// * Table `ResourcesCapability` in the file `record/schema/mcp.fbs:88`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct ResourcesCapability {
                /// The field `subscribe` in the table `ResourcesCapability`
                pub subscribe: bool,
                /// The field `list_changed` in the table `ResourcesCapability`
                pub list_changed: bool,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for ResourcesCapability {
                fn default() -> Self {
                    Self { subscribe: false, list_changed: false }
                }
            }

            impl ResourcesCapability {
                /// Creates a [ResourcesCapabilityBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ResourcesCapabilityBuilder<()> {
                    ResourcesCapabilityBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_subscribe: impl ::planus::WriteAsDefault<bool, bool>,
                    field_list_changed: impl ::planus::WriteAsDefault<bool, bool>,
                ) -> ::planus::Offset<Self> {
                    let prepared_subscribe = field_subscribe.prepare(builder, &false);
                    let prepared_list_changed = field_list_changed.prepare(builder, &false);

                    let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                    if prepared_subscribe.is_some() {
                        table_writer.write_entry::<bool>(0);
                    }
                    if prepared_list_changed.is_some() {
                        table_writer.write_entry::<bool>(1);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            if let ::core::option::Option::Some(prepared_subscribe) = prepared_subscribe {
                                object_writer.write::<_, _, 1>(&prepared_subscribe);
                            }
                            if let ::core::option::Option::Some(prepared_list_changed) = prepared_list_changed {
                                object_writer.write::<_, _, 1>(&prepared_list_changed);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<ResourcesCapability>> for ResourcesCapability {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourcesCapability> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<ResourcesCapability>> for ResourcesCapability {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ResourcesCapability>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<ResourcesCapability> for ResourcesCapability {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourcesCapability> {
                    ResourcesCapability::create(builder, self.subscribe, self.list_changed)
                }
            }

            /// Builder for serializing an instance of the [ResourcesCapability] type.
            ///
            /// Can be created using the [ResourcesCapability::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ResourcesCapabilityBuilder<State>(State);

            impl ResourcesCapabilityBuilder<()> {
                /// Setter for the [`subscribe` field](ResourcesCapability#structfield.subscribe).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn subscribe<T0>(self, value: T0) -> ResourcesCapabilityBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsDefault<bool, bool>,
                {
                    ResourcesCapabilityBuilder((value,))
                }

                /// Sets the [`subscribe` field](ResourcesCapability#structfield.subscribe) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn subscribe_as_default(self) -> ResourcesCapabilityBuilder<(::planus::DefaultValue,)> {
                    self.subscribe(::planus::DefaultValue)
                }
            }

            impl<T0> ResourcesCapabilityBuilder<(T0,)> {
                /// Setter for the [`list_changed` field](ResourcesCapability#structfield.list_changed).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn list_changed<T1>(self, value: T1) -> ResourcesCapabilityBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsDefault<bool, bool>,
                {
                    let (v0,) = self.0;
                    ResourcesCapabilityBuilder((v0, value))
                }

                /// Sets the [`list_changed` field](ResourcesCapability#structfield.list_changed) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn list_changed_as_default(self) -> ResourcesCapabilityBuilder<(T0, ::planus::DefaultValue)> {
                    self.list_changed(::planus::DefaultValue)
                }
            }

            impl<T0, T1> ResourcesCapabilityBuilder<(T0, T1)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [ResourcesCapability].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourcesCapability>
                where
                    Self: ::planus::WriteAsOffset<ResourcesCapability>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAsDefault<bool, bool>, T1: ::planus::WriteAsDefault<bool, bool>>
                ::planus::WriteAs<::planus::Offset<ResourcesCapability>> for ResourcesCapabilityBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<ResourcesCapability>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourcesCapability> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAsDefault<bool, bool>, T1: ::planus::WriteAsDefault<bool, bool>>
                ::planus::WriteAsOptional<::planus::Offset<ResourcesCapability>>
                for ResourcesCapabilityBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<ResourcesCapability>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ResourcesCapability>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAsDefault<bool, bool>, T1: ::planus::WriteAsDefault<bool, bool>>
                ::planus::WriteAsOffset<ResourcesCapability> for ResourcesCapabilityBuilder<(T0, T1)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourcesCapability> {
                    let (v0, v1) = &self.0;
                    ResourcesCapability::create(builder, v0, v1)
                }
            }

            /// Reference to a deserialized [ResourcesCapability].
            #[derive(Copy, Clone)]
            pub struct ResourcesCapabilityRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ResourcesCapabilityRef<'a> {
                /// Getter for the [`subscribe` field](ResourcesCapability#structfield.subscribe).
                #[inline]
                pub fn subscribe(&self) -> ::planus::Result<bool> {
                    ::core::result::Result::Ok(self.0.access(0, "ResourcesCapability", "subscribe")?.unwrap_or(false))
                }

                /// Getter for the [`list_changed` field](ResourcesCapability#structfield.list_changed).
                #[inline]
                pub fn list_changed(&self) -> ::planus::Result<bool> {
                    ::core::result::Result::Ok(
                        self.0.access(1, "ResourcesCapability", "list_changed")?.unwrap_or(false),
                    )
                }
            }

            impl<'a> ::core::fmt::Debug for ResourcesCapabilityRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ResourcesCapabilityRef");
                    f.field("subscribe", &self.subscribe());
                    f.field("list_changed", &self.list_changed());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ResourcesCapabilityRef<'a>> for ResourcesCapability {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ResourcesCapabilityRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        subscribe: ::core::convert::TryInto::try_into(value.subscribe()?)?,
                        list_changed: ::core::convert::TryInto::try_into(value.list_changed()?)?,
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ResourcesCapabilityRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ResourcesCapabilityRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ResourcesCapabilityRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<ResourcesCapability>> for ResourcesCapability {
                type Value = ::planus::Offset<ResourcesCapability>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<ResourcesCapability>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ResourcesCapabilityRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ResourcesCapabilityRef]", "read_as_root", 0))
                }
            }

            ///  Server capability for tool management
            ///
            /// Generated from these locations:
            /// * Table `ToolsCapability` in the file `record/schema/mcp.fbs:93`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct ToolsCapability {
                /// The field `list_changed` in the table `ToolsCapability`
                pub list_changed: bool,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for ToolsCapability {
                fn default() -> Self {
                    Self { list_changed: false }
                }
            }

            impl ToolsCapability {
                /// Creates a [ToolsCapabilityBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ToolsCapabilityBuilder<()> {
                    ToolsCapabilityBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_list_changed: impl ::planus::WriteAsDefault<bool, bool>,
                ) -> ::planus::Offset<Self> {
                    let prepared_list_changed = field_list_changed.prepare(builder, &false);

                    let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                    if prepared_list_changed.is_some() {
                        table_writer.write_entry::<bool>(0);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            if let ::core::option::Option::Some(prepared_list_changed) = prepared_list_changed {
                                object_writer.write::<_, _, 1>(&prepared_list_changed);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<ToolsCapability>> for ToolsCapability {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ToolsCapability> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<ToolsCapability>> for ToolsCapability {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ToolsCapability>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<ToolsCapability> for ToolsCapability {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ToolsCapability> {
                    ToolsCapability::create(builder, self.list_changed)
                }
            }

            /// Builder for serializing an instance of the [ToolsCapability] type.
            ///
            /// Can be created using the [ToolsCapability::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ToolsCapabilityBuilder<State>(State);

            impl ToolsCapabilityBuilder<()> {
                /// Setter for the [`list_changed` field](ToolsCapability#structfield.list_changed).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn list_changed<T0>(self, value: T0) -> ToolsCapabilityBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsDefault<bool, bool>,
                {
                    ToolsCapabilityBuilder((value,))
                }

                /// Sets the [`list_changed` field](ToolsCapability#structfield.list_changed) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn list_changed_as_default(self) -> ToolsCapabilityBuilder<(::planus::DefaultValue,)> {
                    self.list_changed(::planus::DefaultValue)
                }
            }

            impl<T0> ToolsCapabilityBuilder<(T0,)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [ToolsCapability].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<ToolsCapability>
                where
                    Self: ::planus::WriteAsOffset<ToolsCapability>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAsDefault<bool, bool>> ::planus::WriteAs<::planus::Offset<ToolsCapability>>
                for ToolsCapabilityBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<ToolsCapability>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ToolsCapability> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAsDefault<bool, bool>> ::planus::WriteAsOptional<::planus::Offset<ToolsCapability>>
                for ToolsCapabilityBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<ToolsCapability>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ToolsCapability>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAsDefault<bool, bool>> ::planus::WriteAsOffset<ToolsCapability>
                for ToolsCapabilityBuilder<(T0,)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ToolsCapability> {
                    let (v0,) = &self.0;
                    ToolsCapability::create(builder, v0)
                }
            }

            /// Reference to a deserialized [ToolsCapability].
            #[derive(Copy, Clone)]
            pub struct ToolsCapabilityRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ToolsCapabilityRef<'a> {
                /// Getter for the [`list_changed` field](ToolsCapability#structfield.list_changed).
                #[inline]
                pub fn list_changed(&self) -> ::planus::Result<bool> {
                    ::core::result::Result::Ok(self.0.access(0, "ToolsCapability", "list_changed")?.unwrap_or(false))
                }
            }

            impl<'a> ::core::fmt::Debug for ToolsCapabilityRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ToolsCapabilityRef");
                    f.field("list_changed", &self.list_changed());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ToolsCapabilityRef<'a>> for ToolsCapability {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ToolsCapabilityRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        list_changed: ::core::convert::TryInto::try_into(value.list_changed()?)?,
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ToolsCapabilityRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ToolsCapabilityRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ToolsCapabilityRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<ToolsCapability>> for ToolsCapability {
                type Value = ::planus::Offset<ToolsCapability>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<ToolsCapability>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ToolsCapabilityRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ToolsCapabilityRef]", "read_as_root", 0))
                }
            }

            ///  Represents the different types of messages in the protocol
            ///
            /// Generated from these locations:
            /// * Union `MessageType` in the file `record/schema/mcp.fbs:97`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub enum MessageType {
                /// The variant of type `Request` in the union `MessageType`
                Request(::planus::alloc::boxed::Box<self::Request>),

                /// The variant of type `Response` in the union `MessageType`
                Response(::planus::alloc::boxed::Box<self::Response>),

                /// The variant of type `Notification` in the union `MessageType`
                Notification(::planus::alloc::boxed::Box<self::Notification>),

                /// The variant of type `Error` in the union `MessageType`
                Error(::planus::alloc::boxed::Box<self::Error>),
            }

            impl MessageType {
                /// Creates a [MessageTypeBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> MessageTypeBuilder<::planus::Uninitialized> {
                    MessageTypeBuilder(::planus::Uninitialized)
                }

                #[inline]
                pub fn create_request(
                    builder: &mut ::planus::Builder,
                    value: impl ::planus::WriteAsOffset<self::Request>,
                ) -> ::planus::UnionOffset<Self> {
                    ::planus::UnionOffset::new(1, value.prepare(builder).downcast())
                }

                #[inline]
                pub fn create_response(
                    builder: &mut ::planus::Builder,
                    value: impl ::planus::WriteAsOffset<self::Response>,
                ) -> ::planus::UnionOffset<Self> {
                    ::planus::UnionOffset::new(2, value.prepare(builder).downcast())
                }

                #[inline]
                pub fn create_notification(
                    builder: &mut ::planus::Builder,
                    value: impl ::planus::WriteAsOffset<self::Notification>,
                ) -> ::planus::UnionOffset<Self> {
                    ::planus::UnionOffset::new(3, value.prepare(builder).downcast())
                }

                #[inline]
                pub fn create_error(
                    builder: &mut ::planus::Builder,
                    value: impl ::planus::WriteAsOffset<self::Error>,
                ) -> ::planus::UnionOffset<Self> {
                    ::planus::UnionOffset::new(4, value.prepare(builder).downcast())
                }
            }

            impl ::planus::WriteAsUnion<MessageType> for MessageType {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<Self> {
                    match self {
                        Self::Request(value) => Self::create_request(builder, value),
                        Self::Response(value) => Self::create_response(builder, value),
                        Self::Notification(value) => Self::create_notification(builder, value),
                        Self::Error(value) => Self::create_error(builder, value),
                    }
                }
            }

            impl ::planus::WriteAsOptionalUnion<MessageType> for MessageType {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<Self>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }

            /// Builder for serializing an instance of the [MessageType] type.
            ///
            /// Can be created using the [MessageType::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct MessageTypeBuilder<T>(T);

            impl MessageTypeBuilder<::planus::Uninitialized> {
                /// Creates an instance of the [`Request` variant](MessageType#variant.Request).
                #[inline]
                pub fn request<T>(self, value: T) -> MessageTypeBuilder<::planus::Initialized<1, T>>
                where
                    T: ::planus::WriteAsOffset<self::Request>,
                {
                    MessageTypeBuilder(::planus::Initialized(value))
                }

                /// Creates an instance of the [`Response` variant](MessageType#variant.Response).
                #[inline]
                pub fn response<T>(self, value: T) -> MessageTypeBuilder<::planus::Initialized<2, T>>
                where
                    T: ::planus::WriteAsOffset<self::Response>,
                {
                    MessageTypeBuilder(::planus::Initialized(value))
                }

                /// Creates an instance of the [`Notification` variant](MessageType#variant.Notification).
                #[inline]
                pub fn notification<T>(self, value: T) -> MessageTypeBuilder<::planus::Initialized<3, T>>
                where
                    T: ::planus::WriteAsOffset<self::Notification>,
                {
                    MessageTypeBuilder(::planus::Initialized(value))
                }

                /// Creates an instance of the [`Error` variant](MessageType#variant.Error).
                #[inline]
                pub fn error<T>(self, value: T) -> MessageTypeBuilder<::planus::Initialized<4, T>>
                where
                    T: ::planus::WriteAsOffset<self::Error>,
                {
                    MessageTypeBuilder(::planus::Initialized(value))
                }
            }

            impl<const N: u8, T> MessageTypeBuilder<::planus::Initialized<N, T>> {
                /// Finish writing the builder to get an [UnionOffset](::planus::UnionOffset) to a serialized [MessageType].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<MessageType>
                where
                    Self: ::planus::WriteAsUnion<MessageType>,
                {
                    ::planus::WriteAsUnion::prepare(&self, builder)
                }
            }

            impl<T> ::planus::WriteAsUnion<MessageType> for MessageTypeBuilder<::planus::Initialized<1, T>>
            where
                T: ::planus::WriteAsOffset<self::Request>,
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<MessageType> {
                    ::planus::UnionOffset::new(1, (self.0).0.prepare(builder).downcast())
                }
            }

            impl<T> ::planus::WriteAsOptionalUnion<MessageType> for MessageTypeBuilder<::planus::Initialized<1, T>>
            where
                T: ::planus::WriteAsOffset<self::Request>,
            {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<MessageType>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }
            impl<T> ::planus::WriteAsUnion<MessageType> for MessageTypeBuilder<::planus::Initialized<2, T>>
            where
                T: ::planus::WriteAsOffset<self::Response>,
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<MessageType> {
                    ::planus::UnionOffset::new(2, (self.0).0.prepare(builder).downcast())
                }
            }

            impl<T> ::planus::WriteAsOptionalUnion<MessageType> for MessageTypeBuilder<::planus::Initialized<2, T>>
            where
                T: ::planus::WriteAsOffset<self::Response>,
            {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<MessageType>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }
            impl<T> ::planus::WriteAsUnion<MessageType> for MessageTypeBuilder<::planus::Initialized<3, T>>
            where
                T: ::planus::WriteAsOffset<self::Notification>,
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<MessageType> {
                    ::planus::UnionOffset::new(3, (self.0).0.prepare(builder).downcast())
                }
            }

            impl<T> ::planus::WriteAsOptionalUnion<MessageType> for MessageTypeBuilder<::planus::Initialized<3, T>>
            where
                T: ::planus::WriteAsOffset<self::Notification>,
            {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<MessageType>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }
            impl<T> ::planus::WriteAsUnion<MessageType> for MessageTypeBuilder<::planus::Initialized<4, T>>
            where
                T: ::planus::WriteAsOffset<self::Error>,
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<MessageType> {
                    ::planus::UnionOffset::new(4, (self.0).0.prepare(builder).downcast())
                }
            }

            impl<T> ::planus::WriteAsOptionalUnion<MessageType> for MessageTypeBuilder<::planus::Initialized<4, T>>
            where
                T: ::planus::WriteAsOffset<self::Error>,
            {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<MessageType>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }

            /// Reference to a deserialized [MessageType].
            #[derive(Copy, Clone, Debug)]
            pub enum MessageTypeRef<'a> {
                Request(self::RequestRef<'a>),
                Response(self::ResponseRef<'a>),
                Notification(self::NotificationRef<'a>),
                Error(self::ErrorRef<'a>),
            }

            impl<'a> ::core::convert::TryFrom<MessageTypeRef<'a>> for MessageType {
                type Error = ::planus::Error;

                fn try_from(value: MessageTypeRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(match value {
                        MessageTypeRef::Request(value) => {
                            Self::Request(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                        }

                        MessageTypeRef::Response(value) => {
                            Self::Response(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                        }

                        MessageTypeRef::Notification(value) => Self::Notification(::planus::alloc::boxed::Box::new(
                            ::core::convert::TryFrom::try_from(value)?,
                        )),

                        MessageTypeRef::Error(value) => {
                            Self::Error(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                        }
                    })
                }
            }

            impl<'a> ::planus::TableReadUnion<'a> for MessageTypeRef<'a> {
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    tag: u8,
                    field_offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    match tag {
                        1 => ::core::result::Result::Ok(Self::Request(::planus::TableRead::from_buffer(
                            buffer,
                            field_offset,
                        )?)),
                        2 => ::core::result::Result::Ok(Self::Response(::planus::TableRead::from_buffer(
                            buffer,
                            field_offset,
                        )?)),
                        3 => ::core::result::Result::Ok(Self::Notification(::planus::TableRead::from_buffer(
                            buffer,
                            field_offset,
                        )?)),
                        4 => ::core::result::Result::Ok(Self::Error(::planus::TableRead::from_buffer(
                            buffer,
                            field_offset,
                        )?)),
                        _ => ::core::result::Result::Err(::planus::errors::ErrorKind::UnknownUnionTag { tag }),
                    }
                }
            }

            impl<'a> ::planus::VectorReadUnion<'a> for MessageTypeRef<'a> {
                const VECTOR_NAME: &'static str = "[MessageTypeRef]";
            }

            ///  The base message type for all MCP communication
            ///
            /// Generated from these locations:
            /// * Table `Message` in the file `record/schema/mcp.fbs:104`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Message {
                /// The field `type` in the table `Message`
                pub type_: self::MessageType,
            }

            impl Message {
                /// Creates a [MessageBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> MessageBuilder<()> {
                    MessageBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_type_: impl ::planus::WriteAsUnion<self::MessageType>,
                ) -> ::planus::Offset<Self> {
                    let prepared_type_ = field_type_.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<self::MessageType>>(1);
                    table_writer.write_entry::<u8>(0);

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_type_.offset());
                            object_writer.write::<_, _, 1>(&prepared_type_.tag());
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Message>> for Message {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Message> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Message>> for Message {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Message>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Message> for Message {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Message> {
                    Message::create(builder, &self.type_)
                }
            }

            /// Builder for serializing an instance of the [Message] type.
            ///
            /// Can be created using the [Message::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct MessageBuilder<State>(State);

            impl MessageBuilder<()> {
                /// Setter for the [`type` field](Message#structfield.type_).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn type_<T0>(self, value: T0) -> MessageBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsUnion<self::MessageType>,
                {
                    MessageBuilder((value,))
                }
            }

            impl<T0> MessageBuilder<(T0,)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Message].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Message>
                where
                    Self: ::planus::WriteAsOffset<Message>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAsUnion<self::MessageType>> ::planus::WriteAs<::planus::Offset<Message>>
                for MessageBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<Message>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Message> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAsUnion<self::MessageType>> ::planus::WriteAsOptional<::planus::Offset<Message>>
                for MessageBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<Message>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Message>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAsUnion<self::MessageType>> ::planus::WriteAsOffset<Message> for MessageBuilder<(T0,)> {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Message> {
                    let (v0,) = &self.0;
                    Message::create(builder, v0)
                }
            }

            /// Reference to a deserialized [Message].
            #[derive(Copy, Clone)]
            pub struct MessageRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> MessageRef<'a> {
                /// Getter for the [`type` field](Message#structfield.type_).
                #[inline]
                pub fn type_(&self) -> ::planus::Result<self::MessageTypeRef<'a>> {
                    self.0.access_union_required(0, "Message", "type_")
                }
            }

            impl<'a> ::core::fmt::Debug for MessageRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("MessageRef");
                    f.field("type_", &self.type_());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<MessageRef<'a>> for Message {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: MessageRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self { type_: ::core::convert::TryInto::try_into(value.type_()?)? })
                }
            }

            impl<'a> ::planus::TableRead<'a> for MessageRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for MessageRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[MessageRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Message>> for Message {
                type Value = ::planus::Offset<Message>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Message>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for MessageRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[MessageRef]", "read_as_root", 0))
                }
            }

            ///  A request that expects a response
            ///
            /// Generated from these locations:
            /// * Table `Request` in the file `record/schema/mcp.fbs:108`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Request {
                /// The field `jsonrpc` in the table `Request`
                pub jsonrpc: ::planus::alloc::string::String,
                /// The field `id` in the table `Request`
                pub id: self::RequestId,
                /// The field `method` in the table `Request`
                pub method: ::planus::alloc::string::String,
                /// The field `params` in the table `Request`
                pub params: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `meta` in the table `Request`
                pub meta: ::core::option::Option<::planus::alloc::boxed::Box<self::Metadata>>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Request {
                fn default() -> Self {
                    Self {
                        jsonrpc: ::core::default::Default::default(),
                        id: ::core::default::Default::default(),
                        method: ::core::default::Default::default(),
                        params: ::core::default::Default::default(),
                        meta: ::core::default::Default::default(),
                    }
                }
            }

            impl Request {
                /// Creates a [RequestBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> RequestBuilder<()> {
                    RequestBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_jsonrpc: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_id: impl ::planus::WriteAs<self::RequestId>,
                    field_method: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_params: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_meta: impl ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_jsonrpc = field_jsonrpc.prepare(builder);
                    let prepared_id = field_id.prepare(builder);
                    let prepared_method = field_method.prepare(builder);
                    let prepared_params = field_params.prepare(builder);
                    let prepared_meta = field_meta.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<14> = ::core::default::Default::default();
                    table_writer.write_entry::<self::RequestId>(1);
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    table_writer.write_entry::<::planus::Offset<str>>(2);
                    if prepared_params.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(3);
                    }
                    if prepared_meta.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::Metadata>>(4);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 8>(&prepared_id);
                            object_writer.write::<_, _, 4>(&prepared_jsonrpc);
                            object_writer.write::<_, _, 4>(&prepared_method);
                            if let ::core::option::Option::Some(prepared_params) = prepared_params {
                                object_writer.write::<_, _, 4>(&prepared_params);
                            }
                            if let ::core::option::Option::Some(prepared_meta) = prepared_meta {
                                object_writer.write::<_, _, 4>(&prepared_meta);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Request>> for Request {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Request> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Request>> for Request {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Request>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Request> for Request {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Request> {
                    Request::create(builder, &self.jsonrpc, self.id, &self.method, &self.params, &self.meta)
                }
            }

            /// Builder for serializing an instance of the [Request] type.
            ///
            /// Can be created using the [Request::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct RequestBuilder<State>(State);

            impl RequestBuilder<()> {
                /// Setter for the [`jsonrpc` field](Request#structfield.jsonrpc).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn jsonrpc<T0>(self, value: T0) -> RequestBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    RequestBuilder((value,))
                }
            }

            impl<T0> RequestBuilder<(T0,)> {
                /// Setter for the [`id` field](Request#structfield.id).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn id<T1>(self, value: T1) -> RequestBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<self::RequestId>,
                {
                    let (v0,) = self.0;
                    RequestBuilder((v0, value))
                }
            }

            impl<T0, T1> RequestBuilder<(T0, T1)> {
                /// Setter for the [`method` field](Request#structfield.method).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn method<T2>(self, value: T2) -> RequestBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    let (v0, v1) = self.0;
                    RequestBuilder((v0, v1, value))
                }
            }

            impl<T0, T1, T2> RequestBuilder<(T0, T1, T2)> {
                /// Setter for the [`params` field](Request#structfield.params).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn params<T3>(self, value: T3) -> RequestBuilder<(T0, T1, T2, T3)>
                where
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0, v1, v2) = self.0;
                    RequestBuilder((v0, v1, v2, value))
                }

                /// Sets the [`params` field](Request#structfield.params) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn params_as_null(self) -> RequestBuilder<(T0, T1, T2, ())> {
                    self.params(())
                }
            }

            impl<T0, T1, T2, T3> RequestBuilder<(T0, T1, T2, T3)> {
                /// Setter for the [`meta` field](Request#structfield.meta).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn meta<T4>(self, value: T4) -> RequestBuilder<(T0, T1, T2, T3, T4)>
                where
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                {
                    let (v0, v1, v2, v3) = self.0;
                    RequestBuilder((v0, v1, v2, v3, value))
                }

                /// Sets the [`meta` field](Request#structfield.meta) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn meta_as_null(self) -> RequestBuilder<(T0, T1, T2, T3, ())> {
                    self.meta(())
                }
            }

            impl<T0, T1, T2, T3, T4> RequestBuilder<(T0, T1, T2, T3, T4)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Request].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Request>
                where
                    Self: ::planus::WriteAsOffset<Request>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<self::RequestId>,
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                > ::planus::WriteAs<::planus::Offset<Request>> for RequestBuilder<(T0, T1, T2, T3, T4)>
            {
                type Prepared = ::planus::Offset<Request>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Request> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<self::RequestId>,
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                > ::planus::WriteAsOptional<::planus::Offset<Request>> for RequestBuilder<(T0, T1, T2, T3, T4)>
            {
                type Prepared = ::planus::Offset<Request>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Request>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<self::RequestId>,
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                > ::planus::WriteAsOffset<Request> for RequestBuilder<(T0, T1, T2, T3, T4)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Request> {
                    let (v0, v1, v2, v3, v4) = &self.0;
                    Request::create(builder, v0, v1, v2, v3, v4)
                }
            }

            /// Reference to a deserialized [Request].
            #[derive(Copy, Clone)]
            pub struct RequestRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> RequestRef<'a> {
                /// Getter for the [`jsonrpc` field](Request#structfield.jsonrpc).
                #[inline]
                pub fn jsonrpc(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "Request", "jsonrpc")
                }

                /// Getter for the [`id` field](Request#structfield.id).
                #[inline]
                pub fn id(&self) -> ::planus::Result<self::RequestIdRef<'a>> {
                    self.0.access_required(1, "Request", "id")
                }

                /// Getter for the [`method` field](Request#structfield.method).
                #[inline]
                pub fn method(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(2, "Request", "method")
                }

                /// Getter for the [`params` field](Request#structfield.params).
                #[inline]
                pub fn params(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(3, "Request", "params")
                }

                /// Getter for the [`meta` field](Request#structfield.meta).
                #[inline]
                pub fn meta(&self) -> ::planus::Result<::core::option::Option<self::MetadataRef<'a>>> {
                    self.0.access(4, "Request", "meta")
                }
            }

            impl<'a> ::core::fmt::Debug for RequestRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("RequestRef");
                    f.field("jsonrpc", &self.jsonrpc());
                    f.field("id", &self.id());
                    f.field("method", &self.method());
                    if let ::core::option::Option::Some(field_params) = self.params().transpose() {
                        f.field("params", &field_params);
                    }
                    if let ::core::option::Option::Some(field_meta) = self.meta().transpose() {
                        f.field("meta", &field_meta);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<RequestRef<'a>> for Request {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: RequestRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        jsonrpc: ::core::convert::Into::into(value.jsonrpc()?),
                        id: ::core::convert::Into::into(value.id()?),
                        method: ::core::convert::Into::into(value.method()?),
                        params: value.params()?.map(::core::convert::Into::into),
                        meta: if let ::core::option::Option::Some(meta) = value.meta()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(meta)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for RequestRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for RequestRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[RequestRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Request>> for Request {
                type Value = ::planus::Offset<Request>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Request>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for RequestRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[RequestRef]", "read_as_root", 0))
                }
            }

            ///  A successful response to a request
            ///
            /// Generated from these locations:
            /// * Table `Response` in the file `record/schema/mcp.fbs:116`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Response {
                /// The field `jsonrpc` in the table `Response`
                pub jsonrpc: ::planus::alloc::string::String,
                /// The field `id` in the table `Response`
                pub id: self::RequestId,
                /// The field `result` in the table `Response`
                pub result: ::planus::alloc::string::String,
                /// The field `meta` in the table `Response`
                pub meta: ::core::option::Option<::planus::alloc::boxed::Box<self::Metadata>>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Response {
                fn default() -> Self {
                    Self {
                        jsonrpc: ::core::default::Default::default(),
                        id: ::core::default::Default::default(),
                        result: ::core::default::Default::default(),
                        meta: ::core::default::Default::default(),
                    }
                }
            }

            impl Response {
                /// Creates a [ResponseBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ResponseBuilder<()> {
                    ResponseBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_jsonrpc: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_id: impl ::planus::WriteAs<self::RequestId>,
                    field_result: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_meta: impl ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_jsonrpc = field_jsonrpc.prepare(builder);
                    let prepared_id = field_id.prepare(builder);
                    let prepared_result = field_result.prepare(builder);
                    let prepared_meta = field_meta.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<12> = ::core::default::Default::default();
                    table_writer.write_entry::<self::RequestId>(1);
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    table_writer.write_entry::<::planus::Offset<str>>(2);
                    if prepared_meta.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::Metadata>>(3);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 8>(&prepared_id);
                            object_writer.write::<_, _, 4>(&prepared_jsonrpc);
                            object_writer.write::<_, _, 4>(&prepared_result);
                            if let ::core::option::Option::Some(prepared_meta) = prepared_meta {
                                object_writer.write::<_, _, 4>(&prepared_meta);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Response>> for Response {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Response> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Response>> for Response {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Response>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Response> for Response {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Response> {
                    Response::create(builder, &self.jsonrpc, self.id, &self.result, &self.meta)
                }
            }

            /// Builder for serializing an instance of the [Response] type.
            ///
            /// Can be created using the [Response::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ResponseBuilder<State>(State);

            impl ResponseBuilder<()> {
                /// Setter for the [`jsonrpc` field](Response#structfield.jsonrpc).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn jsonrpc<T0>(self, value: T0) -> ResponseBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    ResponseBuilder((value,))
                }
            }

            impl<T0> ResponseBuilder<(T0,)> {
                /// Setter for the [`id` field](Response#structfield.id).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn id<T1>(self, value: T1) -> ResponseBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<self::RequestId>,
                {
                    let (v0,) = self.0;
                    ResponseBuilder((v0, value))
                }
            }

            impl<T0, T1> ResponseBuilder<(T0, T1)> {
                /// Setter for the [`result` field](Response#structfield.result).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn result<T2>(self, value: T2) -> ResponseBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    let (v0, v1) = self.0;
                    ResponseBuilder((v0, v1, value))
                }
            }

            impl<T0, T1, T2> ResponseBuilder<(T0, T1, T2)> {
                /// Setter for the [`meta` field](Response#structfield.meta).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn meta<T3>(self, value: T3) -> ResponseBuilder<(T0, T1, T2, T3)>
                where
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                {
                    let (v0, v1, v2) = self.0;
                    ResponseBuilder((v0, v1, v2, value))
                }

                /// Sets the [`meta` field](Response#structfield.meta) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn meta_as_null(self) -> ResponseBuilder<(T0, T1, T2, ())> {
                    self.meta(())
                }
            }

            impl<T0, T1, T2, T3> ResponseBuilder<(T0, T1, T2, T3)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Response].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Response>
                where
                    Self: ::planus::WriteAsOffset<Response>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<self::RequestId>,
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                > ::planus::WriteAs<::planus::Offset<Response>> for ResponseBuilder<(T0, T1, T2, T3)>
            {
                type Prepared = ::planus::Offset<Response>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Response> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<self::RequestId>,
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                > ::planus::WriteAsOptional<::planus::Offset<Response>> for ResponseBuilder<(T0, T1, T2, T3)>
            {
                type Prepared = ::planus::Offset<Response>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Response>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<self::RequestId>,
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                > ::planus::WriteAsOffset<Response> for ResponseBuilder<(T0, T1, T2, T3)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Response> {
                    let (v0, v1, v2, v3) = &self.0;
                    Response::create(builder, v0, v1, v2, v3)
                }
            }

            /// Reference to a deserialized [Response].
            #[derive(Copy, Clone)]
            pub struct ResponseRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ResponseRef<'a> {
                /// Getter for the [`jsonrpc` field](Response#structfield.jsonrpc).
                #[inline]
                pub fn jsonrpc(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "Response", "jsonrpc")
                }

                /// Getter for the [`id` field](Response#structfield.id).
                #[inline]
                pub fn id(&self) -> ::planus::Result<self::RequestIdRef<'a>> {
                    self.0.access_required(1, "Response", "id")
                }

                /// Getter for the [`result` field](Response#structfield.result).
                #[inline]
                pub fn result(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(2, "Response", "result")
                }

                /// Getter for the [`meta` field](Response#structfield.meta).
                #[inline]
                pub fn meta(&self) -> ::planus::Result<::core::option::Option<self::MetadataRef<'a>>> {
                    self.0.access(3, "Response", "meta")
                }
            }

            impl<'a> ::core::fmt::Debug for ResponseRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ResponseRef");
                    f.field("jsonrpc", &self.jsonrpc());
                    f.field("id", &self.id());
                    f.field("result", &self.result());
                    if let ::core::option::Option::Some(field_meta) = self.meta().transpose() {
                        f.field("meta", &field_meta);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ResponseRef<'a>> for Response {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ResponseRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        jsonrpc: ::core::convert::Into::into(value.jsonrpc()?),
                        id: ::core::convert::Into::into(value.id()?),
                        result: ::core::convert::Into::into(value.result()?),
                        meta: if let ::core::option::Option::Some(meta) = value.meta()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(meta)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ResponseRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ResponseRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ResponseRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Response>> for Response {
                type Value = ::planus::Offset<Response>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Response>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ResponseRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ResponseRef]", "read_as_root", 0))
                }
            }

            ///  A one-way notification that doesn't expect a response
            ///
            /// Generated from these locations:
            /// * Table `Notification` in the file `record/schema/mcp.fbs:123`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Notification {
                /// The field `jsonrpc` in the table `Notification`
                pub jsonrpc: ::planus::alloc::string::String,
                /// The field `method` in the table `Notification`
                pub method: ::planus::alloc::string::String,
                /// The field `params` in the table `Notification`
                pub params: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `meta` in the table `Notification`
                pub meta: ::core::option::Option<::planus::alloc::boxed::Box<self::Metadata>>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Notification {
                fn default() -> Self {
                    Self {
                        jsonrpc: ::core::default::Default::default(),
                        method: ::core::default::Default::default(),
                        params: ::core::default::Default::default(),
                        meta: ::core::default::Default::default(),
                    }
                }
            }

            impl Notification {
                /// Creates a [NotificationBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> NotificationBuilder<()> {
                    NotificationBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_jsonrpc: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_method: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_params: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_meta: impl ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_jsonrpc = field_jsonrpc.prepare(builder);
                    let prepared_method = field_method.prepare(builder);
                    let prepared_params = field_params.prepare(builder);
                    let prepared_meta = field_meta.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<12> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    table_writer.write_entry::<::planus::Offset<str>>(1);
                    if prepared_params.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(2);
                    }
                    if prepared_meta.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::Metadata>>(3);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_jsonrpc);
                            object_writer.write::<_, _, 4>(&prepared_method);
                            if let ::core::option::Option::Some(prepared_params) = prepared_params {
                                object_writer.write::<_, _, 4>(&prepared_params);
                            }
                            if let ::core::option::Option::Some(prepared_meta) = prepared_meta {
                                object_writer.write::<_, _, 4>(&prepared_meta);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Notification>> for Notification {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Notification> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Notification>> for Notification {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Notification>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Notification> for Notification {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Notification> {
                    Notification::create(builder, &self.jsonrpc, &self.method, &self.params, &self.meta)
                }
            }

            /// Builder for serializing an instance of the [Notification] type.
            ///
            /// Can be created using the [Notification::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct NotificationBuilder<State>(State);

            impl NotificationBuilder<()> {
                /// Setter for the [`jsonrpc` field](Notification#structfield.jsonrpc).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn jsonrpc<T0>(self, value: T0) -> NotificationBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    NotificationBuilder((value,))
                }
            }

            impl<T0> NotificationBuilder<(T0,)> {
                /// Setter for the [`method` field](Notification#structfield.method).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn method<T1>(self, value: T1) -> NotificationBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    let (v0,) = self.0;
                    NotificationBuilder((v0, value))
                }
            }

            impl<T0, T1> NotificationBuilder<(T0, T1)> {
                /// Setter for the [`params` field](Notification#structfield.params).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn params<T2>(self, value: T2) -> NotificationBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0, v1) = self.0;
                    NotificationBuilder((v0, v1, value))
                }

                /// Sets the [`params` field](Notification#structfield.params) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn params_as_null(self) -> NotificationBuilder<(T0, T1, ())> {
                    self.params(())
                }
            }

            impl<T0, T1, T2> NotificationBuilder<(T0, T1, T2)> {
                /// Setter for the [`meta` field](Notification#structfield.meta).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn meta<T3>(self, value: T3) -> NotificationBuilder<(T0, T1, T2, T3)>
                where
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                {
                    let (v0, v1, v2) = self.0;
                    NotificationBuilder((v0, v1, v2, value))
                }

                /// Sets the [`meta` field](Notification#structfield.meta) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn meta_as_null(self) -> NotificationBuilder<(T0, T1, T2, ())> {
                    self.meta(())
                }
            }

            impl<T0, T1, T2, T3> NotificationBuilder<(T0, T1, T2, T3)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Notification].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Notification>
                where
                    Self: ::planus::WriteAsOffset<Notification>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                > ::planus::WriteAs<::planus::Offset<Notification>> for NotificationBuilder<(T0, T1, T2, T3)>
            {
                type Prepared = ::planus::Offset<Notification>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Notification> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                > ::planus::WriteAsOptional<::planus::Offset<Notification>> for NotificationBuilder<(T0, T1, T2, T3)>
            {
                type Prepared = ::planus::Offset<Notification>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Notification>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                > ::planus::WriteAsOffset<Notification> for NotificationBuilder<(T0, T1, T2, T3)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Notification> {
                    let (v0, v1, v2, v3) = &self.0;
                    Notification::create(builder, v0, v1, v2, v3)
                }
            }

            /// Reference to a deserialized [Notification].
            #[derive(Copy, Clone)]
            pub struct NotificationRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> NotificationRef<'a> {
                /// Getter for the [`jsonrpc` field](Notification#structfield.jsonrpc).
                #[inline]
                pub fn jsonrpc(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "Notification", "jsonrpc")
                }

                /// Getter for the [`method` field](Notification#structfield.method).
                #[inline]
                pub fn method(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(1, "Notification", "method")
                }

                /// Getter for the [`params` field](Notification#structfield.params).
                #[inline]
                pub fn params(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(2, "Notification", "params")
                }

                /// Getter for the [`meta` field](Notification#structfield.meta).
                #[inline]
                pub fn meta(&self) -> ::planus::Result<::core::option::Option<self::MetadataRef<'a>>> {
                    self.0.access(3, "Notification", "meta")
                }
            }

            impl<'a> ::core::fmt::Debug for NotificationRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("NotificationRef");
                    f.field("jsonrpc", &self.jsonrpc());
                    f.field("method", &self.method());
                    if let ::core::option::Option::Some(field_params) = self.params().transpose() {
                        f.field("params", &field_params);
                    }
                    if let ::core::option::Option::Some(field_meta) = self.meta().transpose() {
                        f.field("meta", &field_meta);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<NotificationRef<'a>> for Notification {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: NotificationRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        jsonrpc: ::core::convert::Into::into(value.jsonrpc()?),
                        method: ::core::convert::Into::into(value.method()?),
                        params: value.params()?.map(::core::convert::Into::into),
                        meta: if let ::core::option::Option::Some(meta) = value.meta()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(meta)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for NotificationRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for NotificationRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[NotificationRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Notification>> for Notification {
                type Value = ::planus::Offset<Notification>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Notification>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for NotificationRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[NotificationRef]", "read_as_root", 0))
                }
            }

            ///  A response indicating an error occurred
            ///
            /// Generated from these locations:
            /// * Table `Error` in the file `record/schema/mcp.fbs:130`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Error {
                /// The field `jsonrpc` in the table `Error`
                pub jsonrpc: ::planus::alloc::string::String,
                /// The field `id` in the table `Error`
                pub id: self::RequestId,
                /// The field `code` in the table `Error`
                pub code: i32,
                /// The field `message` in the table `Error`
                pub message: ::planus::alloc::string::String,
                /// The field `data` in the table `Error`
                pub data: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `meta` in the table `Error`
                pub meta: ::core::option::Option<::planus::alloc::boxed::Box<self::Metadata>>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Error {
                fn default() -> Self {
                    Self {
                        jsonrpc: ::core::default::Default::default(),
                        id: ::core::default::Default::default(),
                        code: 0,
                        message: ::core::default::Default::default(),
                        data: ::core::default::Default::default(),
                        meta: ::core::default::Default::default(),
                    }
                }
            }

            impl Error {
                /// Creates a [ErrorBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ErrorBuilder<()> {
                    ErrorBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_jsonrpc: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_id: impl ::planus::WriteAs<self::RequestId>,
                    field_code: impl ::planus::WriteAsDefault<i32, i32>,
                    field_message: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_data: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_meta: impl ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_jsonrpc = field_jsonrpc.prepare(builder);
                    let prepared_id = field_id.prepare(builder);
                    let prepared_code = field_code.prepare(builder, &0);
                    let prepared_message = field_message.prepare(builder);
                    let prepared_data = field_data.prepare(builder);
                    let prepared_meta = field_meta.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<16> = ::core::default::Default::default();
                    table_writer.write_entry::<self::RequestId>(1);
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    if prepared_code.is_some() {
                        table_writer.write_entry::<i32>(2);
                    }
                    table_writer.write_entry::<::planus::Offset<str>>(3);
                    if prepared_data.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(4);
                    }
                    if prepared_meta.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::Metadata>>(5);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 8>(&prepared_id);
                            object_writer.write::<_, _, 4>(&prepared_jsonrpc);
                            if let ::core::option::Option::Some(prepared_code) = prepared_code {
                                object_writer.write::<_, _, 4>(&prepared_code);
                            }
                            object_writer.write::<_, _, 4>(&prepared_message);
                            if let ::core::option::Option::Some(prepared_data) = prepared_data {
                                object_writer.write::<_, _, 4>(&prepared_data);
                            }
                            if let ::core::option::Option::Some(prepared_meta) = prepared_meta {
                                object_writer.write::<_, _, 4>(&prepared_meta);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Error>> for Error {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Error> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Error>> for Error {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Error>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Error> for Error {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Error> {
                    Error::create(builder, &self.jsonrpc, self.id, self.code, &self.message, &self.data, &self.meta)
                }
            }

            /// Builder for serializing an instance of the [Error] type.
            ///
            /// Can be created using the [Error::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ErrorBuilder<State>(State);

            impl ErrorBuilder<()> {
                /// Setter for the [`jsonrpc` field](Error#structfield.jsonrpc).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn jsonrpc<T0>(self, value: T0) -> ErrorBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    ErrorBuilder((value,))
                }
            }

            impl<T0> ErrorBuilder<(T0,)> {
                /// Setter for the [`id` field](Error#structfield.id).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn id<T1>(self, value: T1) -> ErrorBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<self::RequestId>,
                {
                    let (v0,) = self.0;
                    ErrorBuilder((v0, value))
                }
            }

            impl<T0, T1> ErrorBuilder<(T0, T1)> {
                /// Setter for the [`code` field](Error#structfield.code).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn code<T2>(self, value: T2) -> ErrorBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsDefault<i32, i32>,
                {
                    let (v0, v1) = self.0;
                    ErrorBuilder((v0, v1, value))
                }

                /// Sets the [`code` field](Error#structfield.code) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn code_as_default(self) -> ErrorBuilder<(T0, T1, ::planus::DefaultValue)> {
                    self.code(::planus::DefaultValue)
                }
            }

            impl<T0, T1, T2> ErrorBuilder<(T0, T1, T2)> {
                /// Setter for the [`message` field](Error#structfield.message).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn message<T3>(self, value: T3) -> ErrorBuilder<(T0, T1, T2, T3)>
                where
                    T3: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    let (v0, v1, v2) = self.0;
                    ErrorBuilder((v0, v1, v2, value))
                }
            }

            impl<T0, T1, T2, T3> ErrorBuilder<(T0, T1, T2, T3)> {
                /// Setter for the [`data` field](Error#structfield.data).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn data<T4>(self, value: T4) -> ErrorBuilder<(T0, T1, T2, T3, T4)>
                where
                    T4: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0, v1, v2, v3) = self.0;
                    ErrorBuilder((v0, v1, v2, v3, value))
                }

                /// Sets the [`data` field](Error#structfield.data) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn data_as_null(self) -> ErrorBuilder<(T0, T1, T2, T3, ())> {
                    self.data(())
                }
            }

            impl<T0, T1, T2, T3, T4> ErrorBuilder<(T0, T1, T2, T3, T4)> {
                /// Setter for the [`meta` field](Error#structfield.meta).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn meta<T5>(self, value: T5) -> ErrorBuilder<(T0, T1, T2, T3, T4, T5)>
                where
                    T5: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                {
                    let (v0, v1, v2, v3, v4) = self.0;
                    ErrorBuilder((v0, v1, v2, v3, v4, value))
                }

                /// Sets the [`meta` field](Error#structfield.meta) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn meta_as_null(self) -> ErrorBuilder<(T0, T1, T2, T3, T4, ())> {
                    self.meta(())
                }
            }

            impl<T0, T1, T2, T3, T4, T5> ErrorBuilder<(T0, T1, T2, T3, T4, T5)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Error].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Error>
                where
                    Self: ::planus::WriteAsOffset<Error>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<self::RequestId>,
                    T2: ::planus::WriteAsDefault<i32, i32>,
                    T3: ::planus::WriteAs<::planus::Offset<str>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T5: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                > ::planus::WriteAs<::planus::Offset<Error>> for ErrorBuilder<(T0, T1, T2, T3, T4, T5)>
            {
                type Prepared = ::planus::Offset<Error>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Error> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<self::RequestId>,
                    T2: ::planus::WriteAsDefault<i32, i32>,
                    T3: ::planus::WriteAs<::planus::Offset<str>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T5: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                > ::planus::WriteAsOptional<::planus::Offset<Error>> for ErrorBuilder<(T0, T1, T2, T3, T4, T5)>
            {
                type Prepared = ::planus::Offset<Error>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Error>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<self::RequestId>,
                    T2: ::planus::WriteAsDefault<i32, i32>,
                    T3: ::planus::WriteAs<::planus::Offset<str>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T5: ::planus::WriteAsOptional<::planus::Offset<self::Metadata>>,
                > ::planus::WriteAsOffset<Error> for ErrorBuilder<(T0, T1, T2, T3, T4, T5)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Error> {
                    let (v0, v1, v2, v3, v4, v5) = &self.0;
                    Error::create(builder, v0, v1, v2, v3, v4, v5)
                }
            }

            /// Reference to a deserialized [Error].
            #[derive(Copy, Clone)]
            pub struct ErrorRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ErrorRef<'a> {
                /// Getter for the [`jsonrpc` field](Error#structfield.jsonrpc).
                #[inline]
                pub fn jsonrpc(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "Error", "jsonrpc")
                }

                /// Getter for the [`id` field](Error#structfield.id).
                #[inline]
                pub fn id(&self) -> ::planus::Result<self::RequestIdRef<'a>> {
                    self.0.access_required(1, "Error", "id")
                }

                /// Getter for the [`code` field](Error#structfield.code).
                #[inline]
                pub fn code(&self) -> ::planus::Result<i32> {
                    ::core::result::Result::Ok(self.0.access(2, "Error", "code")?.unwrap_or(0))
                }

                /// Getter for the [`message` field](Error#structfield.message).
                #[inline]
                pub fn message(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(3, "Error", "message")
                }

                /// Getter for the [`data` field](Error#structfield.data).
                #[inline]
                pub fn data(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(4, "Error", "data")
                }

                /// Getter for the [`meta` field](Error#structfield.meta).
                #[inline]
                pub fn meta(&self) -> ::planus::Result<::core::option::Option<self::MetadataRef<'a>>> {
                    self.0.access(5, "Error", "meta")
                }
            }

            impl<'a> ::core::fmt::Debug for ErrorRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ErrorRef");
                    f.field("jsonrpc", &self.jsonrpc());
                    f.field("id", &self.id());
                    f.field("code", &self.code());
                    f.field("message", &self.message());
                    if let ::core::option::Option::Some(field_data) = self.data().transpose() {
                        f.field("data", &field_data);
                    }
                    if let ::core::option::Option::Some(field_meta) = self.meta().transpose() {
                        f.field("meta", &field_meta);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ErrorRef<'a>> for Error {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ErrorRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        jsonrpc: ::core::convert::Into::into(value.jsonrpc()?),
                        id: ::core::convert::Into::into(value.id()?),
                        code: ::core::convert::TryInto::try_into(value.code()?)?,
                        message: ::core::convert::Into::into(value.message()?),
                        data: value.data()?.map(::core::convert::Into::into),
                        meta: if let ::core::option::Option::Some(meta) = value.meta()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(meta)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ErrorRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ErrorRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ErrorRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Error>> for Error {
                type Value = ::planus::Offset<Error>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Error>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ErrorRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ErrorRef]", "read_as_root", 0))
                }
            }

            ///  Additional metadata for messages
            ///
            /// Generated from these locations:
            /// * Table `Metadata` in the file `record/schema/mcp.fbs:139`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Metadata {
                /// The field `progress_token` in the table `Metadata`
                pub progress_token: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `additional_data` in the table `Metadata`
                pub additional_data: ::core::option::Option<::planus::alloc::string::String>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Metadata {
                fn default() -> Self {
                    Self {
                        progress_token: ::core::default::Default::default(),
                        additional_data: ::core::default::Default::default(),
                    }
                }
            }

            impl Metadata {
                /// Creates a [MetadataBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> MetadataBuilder<()> {
                    MetadataBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_progress_token: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_additional_data: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_progress_token = field_progress_token.prepare(builder);
                    let prepared_additional_data = field_additional_data.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                    if prepared_progress_token.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(0);
                    }
                    if prepared_additional_data.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(1);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            if let ::core::option::Option::Some(prepared_progress_token) = prepared_progress_token {
                                object_writer.write::<_, _, 4>(&prepared_progress_token);
                            }
                            if let ::core::option::Option::Some(prepared_additional_data) = prepared_additional_data {
                                object_writer.write::<_, _, 4>(&prepared_additional_data);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Metadata>> for Metadata {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Metadata> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Metadata>> for Metadata {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Metadata>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Metadata> for Metadata {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Metadata> {
                    Metadata::create(builder, &self.progress_token, &self.additional_data)
                }
            }

            /// Builder for serializing an instance of the [Metadata] type.
            ///
            /// Can be created using the [Metadata::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct MetadataBuilder<State>(State);

            impl MetadataBuilder<()> {
                /// Setter for the [`progress_token` field](Metadata#structfield.progress_token).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn progress_token<T0>(self, value: T0) -> MetadataBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    MetadataBuilder((value,))
                }

                /// Sets the [`progress_token` field](Metadata#structfield.progress_token) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn progress_token_as_null(self) -> MetadataBuilder<((),)> {
                    self.progress_token(())
                }
            }

            impl<T0> MetadataBuilder<(T0,)> {
                /// Setter for the [`additional_data` field](Metadata#structfield.additional_data).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn additional_data<T1>(self, value: T1) -> MetadataBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0,) = self.0;
                    MetadataBuilder((v0, value))
                }

                /// Sets the [`additional_data` field](Metadata#structfield.additional_data) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn additional_data_as_null(self) -> MetadataBuilder<(T0, ())> {
                    self.additional_data(())
                }
            }

            impl<T0, T1> MetadataBuilder<(T0, T1)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Metadata].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Metadata>
                where
                    Self: ::planus::WriteAsOffset<Metadata>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAs<::planus::Offset<Metadata>> for MetadataBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<Metadata>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Metadata> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAsOptional<::planus::Offset<Metadata>> for MetadataBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<Metadata>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Metadata>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAsOffset<Metadata> for MetadataBuilder<(T0, T1)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Metadata> {
                    let (v0, v1) = &self.0;
                    Metadata::create(builder, v0, v1)
                }
            }

            /// Reference to a deserialized [Metadata].
            #[derive(Copy, Clone)]
            pub struct MetadataRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> MetadataRef<'a> {
                /// Getter for the [`progress_token` field](Metadata#structfield.progress_token).
                #[inline]
                pub fn progress_token(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(0, "Metadata", "progress_token")
                }

                /// Getter for the [`additional_data` field](Metadata#structfield.additional_data).
                #[inline]
                pub fn additional_data(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(1, "Metadata", "additional_data")
                }
            }

            impl<'a> ::core::fmt::Debug for MetadataRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("MetadataRef");
                    if let ::core::option::Option::Some(field_progress_token) = self.progress_token().transpose() {
                        f.field("progress_token", &field_progress_token);
                    }
                    if let ::core::option::Option::Some(field_additional_data) = self.additional_data().transpose() {
                        f.field("additional_data", &field_additional_data);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<MetadataRef<'a>> for Metadata {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: MetadataRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        progress_token: value.progress_token()?.map(::core::convert::Into::into),
                        additional_data: value.additional_data()?.map(::core::convert::Into::into),
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for MetadataRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for MetadataRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[MetadataRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Metadata>> for Metadata {
                type Value = ::planus::Offset<Metadata>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Metadata>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for MetadataRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[MetadataRef]", "read_as_root", 0))
                }
            }

            ///  Different types of content that can be sent/received
            ///
            /// Generated from these locations:
            /// * Union `Content` in the file `record/schema/mcp.fbs:144`
            #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
            pub enum Content {
                /// The variant of type `TextContent` in the union `Content`
                TextContent(::planus::alloc::boxed::Box<self::TextContent>),

                /// The variant of type `ImageContent` in the union `Content`
                ImageContent(::planus::alloc::boxed::Box<self::ImageContent>),

                /// The variant of type `EmbeddedResource` in the union `Content`
                EmbeddedResource(::planus::alloc::boxed::Box<self::EmbeddedResource>),
            }

            impl Content {
                /// Creates a [ContentBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ContentBuilder<::planus::Uninitialized> {
                    ContentBuilder(::planus::Uninitialized)
                }

                #[inline]
                pub fn create_text_content(
                    builder: &mut ::planus::Builder,
                    value: impl ::planus::WriteAsOffset<self::TextContent>,
                ) -> ::planus::UnionOffset<Self> {
                    ::planus::UnionOffset::new(1, value.prepare(builder).downcast())
                }

                #[inline]
                pub fn create_image_content(
                    builder: &mut ::planus::Builder,
                    value: impl ::planus::WriteAsOffset<self::ImageContent>,
                ) -> ::planus::UnionOffset<Self> {
                    ::planus::UnionOffset::new(2, value.prepare(builder).downcast())
                }

                #[inline]
                pub fn create_embedded_resource(
                    builder: &mut ::planus::Builder,
                    value: impl ::planus::WriteAsOffset<self::EmbeddedResource>,
                ) -> ::planus::UnionOffset<Self> {
                    ::planus::UnionOffset::new(3, value.prepare(builder).downcast())
                }
            }

            impl ::planus::WriteAsUnion<Content> for Content {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<Self> {
                    match self {
                        Self::TextContent(value) => Self::create_text_content(builder, value),
                        Self::ImageContent(value) => Self::create_image_content(builder, value),
                        Self::EmbeddedResource(value) => Self::create_embedded_resource(builder, value),
                    }
                }
            }

            impl ::planus::WriteAsOptionalUnion<Content> for Content {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<Self>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }

            /// Builder for serializing an instance of the [Content] type.
            ///
            /// Can be created using the [Content::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ContentBuilder<T>(T);

            impl ContentBuilder<::planus::Uninitialized> {
                /// Creates an instance of the [`TextContent` variant](Content#variant.TextContent).
                #[inline]
                pub fn text_content<T>(self, value: T) -> ContentBuilder<::planus::Initialized<1, T>>
                where
                    T: ::planus::WriteAsOffset<self::TextContent>,
                {
                    ContentBuilder(::planus::Initialized(value))
                }

                /// Creates an instance of the [`ImageContent` variant](Content#variant.ImageContent).
                #[inline]
                pub fn image_content<T>(self, value: T) -> ContentBuilder<::planus::Initialized<2, T>>
                where
                    T: ::planus::WriteAsOffset<self::ImageContent>,
                {
                    ContentBuilder(::planus::Initialized(value))
                }

                /// Creates an instance of the [`EmbeddedResource` variant](Content#variant.EmbeddedResource).
                #[inline]
                pub fn embedded_resource<T>(self, value: T) -> ContentBuilder<::planus::Initialized<3, T>>
                where
                    T: ::planus::WriteAsOffset<self::EmbeddedResource>,
                {
                    ContentBuilder(::planus::Initialized(value))
                }
            }

            impl<const N: u8, T> ContentBuilder<::planus::Initialized<N, T>> {
                /// Finish writing the builder to get an [UnionOffset](::planus::UnionOffset) to a serialized [Content].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<Content>
                where
                    Self: ::planus::WriteAsUnion<Content>,
                {
                    ::planus::WriteAsUnion::prepare(&self, builder)
                }
            }

            impl<T> ::planus::WriteAsUnion<Content> for ContentBuilder<::planus::Initialized<1, T>>
            where
                T: ::planus::WriteAsOffset<self::TextContent>,
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<Content> {
                    ::planus::UnionOffset::new(1, (self.0).0.prepare(builder).downcast())
                }
            }

            impl<T> ::planus::WriteAsOptionalUnion<Content> for ContentBuilder<::planus::Initialized<1, T>>
            where
                T: ::planus::WriteAsOffset<self::TextContent>,
            {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<Content>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }
            impl<T> ::planus::WriteAsUnion<Content> for ContentBuilder<::planus::Initialized<2, T>>
            where
                T: ::planus::WriteAsOffset<self::ImageContent>,
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<Content> {
                    ::planus::UnionOffset::new(2, (self.0).0.prepare(builder).downcast())
                }
            }

            impl<T> ::planus::WriteAsOptionalUnion<Content> for ContentBuilder<::planus::Initialized<2, T>>
            where
                T: ::planus::WriteAsOffset<self::ImageContent>,
            {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<Content>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }
            impl<T> ::planus::WriteAsUnion<Content> for ContentBuilder<::planus::Initialized<3, T>>
            where
                T: ::planus::WriteAsOffset<self::EmbeddedResource>,
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<Content> {
                    ::planus::UnionOffset::new(3, (self.0).0.prepare(builder).downcast())
                }
            }

            impl<T> ::planus::WriteAsOptionalUnion<Content> for ContentBuilder<::planus::Initialized<3, T>>
            where
                T: ::planus::WriteAsOffset<self::EmbeddedResource>,
            {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<Content>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }

            /// Reference to a deserialized [Content].
            #[derive(Copy, Clone, Debug)]
            pub enum ContentRef<'a> {
                TextContent(self::TextContentRef<'a>),
                ImageContent(self::ImageContentRef<'a>),
                EmbeddedResource(self::EmbeddedResourceRef<'a>),
            }

            impl<'a> ::core::convert::TryFrom<ContentRef<'a>> for Content {
                type Error = ::planus::Error;

                fn try_from(value: ContentRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(match value {
                        ContentRef::TextContent(value) => Self::TextContent(::planus::alloc::boxed::Box::new(
                            ::core::convert::TryFrom::try_from(value)?,
                        )),

                        ContentRef::ImageContent(value) => Self::ImageContent(::planus::alloc::boxed::Box::new(
                            ::core::convert::TryFrom::try_from(value)?,
                        )),

                        ContentRef::EmbeddedResource(value) => Self::EmbeddedResource(
                            ::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?),
                        ),
                    })
                }
            }

            impl<'a> ::planus::TableReadUnion<'a> for ContentRef<'a> {
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    tag: u8,
                    field_offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    match tag {
                        1 => ::core::result::Result::Ok(Self::TextContent(::planus::TableRead::from_buffer(
                            buffer,
                            field_offset,
                        )?)),
                        2 => ::core::result::Result::Ok(Self::ImageContent(::planus::TableRead::from_buffer(
                            buffer,
                            field_offset,
                        )?)),
                        3 => ::core::result::Result::Ok(Self::EmbeddedResource(::planus::TableRead::from_buffer(
                            buffer,
                            field_offset,
                        )?)),
                        _ => ::core::result::Result::Err(::planus::errors::ErrorKind::UnknownUnionTag { tag }),
                    }
                }
            }

            impl<'a> ::planus::VectorReadUnion<'a> for ContentRef<'a> {
                const VECTOR_NAME: &'static str = "[ContentRef]";
            }

            ///  Text provided to or from an LLM
            ///
            /// Generated from these locations:
            /// * Table `TextContent` in the file `record/schema/mcp.fbs:150`
            #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
            pub struct TextContent {
                /// The field `type` in the table `TextContent`
                pub type_: ::planus::alloc::string::String,
                /// The field `text` in the table `TextContent`
                pub text: ::planus::alloc::string::String,
                /// The field `annotations` in the table `TextContent`
                pub annotations: ::core::option::Option<::planus::alloc::boxed::Box<self::Annotations>>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for TextContent {
                fn default() -> Self {
                    Self {
                        type_: ::core::default::Default::default(),
                        text: ::core::default::Default::default(),
                        annotations: ::core::default::Default::default(),
                    }
                }
            }

            impl TextContent {
                /// Creates a [TextContentBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> TextContentBuilder<()> {
                    TextContentBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_type_: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_text: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_annotations: impl ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_type_ = field_type_.prepare(builder);
                    let prepared_text = field_text.prepare(builder);
                    let prepared_annotations = field_annotations.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    table_writer.write_entry::<::planus::Offset<str>>(1);
                    if prepared_annotations.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::Annotations>>(2);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_type_);
                            object_writer.write::<_, _, 4>(&prepared_text);
                            if let ::core::option::Option::Some(prepared_annotations) = prepared_annotations {
                                object_writer.write::<_, _, 4>(&prepared_annotations);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<TextContent>> for TextContent {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TextContent> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<TextContent>> for TextContent {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<TextContent>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<TextContent> for TextContent {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TextContent> {
                    TextContent::create(builder, &self.type_, &self.text, &self.annotations)
                }
            }

            /// Builder for serializing an instance of the [TextContent] type.
            ///
            /// Can be created using the [TextContent::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct TextContentBuilder<State>(State);

            impl TextContentBuilder<()> {
                /// Setter for the [`type` field](TextContent#structfield.type_).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn type_<T0>(self, value: T0) -> TextContentBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    TextContentBuilder((value,))
                }
            }

            impl<T0> TextContentBuilder<(T0,)> {
                /// Setter for the [`text` field](TextContent#structfield.text).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn text<T1>(self, value: T1) -> TextContentBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    let (v0,) = self.0;
                    TextContentBuilder((v0, value))
                }
            }

            impl<T0, T1> TextContentBuilder<(T0, T1)> {
                /// Setter for the [`annotations` field](TextContent#structfield.annotations).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn annotations<T2>(self, value: T2) -> TextContentBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                {
                    let (v0, v1) = self.0;
                    TextContentBuilder((v0, v1, value))
                }

                /// Sets the [`annotations` field](TextContent#structfield.annotations) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn annotations_as_null(self) -> TextContentBuilder<(T0, T1, ())> {
                    self.annotations(())
                }
            }

            impl<T0, T1, T2> TextContentBuilder<(T0, T1, T2)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [TextContent].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<TextContent>
                where
                    Self: ::planus::WriteAsOffset<TextContent>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAs<::planus::Offset<TextContent>> for TextContentBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<TextContent>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TextContent> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAsOptional<::planus::Offset<TextContent>> for TextContentBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<TextContent>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<TextContent>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAsOffset<TextContent> for TextContentBuilder<(T0, T1, T2)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TextContent> {
                    let (v0, v1, v2) = &self.0;
                    TextContent::create(builder, v0, v1, v2)
                }
            }

            /// Reference to a deserialized [TextContent].
            #[derive(Copy, Clone)]
            pub struct TextContentRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> TextContentRef<'a> {
                /// Getter for the [`type` field](TextContent#structfield.type_).
                #[inline]
                pub fn type_(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "TextContent", "type_")
                }

                /// Getter for the [`text` field](TextContent#structfield.text).
                #[inline]
                pub fn text(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(1, "TextContent", "text")
                }

                /// Getter for the [`annotations` field](TextContent#structfield.annotations).
                #[inline]
                pub fn annotations(&self) -> ::planus::Result<::core::option::Option<self::AnnotationsRef<'a>>> {
                    self.0.access(2, "TextContent", "annotations")
                }
            }

            impl<'a> ::core::fmt::Debug for TextContentRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("TextContentRef");
                    f.field("type_", &self.type_());
                    f.field("text", &self.text());
                    if let ::core::option::Option::Some(field_annotations) = self.annotations().transpose() {
                        f.field("annotations", &field_annotations);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<TextContentRef<'a>> for TextContent {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: TextContentRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        type_: ::core::convert::Into::into(value.type_()?),
                        text: ::core::convert::Into::into(value.text()?),
                        annotations: if let ::core::option::Option::Some(annotations) = value.annotations()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(annotations)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for TextContentRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for TextContentRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[TextContentRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<TextContent>> for TextContent {
                type Value = ::planus::Offset<TextContent>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<TextContent>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for TextContentRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[TextContentRef]", "read_as_root", 0))
                }
            }

            ///  An image provided to or from an LLM
            ///
            /// Generated from these locations:
            /// * Table `ImageContent` in the file `record/schema/mcp.fbs:156`
            #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
            pub struct ImageContent {
                /// The field `type` in the table `ImageContent`
                pub type_: ::planus::alloc::string::String,
                /// The field `data` in the table `ImageContent`
                pub data: ::planus::alloc::vec::Vec<u8>,
                /// The field `mime_type` in the table `ImageContent`
                pub mime_type: ::planus::alloc::string::String,
                /// The field `annotations` in the table `ImageContent`
                pub annotations: ::core::option::Option<::planus::alloc::boxed::Box<self::Annotations>>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for ImageContent {
                fn default() -> Self {
                    Self {
                        type_: ::core::default::Default::default(),
                        data: ::core::default::Default::default(),
                        mime_type: ::core::default::Default::default(),
                        annotations: ::core::default::Default::default(),
                    }
                }
            }

            impl ImageContent {
                /// Creates a [ImageContentBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ImageContentBuilder<()> {
                    ImageContentBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_type_: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_data: impl ::planus::WriteAs<::planus::Offset<[u8]>>,
                    field_mime_type: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_annotations: impl ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_type_ = field_type_.prepare(builder);
                    let prepared_data = field_data.prepare(builder);
                    let prepared_mime_type = field_mime_type.prepare(builder);
                    let prepared_annotations = field_annotations.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<12> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    table_writer.write_entry::<::planus::Offset<[u8]>>(1);
                    table_writer.write_entry::<::planus::Offset<str>>(2);
                    if prepared_annotations.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::Annotations>>(3);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_type_);
                            object_writer.write::<_, _, 4>(&prepared_data);
                            object_writer.write::<_, _, 4>(&prepared_mime_type);
                            if let ::core::option::Option::Some(prepared_annotations) = prepared_annotations {
                                object_writer.write::<_, _, 4>(&prepared_annotations);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<ImageContent>> for ImageContent {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ImageContent> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<ImageContent>> for ImageContent {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ImageContent>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<ImageContent> for ImageContent {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ImageContent> {
                    ImageContent::create(builder, &self.type_, &self.data, &self.mime_type, &self.annotations)
                }
            }

            /// Builder for serializing an instance of the [ImageContent] type.
            ///
            /// Can be created using the [ImageContent::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ImageContentBuilder<State>(State);

            impl ImageContentBuilder<()> {
                /// Setter for the [`type` field](ImageContent#structfield.type_).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn type_<T0>(self, value: T0) -> ImageContentBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    ImageContentBuilder((value,))
                }
            }

            impl<T0> ImageContentBuilder<(T0,)> {
                /// Setter for the [`data` field](ImageContent#structfield.data).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn data<T1>(self, value: T1) -> ImageContentBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<::planus::Offset<[u8]>>,
                {
                    let (v0,) = self.0;
                    ImageContentBuilder((v0, value))
                }
            }

            impl<T0, T1> ImageContentBuilder<(T0, T1)> {
                /// Setter for the [`mime_type` field](ImageContent#structfield.mime_type).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn mime_type<T2>(self, value: T2) -> ImageContentBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    let (v0, v1) = self.0;
                    ImageContentBuilder((v0, v1, value))
                }
            }

            impl<T0, T1, T2> ImageContentBuilder<(T0, T1, T2)> {
                /// Setter for the [`annotations` field](ImageContent#structfield.annotations).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn annotations<T3>(self, value: T3) -> ImageContentBuilder<(T0, T1, T2, T3)>
                where
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                {
                    let (v0, v1, v2) = self.0;
                    ImageContentBuilder((v0, v1, v2, value))
                }

                /// Sets the [`annotations` field](ImageContent#structfield.annotations) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn annotations_as_null(self) -> ImageContentBuilder<(T0, T1, T2, ())> {
                    self.annotations(())
                }
            }

            impl<T0, T1, T2, T3> ImageContentBuilder<(T0, T1, T2, T3)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [ImageContent].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<ImageContent>
                where
                    Self: ::planus::WriteAsOffset<ImageContent>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<[u8]>>,
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAs<::planus::Offset<ImageContent>> for ImageContentBuilder<(T0, T1, T2, T3)>
            {
                type Prepared = ::planus::Offset<ImageContent>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ImageContent> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<[u8]>>,
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAsOptional<::planus::Offset<ImageContent>> for ImageContentBuilder<(T0, T1, T2, T3)>
            {
                type Prepared = ::planus::Offset<ImageContent>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ImageContent>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<[u8]>>,
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAsOffset<ImageContent> for ImageContentBuilder<(T0, T1, T2, T3)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ImageContent> {
                    let (v0, v1, v2, v3) = &self.0;
                    ImageContent::create(builder, v0, v1, v2, v3)
                }
            }

            /// Reference to a deserialized [ImageContent].
            #[derive(Copy, Clone)]
            pub struct ImageContentRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ImageContentRef<'a> {
                /// Getter for the [`type` field](ImageContent#structfield.type_).
                #[inline]
                pub fn type_(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "ImageContent", "type_")
                }

                /// Getter for the [`data` field](ImageContent#structfield.data).
                #[inline]
                pub fn data(&self) -> ::planus::Result<&'a [u8]> {
                    self.0.access_required(1, "ImageContent", "data")
                }

                /// Getter for the [`mime_type` field](ImageContent#structfield.mime_type).
                #[inline]
                pub fn mime_type(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(2, "ImageContent", "mime_type")
                }

                /// Getter for the [`annotations` field](ImageContent#structfield.annotations).
                #[inline]
                pub fn annotations(&self) -> ::planus::Result<::core::option::Option<self::AnnotationsRef<'a>>> {
                    self.0.access(3, "ImageContent", "annotations")
                }
            }

            impl<'a> ::core::fmt::Debug for ImageContentRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ImageContentRef");
                    f.field("type_", &self.type_());
                    f.field("data", &self.data());
                    f.field("mime_type", &self.mime_type());
                    if let ::core::option::Option::Some(field_annotations) = self.annotations().transpose() {
                        f.field("annotations", &field_annotations);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ImageContentRef<'a>> for ImageContent {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ImageContentRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        type_: ::core::convert::Into::into(value.type_()?),
                        data: value.data()?.to_vec(),
                        mime_type: ::core::convert::Into::into(value.mime_type()?),
                        annotations: if let ::core::option::Option::Some(annotations) = value.annotations()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(annotations)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ImageContentRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ImageContentRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ImageContentRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<ImageContent>> for ImageContent {
                type Value = ::planus::Offset<ImageContent>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<ImageContent>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ImageContentRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ImageContentRef]", "read_as_root", 0))
                }
            }

            ///  A resource embedded into a message
            ///
            /// Generated from these locations:
            /// * Table `EmbeddedResource` in the file `record/schema/mcp.fbs:163`
            #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
            pub struct EmbeddedResource {
                /// The field `type` in the table `EmbeddedResource`
                pub type_: ::planus::alloc::string::String,
                /// The field `resource` in the table `EmbeddedResource`
                pub resource: ::planus::alloc::boxed::Box<self::ResourceContents>,
                /// The field `annotations` in the table `EmbeddedResource`
                pub annotations: ::core::option::Option<::planus::alloc::boxed::Box<self::Annotations>>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for EmbeddedResource {
                fn default() -> Self {
                    Self {
                        type_: ::core::default::Default::default(),
                        resource: ::core::default::Default::default(),
                        annotations: ::core::default::Default::default(),
                    }
                }
            }

            impl EmbeddedResource {
                /// Creates a [EmbeddedResourceBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> EmbeddedResourceBuilder<()> {
                    EmbeddedResourceBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_type_: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_resource: impl ::planus::WriteAs<::planus::Offset<self::ResourceContents>>,
                    field_annotations: impl ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_type_ = field_type_.prepare(builder);
                    let prepared_resource = field_resource.prepare(builder);
                    let prepared_annotations = field_annotations.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    table_writer.write_entry::<::planus::Offset<self::ResourceContents>>(1);
                    if prepared_annotations.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::Annotations>>(2);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_type_);
                            object_writer.write::<_, _, 4>(&prepared_resource);
                            if let ::core::option::Option::Some(prepared_annotations) = prepared_annotations {
                                object_writer.write::<_, _, 4>(&prepared_annotations);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<EmbeddedResource>> for EmbeddedResource {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<EmbeddedResource> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<EmbeddedResource>> for EmbeddedResource {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<EmbeddedResource>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<EmbeddedResource> for EmbeddedResource {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<EmbeddedResource> {
                    EmbeddedResource::create(builder, &self.type_, &self.resource, &self.annotations)
                }
            }

            /// Builder for serializing an instance of the [EmbeddedResource] type.
            ///
            /// Can be created using the [EmbeddedResource::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct EmbeddedResourceBuilder<State>(State);

            impl EmbeddedResourceBuilder<()> {
                /// Setter for the [`type` field](EmbeddedResource#structfield.type_).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn type_<T0>(self, value: T0) -> EmbeddedResourceBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    EmbeddedResourceBuilder((value,))
                }
            }

            impl<T0> EmbeddedResourceBuilder<(T0,)> {
                /// Setter for the [`resource` field](EmbeddedResource#structfield.resource).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn resource<T1>(self, value: T1) -> EmbeddedResourceBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<::planus::Offset<self::ResourceContents>>,
                {
                    let (v0,) = self.0;
                    EmbeddedResourceBuilder((v0, value))
                }
            }

            impl<T0, T1> EmbeddedResourceBuilder<(T0, T1)> {
                /// Setter for the [`annotations` field](EmbeddedResource#structfield.annotations).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn annotations<T2>(self, value: T2) -> EmbeddedResourceBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                {
                    let (v0, v1) = self.0;
                    EmbeddedResourceBuilder((v0, v1, value))
                }

                /// Sets the [`annotations` field](EmbeddedResource#structfield.annotations) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn annotations_as_null(self) -> EmbeddedResourceBuilder<(T0, T1, ())> {
                    self.annotations(())
                }
            }

            impl<T0, T1, T2> EmbeddedResourceBuilder<(T0, T1, T2)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [EmbeddedResource].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<EmbeddedResource>
                where
                    Self: ::planus::WriteAsOffset<EmbeddedResource>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<self::ResourceContents>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAs<::planus::Offset<EmbeddedResource>> for EmbeddedResourceBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<EmbeddedResource>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<EmbeddedResource> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<self::ResourceContents>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAsOptional<::planus::Offset<EmbeddedResource>>
                for EmbeddedResourceBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<EmbeddedResource>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<EmbeddedResource>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<self::ResourceContents>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAsOffset<EmbeddedResource> for EmbeddedResourceBuilder<(T0, T1, T2)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<EmbeddedResource> {
                    let (v0, v1, v2) = &self.0;
                    EmbeddedResource::create(builder, v0, v1, v2)
                }
            }

            /// Reference to a deserialized [EmbeddedResource].
            #[derive(Copy, Clone)]
            pub struct EmbeddedResourceRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> EmbeddedResourceRef<'a> {
                /// Getter for the [`type` field](EmbeddedResource#structfield.type_).
                #[inline]
                pub fn type_(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "EmbeddedResource", "type_")
                }

                /// Getter for the [`resource` field](EmbeddedResource#structfield.resource).
                #[inline]
                pub fn resource(&self) -> ::planus::Result<self::ResourceContentsRef<'a>> {
                    self.0.access_required(1, "EmbeddedResource", "resource")
                }

                /// Getter for the [`annotations` field](EmbeddedResource#structfield.annotations).
                #[inline]
                pub fn annotations(&self) -> ::planus::Result<::core::option::Option<self::AnnotationsRef<'a>>> {
                    self.0.access(2, "EmbeddedResource", "annotations")
                }
            }

            impl<'a> ::core::fmt::Debug for EmbeddedResourceRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("EmbeddedResourceRef");
                    f.field("type_", &self.type_());
                    f.field("resource", &self.resource());
                    if let ::core::option::Option::Some(field_annotations) = self.annotations().transpose() {
                        f.field("annotations", &field_annotations);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<EmbeddedResourceRef<'a>> for EmbeddedResource {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: EmbeddedResourceRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        type_: ::core::convert::Into::into(value.type_()?),
                        resource: ::planus::alloc::boxed::Box::new(::core::convert::TryInto::try_into(
                            value.resource()?,
                        )?),
                        annotations: if let ::core::option::Option::Some(annotations) = value.annotations()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(annotations)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for EmbeddedResourceRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for EmbeddedResourceRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[EmbeddedResourceRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<EmbeddedResource>> for EmbeddedResource {
                type Value = ::planus::Offset<EmbeddedResource>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<EmbeddedResource>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for EmbeddedResourceRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[EmbeddedResourceRef]", "read_as_root", 0))
                }
            }

            ///  Optional annotations for content
            ///
            /// Generated from these locations:
            /// * Table `Annotations` in the file `record/schema/mcp.fbs:169`
            #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Annotations {
                /// The field `audience` in the table `Annotations`
                pub audience: ::core::option::Option<::planus::alloc::vec::Vec<self::Role>>,
                /// The field `priority` in the table `Annotations`
                pub priority: f32,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Annotations {
                fn default() -> Self {
                    Self { audience: ::core::default::Default::default(), priority: 0.0 }
                }
            }

            impl Annotations {
                /// Creates a [AnnotationsBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> AnnotationsBuilder<()> {
                    AnnotationsBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_audience: impl ::planus::WriteAsOptional<::planus::Offset<[self::Role]>>,
                    field_priority: impl ::planus::WriteAsDefault<f32, f32>,
                ) -> ::planus::Offset<Self> {
                    let prepared_audience = field_audience.prepare(builder);
                    let prepared_priority = field_priority.prepare(builder, &0.0);

                    let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                    if prepared_audience.is_some() {
                        table_writer.write_entry::<::planus::Offset<[self::Role]>>(0);
                    }
                    if prepared_priority.is_some() {
                        table_writer.write_entry::<f32>(1);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            if let ::core::option::Option::Some(prepared_audience) = prepared_audience {
                                object_writer.write::<_, _, 4>(&prepared_audience);
                            }
                            if let ::core::option::Option::Some(prepared_priority) = prepared_priority {
                                object_writer.write::<_, _, 4>(&prepared_priority);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Annotations>> for Annotations {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Annotations> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Annotations>> for Annotations {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Annotations>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Annotations> for Annotations {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Annotations> {
                    Annotations::create(builder, &self.audience, self.priority)
                }
            }

            /// Builder for serializing an instance of the [Annotations] type.
            ///
            /// Can be created using the [Annotations::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct AnnotationsBuilder<State>(State);

            impl AnnotationsBuilder<()> {
                /// Setter for the [`audience` field](Annotations#structfield.audience).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn audience<T0>(self, value: T0) -> AnnotationsBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsOptional<::planus::Offset<[self::Role]>>,
                {
                    AnnotationsBuilder((value,))
                }

                /// Sets the [`audience` field](Annotations#structfield.audience) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn audience_as_null(self) -> AnnotationsBuilder<((),)> {
                    self.audience(())
                }
            }

            impl<T0> AnnotationsBuilder<(T0,)> {
                /// Setter for the [`priority` field](Annotations#structfield.priority).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn priority<T1>(self, value: T1) -> AnnotationsBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsDefault<f32, f32>,
                {
                    let (v0,) = self.0;
                    AnnotationsBuilder((v0, value))
                }

                /// Sets the [`priority` field](Annotations#structfield.priority) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn priority_as_default(self) -> AnnotationsBuilder<(T0, ::planus::DefaultValue)> {
                    self.priority(::planus::DefaultValue)
                }
            }

            impl<T0, T1> AnnotationsBuilder<(T0, T1)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Annotations].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Annotations>
                where
                    Self: ::planus::WriteAsOffset<Annotations>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<[self::Role]>>,
                    T1: ::planus::WriteAsDefault<f32, f32>,
                > ::planus::WriteAs<::planus::Offset<Annotations>> for AnnotationsBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<Annotations>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Annotations> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<[self::Role]>>,
                    T1: ::planus::WriteAsDefault<f32, f32>,
                > ::planus::WriteAsOptional<::planus::Offset<Annotations>> for AnnotationsBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<Annotations>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Annotations>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<[self::Role]>>,
                    T1: ::planus::WriteAsDefault<f32, f32>,
                > ::planus::WriteAsOffset<Annotations> for AnnotationsBuilder<(T0, T1)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Annotations> {
                    let (v0, v1) = &self.0;
                    Annotations::create(builder, v0, v1)
                }
            }

            /// Reference to a deserialized [Annotations].
            #[derive(Copy, Clone)]
            pub struct AnnotationsRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> AnnotationsRef<'a> {
                /// Getter for the [`audience` field](Annotations#structfield.audience).
                #[inline]
                pub fn audience(
                    &self,
                ) -> ::planus::Result<
                    ::core::option::Option<
                        ::planus::Vector<'a, ::core::result::Result<self::Role, ::planus::errors::UnknownEnumTag>>,
                    >,
                > {
                    self.0.access(0, "Annotations", "audience")
                }

                /// Getter for the [`priority` field](Annotations#structfield.priority).
                #[inline]
                pub fn priority(&self) -> ::planus::Result<f32> {
                    ::core::result::Result::Ok(self.0.access(1, "Annotations", "priority")?.unwrap_or(0.0))
                }
            }

            impl<'a> ::core::fmt::Debug for AnnotationsRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("AnnotationsRef");
                    if let ::core::option::Option::Some(field_audience) = self.audience().transpose() {
                        f.field("audience", &field_audience);
                    }
                    f.field("priority", &self.priority());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<AnnotationsRef<'a>> for Annotations {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: AnnotationsRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        audience: if let ::core::option::Option::Some(audience) = value.audience()? {
                            ::core::option::Option::Some(audience.to_vec_result()?)
                        } else {
                            ::core::option::Option::None
                        },
                        priority: ::core::convert::TryInto::try_into(value.priority()?)?,
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for AnnotationsRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for AnnotationsRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[AnnotationsRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Annotations>> for Annotations {
                type Value = ::planus::Offset<Annotations>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Annotations>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for AnnotationsRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[AnnotationsRef]", "read_as_root", 0))
                }
            }

            ///  A known resource that the server is capable of reading
            ///
            /// Generated from these locations:
            /// * Table `Resource` in the file `record/schema/mcp.fbs:174`
            #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Resource {
                /// The field `uri` in the table `Resource`
                pub uri: ::planus::alloc::string::String,
                /// The field `name` in the table `Resource`
                pub name: ::planus::alloc::string::String,
                /// The field `description` in the table `Resource`
                pub description: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `mime_type` in the table `Resource`
                pub mime_type: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `annotations` in the table `Resource`
                pub annotations: ::core::option::Option<::planus::alloc::boxed::Box<self::Annotations>>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Resource {
                fn default() -> Self {
                    Self {
                        uri: ::core::default::Default::default(),
                        name: ::core::default::Default::default(),
                        description: ::core::default::Default::default(),
                        mime_type: ::core::default::Default::default(),
                        annotations: ::core::default::Default::default(),
                    }
                }
            }

            impl Resource {
                /// Creates a [ResourceBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ResourceBuilder<()> {
                    ResourceBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_uri: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_description: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_mime_type: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_annotations: impl ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_uri = field_uri.prepare(builder);
                    let prepared_name = field_name.prepare(builder);
                    let prepared_description = field_description.prepare(builder);
                    let prepared_mime_type = field_mime_type.prepare(builder);
                    let prepared_annotations = field_annotations.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<14> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    table_writer.write_entry::<::planus::Offset<str>>(1);
                    if prepared_description.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(2);
                    }
                    if prepared_mime_type.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(3);
                    }
                    if prepared_annotations.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::Annotations>>(4);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_uri);
                            object_writer.write::<_, _, 4>(&prepared_name);
                            if let ::core::option::Option::Some(prepared_description) = prepared_description {
                                object_writer.write::<_, _, 4>(&prepared_description);
                            }
                            if let ::core::option::Option::Some(prepared_mime_type) = prepared_mime_type {
                                object_writer.write::<_, _, 4>(&prepared_mime_type);
                            }
                            if let ::core::option::Option::Some(prepared_annotations) = prepared_annotations {
                                object_writer.write::<_, _, 4>(&prepared_annotations);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Resource>> for Resource {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Resource> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Resource>> for Resource {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Resource>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Resource> for Resource {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Resource> {
                    Resource::create(
                        builder,
                        &self.uri,
                        &self.name,
                        &self.description,
                        &self.mime_type,
                        &self.annotations,
                    )
                }
            }

            /// Builder for serializing an instance of the [Resource] type.
            ///
            /// Can be created using the [Resource::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ResourceBuilder<State>(State);

            impl ResourceBuilder<()> {
                /// Setter for the [`uri` field](Resource#structfield.uri).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn uri<T0>(self, value: T0) -> ResourceBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    ResourceBuilder((value,))
                }
            }

            impl<T0> ResourceBuilder<(T0,)> {
                /// Setter for the [`name` field](Resource#structfield.name).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn name<T1>(self, value: T1) -> ResourceBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    let (v0,) = self.0;
                    ResourceBuilder((v0, value))
                }
            }

            impl<T0, T1> ResourceBuilder<(T0, T1)> {
                /// Setter for the [`description` field](Resource#structfield.description).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn description<T2>(self, value: T2) -> ResourceBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0, v1) = self.0;
                    ResourceBuilder((v0, v1, value))
                }

                /// Sets the [`description` field](Resource#structfield.description) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn description_as_null(self) -> ResourceBuilder<(T0, T1, ())> {
                    self.description(())
                }
            }

            impl<T0, T1, T2> ResourceBuilder<(T0, T1, T2)> {
                /// Setter for the [`mime_type` field](Resource#structfield.mime_type).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn mime_type<T3>(self, value: T3) -> ResourceBuilder<(T0, T1, T2, T3)>
                where
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0, v1, v2) = self.0;
                    ResourceBuilder((v0, v1, v2, value))
                }

                /// Sets the [`mime_type` field](Resource#structfield.mime_type) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn mime_type_as_null(self) -> ResourceBuilder<(T0, T1, T2, ())> {
                    self.mime_type(())
                }
            }

            impl<T0, T1, T2, T3> ResourceBuilder<(T0, T1, T2, T3)> {
                /// Setter for the [`annotations` field](Resource#structfield.annotations).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn annotations<T4>(self, value: T4) -> ResourceBuilder<(T0, T1, T2, T3, T4)>
                where
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                {
                    let (v0, v1, v2, v3) = self.0;
                    ResourceBuilder((v0, v1, v2, v3, value))
                }

                /// Sets the [`annotations` field](Resource#structfield.annotations) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn annotations_as_null(self) -> ResourceBuilder<(T0, T1, T2, T3, ())> {
                    self.annotations(())
                }
            }

            impl<T0, T1, T2, T3, T4> ResourceBuilder<(T0, T1, T2, T3, T4)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Resource].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Resource>
                where
                    Self: ::planus::WriteAsOffset<Resource>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAs<::planus::Offset<Resource>> for ResourceBuilder<(T0, T1, T2, T3, T4)>
            {
                type Prepared = ::planus::Offset<Resource>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Resource> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAsOptional<::planus::Offset<Resource>> for ResourceBuilder<(T0, T1, T2, T3, T4)>
            {
                type Prepared = ::planus::Offset<Resource>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Resource>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAsOffset<Resource> for ResourceBuilder<(T0, T1, T2, T3, T4)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Resource> {
                    let (v0, v1, v2, v3, v4) = &self.0;
                    Resource::create(builder, v0, v1, v2, v3, v4)
                }
            }

            /// Reference to a deserialized [Resource].
            #[derive(Copy, Clone)]
            pub struct ResourceRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ResourceRef<'a> {
                /// Getter for the [`uri` field](Resource#structfield.uri).
                #[inline]
                pub fn uri(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "Resource", "uri")
                }

                /// Getter for the [`name` field](Resource#structfield.name).
                #[inline]
                pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(1, "Resource", "name")
                }

                /// Getter for the [`description` field](Resource#structfield.description).
                #[inline]
                pub fn description(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(2, "Resource", "description")
                }

                /// Getter for the [`mime_type` field](Resource#structfield.mime_type).
                #[inline]
                pub fn mime_type(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(3, "Resource", "mime_type")
                }

                /// Getter for the [`annotations` field](Resource#structfield.annotations).
                #[inline]
                pub fn annotations(&self) -> ::planus::Result<::core::option::Option<self::AnnotationsRef<'a>>> {
                    self.0.access(4, "Resource", "annotations")
                }
            }

            impl<'a> ::core::fmt::Debug for ResourceRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ResourceRef");
                    f.field("uri", &self.uri());
                    f.field("name", &self.name());
                    if let ::core::option::Option::Some(field_description) = self.description().transpose() {
                        f.field("description", &field_description);
                    }
                    if let ::core::option::Option::Some(field_mime_type) = self.mime_type().transpose() {
                        f.field("mime_type", &field_mime_type);
                    }
                    if let ::core::option::Option::Some(field_annotations) = self.annotations().transpose() {
                        f.field("annotations", &field_annotations);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ResourceRef<'a>> for Resource {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ResourceRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        uri: ::core::convert::Into::into(value.uri()?),
                        name: ::core::convert::Into::into(value.name()?),
                        description: value.description()?.map(::core::convert::Into::into),
                        mime_type: value.mime_type()?.map(::core::convert::Into::into),
                        annotations: if let ::core::option::Option::Some(annotations) = value.annotations()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(annotations)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ResourceRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ResourceRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ResourceRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Resource>> for Resource {
                type Value = ::planus::Offset<Resource>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Resource>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ResourceRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ResourceRef]", "read_as_root", 0))
                }
            }

            ///  A template description for resources available on the server using URI templates (RFC 6570)
            ///
            /// Generated from these locations:
            /// * Table `ResourceTemplate` in the file `record/schema/mcp.fbs:182`
            #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
            pub struct ResourceTemplate {
                /// The field `uri_template` in the table `ResourceTemplate`
                pub uri_template: ::planus::alloc::string::String,
                /// The field `name` in the table `ResourceTemplate`
                pub name: ::planus::alloc::string::String,
                /// The field `description` in the table `ResourceTemplate`
                pub description: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `mime_type` in the table `ResourceTemplate`
                pub mime_type: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `annotations` in the table `ResourceTemplate`
                pub annotations: ::core::option::Option<::planus::alloc::boxed::Box<self::Annotations>>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for ResourceTemplate {
                fn default() -> Self {
                    Self {
                        uri_template: ::core::default::Default::default(),
                        name: ::core::default::Default::default(),
                        description: ::core::default::Default::default(),
                        mime_type: ::core::default::Default::default(),
                        annotations: ::core::default::Default::default(),
                    }
                }
            }

            impl ResourceTemplate {
                /// Creates a [ResourceTemplateBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ResourceTemplateBuilder<()> {
                    ResourceTemplateBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_uri_template: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_description: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_mime_type: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_annotations: impl ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_uri_template = field_uri_template.prepare(builder);
                    let prepared_name = field_name.prepare(builder);
                    let prepared_description = field_description.prepare(builder);
                    let prepared_mime_type = field_mime_type.prepare(builder);
                    let prepared_annotations = field_annotations.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<14> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    table_writer.write_entry::<::planus::Offset<str>>(1);
                    if prepared_description.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(2);
                    }
                    if prepared_mime_type.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(3);
                    }
                    if prepared_annotations.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::Annotations>>(4);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_uri_template);
                            object_writer.write::<_, _, 4>(&prepared_name);
                            if let ::core::option::Option::Some(prepared_description) = prepared_description {
                                object_writer.write::<_, _, 4>(&prepared_description);
                            }
                            if let ::core::option::Option::Some(prepared_mime_type) = prepared_mime_type {
                                object_writer.write::<_, _, 4>(&prepared_mime_type);
                            }
                            if let ::core::option::Option::Some(prepared_annotations) = prepared_annotations {
                                object_writer.write::<_, _, 4>(&prepared_annotations);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<ResourceTemplate>> for ResourceTemplate {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourceTemplate> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<ResourceTemplate>> for ResourceTemplate {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ResourceTemplate>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<ResourceTemplate> for ResourceTemplate {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourceTemplate> {
                    ResourceTemplate::create(
                        builder,
                        &self.uri_template,
                        &self.name,
                        &self.description,
                        &self.mime_type,
                        &self.annotations,
                    )
                }
            }

            /// Builder for serializing an instance of the [ResourceTemplate] type.
            ///
            /// Can be created using the [ResourceTemplate::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ResourceTemplateBuilder<State>(State);

            impl ResourceTemplateBuilder<()> {
                /// Setter for the [`uri_template` field](ResourceTemplate#structfield.uri_template).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn uri_template<T0>(self, value: T0) -> ResourceTemplateBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    ResourceTemplateBuilder((value,))
                }
            }

            impl<T0> ResourceTemplateBuilder<(T0,)> {
                /// Setter for the [`name` field](ResourceTemplate#structfield.name).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn name<T1>(self, value: T1) -> ResourceTemplateBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    let (v0,) = self.0;
                    ResourceTemplateBuilder((v0, value))
                }
            }

            impl<T0, T1> ResourceTemplateBuilder<(T0, T1)> {
                /// Setter for the [`description` field](ResourceTemplate#structfield.description).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn description<T2>(self, value: T2) -> ResourceTemplateBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0, v1) = self.0;
                    ResourceTemplateBuilder((v0, v1, value))
                }

                /// Sets the [`description` field](ResourceTemplate#structfield.description) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn description_as_null(self) -> ResourceTemplateBuilder<(T0, T1, ())> {
                    self.description(())
                }
            }

            impl<T0, T1, T2> ResourceTemplateBuilder<(T0, T1, T2)> {
                /// Setter for the [`mime_type` field](ResourceTemplate#structfield.mime_type).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn mime_type<T3>(self, value: T3) -> ResourceTemplateBuilder<(T0, T1, T2, T3)>
                where
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0, v1, v2) = self.0;
                    ResourceTemplateBuilder((v0, v1, v2, value))
                }

                /// Sets the [`mime_type` field](ResourceTemplate#structfield.mime_type) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn mime_type_as_null(self) -> ResourceTemplateBuilder<(T0, T1, T2, ())> {
                    self.mime_type(())
                }
            }

            impl<T0, T1, T2, T3> ResourceTemplateBuilder<(T0, T1, T2, T3)> {
                /// Setter for the [`annotations` field](ResourceTemplate#structfield.annotations).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn annotations<T4>(self, value: T4) -> ResourceTemplateBuilder<(T0, T1, T2, T3, T4)>
                where
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                {
                    let (v0, v1, v2, v3) = self.0;
                    ResourceTemplateBuilder((v0, v1, v2, v3, value))
                }

                /// Sets the [`annotations` field](ResourceTemplate#structfield.annotations) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn annotations_as_null(self) -> ResourceTemplateBuilder<(T0, T1, T2, T3, ())> {
                    self.annotations(())
                }
            }

            impl<T0, T1, T2, T3, T4> ResourceTemplateBuilder<(T0, T1, T2, T3, T4)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [ResourceTemplate].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourceTemplate>
                where
                    Self: ::planus::WriteAsOffset<ResourceTemplate>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAs<::planus::Offset<ResourceTemplate>>
                for ResourceTemplateBuilder<(T0, T1, T2, T3, T4)>
            {
                type Prepared = ::planus::Offset<ResourceTemplate>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourceTemplate> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAsOptional<::planus::Offset<ResourceTemplate>>
                for ResourceTemplateBuilder<(T0, T1, T2, T3, T4)>
            {
                type Prepared = ::planus::Offset<ResourceTemplate>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ResourceTemplate>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T4: ::planus::WriteAsOptional<::planus::Offset<self::Annotations>>,
                > ::planus::WriteAsOffset<ResourceTemplate> for ResourceTemplateBuilder<(T0, T1, T2, T3, T4)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourceTemplate> {
                    let (v0, v1, v2, v3, v4) = &self.0;
                    ResourceTemplate::create(builder, v0, v1, v2, v3, v4)
                }
            }

            /// Reference to a deserialized [ResourceTemplate].
            #[derive(Copy, Clone)]
            pub struct ResourceTemplateRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ResourceTemplateRef<'a> {
                /// Getter for the [`uri_template` field](ResourceTemplate#structfield.uri_template).
                #[inline]
                pub fn uri_template(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "ResourceTemplate", "uri_template")
                }

                /// Getter for the [`name` field](ResourceTemplate#structfield.name).
                #[inline]
                pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(1, "ResourceTemplate", "name")
                }

                /// Getter for the [`description` field](ResourceTemplate#structfield.description).
                #[inline]
                pub fn description(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(2, "ResourceTemplate", "description")
                }

                /// Getter for the [`mime_type` field](ResourceTemplate#structfield.mime_type).
                #[inline]
                pub fn mime_type(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(3, "ResourceTemplate", "mime_type")
                }

                /// Getter for the [`annotations` field](ResourceTemplate#structfield.annotations).
                #[inline]
                pub fn annotations(&self) -> ::planus::Result<::core::option::Option<self::AnnotationsRef<'a>>> {
                    self.0.access(4, "ResourceTemplate", "annotations")
                }
            }

            impl<'a> ::core::fmt::Debug for ResourceTemplateRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ResourceTemplateRef");
                    f.field("uri_template", &self.uri_template());
                    f.field("name", &self.name());
                    if let ::core::option::Option::Some(field_description) = self.description().transpose() {
                        f.field("description", &field_description);
                    }
                    if let ::core::option::Option::Some(field_mime_type) = self.mime_type().transpose() {
                        f.field("mime_type", &field_mime_type);
                    }
                    if let ::core::option::Option::Some(field_annotations) = self.annotations().transpose() {
                        f.field("annotations", &field_annotations);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ResourceTemplateRef<'a>> for ResourceTemplate {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ResourceTemplateRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        uri_template: ::core::convert::Into::into(value.uri_template()?),
                        name: ::core::convert::Into::into(value.name()?),
                        description: value.description()?.map(::core::convert::Into::into),
                        mime_type: value.mime_type()?.map(::core::convert::Into::into),
                        annotations: if let ::core::option::Option::Some(annotations) = value.annotations()? {
                            ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                                ::core::convert::TryInto::try_into(annotations)?,
                            ))
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ResourceTemplateRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ResourceTemplateRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ResourceTemplateRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<ResourceTemplate>> for ResourceTemplate {
                type Value = ::planus::Offset<ResourceTemplate>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<ResourceTemplate>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ResourceTemplateRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ResourceTemplateRef]", "read_as_root", 0))
                }
            }

            ///  Different types of resource content
            ///
            /// Generated from these locations:
            /// * Union `ResourceData` in the file `record/schema/mcp.fbs:190`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub enum ResourceData {
                /// The variant of type `TextResourceData` in the union `ResourceData`
                TextResourceData(::planus::alloc::boxed::Box<self::TextResourceData>),

                /// The variant of type `BlobResourceData` in the union `ResourceData`
                BlobResourceData(::planus::alloc::boxed::Box<self::BlobResourceData>),
            }

            impl ResourceData {
                /// Creates a [ResourceDataBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ResourceDataBuilder<::planus::Uninitialized> {
                    ResourceDataBuilder(::planus::Uninitialized)
                }

                #[inline]
                pub fn create_text_resource_data(
                    builder: &mut ::planus::Builder,
                    value: impl ::planus::WriteAsOffset<self::TextResourceData>,
                ) -> ::planus::UnionOffset<Self> {
                    ::planus::UnionOffset::new(1, value.prepare(builder).downcast())
                }

                #[inline]
                pub fn create_blob_resource_data(
                    builder: &mut ::planus::Builder,
                    value: impl ::planus::WriteAsOffset<self::BlobResourceData>,
                ) -> ::planus::UnionOffset<Self> {
                    ::planus::UnionOffset::new(2, value.prepare(builder).downcast())
                }
            }

            impl ::planus::WriteAsUnion<ResourceData> for ResourceData {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<Self> {
                    match self {
                        Self::TextResourceData(value) => Self::create_text_resource_data(builder, value),
                        Self::BlobResourceData(value) => Self::create_blob_resource_data(builder, value),
                    }
                }
            }

            impl ::planus::WriteAsOptionalUnion<ResourceData> for ResourceData {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<Self>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }

            /// Builder for serializing an instance of the [ResourceData] type.
            ///
            /// Can be created using the [ResourceData::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ResourceDataBuilder<T>(T);

            impl ResourceDataBuilder<::planus::Uninitialized> {
                /// Creates an instance of the [`TextResourceData` variant](ResourceData#variant.TextResourceData).
                #[inline]
                pub fn text_resource_data<T>(self, value: T) -> ResourceDataBuilder<::planus::Initialized<1, T>>
                where
                    T: ::planus::WriteAsOffset<self::TextResourceData>,
                {
                    ResourceDataBuilder(::planus::Initialized(value))
                }

                /// Creates an instance of the [`BlobResourceData` variant](ResourceData#variant.BlobResourceData).
                #[inline]
                pub fn blob_resource_data<T>(self, value: T) -> ResourceDataBuilder<::planus::Initialized<2, T>>
                where
                    T: ::planus::WriteAsOffset<self::BlobResourceData>,
                {
                    ResourceDataBuilder(::planus::Initialized(value))
                }
            }

            impl<const N: u8, T> ResourceDataBuilder<::planus::Initialized<N, T>> {
                /// Finish writing the builder to get an [UnionOffset](::planus::UnionOffset) to a serialized [ResourceData].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ResourceData>
                where
                    Self: ::planus::WriteAsUnion<ResourceData>,
                {
                    ::planus::WriteAsUnion::prepare(&self, builder)
                }
            }

            impl<T> ::planus::WriteAsUnion<ResourceData> for ResourceDataBuilder<::planus::Initialized<1, T>>
            where
                T: ::planus::WriteAsOffset<self::TextResourceData>,
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ResourceData> {
                    ::planus::UnionOffset::new(1, (self.0).0.prepare(builder).downcast())
                }
            }

            impl<T> ::planus::WriteAsOptionalUnion<ResourceData> for ResourceDataBuilder<::planus::Initialized<1, T>>
            where
                T: ::planus::WriteAsOffset<self::TextResourceData>,
            {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<ResourceData>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }
            impl<T> ::planus::WriteAsUnion<ResourceData> for ResourceDataBuilder<::planus::Initialized<2, T>>
            where
                T: ::planus::WriteAsOffset<self::BlobResourceData>,
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ResourceData> {
                    ::planus::UnionOffset::new(2, (self.0).0.prepare(builder).downcast())
                }
            }

            impl<T> ::planus::WriteAsOptionalUnion<ResourceData> for ResourceDataBuilder<::planus::Initialized<2, T>>
            where
                T: ::planus::WriteAsOffset<self::BlobResourceData>,
            {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<ResourceData>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }

            /// Reference to a deserialized [ResourceData].
            #[derive(Copy, Clone, Debug)]
            pub enum ResourceDataRef<'a> {
                TextResourceData(self::TextResourceDataRef<'a>),
                BlobResourceData(self::BlobResourceDataRef<'a>),
            }

            impl<'a> ::core::convert::TryFrom<ResourceDataRef<'a>> for ResourceData {
                type Error = ::planus::Error;

                fn try_from(value: ResourceDataRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(match value {
                        ResourceDataRef::TextResourceData(value) => Self::TextResourceData(
                            ::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?),
                        ),

                        ResourceDataRef::BlobResourceData(value) => Self::BlobResourceData(
                            ::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?),
                        ),
                    })
                }
            }

            impl<'a> ::planus::TableReadUnion<'a> for ResourceDataRef<'a> {
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    tag: u8,
                    field_offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    match tag {
                        1 => ::core::result::Result::Ok(Self::TextResourceData(::planus::TableRead::from_buffer(
                            buffer,
                            field_offset,
                        )?)),
                        2 => ::core::result::Result::Ok(Self::BlobResourceData(::planus::TableRead::from_buffer(
                            buffer,
                            field_offset,
                        )?)),
                        _ => ::core::result::Result::Err(::planus::errors::ErrorKind::UnknownUnionTag { tag }),
                    }
                }
            }

            impl<'a> ::planus::VectorReadUnion<'a> for ResourceDataRef<'a> {
                const VECTOR_NAME: &'static str = "[ResourceDataRef]";
            }

            ///  The contents of a specific resource
            ///
            /// Generated from these locations:
            /// * Table `ResourceContents` in the file `record/schema/mcp.fbs:195`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct ResourceContents {
                /// The field `uri` in the table `ResourceContents`
                pub uri: ::planus::alloc::string::String,
                /// The field `mime_type` in the table `ResourceContents`
                pub mime_type: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `content` in the table `ResourceContents`
                pub content: ::core::option::Option<self::ResourceData>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for ResourceContents {
                fn default() -> Self {
                    Self {
                        uri: ::core::default::Default::default(),
                        mime_type: ::core::default::Default::default(),
                        content: ::core::default::Default::default(),
                    }
                }
            }

            impl ResourceContents {
                /// Creates a [ResourceContentsBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ResourceContentsBuilder<()> {
                    ResourceContentsBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_uri: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_mime_type: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_content: impl ::planus::WriteAsOptionalUnion<self::ResourceData>,
                ) -> ::planus::Offset<Self> {
                    let prepared_uri = field_uri.prepare(builder);
                    let prepared_mime_type = field_mime_type.prepare(builder);
                    let prepared_content = field_content.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<12> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    if prepared_mime_type.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(1);
                    }
                    if prepared_content.is_some() {
                        table_writer.write_entry::<::planus::Offset<self::ResourceData>>(3);
                    }
                    if prepared_content.is_some() {
                        table_writer.write_entry::<u8>(2);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_uri);
                            if let ::core::option::Option::Some(prepared_mime_type) = prepared_mime_type {
                                object_writer.write::<_, _, 4>(&prepared_mime_type);
                            }
                            if let ::core::option::Option::Some(prepared_content) = prepared_content {
                                object_writer.write::<_, _, 4>(&prepared_content.offset());
                            }
                            if let ::core::option::Option::Some(prepared_content) = prepared_content {
                                object_writer.write::<_, _, 1>(&prepared_content.tag());
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<ResourceContents>> for ResourceContents {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourceContents> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<ResourceContents>> for ResourceContents {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ResourceContents>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<ResourceContents> for ResourceContents {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourceContents> {
                    ResourceContents::create(builder, &self.uri, &self.mime_type, &self.content)
                }
            }

            /// Builder for serializing an instance of the [ResourceContents] type.
            ///
            /// Can be created using the [ResourceContents::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ResourceContentsBuilder<State>(State);

            impl ResourceContentsBuilder<()> {
                /// Setter for the [`uri` field](ResourceContents#structfield.uri).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn uri<T0>(self, value: T0) -> ResourceContentsBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    ResourceContentsBuilder((value,))
                }
            }

            impl<T0> ResourceContentsBuilder<(T0,)> {
                /// Setter for the [`mime_type` field](ResourceContents#structfield.mime_type).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn mime_type<T1>(self, value: T1) -> ResourceContentsBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0,) = self.0;
                    ResourceContentsBuilder((v0, value))
                }

                /// Sets the [`mime_type` field](ResourceContents#structfield.mime_type) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn mime_type_as_null(self) -> ResourceContentsBuilder<(T0, ())> {
                    self.mime_type(())
                }
            }

            impl<T0, T1> ResourceContentsBuilder<(T0, T1)> {
                /// Setter for the [`content` field](ResourceContents#structfield.content).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn content<T2>(self, value: T2) -> ResourceContentsBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsOptionalUnion<self::ResourceData>,
                {
                    let (v0, v1) = self.0;
                    ResourceContentsBuilder((v0, v1, value))
                }

                /// Sets the [`content` field](ResourceContents#structfield.content) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn content_as_null(self) -> ResourceContentsBuilder<(T0, T1, ())> {
                    self.content(())
                }
            }

            impl<T0, T1, T2> ResourceContentsBuilder<(T0, T1, T2)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [ResourceContents].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourceContents>
                where
                    Self: ::planus::WriteAsOffset<ResourceContents>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAsOptionalUnion<self::ResourceData>,
                > ::planus::WriteAs<::planus::Offset<ResourceContents>> for ResourceContentsBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<ResourceContents>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourceContents> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAsOptionalUnion<self::ResourceData>,
                > ::planus::WriteAsOptional<::planus::Offset<ResourceContents>>
                for ResourceContentsBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<ResourceContents>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ResourceContents>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAsOptionalUnion<self::ResourceData>,
                > ::planus::WriteAsOffset<ResourceContents> for ResourceContentsBuilder<(T0, T1, T2)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ResourceContents> {
                    let (v0, v1, v2) = &self.0;
                    ResourceContents::create(builder, v0, v1, v2)
                }
            }

            /// Reference to a deserialized [ResourceContents].
            #[derive(Copy, Clone)]
            pub struct ResourceContentsRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ResourceContentsRef<'a> {
                /// Getter for the [`uri` field](ResourceContents#structfield.uri).
                #[inline]
                pub fn uri(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "ResourceContents", "uri")
                }

                /// Getter for the [`mime_type` field](ResourceContents#structfield.mime_type).
                #[inline]
                pub fn mime_type(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(1, "ResourceContents", "mime_type")
                }

                /// Getter for the [`content` field](ResourceContents#structfield.content).
                #[inline]
                pub fn content(&self) -> ::planus::Result<::core::option::Option<self::ResourceDataRef<'a>>> {
                    self.0.access_union(2, "ResourceContents", "content")
                }
            }

            impl<'a> ::core::fmt::Debug for ResourceContentsRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ResourceContentsRef");
                    f.field("uri", &self.uri());
                    if let ::core::option::Option::Some(field_mime_type) = self.mime_type().transpose() {
                        f.field("mime_type", &field_mime_type);
                    }
                    if let ::core::option::Option::Some(field_content) = self.content().transpose() {
                        f.field("content", &field_content);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ResourceContentsRef<'a>> for ResourceContents {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ResourceContentsRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        uri: ::core::convert::Into::into(value.uri()?),
                        mime_type: value.mime_type()?.map(::core::convert::Into::into),
                        content: if let ::core::option::Option::Some(content) = value.content()? {
                            ::core::option::Option::Some(::core::convert::TryInto::try_into(content)?)
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ResourceContentsRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ResourceContentsRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ResourceContentsRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<ResourceContents>> for ResourceContents {
                type Value = ::planus::Offset<ResourceContents>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<ResourceContents>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ResourceContentsRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ResourceContentsRef]", "read_as_root", 0))
                }
            }

            ///  Text-based resource content
            ///
            /// Generated from these locations:
            /// * Table `TextResourceData` in the file `record/schema/mcp.fbs:201`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct TextResourceData {
                /// The field `text` in the table `TextResourceData`
                pub text: ::planus::alloc::string::String,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for TextResourceData {
                fn default() -> Self {
                    Self { text: ::core::default::Default::default() }
                }
            }

            impl TextResourceData {
                /// Creates a [TextResourceDataBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> TextResourceDataBuilder<()> {
                    TextResourceDataBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_text: impl ::planus::WriteAs<::planus::Offset<str>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_text = field_text.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_text);
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<TextResourceData>> for TextResourceData {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TextResourceData> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<TextResourceData>> for TextResourceData {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<TextResourceData>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<TextResourceData> for TextResourceData {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TextResourceData> {
                    TextResourceData::create(builder, &self.text)
                }
            }

            /// Builder for serializing an instance of the [TextResourceData] type.
            ///
            /// Can be created using the [TextResourceData::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct TextResourceDataBuilder<State>(State);

            impl TextResourceDataBuilder<()> {
                /// Setter for the [`text` field](TextResourceData#structfield.text).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn text<T0>(self, value: T0) -> TextResourceDataBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    TextResourceDataBuilder((value,))
                }
            }

            impl<T0> TextResourceDataBuilder<(T0,)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [TextResourceData].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<TextResourceData>
                where
                    Self: ::planus::WriteAsOffset<TextResourceData>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAs<::planus::Offset<str>>> ::planus::WriteAs<::planus::Offset<TextResourceData>>
                for TextResourceDataBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<TextResourceData>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TextResourceData> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAs<::planus::Offset<str>>>
                ::planus::WriteAsOptional<::planus::Offset<TextResourceData>> for TextResourceDataBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<TextResourceData>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<TextResourceData>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAs<::planus::Offset<str>>> ::planus::WriteAsOffset<TextResourceData>
                for TextResourceDataBuilder<(T0,)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TextResourceData> {
                    let (v0,) = &self.0;
                    TextResourceData::create(builder, v0)
                }
            }

            /// Reference to a deserialized [TextResourceData].
            #[derive(Copy, Clone)]
            pub struct TextResourceDataRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> TextResourceDataRef<'a> {
                /// Getter for the [`text` field](TextResourceData#structfield.text).
                #[inline]
                pub fn text(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "TextResourceData", "text")
                }
            }

            impl<'a> ::core::fmt::Debug for TextResourceDataRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("TextResourceDataRef");
                    f.field("text", &self.text());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<TextResourceDataRef<'a>> for TextResourceData {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: TextResourceDataRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self { text: ::core::convert::Into::into(value.text()?) })
                }
            }

            impl<'a> ::planus::TableRead<'a> for TextResourceDataRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for TextResourceDataRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[TextResourceDataRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<TextResourceData>> for TextResourceData {
                type Value = ::planus::Offset<TextResourceData>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<TextResourceData>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for TextResourceDataRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[TextResourceDataRef]", "read_as_root", 0))
                }
            }

            ///  Binary resource content
            ///
            /// Generated from these locations:
            /// * Table `BlobResourceData` in the file `record/schema/mcp.fbs:205`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct BlobResourceData {
                /// The field `blob` in the table `BlobResourceData`
                pub blob: ::planus::alloc::vec::Vec<u8>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for BlobResourceData {
                fn default() -> Self {
                    Self { blob: ::core::default::Default::default() }
                }
            }

            impl BlobResourceData {
                /// Creates a [BlobResourceDataBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> BlobResourceDataBuilder<()> {
                    BlobResourceDataBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_blob: impl ::planus::WriteAs<::planus::Offset<[u8]>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_blob = field_blob.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<[u8]>>(0);

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_blob);
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<BlobResourceData>> for BlobResourceData {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BlobResourceData> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<BlobResourceData>> for BlobResourceData {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<BlobResourceData>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<BlobResourceData> for BlobResourceData {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BlobResourceData> {
                    BlobResourceData::create(builder, &self.blob)
                }
            }

            /// Builder for serializing an instance of the [BlobResourceData] type.
            ///
            /// Can be created using the [BlobResourceData::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct BlobResourceDataBuilder<State>(State);

            impl BlobResourceDataBuilder<()> {
                /// Setter for the [`blob` field](BlobResourceData#structfield.blob).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn blob<T0>(self, value: T0) -> BlobResourceDataBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<[u8]>>,
                {
                    BlobResourceDataBuilder((value,))
                }
            }

            impl<T0> BlobResourceDataBuilder<(T0,)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [BlobResourceData].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<BlobResourceData>
                where
                    Self: ::planus::WriteAsOffset<BlobResourceData>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAs<::planus::Offset<[u8]>>> ::planus::WriteAs<::planus::Offset<BlobResourceData>>
                for BlobResourceDataBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<BlobResourceData>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BlobResourceData> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAs<::planus::Offset<[u8]>>>
                ::planus::WriteAsOptional<::planus::Offset<BlobResourceData>> for BlobResourceDataBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<BlobResourceData>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<BlobResourceData>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAs<::planus::Offset<[u8]>>> ::planus::WriteAsOffset<BlobResourceData>
                for BlobResourceDataBuilder<(T0,)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BlobResourceData> {
                    let (v0,) = &self.0;
                    BlobResourceData::create(builder, v0)
                }
            }

            /// Reference to a deserialized [BlobResourceData].
            #[derive(Copy, Clone)]
            pub struct BlobResourceDataRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> BlobResourceDataRef<'a> {
                /// Getter for the [`blob` field](BlobResourceData#structfield.blob).
                #[inline]
                pub fn blob(&self) -> ::planus::Result<&'a [u8]> {
                    self.0.access_required(0, "BlobResourceData", "blob")
                }
            }

            impl<'a> ::core::fmt::Debug for BlobResourceDataRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("BlobResourceDataRef");
                    f.field("blob", &self.blob());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<BlobResourceDataRef<'a>> for BlobResourceData {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: BlobResourceDataRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self { blob: value.blob()?.to_vec() })
                }
            }

            impl<'a> ::planus::TableRead<'a> for BlobResourceDataRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for BlobResourceDataRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[BlobResourceDataRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<BlobResourceData>> for BlobResourceData {
                type Value = ::planus::Offset<BlobResourceData>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<BlobResourceData>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for BlobResourceDataRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[BlobResourceDataRef]", "read_as_root", 0))
                }
            }

            ///  Definition for a tool the client can call
            ///
            /// Generated from these locations:
            /// * Table `Tool` in the file `record/schema/mcp.fbs:209`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Tool {
                /// The field `name` in the table `Tool`
                pub name: ::planus::alloc::string::String,
                /// The field `description` in the table `Tool`
                pub description: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `input_schema` in the table `Tool`
                pub input_schema: ::planus::alloc::string::String,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Tool {
                fn default() -> Self {
                    Self {
                        name: ::core::default::Default::default(),
                        description: ::core::default::Default::default(),
                        input_schema: ::core::default::Default::default(),
                    }
                }
            }

            impl Tool {
                /// Creates a [ToolBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ToolBuilder<()> {
                    ToolBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_description: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_input_schema: impl ::planus::WriteAs<::planus::Offset<str>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_name = field_name.prepare(builder);
                    let prepared_description = field_description.prepare(builder);
                    let prepared_input_schema = field_input_schema.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    if prepared_description.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(1);
                    }
                    table_writer.write_entry::<::planus::Offset<str>>(2);

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_name);
                            if let ::core::option::Option::Some(prepared_description) = prepared_description {
                                object_writer.write::<_, _, 4>(&prepared_description);
                            }
                            object_writer.write::<_, _, 4>(&prepared_input_schema);
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Tool>> for Tool {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Tool> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Tool>> for Tool {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Tool>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Tool> for Tool {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Tool> {
                    Tool::create(builder, &self.name, &self.description, &self.input_schema)
                }
            }

            /// Builder for serializing an instance of the [Tool] type.
            ///
            /// Can be created using the [Tool::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ToolBuilder<State>(State);

            impl ToolBuilder<()> {
                /// Setter for the [`name` field](Tool#structfield.name).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn name<T0>(self, value: T0) -> ToolBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    ToolBuilder((value,))
                }
            }

            impl<T0> ToolBuilder<(T0,)> {
                /// Setter for the [`description` field](Tool#structfield.description).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn description<T1>(self, value: T1) -> ToolBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0,) = self.0;
                    ToolBuilder((v0, value))
                }

                /// Sets the [`description` field](Tool#structfield.description) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn description_as_null(self) -> ToolBuilder<(T0, ())> {
                    self.description(())
                }
            }

            impl<T0, T1> ToolBuilder<(T0, T1)> {
                /// Setter for the [`input_schema` field](Tool#structfield.input_schema).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn input_schema<T2>(self, value: T2) -> ToolBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    let (v0, v1) = self.0;
                    ToolBuilder((v0, v1, value))
                }
            }

            impl<T0, T1, T2> ToolBuilder<(T0, T1, T2)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Tool].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Tool>
                where
                    Self: ::planus::WriteAsOffset<Tool>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                > ::planus::WriteAs<::planus::Offset<Tool>> for ToolBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<Tool>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Tool> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                > ::planus::WriteAsOptional<::planus::Offset<Tool>> for ToolBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<Tool>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Tool>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAs<::planus::Offset<str>>,
                > ::planus::WriteAsOffset<Tool> for ToolBuilder<(T0, T1, T2)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Tool> {
                    let (v0, v1, v2) = &self.0;
                    Tool::create(builder, v0, v1, v2)
                }
            }

            /// Reference to a deserialized [Tool].
            #[derive(Copy, Clone)]
            pub struct ToolRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ToolRef<'a> {
                /// Getter for the [`name` field](Tool#structfield.name).
                #[inline]
                pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "Tool", "name")
                }

                /// Getter for the [`description` field](Tool#structfield.description).
                #[inline]
                pub fn description(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(1, "Tool", "description")
                }

                /// Getter for the [`input_schema` field](Tool#structfield.input_schema).
                #[inline]
                pub fn input_schema(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(2, "Tool", "input_schema")
                }
            }

            impl<'a> ::core::fmt::Debug for ToolRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ToolRef");
                    f.field("name", &self.name());
                    if let ::core::option::Option::Some(field_description) = self.description().transpose() {
                        f.field("description", &field_description);
                    }
                    f.field("input_schema", &self.input_schema());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ToolRef<'a>> for Tool {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ToolRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        name: ::core::convert::Into::into(value.name()?),
                        description: value.description()?.map(::core::convert::Into::into),
                        input_schema: ::core::convert::Into::into(value.input_schema()?),
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ToolRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ToolRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ToolRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Tool>> for Tool {
                type Value = ::planus::Offset<Tool>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Tool>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ToolRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ToolRef]", "read_as_root", 0))
                }
            }

            ///  A tool invocation request with arguments
            ///
            /// Generated from these locations:
            /// * Table `ToolCall` in the file `record/schema/mcp.fbs:215`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct ToolCall {
                /// The field `name` in the table `ToolCall`
                pub name: ::planus::alloc::string::String,
                /// The field `arguments` in the table `ToolCall`
                pub arguments: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `is_error` in the table `ToolCall`
                pub is_error: bool,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for ToolCall {
                fn default() -> Self {
                    Self {
                        name: ::core::default::Default::default(),
                        arguments: ::core::default::Default::default(),
                        is_error: false,
                    }
                }
            }

            impl ToolCall {
                /// Creates a [ToolCallBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ToolCallBuilder<()> {
                    ToolCallBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_arguments: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_is_error: impl ::planus::WriteAsDefault<bool, bool>,
                ) -> ::planus::Offset<Self> {
                    let prepared_name = field_name.prepare(builder);
                    let prepared_arguments = field_arguments.prepare(builder);
                    let prepared_is_error = field_is_error.prepare(builder, &false);

                    let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    if prepared_arguments.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(1);
                    }
                    if prepared_is_error.is_some() {
                        table_writer.write_entry::<bool>(2);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_name);
                            if let ::core::option::Option::Some(prepared_arguments) = prepared_arguments {
                                object_writer.write::<_, _, 4>(&prepared_arguments);
                            }
                            if let ::core::option::Option::Some(prepared_is_error) = prepared_is_error {
                                object_writer.write::<_, _, 1>(&prepared_is_error);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<ToolCall>> for ToolCall {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ToolCall> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<ToolCall>> for ToolCall {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ToolCall>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<ToolCall> for ToolCall {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ToolCall> {
                    ToolCall::create(builder, &self.name, &self.arguments, self.is_error)
                }
            }

            /// Builder for serializing an instance of the [ToolCall] type.
            ///
            /// Can be created using the [ToolCall::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ToolCallBuilder<State>(State);

            impl ToolCallBuilder<()> {
                /// Setter for the [`name` field](ToolCall#structfield.name).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn name<T0>(self, value: T0) -> ToolCallBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    ToolCallBuilder((value,))
                }
            }

            impl<T0> ToolCallBuilder<(T0,)> {
                /// Setter for the [`arguments` field](ToolCall#structfield.arguments).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn arguments<T1>(self, value: T1) -> ToolCallBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0,) = self.0;
                    ToolCallBuilder((v0, value))
                }

                /// Sets the [`arguments` field](ToolCall#structfield.arguments) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn arguments_as_null(self) -> ToolCallBuilder<(T0, ())> {
                    self.arguments(())
                }
            }

            impl<T0, T1> ToolCallBuilder<(T0, T1)> {
                /// Setter for the [`is_error` field](ToolCall#structfield.is_error).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn is_error<T2>(self, value: T2) -> ToolCallBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsDefault<bool, bool>,
                {
                    let (v0, v1) = self.0;
                    ToolCallBuilder((v0, v1, value))
                }

                /// Sets the [`is_error` field](ToolCall#structfield.is_error) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn is_error_as_default(self) -> ToolCallBuilder<(T0, T1, ::planus::DefaultValue)> {
                    self.is_error(::planus::DefaultValue)
                }
            }

            impl<T0, T1, T2> ToolCallBuilder<(T0, T1, T2)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [ToolCall].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<ToolCall>
                where
                    Self: ::planus::WriteAsOffset<ToolCall>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAsDefault<bool, bool>,
                > ::planus::WriteAs<::planus::Offset<ToolCall>> for ToolCallBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<ToolCall>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ToolCall> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAsDefault<bool, bool>,
                > ::planus::WriteAsOptional<::planus::Offset<ToolCall>> for ToolCallBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<ToolCall>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ToolCall>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAsDefault<bool, bool>,
                > ::planus::WriteAsOffset<ToolCall> for ToolCallBuilder<(T0, T1, T2)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ToolCall> {
                    let (v0, v1, v2) = &self.0;
                    ToolCall::create(builder, v0, v1, v2)
                }
            }

            /// Reference to a deserialized [ToolCall].
            #[derive(Copy, Clone)]
            pub struct ToolCallRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ToolCallRef<'a> {
                /// Getter for the [`name` field](ToolCall#structfield.name).
                #[inline]
                pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "ToolCall", "name")
                }

                /// Getter for the [`arguments` field](ToolCall#structfield.arguments).
                #[inline]
                pub fn arguments(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(1, "ToolCall", "arguments")
                }

                /// Getter for the [`is_error` field](ToolCall#structfield.is_error).
                #[inline]
                pub fn is_error(&self) -> ::planus::Result<bool> {
                    ::core::result::Result::Ok(self.0.access(2, "ToolCall", "is_error")?.unwrap_or(false))
                }
            }

            impl<'a> ::core::fmt::Debug for ToolCallRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ToolCallRef");
                    f.field("name", &self.name());
                    if let ::core::option::Option::Some(field_arguments) = self.arguments().transpose() {
                        f.field("arguments", &field_arguments);
                    }
                    f.field("is_error", &self.is_error());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ToolCallRef<'a>> for ToolCall {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ToolCallRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        name: ::core::convert::Into::into(value.name()?),
                        arguments: value.arguments()?.map(::core::convert::Into::into),
                        is_error: ::core::convert::TryInto::try_into(value.is_error()?)?,
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ToolCallRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ToolCallRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ToolCallRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<ToolCall>> for ToolCall {
                type Value = ::planus::Offset<ToolCall>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<ToolCall>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ToolCallRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ToolCallRef]", "read_as_root", 0))
                }
            }

            ///  A prompt or prompt template that the server offers
            ///
            /// Generated from these locations:
            /// * Table `Prompt` in the file `record/schema/mcp.fbs:221`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Prompt {
                /// The field `name` in the table `Prompt`
                pub name: ::planus::alloc::string::String,
                /// The field `description` in the table `Prompt`
                pub description: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `arguments` in the table `Prompt`
                pub arguments: ::core::option::Option<::planus::alloc::vec::Vec<self::PromptArgument>>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Prompt {
                fn default() -> Self {
                    Self {
                        name: ::core::default::Default::default(),
                        description: ::core::default::Default::default(),
                        arguments: ::core::default::Default::default(),
                    }
                }
            }

            impl Prompt {
                /// Creates a [PromptBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> PromptBuilder<()> {
                    PromptBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_description: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_arguments: impl ::planus::WriteAsOptional<
                        ::planus::Offset<[::planus::Offset<self::PromptArgument>]>,
                    >,
                ) -> ::planus::Offset<Self> {
                    let prepared_name = field_name.prepare(builder);
                    let prepared_description = field_description.prepare(builder);
                    let prepared_arguments = field_arguments.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    if prepared_description.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(1);
                    }
                    if prepared_arguments.is_some() {
                        table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::PromptArgument>]>>(2);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_name);
                            if let ::core::option::Option::Some(prepared_description) = prepared_description {
                                object_writer.write::<_, _, 4>(&prepared_description);
                            }
                            if let ::core::option::Option::Some(prepared_arguments) = prepared_arguments {
                                object_writer.write::<_, _, 4>(&prepared_arguments);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Prompt>> for Prompt {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Prompt> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Prompt>> for Prompt {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Prompt>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Prompt> for Prompt {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Prompt> {
                    Prompt::create(builder, &self.name, &self.description, &self.arguments)
                }
            }

            /// Builder for serializing an instance of the [Prompt] type.
            ///
            /// Can be created using the [Prompt::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct PromptBuilder<State>(State);

            impl PromptBuilder<()> {
                /// Setter for the [`name` field](Prompt#structfield.name).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn name<T0>(self, value: T0) -> PromptBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    PromptBuilder((value,))
                }
            }

            impl<T0> PromptBuilder<(T0,)> {
                /// Setter for the [`description` field](Prompt#structfield.description).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn description<T1>(self, value: T1) -> PromptBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0,) = self.0;
                    PromptBuilder((v0, value))
                }

                /// Sets the [`description` field](Prompt#structfield.description) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn description_as_null(self) -> PromptBuilder<(T0, ())> {
                    self.description(())
                }
            }

            impl<T0, T1> PromptBuilder<(T0, T1)> {
                /// Setter for the [`arguments` field](Prompt#structfield.arguments).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn arguments<T2>(self, value: T2) -> PromptBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::PromptArgument>]>>,
                {
                    let (v0, v1) = self.0;
                    PromptBuilder((v0, v1, value))
                }

                /// Sets the [`arguments` field](Prompt#structfield.arguments) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn arguments_as_null(self) -> PromptBuilder<(T0, T1, ())> {
                    self.arguments(())
                }
            }

            impl<T0, T1, T2> PromptBuilder<(T0, T1, T2)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Prompt].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Prompt>
                where
                    Self: ::planus::WriteAsOffset<Prompt>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::PromptArgument>]>>,
                > ::planus::WriteAs<::planus::Offset<Prompt>> for PromptBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<Prompt>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Prompt> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::PromptArgument>]>>,
                > ::planus::WriteAsOptional<::planus::Offset<Prompt>> for PromptBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<Prompt>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Prompt>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::PromptArgument>]>>,
                > ::planus::WriteAsOffset<Prompt> for PromptBuilder<(T0, T1, T2)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Prompt> {
                    let (v0, v1, v2) = &self.0;
                    Prompt::create(builder, v0, v1, v2)
                }
            }

            /// Reference to a deserialized [Prompt].
            #[derive(Copy, Clone)]
            pub struct PromptRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> PromptRef<'a> {
                /// Getter for the [`name` field](Prompt#structfield.name).
                #[inline]
                pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "Prompt", "name")
                }

                /// Getter for the [`description` field](Prompt#structfield.description).
                #[inline]
                pub fn description(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(1, "Prompt", "description")
                }

                /// Getter for the [`arguments` field](Prompt#structfield.arguments).
                #[inline]
                pub fn arguments(
                    &self,
                ) -> ::planus::Result<
                    ::core::option::Option<::planus::Vector<'a, ::planus::Result<self::PromptArgumentRef<'a>>>>,
                > {
                    self.0.access(2, "Prompt", "arguments")
                }
            }

            impl<'a> ::core::fmt::Debug for PromptRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("PromptRef");
                    f.field("name", &self.name());
                    if let ::core::option::Option::Some(field_description) = self.description().transpose() {
                        f.field("description", &field_description);
                    }
                    if let ::core::option::Option::Some(field_arguments) = self.arguments().transpose() {
                        f.field("arguments", &field_arguments);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<PromptRef<'a>> for Prompt {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: PromptRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        name: ::core::convert::Into::into(value.name()?),
                        description: value.description()?.map(::core::convert::Into::into),
                        arguments: if let ::core::option::Option::Some(arguments) = value.arguments()? {
                            ::core::option::Option::Some(arguments.to_vec_result()?)
                        } else {
                            ::core::option::Option::None
                        },
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for PromptRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for PromptRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[PromptRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Prompt>> for Prompt {
                type Value = ::planus::Offset<Prompt>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Prompt>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for PromptRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[PromptRef]", "read_as_root", 0))
                }
            }

            ///  Describes an argument that a prompt can accept
            ///
            /// Generated from these locations:
            /// * Table `PromptArgument` in the file `record/schema/mcp.fbs:227`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct PromptArgument {
                /// The field `name` in the table `PromptArgument`
                pub name: ::planus::alloc::string::String,
                /// The field `description` in the table `PromptArgument`
                pub description: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `required` in the table `PromptArgument`
                pub required: bool,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for PromptArgument {
                fn default() -> Self {
                    Self {
                        name: ::core::default::Default::default(),
                        description: ::core::default::Default::default(),
                        required: false,
                    }
                }
            }

            impl PromptArgument {
                /// Creates a [PromptArgumentBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> PromptArgumentBuilder<()> {
                    PromptArgumentBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_description: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_required: impl ::planus::WriteAsDefault<bool, bool>,
                ) -> ::planus::Offset<Self> {
                    let prepared_name = field_name.prepare(builder);
                    let prepared_description = field_description.prepare(builder);
                    let prepared_required = field_required.prepare(builder, &false);

                    let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    if prepared_description.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(1);
                    }
                    if prepared_required.is_some() {
                        table_writer.write_entry::<bool>(2);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_name);
                            if let ::core::option::Option::Some(prepared_description) = prepared_description {
                                object_writer.write::<_, _, 4>(&prepared_description);
                            }
                            if let ::core::option::Option::Some(prepared_required) = prepared_required {
                                object_writer.write::<_, _, 1>(&prepared_required);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<PromptArgument>> for PromptArgument {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptArgument> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<PromptArgument>> for PromptArgument {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<PromptArgument>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<PromptArgument> for PromptArgument {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptArgument> {
                    PromptArgument::create(builder, &self.name, &self.description, self.required)
                }
            }

            /// Builder for serializing an instance of the [PromptArgument] type.
            ///
            /// Can be created using the [PromptArgument::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct PromptArgumentBuilder<State>(State);

            impl PromptArgumentBuilder<()> {
                /// Setter for the [`name` field](PromptArgument#structfield.name).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn name<T0>(self, value: T0) -> PromptArgumentBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    PromptArgumentBuilder((value,))
                }
            }

            impl<T0> PromptArgumentBuilder<(T0,)> {
                /// Setter for the [`description` field](PromptArgument#structfield.description).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn description<T1>(self, value: T1) -> PromptArgumentBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0,) = self.0;
                    PromptArgumentBuilder((v0, value))
                }

                /// Sets the [`description` field](PromptArgument#structfield.description) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn description_as_null(self) -> PromptArgumentBuilder<(T0, ())> {
                    self.description(())
                }
            }

            impl<T0, T1> PromptArgumentBuilder<(T0, T1)> {
                /// Setter for the [`required` field](PromptArgument#structfield.required).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn required<T2>(self, value: T2) -> PromptArgumentBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsDefault<bool, bool>,
                {
                    let (v0, v1) = self.0;
                    PromptArgumentBuilder((v0, v1, value))
                }

                /// Sets the [`required` field](PromptArgument#structfield.required) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn required_as_default(self) -> PromptArgumentBuilder<(T0, T1, ::planus::DefaultValue)> {
                    self.required(::planus::DefaultValue)
                }
            }

            impl<T0, T1, T2> PromptArgumentBuilder<(T0, T1, T2)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [PromptArgument].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptArgument>
                where
                    Self: ::planus::WriteAsOffset<PromptArgument>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAsDefault<bool, bool>,
                > ::planus::WriteAs<::planus::Offset<PromptArgument>> for PromptArgumentBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<PromptArgument>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptArgument> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAsDefault<bool, bool>,
                > ::planus::WriteAsOptional<::planus::Offset<PromptArgument>> for PromptArgumentBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<PromptArgument>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<PromptArgument>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T2: ::planus::WriteAsDefault<bool, bool>,
                > ::planus::WriteAsOffset<PromptArgument> for PromptArgumentBuilder<(T0, T1, T2)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptArgument> {
                    let (v0, v1, v2) = &self.0;
                    PromptArgument::create(builder, v0, v1, v2)
                }
            }

            /// Reference to a deserialized [PromptArgument].
            #[derive(Copy, Clone)]
            pub struct PromptArgumentRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> PromptArgumentRef<'a> {
                /// Getter for the [`name` field](PromptArgument#structfield.name).
                #[inline]
                pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "PromptArgument", "name")
                }

                /// Getter for the [`description` field](PromptArgument#structfield.description).
                #[inline]
                pub fn description(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(1, "PromptArgument", "description")
                }

                /// Getter for the [`required` field](PromptArgument#structfield.required).
                #[inline]
                pub fn required(&self) -> ::planus::Result<bool> {
                    ::core::result::Result::Ok(self.0.access(2, "PromptArgument", "required")?.unwrap_or(false))
                }
            }

            impl<'a> ::core::fmt::Debug for PromptArgumentRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("PromptArgumentRef");
                    f.field("name", &self.name());
                    if let ::core::option::Option::Some(field_description) = self.description().transpose() {
                        f.field("description", &field_description);
                    }
                    f.field("required", &self.required());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<PromptArgumentRef<'a>> for PromptArgument {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: PromptArgumentRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        name: ::core::convert::Into::into(value.name()?),
                        description: value.description()?.map(::core::convert::Into::into),
                        required: ::core::convert::TryInto::try_into(value.required()?)?,
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for PromptArgumentRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for PromptArgumentRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[PromptArgumentRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<PromptArgument>> for PromptArgument {
                type Value = ::planus::Offset<PromptArgument>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<PromptArgument>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for PromptArgumentRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[PromptArgumentRef]", "read_as_root", 0))
                }
            }

            ///  A message returned as part of a prompt
            ///
            /// Generated from these locations:
            /// * Table `PromptMessage` in the file `record/schema/mcp.fbs:233`
            #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
            pub struct PromptMessage {
                /// The field `role` in the table `PromptMessage`
                pub role: self::Role,
                /// The field `content` in the table `PromptMessage`
                pub content: self::Content,
            }

            impl PromptMessage {
                /// Creates a [PromptMessageBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> PromptMessageBuilder<()> {
                    PromptMessageBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_role: impl ::planus::WriteAsDefault<self::Role, self::Role>,
                    field_content: impl ::planus::WriteAsUnion<self::Content>,
                ) -> ::planus::Offset<Self> {
                    let prepared_role = field_role.prepare(builder, &self::Role::User);
                    let prepared_content = field_content.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<self::Content>>(2);
                    if prepared_role.is_some() {
                        table_writer.write_entry::<self::Role>(0);
                    }
                    table_writer.write_entry::<u8>(1);

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_content.offset());
                            if let ::core::option::Option::Some(prepared_role) = prepared_role {
                                object_writer.write::<_, _, 1>(&prepared_role);
                            }
                            object_writer.write::<_, _, 1>(&prepared_content.tag());
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<PromptMessage>> for PromptMessage {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptMessage> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<PromptMessage>> for PromptMessage {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<PromptMessage>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<PromptMessage> for PromptMessage {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptMessage> {
                    PromptMessage::create(builder, self.role, &self.content)
                }
            }

            /// Builder for serializing an instance of the [PromptMessage] type.
            ///
            /// Can be created using the [PromptMessage::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct PromptMessageBuilder<State>(State);

            impl PromptMessageBuilder<()> {
                /// Setter for the [`role` field](PromptMessage#structfield.role).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn role<T0>(self, value: T0) -> PromptMessageBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsDefault<self::Role, self::Role>,
                {
                    PromptMessageBuilder((value,))
                }

                /// Sets the [`role` field](PromptMessage#structfield.role) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn role_as_default(self) -> PromptMessageBuilder<(::planus::DefaultValue,)> {
                    self.role(::planus::DefaultValue)
                }
            }

            impl<T0> PromptMessageBuilder<(T0,)> {
                /// Setter for the [`content` field](PromptMessage#structfield.content).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn content<T1>(self, value: T1) -> PromptMessageBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsUnion<self::Content>,
                {
                    let (v0,) = self.0;
                    PromptMessageBuilder((v0, value))
                }
            }

            impl<T0, T1> PromptMessageBuilder<(T0, T1)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [PromptMessage].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptMessage>
                where
                    Self: ::planus::WriteAsOffset<PromptMessage>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAsDefault<self::Role, self::Role>, T1: ::planus::WriteAsUnion<self::Content>>
                ::planus::WriteAs<::planus::Offset<PromptMessage>> for PromptMessageBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<PromptMessage>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptMessage> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAsDefault<self::Role, self::Role>, T1: ::planus::WriteAsUnion<self::Content>>
                ::planus::WriteAsOptional<::planus::Offset<PromptMessage>> for PromptMessageBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<PromptMessage>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<PromptMessage>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAsDefault<self::Role, self::Role>, T1: ::planus::WriteAsUnion<self::Content>>
                ::planus::WriteAsOffset<PromptMessage> for PromptMessageBuilder<(T0, T1)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PromptMessage> {
                    let (v0, v1) = &self.0;
                    PromptMessage::create(builder, v0, v1)
                }
            }

            /// Reference to a deserialized [PromptMessage].
            #[derive(Copy, Clone)]
            pub struct PromptMessageRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> PromptMessageRef<'a> {
                /// Getter for the [`role` field](PromptMessage#structfield.role).
                #[inline]
                pub fn role(&self) -> ::planus::Result<self::Role> {
                    ::core::result::Result::Ok(self.0.access(0, "PromptMessage", "role")?.unwrap_or(self::Role::User))
                }

                /// Getter for the [`content` field](PromptMessage#structfield.content).
                #[inline]
                pub fn content(&self) -> ::planus::Result<self::ContentRef<'a>> {
                    self.0.access_union_required(1, "PromptMessage", "content")
                }
            }

            impl<'a> ::core::fmt::Debug for PromptMessageRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("PromptMessageRef");
                    f.field("role", &self.role());
                    f.field("content", &self.content());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<PromptMessageRef<'a>> for PromptMessage {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: PromptMessageRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        role: ::core::convert::TryInto::try_into(value.role()?)?,
                        content: ::core::convert::TryInto::try_into(value.content()?)?,
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for PromptMessageRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for PromptMessageRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[PromptMessageRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<PromptMessage>> for PromptMessage {
                type Value = ::planus::Offset<PromptMessage>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<PromptMessage>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for PromptMessageRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[PromptMessageRef]", "read_as_root", 0))
                }
            }

            ///  Server preferences for model selection during sampling
            ///
            /// Generated from these locations:
            /// * Table `ModelPreferences` in the file `record/schema/mcp.fbs:238`
            #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
            pub struct ModelPreferences {
                /// The field `hints` in the table `ModelPreferences`
                pub hints: ::core::option::Option<::planus::alloc::vec::Vec<self::ModelHint>>,
                /// The field `cost_priority` in the table `ModelPreferences`
                pub cost_priority: f32,
                /// The field `speed_priority` in the table `ModelPreferences`
                pub speed_priority: f32,
                /// The field `intelligence_priority` in the table `ModelPreferences`
                pub intelligence_priority: f32,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for ModelPreferences {
                fn default() -> Self {
                    Self {
                        hints: ::core::default::Default::default(),
                        cost_priority: 0.0,
                        speed_priority: 0.0,
                        intelligence_priority: 0.0,
                    }
                }
            }

            impl ModelPreferences {
                /// Creates a [ModelPreferencesBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ModelPreferencesBuilder<()> {
                    ModelPreferencesBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_hints: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::ModelHint>]>>,
                    field_cost_priority: impl ::planus::WriteAsDefault<f32, f32>,
                    field_speed_priority: impl ::planus::WriteAsDefault<f32, f32>,
                    field_intelligence_priority: impl ::planus::WriteAsDefault<f32, f32>,
                ) -> ::planus::Offset<Self> {
                    let prepared_hints = field_hints.prepare(builder);
                    let prepared_cost_priority = field_cost_priority.prepare(builder, &0.0);
                    let prepared_speed_priority = field_speed_priority.prepare(builder, &0.0);
                    let prepared_intelligence_priority = field_intelligence_priority.prepare(builder, &0.0);

                    let mut table_writer: ::planus::table_writer::TableWriter<12> = ::core::default::Default::default();
                    if prepared_hints.is_some() {
                        table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::ModelHint>]>>(0);
                    }
                    if prepared_cost_priority.is_some() {
                        table_writer.write_entry::<f32>(1);
                    }
                    if prepared_speed_priority.is_some() {
                        table_writer.write_entry::<f32>(2);
                    }
                    if prepared_intelligence_priority.is_some() {
                        table_writer.write_entry::<f32>(3);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            if let ::core::option::Option::Some(prepared_hints) = prepared_hints {
                                object_writer.write::<_, _, 4>(&prepared_hints);
                            }
                            if let ::core::option::Option::Some(prepared_cost_priority) = prepared_cost_priority {
                                object_writer.write::<_, _, 4>(&prepared_cost_priority);
                            }
                            if let ::core::option::Option::Some(prepared_speed_priority) = prepared_speed_priority {
                                object_writer.write::<_, _, 4>(&prepared_speed_priority);
                            }
                            if let ::core::option::Option::Some(prepared_intelligence_priority) =
                                prepared_intelligence_priority
                            {
                                object_writer.write::<_, _, 4>(&prepared_intelligence_priority);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<ModelPreferences>> for ModelPreferences {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ModelPreferences> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<ModelPreferences>> for ModelPreferences {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ModelPreferences>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<ModelPreferences> for ModelPreferences {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ModelPreferences> {
                    ModelPreferences::create(
                        builder,
                        &self.hints,
                        self.cost_priority,
                        self.speed_priority,
                        self.intelligence_priority,
                    )
                }
            }

            /// Builder for serializing an instance of the [ModelPreferences] type.
            ///
            /// Can be created using the [ModelPreferences::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ModelPreferencesBuilder<State>(State);

            impl ModelPreferencesBuilder<()> {
                /// Setter for the [`hints` field](ModelPreferences#structfield.hints).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn hints<T0>(self, value: T0) -> ModelPreferencesBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::ModelHint>]>>,
                {
                    ModelPreferencesBuilder((value,))
                }

                /// Sets the [`hints` field](ModelPreferences#structfield.hints) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn hints_as_null(self) -> ModelPreferencesBuilder<((),)> {
                    self.hints(())
                }
            }

            impl<T0> ModelPreferencesBuilder<(T0,)> {
                /// Setter for the [`cost_priority` field](ModelPreferences#structfield.cost_priority).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn cost_priority<T1>(self, value: T1) -> ModelPreferencesBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsDefault<f32, f32>,
                {
                    let (v0,) = self.0;
                    ModelPreferencesBuilder((v0, value))
                }

                /// Sets the [`cost_priority` field](ModelPreferences#structfield.cost_priority) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn cost_priority_as_default(self) -> ModelPreferencesBuilder<(T0, ::planus::DefaultValue)> {
                    self.cost_priority(::planus::DefaultValue)
                }
            }

            impl<T0, T1> ModelPreferencesBuilder<(T0, T1)> {
                /// Setter for the [`speed_priority` field](ModelPreferences#structfield.speed_priority).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn speed_priority<T2>(self, value: T2) -> ModelPreferencesBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsDefault<f32, f32>,
                {
                    let (v0, v1) = self.0;
                    ModelPreferencesBuilder((v0, v1, value))
                }

                /// Sets the [`speed_priority` field](ModelPreferences#structfield.speed_priority) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn speed_priority_as_default(self) -> ModelPreferencesBuilder<(T0, T1, ::planus::DefaultValue)> {
                    self.speed_priority(::planus::DefaultValue)
                }
            }

            impl<T0, T1, T2> ModelPreferencesBuilder<(T0, T1, T2)> {
                /// Setter for the [`intelligence_priority` field](ModelPreferences#structfield.intelligence_priority).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn intelligence_priority<T3>(self, value: T3) -> ModelPreferencesBuilder<(T0, T1, T2, T3)>
                where
                    T3: ::planus::WriteAsDefault<f32, f32>,
                {
                    let (v0, v1, v2) = self.0;
                    ModelPreferencesBuilder((v0, v1, v2, value))
                }

                /// Sets the [`intelligence_priority` field](ModelPreferences#structfield.intelligence_priority) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn intelligence_priority_as_default(
                    self,
                ) -> ModelPreferencesBuilder<(T0, T1, T2, ::planus::DefaultValue)> {
                    self.intelligence_priority(::planus::DefaultValue)
                }
            }

            impl<T0, T1, T2, T3> ModelPreferencesBuilder<(T0, T1, T2, T3)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [ModelPreferences].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<ModelPreferences>
                where
                    Self: ::planus::WriteAsOffset<ModelPreferences>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::ModelHint>]>>,
                    T1: ::planus::WriteAsDefault<f32, f32>,
                    T2: ::planus::WriteAsDefault<f32, f32>,
                    T3: ::planus::WriteAsDefault<f32, f32>,
                > ::planus::WriteAs<::planus::Offset<ModelPreferences>> for ModelPreferencesBuilder<(T0, T1, T2, T3)>
            {
                type Prepared = ::planus::Offset<ModelPreferences>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ModelPreferences> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::ModelHint>]>>,
                    T1: ::planus::WriteAsDefault<f32, f32>,
                    T2: ::planus::WriteAsDefault<f32, f32>,
                    T3: ::planus::WriteAsDefault<f32, f32>,
                > ::planus::WriteAsOptional<::planus::Offset<ModelPreferences>>
                for ModelPreferencesBuilder<(T0, T1, T2, T3)>
            {
                type Prepared = ::planus::Offset<ModelPreferences>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ModelPreferences>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::ModelHint>]>>,
                    T1: ::planus::WriteAsDefault<f32, f32>,
                    T2: ::planus::WriteAsDefault<f32, f32>,
                    T3: ::planus::WriteAsDefault<f32, f32>,
                > ::planus::WriteAsOffset<ModelPreferences> for ModelPreferencesBuilder<(T0, T1, T2, T3)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ModelPreferences> {
                    let (v0, v1, v2, v3) = &self.0;
                    ModelPreferences::create(builder, v0, v1, v2, v3)
                }
            }

            /// Reference to a deserialized [ModelPreferences].
            #[derive(Copy, Clone)]
            pub struct ModelPreferencesRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ModelPreferencesRef<'a> {
                /// Getter for the [`hints` field](ModelPreferences#structfield.hints).
                #[inline]
                pub fn hints(
                    &self,
                ) -> ::planus::Result<
                    ::core::option::Option<::planus::Vector<'a, ::planus::Result<self::ModelHintRef<'a>>>>,
                > {
                    self.0.access(0, "ModelPreferences", "hints")
                }

                /// Getter for the [`cost_priority` field](ModelPreferences#structfield.cost_priority).
                #[inline]
                pub fn cost_priority(&self) -> ::planus::Result<f32> {
                    ::core::result::Result::Ok(self.0.access(1, "ModelPreferences", "cost_priority")?.unwrap_or(0.0))
                }

                /// Getter for the [`speed_priority` field](ModelPreferences#structfield.speed_priority).
                #[inline]
                pub fn speed_priority(&self) -> ::planus::Result<f32> {
                    ::core::result::Result::Ok(self.0.access(2, "ModelPreferences", "speed_priority")?.unwrap_or(0.0))
                }

                /// Getter for the [`intelligence_priority` field](ModelPreferences#structfield.intelligence_priority).
                #[inline]
                pub fn intelligence_priority(&self) -> ::planus::Result<f32> {
                    ::core::result::Result::Ok(
                        self.0.access(3, "ModelPreferences", "intelligence_priority")?.unwrap_or(0.0),
                    )
                }
            }

            impl<'a> ::core::fmt::Debug for ModelPreferencesRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ModelPreferencesRef");
                    if let ::core::option::Option::Some(field_hints) = self.hints().transpose() {
                        f.field("hints", &field_hints);
                    }
                    f.field("cost_priority", &self.cost_priority());
                    f.field("speed_priority", &self.speed_priority());
                    f.field("intelligence_priority", &self.intelligence_priority());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ModelPreferencesRef<'a>> for ModelPreferences {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ModelPreferencesRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        hints: if let ::core::option::Option::Some(hints) = value.hints()? {
                            ::core::option::Option::Some(hints.to_vec_result()?)
                        } else {
                            ::core::option::Option::None
                        },
                        cost_priority: ::core::convert::TryInto::try_into(value.cost_priority()?)?,
                        speed_priority: ::core::convert::TryInto::try_into(value.speed_priority()?)?,
                        intelligence_priority: ::core::convert::TryInto::try_into(value.intelligence_priority()?)?,
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ModelPreferencesRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ModelPreferencesRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ModelPreferencesRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<ModelPreferences>> for ModelPreferences {
                type Value = ::planus::Offset<ModelPreferences>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<ModelPreferences>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ModelPreferencesRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ModelPreferencesRef]", "read_as_root", 0))
                }
            }

            ///  Hints for model selection
            ///
            /// Generated from these locations:
            /// * Table `ModelHint` in the file `record/schema/mcp.fbs:245`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct ModelHint {
                /// The field `name` in the table `ModelHint`
                pub name: ::core::option::Option<::planus::alloc::string::String>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for ModelHint {
                fn default() -> Self {
                    Self { name: ::core::default::Default::default() }
                }
            }

            impl ModelHint {
                /// Creates a [ModelHintBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> ModelHintBuilder<()> {
                    ModelHintBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_name: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_name = field_name.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                    if prepared_name.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(0);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            if let ::core::option::Option::Some(prepared_name) = prepared_name {
                                object_writer.write::<_, _, 4>(&prepared_name);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<ModelHint>> for ModelHint {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ModelHint> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<ModelHint>> for ModelHint {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ModelHint>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<ModelHint> for ModelHint {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ModelHint> {
                    ModelHint::create(builder, &self.name)
                }
            }

            /// Builder for serializing an instance of the [ModelHint] type.
            ///
            /// Can be created using the [ModelHint::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct ModelHintBuilder<State>(State);

            impl ModelHintBuilder<()> {
                /// Setter for the [`name` field](ModelHint#structfield.name).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn name<T0>(self, value: T0) -> ModelHintBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    ModelHintBuilder((value,))
                }

                /// Sets the [`name` field](ModelHint#structfield.name) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn name_as_null(self) -> ModelHintBuilder<((),)> {
                    self.name(())
                }
            }

            impl<T0> ModelHintBuilder<(T0,)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [ModelHint].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<ModelHint>
                where
                    Self: ::planus::WriteAsOffset<ModelHint>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>>
                ::planus::WriteAs<::planus::Offset<ModelHint>> for ModelHintBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<ModelHint>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ModelHint> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>>
                ::planus::WriteAsOptional<::planus::Offset<ModelHint>> for ModelHintBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<ModelHint>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<ModelHint>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>>
                ::planus::WriteAsOffset<ModelHint> for ModelHintBuilder<(T0,)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ModelHint> {
                    let (v0,) = &self.0;
                    ModelHint::create(builder, v0)
                }
            }

            /// Reference to a deserialized [ModelHint].
            #[derive(Copy, Clone)]
            pub struct ModelHintRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> ModelHintRef<'a> {
                /// Getter for the [`name` field](ModelHint#structfield.name).
                #[inline]
                pub fn name(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(0, "ModelHint", "name")
                }
            }

            impl<'a> ::core::fmt::Debug for ModelHintRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("ModelHintRef");
                    if let ::core::option::Option::Some(field_name) = self.name().transpose() {
                        f.field("name", &field_name);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<ModelHintRef<'a>> for ModelHint {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: ModelHintRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self { name: value.name()?.map(::core::convert::Into::into) })
                }
            }

            impl<'a> ::planus::TableRead<'a> for ModelHintRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for ModelHintRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[ModelHintRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<ModelHint>> for ModelHint {
                type Value = ::planus::Offset<ModelHint>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<ModelHint>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for ModelHintRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[ModelHintRef]", "read_as_root", 0))
                }
            }

            ///  A message for LLM sampling
            ///
            /// Generated from these locations:
            /// * Table `SamplingMessage` in the file `record/schema/mcp.fbs:249`
            #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
            pub struct SamplingMessage {
                /// The field `role` in the table `SamplingMessage`
                pub role: self::Role,
                /// The field `content` in the table `SamplingMessage`
                pub content: self::Content,
                /// The field `model` in the table `SamplingMessage`
                pub model: ::core::option::Option<::planus::alloc::string::String>,
                /// The field `stop_reason` in the table `SamplingMessage`
                pub stop_reason: ::core::option::Option<::planus::alloc::string::String>,
            }

            impl SamplingMessage {
                /// Creates a [SamplingMessageBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> SamplingMessageBuilder<()> {
                    SamplingMessageBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_role: impl ::planus::WriteAsDefault<self::Role, self::Role>,
                    field_content: impl ::planus::WriteAsUnion<self::Content>,
                    field_model: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    field_stop_reason: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_role = field_role.prepare(builder, &self::Role::User);
                    let prepared_content = field_content.prepare(builder);
                    let prepared_model = field_model.prepare(builder);
                    let prepared_stop_reason = field_stop_reason.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<14> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<self::Content>>(2);
                    if prepared_model.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(3);
                    }
                    if prepared_stop_reason.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(4);
                    }
                    if prepared_role.is_some() {
                        table_writer.write_entry::<self::Role>(0);
                    }
                    table_writer.write_entry::<u8>(1);

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_content.offset());
                            if let ::core::option::Option::Some(prepared_model) = prepared_model {
                                object_writer.write::<_, _, 4>(&prepared_model);
                            }
                            if let ::core::option::Option::Some(prepared_stop_reason) = prepared_stop_reason {
                                object_writer.write::<_, _, 4>(&prepared_stop_reason);
                            }
                            if let ::core::option::Option::Some(prepared_role) = prepared_role {
                                object_writer.write::<_, _, 1>(&prepared_role);
                            }
                            object_writer.write::<_, _, 1>(&prepared_content.tag());
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<SamplingMessage>> for SamplingMessage {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<SamplingMessage> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<SamplingMessage>> for SamplingMessage {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<SamplingMessage>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<SamplingMessage> for SamplingMessage {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<SamplingMessage> {
                    SamplingMessage::create(builder, self.role, &self.content, &self.model, &self.stop_reason)
                }
            }

            /// Builder for serializing an instance of the [SamplingMessage] type.
            ///
            /// Can be created using the [SamplingMessage::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct SamplingMessageBuilder<State>(State);

            impl SamplingMessageBuilder<()> {
                /// Setter for the [`role` field](SamplingMessage#structfield.role).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn role<T0>(self, value: T0) -> SamplingMessageBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsDefault<self::Role, self::Role>,
                {
                    SamplingMessageBuilder((value,))
                }

                /// Sets the [`role` field](SamplingMessage#structfield.role) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn role_as_default(self) -> SamplingMessageBuilder<(::planus::DefaultValue,)> {
                    self.role(::planus::DefaultValue)
                }
            }

            impl<T0> SamplingMessageBuilder<(T0,)> {
                /// Setter for the [`content` field](SamplingMessage#structfield.content).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn content<T1>(self, value: T1) -> SamplingMessageBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsUnion<self::Content>,
                {
                    let (v0,) = self.0;
                    SamplingMessageBuilder((v0, value))
                }
            }

            impl<T0, T1> SamplingMessageBuilder<(T0, T1)> {
                /// Setter for the [`model` field](SamplingMessage#structfield.model).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn model<T2>(self, value: T2) -> SamplingMessageBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0, v1) = self.0;
                    SamplingMessageBuilder((v0, v1, value))
                }

                /// Sets the [`model` field](SamplingMessage#structfield.model) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn model_as_null(self) -> SamplingMessageBuilder<(T0, T1, ())> {
                    self.model(())
                }
            }

            impl<T0, T1, T2> SamplingMessageBuilder<(T0, T1, T2)> {
                /// Setter for the [`stop_reason` field](SamplingMessage#structfield.stop_reason).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn stop_reason<T3>(self, value: T3) -> SamplingMessageBuilder<(T0, T1, T2, T3)>
                where
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0, v1, v2) = self.0;
                    SamplingMessageBuilder((v0, v1, v2, value))
                }

                /// Sets the [`stop_reason` field](SamplingMessage#structfield.stop_reason) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn stop_reason_as_null(self) -> SamplingMessageBuilder<(T0, T1, T2, ())> {
                    self.stop_reason(())
                }
            }

            impl<T0, T1, T2, T3> SamplingMessageBuilder<(T0, T1, T2, T3)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [SamplingMessage].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<SamplingMessage>
                where
                    Self: ::planus::WriteAsOffset<SamplingMessage>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAsDefault<self::Role, self::Role>,
                    T1: ::planus::WriteAsUnion<self::Content>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAs<::planus::Offset<SamplingMessage>> for SamplingMessageBuilder<(T0, T1, T2, T3)>
            {
                type Prepared = ::planus::Offset<SamplingMessage>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<SamplingMessage> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAsDefault<self::Role, self::Role>,
                    T1: ::planus::WriteAsUnion<self::Content>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAsOptional<::planus::Offset<SamplingMessage>>
                for SamplingMessageBuilder<(T0, T1, T2, T3)>
            {
                type Prepared = ::planus::Offset<SamplingMessage>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<SamplingMessage>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAsDefault<self::Role, self::Role>,
                    T1: ::planus::WriteAsUnion<self::Content>,
                    T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAsOffset<SamplingMessage> for SamplingMessageBuilder<(T0, T1, T2, T3)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<SamplingMessage> {
                    let (v0, v1, v2, v3) = &self.0;
                    SamplingMessage::create(builder, v0, v1, v2, v3)
                }
            }

            /// Reference to a deserialized [SamplingMessage].
            #[derive(Copy, Clone)]
            pub struct SamplingMessageRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> SamplingMessageRef<'a> {
                /// Getter for the [`role` field](SamplingMessage#structfield.role).
                #[inline]
                pub fn role(&self) -> ::planus::Result<self::Role> {
                    ::core::result::Result::Ok(self.0.access(0, "SamplingMessage", "role")?.unwrap_or(self::Role::User))
                }

                /// Getter for the [`content` field](SamplingMessage#structfield.content).
                #[inline]
                pub fn content(&self) -> ::planus::Result<self::ContentRef<'a>> {
                    self.0.access_union_required(1, "SamplingMessage", "content")
                }

                /// Getter for the [`model` field](SamplingMessage#structfield.model).
                #[inline]
                pub fn model(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(3, "SamplingMessage", "model")
                }

                /// Getter for the [`stop_reason` field](SamplingMessage#structfield.stop_reason).
                #[inline]
                pub fn stop_reason(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(4, "SamplingMessage", "stop_reason")
                }
            }

            impl<'a> ::core::fmt::Debug for SamplingMessageRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("SamplingMessageRef");
                    f.field("role", &self.role());
                    f.field("content", &self.content());
                    if let ::core::option::Option::Some(field_model) = self.model().transpose() {
                        f.field("model", &field_model);
                    }
                    if let ::core::option::Option::Some(field_stop_reason) = self.stop_reason().transpose() {
                        f.field("stop_reason", &field_stop_reason);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<SamplingMessageRef<'a>> for SamplingMessage {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: SamplingMessageRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        role: ::core::convert::TryInto::try_into(value.role()?)?,
                        content: ::core::convert::TryInto::try_into(value.content()?)?,
                        model: value.model()?.map(::core::convert::Into::into),
                        stop_reason: value.stop_reason()?.map(::core::convert::Into::into),
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for SamplingMessageRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for SamplingMessageRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[SamplingMessageRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<SamplingMessage>> for SamplingMessage {
                type Value = ::planus::Offset<SamplingMessage>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<SamplingMessage>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for SamplingMessageRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[SamplingMessageRef]", "read_as_root", 0))
                }
            }

            ///  Available transport types
            ///
            /// Generated from these locations:
            /// * Union `TransportType` in the file `record/schema/mcp.fbs:256`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub enum TransportType {
                /// The variant of type `StdioTransport` in the union `TransportType`
                StdioTransport(::planus::alloc::boxed::Box<self::StdioTransport>),

                /// The variant of type `SSETransport` in the union `TransportType`
                SseTransport(::planus::alloc::boxed::Box<self::SseTransport>),
            }

            impl TransportType {
                /// Creates a [TransportTypeBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> TransportTypeBuilder<::planus::Uninitialized> {
                    TransportTypeBuilder(::planus::Uninitialized)
                }

                #[inline]
                pub fn create_stdio_transport(
                    builder: &mut ::planus::Builder,
                    value: impl ::planus::WriteAsOffset<self::StdioTransport>,
                ) -> ::planus::UnionOffset<Self> {
                    ::planus::UnionOffset::new(1, value.prepare(builder).downcast())
                }

                #[inline]
                pub fn create_sse_transport(
                    builder: &mut ::planus::Builder,
                    value: impl ::planus::WriteAsOffset<self::SseTransport>,
                ) -> ::planus::UnionOffset<Self> {
                    ::planus::UnionOffset::new(2, value.prepare(builder).downcast())
                }
            }

            impl ::planus::WriteAsUnion<TransportType> for TransportType {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<Self> {
                    match self {
                        Self::StdioTransport(value) => Self::create_stdio_transport(builder, value),
                        Self::SseTransport(value) => Self::create_sse_transport(builder, value),
                    }
                }
            }

            impl ::planus::WriteAsOptionalUnion<TransportType> for TransportType {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<Self>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }

            /// Builder for serializing an instance of the [TransportType] type.
            ///
            /// Can be created using the [TransportType::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct TransportTypeBuilder<T>(T);

            impl TransportTypeBuilder<::planus::Uninitialized> {
                /// Creates an instance of the [`StdioTransport` variant](TransportType#variant.StdioTransport).
                #[inline]
                pub fn stdio_transport<T>(self, value: T) -> TransportTypeBuilder<::planus::Initialized<1, T>>
                where
                    T: ::planus::WriteAsOffset<self::StdioTransport>,
                {
                    TransportTypeBuilder(::planus::Initialized(value))
                }

                /// Creates an instance of the [`SSETransport` variant](TransportType#variant.SseTransport).
                #[inline]
                pub fn sse_transport<T>(self, value: T) -> TransportTypeBuilder<::planus::Initialized<2, T>>
                where
                    T: ::planus::WriteAsOffset<self::SseTransport>,
                {
                    TransportTypeBuilder(::planus::Initialized(value))
                }
            }

            impl<const N: u8, T> TransportTypeBuilder<::planus::Initialized<N, T>> {
                /// Finish writing the builder to get an [UnionOffset](::planus::UnionOffset) to a serialized [TransportType].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<TransportType>
                where
                    Self: ::planus::WriteAsUnion<TransportType>,
                {
                    ::planus::WriteAsUnion::prepare(&self, builder)
                }
            }

            impl<T> ::planus::WriteAsUnion<TransportType> for TransportTypeBuilder<::planus::Initialized<1, T>>
            where
                T: ::planus::WriteAsOffset<self::StdioTransport>,
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<TransportType> {
                    ::planus::UnionOffset::new(1, (self.0).0.prepare(builder).downcast())
                }
            }

            impl<T> ::planus::WriteAsOptionalUnion<TransportType> for TransportTypeBuilder<::planus::Initialized<1, T>>
            where
                T: ::planus::WriteAsOffset<self::StdioTransport>,
            {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<TransportType>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }
            impl<T> ::planus::WriteAsUnion<TransportType> for TransportTypeBuilder<::planus::Initialized<2, T>>
            where
                T: ::planus::WriteAsOffset<self::SseTransport>,
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<TransportType> {
                    ::planus::UnionOffset::new(2, (self.0).0.prepare(builder).downcast())
                }
            }

            impl<T> ::planus::WriteAsOptionalUnion<TransportType> for TransportTypeBuilder<::planus::Initialized<2, T>>
            where
                T: ::planus::WriteAsOffset<self::SseTransport>,
            {
                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::UnionOffset<TransportType>> {
                    ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
                }
            }

            /// Reference to a deserialized [TransportType].
            #[derive(Copy, Clone, Debug)]
            pub enum TransportTypeRef<'a> {
                StdioTransport(self::StdioTransportRef<'a>),
                SseTransport(self::SseTransportRef<'a>),
            }

            impl<'a> ::core::convert::TryFrom<TransportTypeRef<'a>> for TransportType {
                type Error = ::planus::Error;

                fn try_from(value: TransportTypeRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(match value {
                        TransportTypeRef::StdioTransport(value) => Self::StdioTransport(
                            ::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?),
                        ),

                        TransportTypeRef::SseTransport(value) => Self::SseTransport(::planus::alloc::boxed::Box::new(
                            ::core::convert::TryFrom::try_from(value)?,
                        )),
                    })
                }
            }

            impl<'a> ::planus::TableReadUnion<'a> for TransportTypeRef<'a> {
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    tag: u8,
                    field_offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    match tag {
                        1 => ::core::result::Result::Ok(Self::StdioTransport(::planus::TableRead::from_buffer(
                            buffer,
                            field_offset,
                        )?)),
                        2 => ::core::result::Result::Ok(Self::SseTransport(::planus::TableRead::from_buffer(
                            buffer,
                            field_offset,
                        )?)),
                        _ => ::core::result::Result::Err(::planus::errors::ErrorKind::UnknownUnionTag { tag }),
                    }
                }
            }

            impl<'a> ::planus::VectorReadUnion<'a> for TransportTypeRef<'a> {
                const VECTOR_NAME: &'static str = "[TransportTypeRef]";
            }

            ///  Base transport configuration
            ///
            /// Generated from these locations:
            /// * Table `Transport` in the file `record/schema/mcp.fbs:261`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Transport {
                /// The field `type` in the table `Transport`
                pub type_: self::TransportType,
            }

            impl Transport {
                /// Creates a [TransportBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> TransportBuilder<()> {
                    TransportBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_type_: impl ::planus::WriteAsUnion<self::TransportType>,
                ) -> ::planus::Offset<Self> {
                    let prepared_type_ = field_type_.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<self::TransportType>>(1);
                    table_writer.write_entry::<u8>(0);

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_type_.offset());
                            object_writer.write::<_, _, 1>(&prepared_type_.tag());
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Transport>> for Transport {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Transport> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Transport>> for Transport {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Transport>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Transport> for Transport {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Transport> {
                    Transport::create(builder, &self.type_)
                }
            }

            /// Builder for serializing an instance of the [Transport] type.
            ///
            /// Can be created using the [Transport::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct TransportBuilder<State>(State);

            impl TransportBuilder<()> {
                /// Setter for the [`type` field](Transport#structfield.type_).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn type_<T0>(self, value: T0) -> TransportBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsUnion<self::TransportType>,
                {
                    TransportBuilder((value,))
                }
            }

            impl<T0> TransportBuilder<(T0,)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Transport].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Transport>
                where
                    Self: ::planus::WriteAsOffset<Transport>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAsUnion<self::TransportType>> ::planus::WriteAs<::planus::Offset<Transport>>
                for TransportBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<Transport>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Transport> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAsUnion<self::TransportType>> ::planus::WriteAsOptional<::planus::Offset<Transport>>
                for TransportBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<Transport>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<Transport>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAsUnion<self::TransportType>> ::planus::WriteAsOffset<Transport> for TransportBuilder<(T0,)> {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Transport> {
                    let (v0,) = &self.0;
                    Transport::create(builder, v0)
                }
            }

            /// Reference to a deserialized [Transport].
            #[derive(Copy, Clone)]
            pub struct TransportRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> TransportRef<'a> {
                /// Getter for the [`type` field](Transport#structfield.type_).
                #[inline]
                pub fn type_(&self) -> ::planus::Result<self::TransportTypeRef<'a>> {
                    self.0.access_union_required(0, "Transport", "type_")
                }
            }

            impl<'a> ::core::fmt::Debug for TransportRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("TransportRef");
                    f.field("type_", &self.type_());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<TransportRef<'a>> for Transport {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: TransportRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self { type_: ::core::convert::TryInto::try_into(value.type_()?)? })
                }
            }

            impl<'a> ::planus::TableRead<'a> for TransportRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for TransportRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[TransportRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Transport>> for Transport {
                type Value = ::planus::Offset<Transport>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Transport>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for TransportRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[TransportRef]", "read_as_root", 0))
                }
            }

            ///  Configuration for stdio transport
            ///
            /// Generated from these locations:
            /// * Table `StdioTransport` in the file `record/schema/mcp.fbs:265`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct StdioTransport {
                /// The field `buffer_size` in the table `StdioTransport`
                pub buffer_size: u32,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for StdioTransport {
                fn default() -> Self {
                    Self { buffer_size: 8192 }
                }
            }

            impl StdioTransport {
                /// Creates a [StdioTransportBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> StdioTransportBuilder<()> {
                    StdioTransportBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_buffer_size: impl ::planus::WriteAsDefault<u32, u32>,
                ) -> ::planus::Offset<Self> {
                    let prepared_buffer_size = field_buffer_size.prepare(builder, &8192);

                    let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                    if prepared_buffer_size.is_some() {
                        table_writer.write_entry::<u32>(0);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            if let ::core::option::Option::Some(prepared_buffer_size) = prepared_buffer_size {
                                object_writer.write::<_, _, 4>(&prepared_buffer_size);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<StdioTransport>> for StdioTransport {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<StdioTransport> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<StdioTransport>> for StdioTransport {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<StdioTransport>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<StdioTransport> for StdioTransport {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<StdioTransport> {
                    StdioTransport::create(builder, self.buffer_size)
                }
            }

            /// Builder for serializing an instance of the [StdioTransport] type.
            ///
            /// Can be created using the [StdioTransport::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct StdioTransportBuilder<State>(State);

            impl StdioTransportBuilder<()> {
                /// Setter for the [`buffer_size` field](StdioTransport#structfield.buffer_size).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn buffer_size<T0>(self, value: T0) -> StdioTransportBuilder<(T0,)>
                where
                    T0: ::planus::WriteAsDefault<u32, u32>,
                {
                    StdioTransportBuilder((value,))
                }

                /// Sets the [`buffer_size` field](StdioTransport#structfield.buffer_size) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn buffer_size_as_default(self) -> StdioTransportBuilder<(::planus::DefaultValue,)> {
                    self.buffer_size(::planus::DefaultValue)
                }
            }

            impl<T0> StdioTransportBuilder<(T0,)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [StdioTransport].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<StdioTransport>
                where
                    Self: ::planus::WriteAsOffset<StdioTransport>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAsDefault<u32, u32>> ::planus::WriteAs<::planus::Offset<StdioTransport>>
                for StdioTransportBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<StdioTransport>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<StdioTransport> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAsDefault<u32, u32>> ::planus::WriteAsOptional<::planus::Offset<StdioTransport>>
                for StdioTransportBuilder<(T0,)>
            {
                type Prepared = ::planus::Offset<StdioTransport>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<StdioTransport>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAsDefault<u32, u32>> ::planus::WriteAsOffset<StdioTransport> for StdioTransportBuilder<(T0,)> {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<StdioTransport> {
                    let (v0,) = &self.0;
                    StdioTransport::create(builder, v0)
                }
            }

            /// Reference to a deserialized [StdioTransport].
            #[derive(Copy, Clone)]
            pub struct StdioTransportRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> StdioTransportRef<'a> {
                /// Getter for the [`buffer_size` field](StdioTransport#structfield.buffer_size).
                #[inline]
                pub fn buffer_size(&self) -> ::planus::Result<u32> {
                    ::core::result::Result::Ok(self.0.access(0, "StdioTransport", "buffer_size")?.unwrap_or(8192))
                }
            }

            impl<'a> ::core::fmt::Debug for StdioTransportRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("StdioTransportRef");
                    f.field("buffer_size", &self.buffer_size());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<StdioTransportRef<'a>> for StdioTransport {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: StdioTransportRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        buffer_size: ::core::convert::TryInto::try_into(value.buffer_size()?)?,
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for StdioTransportRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for StdioTransportRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[StdioTransportRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<StdioTransport>> for StdioTransport {
                type Value = ::planus::Offset<StdioTransport>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<StdioTransport>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for StdioTransportRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[StdioTransportRef]", "read_as_root", 0))
                }
            }

            ///  Configuration for SSE transport
            ///
            /// Generated from these locations:
            /// * Table `SSETransport` in the file `record/schema/mcp.fbs:269`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct SseTransport {
                /// The field `url` in the table `SSETransport`
                pub url: ::planus::alloc::string::String,
                /// The field `headers` in the table `SSETransport`
                pub headers: ::core::option::Option<::planus::alloc::vec::Vec<self::Header>>,
                /// The field `reconnect_time` in the table `SSETransport`
                pub reconnect_time: u32,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for SseTransport {
                fn default() -> Self {
                    Self {
                        url: ::core::default::Default::default(),
                        headers: ::core::default::Default::default(),
                        reconnect_time: 3000,
                    }
                }
            }

            impl SseTransport {
                /// Creates a [SseTransportBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> SseTransportBuilder<()> {
                    SseTransportBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_url: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_headers: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Header>]>>,
                    field_reconnect_time: impl ::planus::WriteAsDefault<u32, u32>,
                ) -> ::planus::Offset<Self> {
                    let prepared_url = field_url.prepare(builder);
                    let prepared_headers = field_headers.prepare(builder);
                    let prepared_reconnect_time = field_reconnect_time.prepare(builder, &3000);

                    let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    if prepared_headers.is_some() {
                        table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::Header>]>>(1);
                    }
                    if prepared_reconnect_time.is_some() {
                        table_writer.write_entry::<u32>(2);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_url);
                            if let ::core::option::Option::Some(prepared_headers) = prepared_headers {
                                object_writer.write::<_, _, 4>(&prepared_headers);
                            }
                            if let ::core::option::Option::Some(prepared_reconnect_time) = prepared_reconnect_time {
                                object_writer.write::<_, _, 4>(&prepared_reconnect_time);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<SseTransport>> for SseTransport {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<SseTransport> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<SseTransport>> for SseTransport {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<SseTransport>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<SseTransport> for SseTransport {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<SseTransport> {
                    SseTransport::create(builder, &self.url, &self.headers, self.reconnect_time)
                }
            }

            /// Builder for serializing an instance of the [SseTransport] type.
            ///
            /// Can be created using the [SseTransport::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct SseTransportBuilder<State>(State);

            impl SseTransportBuilder<()> {
                /// Setter for the [`url` field](SseTransport#structfield.url).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn url<T0>(self, value: T0) -> SseTransportBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    SseTransportBuilder((value,))
                }
            }

            impl<T0> SseTransportBuilder<(T0,)> {
                /// Setter for the [`headers` field](SseTransport#structfield.headers).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn headers<T1>(self, value: T1) -> SseTransportBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Header>]>>,
                {
                    let (v0,) = self.0;
                    SseTransportBuilder((v0, value))
                }

                /// Sets the [`headers` field](SseTransport#structfield.headers) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn headers_as_null(self) -> SseTransportBuilder<(T0, ())> {
                    self.headers(())
                }
            }

            impl<T0, T1> SseTransportBuilder<(T0, T1)> {
                /// Setter for the [`reconnect_time` field](SseTransport#structfield.reconnect_time).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn reconnect_time<T2>(self, value: T2) -> SseTransportBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAsDefault<u32, u32>,
                {
                    let (v0, v1) = self.0;
                    SseTransportBuilder((v0, v1, value))
                }

                /// Sets the [`reconnect_time` field](SseTransport#structfield.reconnect_time) to the default value.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn reconnect_time_as_default(self) -> SseTransportBuilder<(T0, T1, ::planus::DefaultValue)> {
                    self.reconnect_time(::planus::DefaultValue)
                }
            }

            impl<T0, T1, T2> SseTransportBuilder<(T0, T1, T2)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [SseTransport].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<SseTransport>
                where
                    Self: ::planus::WriteAsOffset<SseTransport>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Header>]>>,
                    T2: ::planus::WriteAsDefault<u32, u32>,
                > ::planus::WriteAs<::planus::Offset<SseTransport>> for SseTransportBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<SseTransport>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<SseTransport> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Header>]>>,
                    T2: ::planus::WriteAsDefault<u32, u32>,
                > ::planus::WriteAsOptional<::planus::Offset<SseTransport>> for SseTransportBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<SseTransport>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<SseTransport>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Header>]>>,
                    T2: ::planus::WriteAsDefault<u32, u32>,
                > ::planus::WriteAsOffset<SseTransport> for SseTransportBuilder<(T0, T1, T2)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<SseTransport> {
                    let (v0, v1, v2) = &self.0;
                    SseTransport::create(builder, v0, v1, v2)
                }
            }

            /// Reference to a deserialized [SseTransport].
            #[derive(Copy, Clone)]
            pub struct SseTransportRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> SseTransportRef<'a> {
                /// Getter for the [`url` field](SseTransport#structfield.url).
                #[inline]
                pub fn url(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "SseTransport", "url")
                }

                /// Getter for the [`headers` field](SseTransport#structfield.headers).
                #[inline]
                pub fn headers(
                    &self,
                ) -> ::planus::Result<::core::option::Option<::planus::Vector<'a, ::planus::Result<self::HeaderRef<'a>>>>>
                {
                    self.0.access(1, "SseTransport", "headers")
                }

                /// Getter for the [`reconnect_time` field](SseTransport#structfield.reconnect_time).
                #[inline]
                pub fn reconnect_time(&self) -> ::planus::Result<u32> {
                    ::core::result::Result::Ok(self.0.access(2, "SseTransport", "reconnect_time")?.unwrap_or(3000))
                }
            }

            impl<'a> ::core::fmt::Debug for SseTransportRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("SseTransportRef");
                    f.field("url", &self.url());
                    if let ::core::option::Option::Some(field_headers) = self.headers().transpose() {
                        f.field("headers", &field_headers);
                    }
                    f.field("reconnect_time", &self.reconnect_time());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<SseTransportRef<'a>> for SseTransport {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: SseTransportRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        url: ::core::convert::Into::into(value.url()?),
                        headers: if let ::core::option::Option::Some(headers) = value.headers()? {
                            ::core::option::Option::Some(headers.to_vec_result()?)
                        } else {
                            ::core::option::Option::None
                        },
                        reconnect_time: ::core::convert::TryInto::try_into(value.reconnect_time()?)?,
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for SseTransportRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for SseTransportRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[SseTransportRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<SseTransport>> for SseTransport {
                type Value = ::planus::Offset<SseTransport>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<SseTransport>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for SseTransportRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[SseTransportRef]", "read_as_root", 0))
                }
            }

            ///  HTTP header key-value pair
            ///
            /// Generated from these locations:
            /// * Table `Header` in the file `record/schema/mcp.fbs:275`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Header {
                /// The field `key` in the table `Header`
                pub key: ::planus::alloc::string::String,
                /// The field `value` in the table `Header`
                pub value: ::planus::alloc::string::String,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Header {
                fn default() -> Self {
                    Self { key: ::core::default::Default::default(), value: ::core::default::Default::default() }
                }
            }

            impl Header {
                /// Creates a [HeaderBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> HeaderBuilder<()> {
                    HeaderBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_key: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_value: impl ::planus::WriteAs<::planus::Offset<str>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_key = field_key.prepare(builder);
                    let prepared_value = field_value.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    table_writer.write_entry::<::planus::Offset<str>>(1);

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_key);
                            object_writer.write::<_, _, 4>(&prepared_value);
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Header>> for Header {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Header> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Header>> for Header {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Header>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Header> for Header {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Header> {
                    Header::create(builder, &self.key, &self.value)
                }
            }

            /// Builder for serializing an instance of the [Header] type.
            ///
            /// Can be created using the [Header::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct HeaderBuilder<State>(State);

            impl HeaderBuilder<()> {
                /// Setter for the [`key` field](Header#structfield.key).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn key<T0>(self, value: T0) -> HeaderBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    HeaderBuilder((value,))
                }
            }

            impl<T0> HeaderBuilder<(T0,)> {
                /// Setter for the [`value` field](Header#structfield.value).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn value<T1>(self, value: T1) -> HeaderBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    let (v0,) = self.0;
                    HeaderBuilder((v0, value))
                }
            }

            impl<T0, T1> HeaderBuilder<(T0, T1)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Header].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Header>
                where
                    Self: ::planus::WriteAsOffset<Header>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<str>>>
                ::planus::WriteAs<::planus::Offset<Header>> for HeaderBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<Header>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Header> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<str>>>
                ::planus::WriteAsOptional<::planus::Offset<Header>> for HeaderBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<Header>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Header>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<str>>>
                ::planus::WriteAsOffset<Header> for HeaderBuilder<(T0, T1)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Header> {
                    let (v0, v1) = &self.0;
                    Header::create(builder, v0, v1)
                }
            }

            /// Reference to a deserialized [Header].
            #[derive(Copy, Clone)]
            pub struct HeaderRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> HeaderRef<'a> {
                /// Getter for the [`key` field](Header#structfield.key).
                #[inline]
                pub fn key(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "Header", "key")
                }

                /// Getter for the [`value` field](Header#structfield.value).
                #[inline]
                pub fn value(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(1, "Header", "value")
                }
            }

            impl<'a> ::core::fmt::Debug for HeaderRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("HeaderRef");
                    f.field("key", &self.key());
                    f.field("value", &self.value());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<HeaderRef<'a>> for Header {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: HeaderRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        key: ::core::convert::Into::into(value.key()?),
                        value: ::core::convert::Into::into(value.value()?),
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for HeaderRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for HeaderRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[HeaderRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Header>> for Header {
                type Value = ::planus::Offset<Header>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Header>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for HeaderRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[HeaderRef]", "read_as_root", 0))
                }
            }

            ///  Represents a root directory or file that the server can operate on
            ///
            /// Generated from these locations:
            /// * Table `Root` in the file `record/schema/mcp.fbs:280`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Root {
                /// The field `uri` in the table `Root`
                pub uri: ::planus::alloc::string::String,
                /// The field `name` in the table `Root`
                pub name: ::core::option::Option<::planus::alloc::string::String>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for Root {
                fn default() -> Self {
                    Self { uri: ::core::default::Default::default(), name: ::core::default::Default::default() }
                }
            }

            impl Root {
                /// Creates a [RootBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> RootBuilder<()> {
                    RootBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_uri: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_name: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_uri = field_uri.prepare(builder);
                    let prepared_name = field_name.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    if prepared_name.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(1);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_uri);
                            if let ::core::option::Option::Some(prepared_name) = prepared_name {
                                object_writer.write::<_, _, 4>(&prepared_name);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<Root>> for Root {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Root> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<Root>> for Root {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Root>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<Root> for Root {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Root> {
                    Root::create(builder, &self.uri, &self.name)
                }
            }

            /// Builder for serializing an instance of the [Root] type.
            ///
            /// Can be created using the [Root::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct RootBuilder<State>(State);

            impl RootBuilder<()> {
                /// Setter for the [`uri` field](Root#structfield.uri).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn uri<T0>(self, value: T0) -> RootBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    RootBuilder((value,))
                }
            }

            impl<T0> RootBuilder<(T0,)> {
                /// Setter for the [`name` field](Root#structfield.name).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn name<T1>(self, value: T1) -> RootBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0,) = self.0;
                    RootBuilder((v0, value))
                }

                /// Sets the [`name` field](Root#structfield.name) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn name_as_null(self) -> RootBuilder<(T0, ())> {
                    self.name(())
                }
            }

            impl<T0, T1> RootBuilder<(T0, T1)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Root].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Root>
                where
                    Self: ::planus::WriteAsOffset<Root>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAs<::planus::Offset<Root>> for RootBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<Root>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Root> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAsOptional<::planus::Offset<Root>> for RootBuilder<(T0, T1)>
            {
                type Prepared = ::planus::Offset<Root>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Root>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAsOffset<Root> for RootBuilder<(T0, T1)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Root> {
                    let (v0, v1) = &self.0;
                    Root::create(builder, v0, v1)
                }
            }

            /// Reference to a deserialized [Root].
            #[derive(Copy, Clone)]
            pub struct RootRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> RootRef<'a> {
                /// Getter for the [`uri` field](Root#structfield.uri).
                #[inline]
                pub fn uri(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "Root", "uri")
                }

                /// Getter for the [`name` field](Root#structfield.name).
                #[inline]
                pub fn name(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(1, "Root", "name")
                }
            }

            impl<'a> ::core::fmt::Debug for RootRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("RootRef");
                    f.field("uri", &self.uri());
                    if let ::core::option::Option::Some(field_name) = self.name().transpose() {
                        f.field("name", &field_name);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<RootRef<'a>> for Root {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: RootRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        uri: ::core::convert::Into::into(value.uri()?),
                        name: value.name()?.map(::core::convert::Into::into),
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for RootRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for RootRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[RootRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<Root>> for Root {
                type Value = ::planus::Offset<Root>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<Root>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for RootRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[RootRef]", "read_as_root", 0))
                }
            }

            ///  Request sent from client to server for initialization
            ///
            /// Generated from these locations:
            /// * Table `InitializeRequest` in the file `record/schema/mcp.fbs:285`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct InitializeRequest {
                /// The field `protocol_version` in the table `InitializeRequest`
                pub protocol_version: ::planus::alloc::string::String,
                /// The field `capabilities` in the table `InitializeRequest`
                pub capabilities: ::planus::alloc::boxed::Box<self::ClientCapabilities>,
                /// The field `client_info` in the table `InitializeRequest`
                pub client_info: ::planus::alloc::boxed::Box<self::Implementation>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for InitializeRequest {
                fn default() -> Self {
                    Self {
                        protocol_version: ::core::default::Default::default(),
                        capabilities: ::core::default::Default::default(),
                        client_info: ::core::default::Default::default(),
                    }
                }
            }

            impl InitializeRequest {
                /// Creates a [InitializeRequestBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> InitializeRequestBuilder<()> {
                    InitializeRequestBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_protocol_version: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_capabilities: impl ::planus::WriteAs<::planus::Offset<self::ClientCapabilities>>,
                    field_client_info: impl ::planus::WriteAs<::planus::Offset<self::Implementation>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_protocol_version = field_protocol_version.prepare(builder);
                    let prepared_capabilities = field_capabilities.prepare(builder);
                    let prepared_client_info = field_client_info.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    table_writer.write_entry::<::planus::Offset<self::ClientCapabilities>>(1);
                    table_writer.write_entry::<::planus::Offset<self::Implementation>>(2);

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_protocol_version);
                            object_writer.write::<_, _, 4>(&prepared_capabilities);
                            object_writer.write::<_, _, 4>(&prepared_client_info);
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<InitializeRequest>> for InitializeRequest {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<InitializeRequest> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<InitializeRequest>> for InitializeRequest {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<InitializeRequest>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<InitializeRequest> for InitializeRequest {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<InitializeRequest> {
                    InitializeRequest::create(builder, &self.protocol_version, &self.capabilities, &self.client_info)
                }
            }

            /// Builder for serializing an instance of the [InitializeRequest] type.
            ///
            /// Can be created using the [InitializeRequest::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct InitializeRequestBuilder<State>(State);

            impl InitializeRequestBuilder<()> {
                /// Setter for the [`protocol_version` field](InitializeRequest#structfield.protocol_version).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn protocol_version<T0>(self, value: T0) -> InitializeRequestBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    InitializeRequestBuilder((value,))
                }
            }

            impl<T0> InitializeRequestBuilder<(T0,)> {
                /// Setter for the [`capabilities` field](InitializeRequest#structfield.capabilities).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn capabilities<T1>(self, value: T1) -> InitializeRequestBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<::planus::Offset<self::ClientCapabilities>>,
                {
                    let (v0,) = self.0;
                    InitializeRequestBuilder((v0, value))
                }
            }

            impl<T0, T1> InitializeRequestBuilder<(T0, T1)> {
                /// Setter for the [`client_info` field](InitializeRequest#structfield.client_info).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn client_info<T2>(self, value: T2) -> InitializeRequestBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAs<::planus::Offset<self::Implementation>>,
                {
                    let (v0, v1) = self.0;
                    InitializeRequestBuilder((v0, v1, value))
                }
            }

            impl<T0, T1, T2> InitializeRequestBuilder<(T0, T1, T2)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [InitializeRequest].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<InitializeRequest>
                where
                    Self: ::planus::WriteAsOffset<InitializeRequest>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<self::ClientCapabilities>>,
                    T2: ::planus::WriteAs<::planus::Offset<self::Implementation>>,
                > ::planus::WriteAs<::planus::Offset<InitializeRequest>> for InitializeRequestBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<InitializeRequest>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<InitializeRequest> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<self::ClientCapabilities>>,
                    T2: ::planus::WriteAs<::planus::Offset<self::Implementation>>,
                > ::planus::WriteAsOptional<::planus::Offset<InitializeRequest>>
                for InitializeRequestBuilder<(T0, T1, T2)>
            {
                type Prepared = ::planus::Offset<InitializeRequest>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<InitializeRequest>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<self::ClientCapabilities>>,
                    T2: ::planus::WriteAs<::planus::Offset<self::Implementation>>,
                > ::planus::WriteAsOffset<InitializeRequest> for InitializeRequestBuilder<(T0, T1, T2)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<InitializeRequest> {
                    let (v0, v1, v2) = &self.0;
                    InitializeRequest::create(builder, v0, v1, v2)
                }
            }

            /// Reference to a deserialized [InitializeRequest].
            #[derive(Copy, Clone)]
            pub struct InitializeRequestRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> InitializeRequestRef<'a> {
                /// Getter for the [`protocol_version` field](InitializeRequest#structfield.protocol_version).
                #[inline]
                pub fn protocol_version(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "InitializeRequest", "protocol_version")
                }

                /// Getter for the [`capabilities` field](InitializeRequest#structfield.capabilities).
                #[inline]
                pub fn capabilities(&self) -> ::planus::Result<self::ClientCapabilitiesRef<'a>> {
                    self.0.access_required(1, "InitializeRequest", "capabilities")
                }

                /// Getter for the [`client_info` field](InitializeRequest#structfield.client_info).
                #[inline]
                pub fn client_info(&self) -> ::planus::Result<self::ImplementationRef<'a>> {
                    self.0.access_required(2, "InitializeRequest", "client_info")
                }
            }

            impl<'a> ::core::fmt::Debug for InitializeRequestRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("InitializeRequestRef");
                    f.field("protocol_version", &self.protocol_version());
                    f.field("capabilities", &self.capabilities());
                    f.field("client_info", &self.client_info());
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<InitializeRequestRef<'a>> for InitializeRequest {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: InitializeRequestRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        protocol_version: ::core::convert::Into::into(value.protocol_version()?),
                        capabilities: ::planus::alloc::boxed::Box::new(::core::convert::TryInto::try_into(
                            value.capabilities()?,
                        )?),
                        client_info: ::planus::alloc::boxed::Box::new(::core::convert::TryInto::try_into(
                            value.client_info()?,
                        )?),
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for InitializeRequestRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for InitializeRequestRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[InitializeRequestRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<InitializeRequest>> for InitializeRequest {
                type Value = ::planus::Offset<InitializeRequest>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<InitializeRequest>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for InitializeRequestRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[InitializeRequestRef]", "read_as_root", 0))
                }
            }

            ///  Server's response to initialization request
            ///
            /// Generated from these locations:
            /// * Table `InitializeResponse` in the file `record/schema/mcp.fbs:291`
            #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
            pub struct InitializeResponse {
                /// The field `protocol_version` in the table `InitializeResponse`
                pub protocol_version: ::planus::alloc::string::String,
                /// The field `capabilities` in the table `InitializeResponse`
                pub capabilities: ::planus::alloc::boxed::Box<self::ServerCapabilities>,
                /// The field `server_info` in the table `InitializeResponse`
                pub server_info: ::planus::alloc::boxed::Box<self::Implementation>,
                /// The field `instructions` in the table `InitializeResponse`
                pub instructions: ::core::option::Option<::planus::alloc::string::String>,
            }

            #[allow(clippy::derivable_impls)]
            impl ::core::default::Default for InitializeResponse {
                fn default() -> Self {
                    Self {
                        protocol_version: ::core::default::Default::default(),
                        capabilities: ::core::default::Default::default(),
                        server_info: ::core::default::Default::default(),
                        instructions: ::core::default::Default::default(),
                    }
                }
            }

            impl InitializeResponse {
                /// Creates a [InitializeResponseBuilder] for serializing an instance of this table.
                #[inline]
                pub fn builder() -> InitializeResponseBuilder<()> {
                    InitializeResponseBuilder(())
                }

                #[allow(clippy::too_many_arguments)]
                pub fn create(
                    builder: &mut ::planus::Builder,
                    field_protocol_version: impl ::planus::WriteAs<::planus::Offset<str>>,
                    field_capabilities: impl ::planus::WriteAs<::planus::Offset<self::ServerCapabilities>>,
                    field_server_info: impl ::planus::WriteAs<::planus::Offset<self::Implementation>>,
                    field_instructions: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                ) -> ::planus::Offset<Self> {
                    let prepared_protocol_version = field_protocol_version.prepare(builder);
                    let prepared_capabilities = field_capabilities.prepare(builder);
                    let prepared_server_info = field_server_info.prepare(builder);
                    let prepared_instructions = field_instructions.prepare(builder);

                    let mut table_writer: ::planus::table_writer::TableWriter<12> = ::core::default::Default::default();
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                    table_writer.write_entry::<::planus::Offset<self::ServerCapabilities>>(1);
                    table_writer.write_entry::<::planus::Offset<self::Implementation>>(2);
                    if prepared_instructions.is_some() {
                        table_writer.write_entry::<::planus::Offset<str>>(3);
                    }

                    unsafe {
                        table_writer.finish(builder, |object_writer| {
                            object_writer.write::<_, _, 4>(&prepared_protocol_version);
                            object_writer.write::<_, _, 4>(&prepared_capabilities);
                            object_writer.write::<_, _, 4>(&prepared_server_info);
                            if let ::core::option::Option::Some(prepared_instructions) = prepared_instructions {
                                object_writer.write::<_, _, 4>(&prepared_instructions);
                            }
                        });
                    }
                    builder.current_offset()
                }
            }

            impl ::planus::WriteAs<::planus::Offset<InitializeResponse>> for InitializeResponse {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<InitializeResponse> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl ::planus::WriteAsOptional<::planus::Offset<InitializeResponse>> for InitializeResponse {
                type Prepared = ::planus::Offset<Self>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<InitializeResponse>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl ::planus::WriteAsOffset<InitializeResponse> for InitializeResponse {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<InitializeResponse> {
                    InitializeResponse::create(
                        builder,
                        &self.protocol_version,
                        &self.capabilities,
                        &self.server_info,
                        &self.instructions,
                    )
                }
            }

            /// Builder for serializing an instance of the [InitializeResponse] type.
            ///
            /// Can be created using the [InitializeResponse::builder] method.
            #[derive(Debug)]
            #[must_use]
            pub struct InitializeResponseBuilder<State>(State);

            impl InitializeResponseBuilder<()> {
                /// Setter for the [`protocol_version` field](InitializeResponse#structfield.protocol_version).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn protocol_version<T0>(self, value: T0) -> InitializeResponseBuilder<(T0,)>
                where
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                {
                    InitializeResponseBuilder((value,))
                }
            }

            impl<T0> InitializeResponseBuilder<(T0,)> {
                /// Setter for the [`capabilities` field](InitializeResponse#structfield.capabilities).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn capabilities<T1>(self, value: T1) -> InitializeResponseBuilder<(T0, T1)>
                where
                    T1: ::planus::WriteAs<::planus::Offset<self::ServerCapabilities>>,
                {
                    let (v0,) = self.0;
                    InitializeResponseBuilder((v0, value))
                }
            }

            impl<T0, T1> InitializeResponseBuilder<(T0, T1)> {
                /// Setter for the [`server_info` field](InitializeResponse#structfield.server_info).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn server_info<T2>(self, value: T2) -> InitializeResponseBuilder<(T0, T1, T2)>
                where
                    T2: ::planus::WriteAs<::planus::Offset<self::Implementation>>,
                {
                    let (v0, v1) = self.0;
                    InitializeResponseBuilder((v0, v1, value))
                }
            }

            impl<T0, T1, T2> InitializeResponseBuilder<(T0, T1, T2)> {
                /// Setter for the [`instructions` field](InitializeResponse#structfield.instructions).
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn instructions<T3>(self, value: T3) -> InitializeResponseBuilder<(T0, T1, T2, T3)>
                where
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                {
                    let (v0, v1, v2) = self.0;
                    InitializeResponseBuilder((v0, v1, v2, value))
                }

                /// Sets the [`instructions` field](InitializeResponse#structfield.instructions) to null.
                #[inline]
                #[allow(clippy::type_complexity)]
                pub fn instructions_as_null(self) -> InitializeResponseBuilder<(T0, T1, T2, ())> {
                    self.instructions(())
                }
            }

            impl<T0, T1, T2, T3> InitializeResponseBuilder<(T0, T1, T2, T3)> {
                /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [InitializeResponse].
                #[inline]
                pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<InitializeResponse>
                where
                    Self: ::planus::WriteAsOffset<InitializeResponse>,
                {
                    ::planus::WriteAsOffset::prepare(&self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<self::ServerCapabilities>>,
                    T2: ::planus::WriteAs<::planus::Offset<self::Implementation>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAs<::planus::Offset<InitializeResponse>>
                for InitializeResponseBuilder<(T0, T1, T2, T3)>
            {
                type Prepared = ::planus::Offset<InitializeResponse>;

                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<InitializeResponse> {
                    ::planus::WriteAsOffset::prepare(self, builder)
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<self::ServerCapabilities>>,
                    T2: ::planus::WriteAs<::planus::Offset<self::Implementation>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAsOptional<::planus::Offset<InitializeResponse>>
                for InitializeResponseBuilder<(T0, T1, T2, T3)>
            {
                type Prepared = ::planus::Offset<InitializeResponse>;

                #[inline]
                fn prepare(
                    &self,
                    builder: &mut ::planus::Builder,
                ) -> ::core::option::Option<::planus::Offset<InitializeResponse>> {
                    ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
                }
            }

            impl<
                    T0: ::planus::WriteAs<::planus::Offset<str>>,
                    T1: ::planus::WriteAs<::planus::Offset<self::ServerCapabilities>>,
                    T2: ::planus::WriteAs<::planus::Offset<self::Implementation>>,
                    T3: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                > ::planus::WriteAsOffset<InitializeResponse> for InitializeResponseBuilder<(T0, T1, T2, T3)>
            {
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<InitializeResponse> {
                    let (v0, v1, v2, v3) = &self.0;
                    InitializeResponse::create(builder, v0, v1, v2, v3)
                }
            }

            /// Reference to a deserialized [InitializeResponse].
            #[derive(Copy, Clone)]
            pub struct InitializeResponseRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

            impl<'a> InitializeResponseRef<'a> {
                /// Getter for the [`protocol_version` field](InitializeResponse#structfield.protocol_version).
                #[inline]
                pub fn protocol_version(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                    self.0.access_required(0, "InitializeResponse", "protocol_version")
                }

                /// Getter for the [`capabilities` field](InitializeResponse#structfield.capabilities).
                #[inline]
                pub fn capabilities(&self) -> ::planus::Result<self::ServerCapabilitiesRef<'a>> {
                    self.0.access_required(1, "InitializeResponse", "capabilities")
                }

                /// Getter for the [`server_info` field](InitializeResponse#structfield.server_info).
                #[inline]
                pub fn server_info(&self) -> ::planus::Result<self::ImplementationRef<'a>> {
                    self.0.access_required(2, "InitializeResponse", "server_info")
                }

                /// Getter for the [`instructions` field](InitializeResponse#structfield.instructions).
                #[inline]
                pub fn instructions(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                    self.0.access(3, "InitializeResponse", "instructions")
                }
            }

            impl<'a> ::core::fmt::Debug for InitializeResponseRef<'a> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut f = f.debug_struct("InitializeResponseRef");
                    f.field("protocol_version", &self.protocol_version());
                    f.field("capabilities", &self.capabilities());
                    f.field("server_info", &self.server_info());
                    if let ::core::option::Option::Some(field_instructions) = self.instructions().transpose() {
                        f.field("instructions", &field_instructions);
                    }
                    f.finish()
                }
            }

            impl<'a> ::core::convert::TryFrom<InitializeResponseRef<'a>> for InitializeResponse {
                type Error = ::planus::Error;

                #[allow(unreachable_code)]
                fn try_from(value: InitializeResponseRef<'a>) -> ::planus::Result<Self> {
                    ::core::result::Result::Ok(Self {
                        protocol_version: ::core::convert::Into::into(value.protocol_version()?),
                        capabilities: ::planus::alloc::boxed::Box::new(::core::convert::TryInto::try_into(
                            value.capabilities()?,
                        )?),
                        server_info: ::planus::alloc::boxed::Box::new(::core::convert::TryInto::try_into(
                            value.server_info()?,
                        )?),
                        instructions: value.instructions()?.map(::core::convert::Into::into),
                    })
                }
            }

            impl<'a> ::planus::TableRead<'a> for InitializeResponseRef<'a> {
                #[inline]
                fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                    ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
                }
            }

            impl<'a> ::planus::VectorReadInner<'a> for InitializeResponseRef<'a> {
                type Error = ::planus::Error;
                const STRIDE: usize = 4;

                unsafe fn from_buffer(
                    buffer: ::planus::SliceWithStartOffset<'a>,
                    offset: usize,
                ) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                        error_kind.with_error_location("[InitializeResponseRef]", "get", buffer.offset_from_start)
                    })
                }
            }

            /// # Safety
            /// The planus compiler generates implementations that initialize
            /// the bytes in `write_values`.
            unsafe impl ::planus::VectorWrite<::planus::Offset<InitializeResponse>> for InitializeResponse {
                type Value = ::planus::Offset<InitializeResponse>;
                const STRIDE: usize = 4;
                #[inline]
                fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                    ::planus::WriteAs::prepare(self, builder)
                }

                #[inline]
                unsafe fn write_values(
                    values: &[::planus::Offset<InitializeResponse>],
                    bytes: *mut ::core::mem::MaybeUninit<u8>,
                    buffer_position: u32,
                ) {
                    let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                    for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                        ::planus::WriteAsPrimitive::write(
                            v,
                            ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                            buffer_position - (Self::STRIDE * i) as u32,
                        );
                    }
                }
            }

            impl<'a> ::planus::ReadAsRoot<'a> for InitializeResponseRef<'a> {
                fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                    ::planus::TableRead::from_buffer(
                        ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                        0,
                    )
                    .map_err(|error_kind| error_kind.with_error_location("[InitializeResponseRef]", "read_as_root", 0))
                }
            }
        }
    }
}
