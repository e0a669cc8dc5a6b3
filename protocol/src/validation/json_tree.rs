//! A JSON value read into flat buffers, its strings ranges of the text it
//! was read from: what a tool's arguments are checked as against its input
//! schema.
//!
//! Read as a `serde_json::Value`, the arguments of a call cost an
//! allocation for every object, key and string, and as many frees: a third
//! of what the check cost a call (`{"text": "hi"}`: three of each). Here
//! only a string with escapes is copied (unescaped), and the buffers are
//! the thread's, kept from one check to the next ([`JsonTree::with`]).
//!
//! The tree answers what JSON Schema asks of a value through jsonschema's
//! own representation traits ([`TreeJson`]), so the same keywords run on
//! it. Only validity is asked of it: a value it reads differently from
//! `serde_json` (an object with a key twice, where `Value` keeps the last;
//! objects with more keys than [`CHECKED_KEYS`], whose keys are not
//! compared) is marked, and the caller checks the `Value` instead.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use jsonschema::JsonType;
use jsonschema::json::{Array, Json, Node, NodeIdentity, Object};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Objects with more keys than this are not searched for a key given twice:
/// the tree says it cannot stand for the value ([`JsonTree::faithful`]).
pub(crate) const CHECKED_KEYS: usize = 32;

/// Buffers kept for the next value up to this many bytes in all (a long
/// string with escapes, or many small values, are not held on to).
const KEPT_BYTES: usize = 256 << 10;

/// A string of the tree: a range of the text it was read from, or (one
/// with escapes, unescaped) of [`Buffers::unescaped`].
#[derive(Debug, Clone, Copy)]
enum Text {
    Read { start: u32, len: u32 },
    Unescaped { start: u32, len: u32 },
}

/// One value of the tree.
#[derive(Debug, Clone)]
enum Item {
    Null,
    Bool(bool),
    Number(Number),
    String(Text),
    /// `len` item indices from `start` in [`Buffers::elements`].
    Array {
        start: u32,
        len: u32,
    },
    /// `len` members from `start` in [`Buffers::members`].
    Object {
        start: u32,
        len: u32,
    },
}

/// A tree's buffers: containers point into `elements` and `members`.
/// They hold no reference to the text, so that a thread keeps them from one
/// value to the next.
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    items: Vec<Item>,
    elements: Vec<u32>,
    members: Vec<(Text, u32)>,
    unescaped: String,
    /// A container's children while it is read (they lie together in
    /// `elements` and `members` once it ends).
    stack: Vec<u32>,
    keys: Vec<(Text, u32)>,
}

impl Buffers {
    /// The bytes the buffers hold allocated.
    fn held(&self) -> usize {
        fn bytes<T>(buffer: &Vec<T>) -> usize {
            buffer.capacity() * size_of::<T>()
        }
        bytes(&self.items)
            + bytes(&self.elements)
            + bytes(&self.members)
            + self.unescaped.capacity()
            + bytes(&self.stack)
            + bytes(&self.keys)
    }

    fn clear(&mut self) {
        self.items.clear();
        self.elements.clear();
        self.members.clear();
        self.unescaped.clear();
        self.stack.clear();
        self.keys.clear();
    }
}

thread_local! {
    /// The buffers of the last tree read on this thread.
    static KEPT: RefCell<Buffers> = RefCell::default();
}

/// A JSON value read from `text` into [`Buffers`].
pub(crate) struct JsonTree<'a> {
    text: &'a str,
    buffers: &'a Buffers,
    root: u32,
    /// Whether it reads as `serde_json::Value` would (see the module's
    /// documentation).
    faithful: bool,
}

impl JsonTree<'_> {
    /// Reads `text` and hands its tree to `use_tree`, on buffers kept from
    /// the last tree read on this thread; the error is `serde_json`'s.
    pub(crate) fn with<T>(text: &str, use_tree: impl FnOnce(&JsonTree<'_>) -> T) -> Result<T, serde_json::Error> {
        KEPT.with(|kept| match kept.try_borrow_mut() {
            Ok(mut buffers) => {
                let answer = JsonTree::read(text, &mut buffers, use_tree);
                if buffers.held() > KEPT_BYTES {
                    *buffers = Buffers::default();
                }
                answer
            }
            // Not reached (a check does not check another), but never a panic.
            Err(_) => JsonTree::read(text, &mut Buffers::default(), use_tree),
        })
    }

    fn read<T>(
        text: &str,
        buffers: &mut Buffers,
        use_tree: impl FnOnce(&JsonTree<'_>) -> T,
    ) -> Result<T, serde_json::Error> {
        buffers.clear();
        let mut builder = Builder { text, buffers, faithful: true };
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let root = (&mut builder).deserialize(&mut deserializer)?;
        deserializer.end()?;
        let faithful = builder.faithful;
        Ok(use_tree(&JsonTree { text, buffers, root, faithful }))
    }

    /// Whether validity read on the tree is validity read on the
    /// `serde_json::Value` of the same text.
    pub(crate) fn faithful(&self) -> bool {
        self.faithful
    }

    /// The value read.
    pub(crate) fn root(&self) -> TreeNode<'_> {
        TreeNode { text: self.text, buffers: self.buffers, index: self.root }
    }
}

