//! Conversions between the import's and the export's copies of the
//! `wasix:mcp/router` types. They are field-for-field moves: the compiler
//! checks that every field and case below is named, so a change to the
//! contract that this file does not follow fails to build.

use crate::exports::mcp_wit::extension::extension as ext_exp;
use crate::exports::wasix::mcp::router as exp;
use crate::mcp_wit::extension::extension as ext_imp;
use crate::wasix::mcp::router as imp;

/// A value-preserving move into the other side's type.
pub trait Convert<T> {
    fn convert(self) -> T;
}

macro_rules! same {
    ($($ty:ty),*) => {$(
        impl Convert<$ty> for $ty {
            fn convert(self) -> $ty {
                self
            }
        }
    )*};
}

same!((), String, bool, f32);

impl<A: Convert<B>, B> Convert<Option<B>> for Option<A> {
    fn convert(self) -> Option<B> {
        self.map(Convert::convert)
    }
}

impl<A: Convert<B>, B> Convert<Vec<B>> for Vec<A> {
    fn convert(self) -> Vec<B> {
        self.into_iter().map(Convert::convert).collect()
    }
}

impl<T: Convert<U>, E: Convert<F>, U, F> Convert<Result<U, F>> for Result<T, E> {
    fn convert(self) -> Result<U, F> {
        self.map(Convert::convert).map_err(Convert::convert)
    }
}

/// Both directions, for every type of the contract (the list shared with
/// the host: `mcp_wit_protocol::contract_types!`).
macro_rules! both_ways {
    // Fields beyond 25.3.26 (`+ { … }`) are the protocol core's alone: both
    // bindings here are 25.3.26's.
    (@records $($name:ident { $($field:ident),* $(,)? } $(+ { $($beyond:ident),* })?)*) => {$(
        impl Convert<exp::$name> for imp::$name {
            fn convert(self) -> exp::$name {
                exp::$name { $($field: self.$field.convert()),* }
            }
        }
        impl Convert<imp::$name> for exp::$name {
            fn convert(self) -> imp::$name {
                imp::$name { $($field: self.$field.convert()),* }
            }
        }
    )*};
    (@variants $($name:ident { $($case:ident),* $(,)? })*) => {$(
        impl Convert<exp::$name> for imp::$name {
            fn convert(self) -> exp::$name {
                match self { $(imp::$name::$case(x) => exp::$name::$case(x.convert())),* }
            }
        }
        impl Convert<imp::$name> for exp::$name {
            fn convert(self) -> imp::$name {
                match self { $(exp::$name::$case(x) => imp::$name::$case(x.convert())),* }
            }
        }
    )*};
    (@enums $($name:ident { $($case:ident),* $(,)? })*) => {$(
        impl Convert<exp::$name> for imp::$name {
            fn convert(self) -> exp::$name {
                match self { $(imp::$name::$case => exp::$name::$case),* }
            }
        }
        impl Convert<imp::$name> for exp::$name {
            fn convert(self) -> imp::$name {
                match self { $(exp::$name::$case => imp::$name::$case),* }
            }
        }
    )*};
}

mcp_wit_protocol::contract_types!(both_ways);

/// The extension's one record of its own.
impl Convert<ext_exp::ResourceTemplate> for ext_imp::ResourceTemplate {
    fn convert(self) -> ext_exp::ResourceTemplate {
        let ext_imp::ResourceTemplate { uri_template, name, title, description, mime_type, annotations } = self;
        ext_exp::ResourceTemplate {
            uri_template,
            name,
            title,
            description,
            mime_type,
            annotations: annotations.convert(),
        }
    }
}