/// A position in a buffer; the reader refuses a value too large for one
/// (four billion items).
fn index(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

/// Reads one value into the buffers.
struct Builder<'b, 't> {
    text: &'t str,
    buffers: &'b mut Buffers,
    faithful: bool,
}

impl Builder<'_, '_> {
    fn push(&mut self, item: Item) -> u32 {
        self.buffers.items.push(item);
        index(self.buffers.items.len() - 1)
    }

    /// `text`, borrowed from the text read, as a range of it.
    fn read_text(&self, text: &str) -> Text {
        // A string borrowed from the text lies inside it.
        let start = text.as_ptr() as usize - self.text.as_ptr() as usize;
        Text::Read { start: index(start), len: index(text.len()) }
    }

    /// `text`, unescaped by the reader, kept in the buffers.
    fn unescaped(&mut self, text: &str) -> Text {
        let start = index(self.buffers.unescaped.len());
        self.buffers.unescaped.push_str(text);
        Text::Unescaped { start, len: index(text.len()) }
    }
}

impl<'t> DeserializeSeed<'t> for &mut Builder<'_, 't> {
    type Value = u32;

    fn deserialize<D: de::Deserializer<'t>>(self, deserializer: D) -> Result<u32, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'t> Visitor<'t> for &mut Builder<'_, 't> {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<u32, E> {
        Ok(self.push(Item::Bool(value)))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<u32, E> {
        Ok(self.push(Item::Number(value.into())))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<u32, E> {
        Ok(self.push(Item::Number(value.into())))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<u32, E> {
        // As `Value` reads it (the parser gives finite floats only).
        Ok(self.push(Number::from_f64(value).map_or(Item::Null, Item::Number)))
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'t str) -> Result<u32, E> {
        let text = self.read_text(text);
        Ok(self.push(Item::String(text)))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<u32, E> {
        let text = self.unescaped(text);
        Ok(self.push(Item::String(text)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<u32, E> {
        Ok(self.push(Item::Null))
    }

    fn visit_seq<A: SeqAccess<'t>>(self, mut seq: A) -> Result<u32, A::Error> {
        let from = self.buffers.stack.len();
        while let Some(element) = seq.next_element_seed(&mut *self)? {
            self.buffers.stack.push(element);
        }
        let buffers = &mut *self.buffers;
        let start = index(buffers.elements.len());
        buffers.elements.extend(buffers.stack.drain(from..));
        let len = index(buffers.elements.len()) - start;
        Ok(self.push(Item::Array { start, len }))
    }

    fn visit_map<A: MapAccess<'t>>(self, mut map: A) -> Result<u32, A::Error> {
        let from = self.buffers.keys.len();
        while let Some(key) = map.next_key_seed(Key(&mut *self))? {
            let value = map.next_value_seed(&mut *self)?;
            let earlier = &self.buffers.keys[from..];
            let known = |(other, _): &(Text, u32)| {
                text_of(self.text, self.buffers, *other) == text_of(self.text, self.buffers, key)
            };
            if earlier.len() >= CHECKED_KEYS || earlier.iter().any(known) {
                self.faithful = false;
            }
            self.buffers.keys.push((key, value));
        }
        let buffers = &mut *self.buffers;
        let start = index(buffers.members.len());
        buffers.members.extend(buffers.keys.drain(from..));
        let len = index(buffers.members.len()) - start;
        Ok(self.push(Item::Object { start, len }))
    }
}

/// An object's key, as a range of the text unless it holds escapes.
struct Key<'r, 'b, 't>(&'r mut Builder<'b, 't>);

impl<'t> DeserializeSeed<'t> for Key<'_, '_, 't> {
    type Value = Text;

    fn deserialize<D: de::Deserializer<'t>>(self, deserializer: D) -> Result<Text, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'t> Visitor<'t> for Key<'_, '_, 't> {
    type Value = Text;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'t str) -> Result<Text, E> {
        Ok(self.0.read_text(text))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Text, E> {
        Ok(self.0.unescaped(text))
    }
}

/// The string `text` stands for.
fn text_of<'a>(read: &'a str, buffers: &'a Buffers, text: Text) -> &'a str {
    let (from, start, len) = match text {
        Text::Read { start, len } => (read, start, len),
        Text::Unescaped { start, len } => (buffers.unescaped.as_str(), start, len),
    };
    from.get(start as usize..(start + len) as usize).unwrap_or_default()
}

/// [`JsonTree`] as a JSON representation jsonschema validates.
pub(crate) struct TreeJson;

impl Json for TreeJson {
    type Node<'a> = TreeNode<'a>;
    type PreparedKey = String;
    /// The one-string tree `propertyNames` checks a name as.
    type StringBuffer = Buffers;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>(buffer: &mut Buffers, string: &str, f: impl FnOnce(TreeNode<'_>) -> T) -> T {
        buffer.clear();
        buffer.unescaped.push_str(string);
        buffer.items.push(Item::String(Text::Unescaped { start: 0, len: index(string.len()) }));
        f(TreeNode { text: "", buffers: buffer, index: 0 })
    }
}

/// One value of a [`JsonTree`].
#[derive(Clone, Copy)]
pub(crate) struct TreeNode<'a> {
    text: &'a str,
    buffers: &'a Buffers,
    index: u32,
}

impl<'a> TreeNode<'a> {
    fn item(&self) -> &'a Item {
        &self.buffers.items[self.index as usize]
    }

    fn at(&self, index: u32) -> TreeNode<'a> {
        TreeNode { index, ..*self }
    }

    fn text(&self, text: Text) -> &'a str {
        text_of(self.text, self.buffers, text)
    }
}

impl<'a> Node<'a, TreeJson> for TreeNode<'a> {
    type Object = TreeObject<'a>;
    type Array = TreeArray<'a>;
    type Number = &'a Number;

    fn as_object(&self) -> Option<TreeObject<'a>> {
        match *self.item() {
            Item::Object { start, len } => {
                Some(TreeObject { node: *self, members: &self.buffers.members[range(start, len)] })
            }
            _ => None,
        }
    }

    fn as_array(&self) -> Option<TreeArray<'a>> {
        match *self.item() {
            Item::Array { start, len } => {
                Some(TreeArray { node: *self, elements: &self.buffers.elements[range(start, len)] })
            }
            _ => None,
        }
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match self.item() {
            Item::String(text) => Some(Cow::Borrowed(self.text(*text))),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<&'a Number> {
        match self.item() {
            Item::Number(number) => Some(number),
            _ => None,
        }
    }

    fn as_boolean(&self) -> Option<bool> {
        match self.item() {
            Item::Bool(value) => Some(*value),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.item(), Item::Null)
    }

    fn json_type(&self) -> JsonType {
        match self.item() {
            Item::Null => JsonType::Null,
            Item::Bool(_) => JsonType::Boolean,
            Item::Number(_) => JsonType::Number,
            Item::String(_) => JsonType::String,
            Item::Array { .. } => JsonType::Array,
            Item::Object { .. } => JsonType::Object,
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(self.value())
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::tagged(std::ptr::from_ref(self.buffers) as usize, self.index))
    }
}

impl TreeNode<'_> {
    /// The node as a `serde_json::Value` (for `const`, `enum`,
    /// `uniqueItems` and errors).
    fn value(&self) -> Value {
        match self.item() {
            Item::Null => Value::Null,
            Item::Bool(value) => Value::Bool(*value),
            Item::Number(number) => Value::Number(number.clone()),
            Item::String(text) => Value::String(self.text(*text).to_owned()),
            Item::Array { .. } => Value::Array(
                self.as_array().into_iter().flat_map(|array| array.elements()).map(|e| e.value()).collect(),
            ),
            Item::Object { .. } => {
                let members = self.as_object().into_iter().flat_map(|object| object.members());
                Value::Object(members.map(|(key, node)| (key.to_owned(), node.value())).collect::<Map<_, _>>())
            }
        }
    }
}

fn range(start: u32, len: u32) -> std::ops::Range<usize> {
    start as usize..(start + len) as usize
}

/// An object of a [`JsonTree`].
#[derive(Clone, Copy)]
pub(crate) struct TreeObject<'a> {
    node: TreeNode<'a>,
    members: &'a [(Text, u32)],
}

impl<'a> Object<'a, TreeJson> for TreeObject<'a> {
    type Node = TreeNode<'a>;
    type MemberName = &'a str;
    type MembersIter = TreeMembers<'a>;

    fn len(&self) -> usize {
        self.members.len()
    }

    fn get(&self, key: &String) -> Option<TreeNode<'a>> {
        let node = self.node;
        self.members.iter().find(|(name, _)| node.text(*name) == key).map(|(_, at)| node.at(*at))
    }

    fn members(&self) -> TreeMembers<'a> {
        TreeMembers { node: self.node, members: self.members.iter() }
    }
}

/// The members of a [`TreeObject`], in the text's order.
pub(crate) struct TreeMembers<'a> {
    node: TreeNode<'a>,
    members: std::slice::Iter<'a, (Text, u32)>,
}

impl<'a> Iterator for TreeMembers<'a> {
    type Item = (&'a str, TreeNode<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let node = self.node;
        self.members.next().map(|(name, at)| (node.text(*name), node.at(*at)))
    }
}

/// An array of a [`JsonTree`].
#[derive(Clone, Copy)]
pub(crate) struct TreeArray<'a> {
    node: TreeNode<'a>,
    elements: &'a [u32],
}

impl<'a> Array<'a, TreeJson> for TreeArray<'a> {
    type Node = TreeNode<'a>;
    type ElementsIter = TreeElements<'a>;

    fn len(&self) -> usize {
        self.elements.len()
    }

    fn elements(&self) -> TreeElements<'a> {
        TreeElements { node: self.node, elements: self.elements.iter() }
    }
}

/// The elements of a [`TreeArray`].
pub(crate) struct TreeElements<'a> {
    node: TreeNode<'a>,
    elements: std::slice::Iter<'a, u32>,
}

impl<'a> Iterator for TreeElements<'a> {
    type Item = TreeNode<'a>;

    fn next(&mut self) -> Option<TreeNode<'a>> {
        let node = self.node;
        self.elements.next().map(|at| node.at(*at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_of(text: &str) -> (Value, bool) {
        JsonTree::with(text, |tree| (tree.root().value(), tree.faithful())).unwrap()
    }

    #[test]
    fn a_tree_reads_as_the_value_of_its_text() {
        for text in [
            r#"{"text":"hi"}"#,
            r#"{"a":[1,-2,3.5,true,false,null,"x\"y\u00e9"],"b":{"c":{}},"d":[],"e":{"f":[[],[{}]]}}"#,
            r#"[1e300, 18446744073709551615, -9223372036854775808]"#,
            r#""plain""#,
            "null",
        ] {
            let expected: Value = serde_json::from_str(text).unwrap();
            assert_eq!(value_of(text), (expected, true), "{text}");
        }
    }

    #[test]
    fn a_key_given_twice_or_too_many_keys_are_not_read_faithfully() {
        assert!(!value_of(r#"{"a":1,"b":2,"a":3}"#).1);
        assert!(!value_of(r#"{"x":{"a":1,"a":1}}"#).1);
        let many: Map<String, Value> = (0..=CHECKED_KEYS).map(|k| (format!("k{k}"), Value::from(k))).collect();
        assert!(!value_of(&Value::Object(many).to_string()).1);
        let just: Map<String, Value> = (0..CHECKED_KEYS).map(|k| (format!("k{k}"), Value::from(k))).collect();
        assert!(value_of(&Value::Object(just).to_string()).1);
    }

    #[test]
    fn broken_text_is_serde_jsons_error() {
        for text in ["{", r#"{"a":}"#, "[1,]", r#"{"a":1} x"#, ""] {
            let ours = JsonTree::with(text, |_| ()).unwrap_err().to_string();
            let theirs = serde_json::from_str::<Value>(text).unwrap_err().to_string();
            assert_eq!(ours, theirs, "{text}");
        }
    }

    #[test]
    fn the_buffers_are_kept_and_reused_whatever_was_read_before() {
        let first = value_of(r#"{"a":["x","y"]}"#).0;
        let second = value_of(r#"{"b":{"c":"z"}}"#).0;
        assert_eq!(first, serde_json::json!({"a": ["x", "y"]}));
        assert_eq!(second, serde_json::json!({"b": {"c": "z"}}));
    }
}
