"""JSON Schemas from type hints, and JSON values converted to those types.

Only the standard library: componentize-py bundles pure Python, so no
pydantic. Both directions read the same hints, so what a schema promises is
what decoding accepts.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import json
import types
import typing
from typing import Any, Literal, Union

_MISSING = dataclasses.MISSING


class Field:
    """What a type hint cannot say about a parameter or a field, used as
    ``Annotated[int, Field(description="How many days", ge=1)]``.

    The constraints go into the JSON Schema (the host checks arguments
    against it before the tool runs); ``description`` also names a prompt's
    argument.
    """

    def __init__(
        self,
        description: str | None = None,
        *,
        title: str | None = None,
        ge: float | None = None,
        le: float | None = None,
        gt: float | None = None,
        lt: float | None = None,
        min_length: int | None = None,
        max_length: int | None = None,
        pattern: str | None = None,
        examples: list[Any] | None = None,
    ) -> None:
        self.description = description
        self.title = title
        self.keywords: dict[str, Any] = {}
        for keyword, value in (
            ("minimum", ge),
            ("maximum", le),
            ("exclusiveMinimum", gt),
            ("exclusiveMaximum", lt),
            ("pattern", pattern),
            ("examples", examples),
        ):
            if value is not None:
                self.keywords[keyword] = value
        self._min_length = min_length
        self._max_length = max_length

    def apply(self, schema: dict[str, Any]) -> dict[str, Any]:
        """``schema`` with this field's description and constraints."""
        schema = dict(schema)
        if self.title is not None:
            schema["title"] = self.title
        if self.description is not None:
            schema["description"] = self.description
        schema.update(self.keywords)
        # Lengths apply to strings and to arrays under different names.
        is_array = schema.get("type") == "array"
        if self._min_length is not None:
            schema["minItems" if is_array else "minLength"] = self._min_length
        if self._max_length is not None:
            schema["maxItems" if is_array else "maxLength"] = self._max_length
        return schema


class DecodeError(ValueError):
    """A value that does not fit its type; ``path`` says where."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"`{path}`: {message}" if path else message)
        self.path = path


def unwrap_annotated(hint: Any) -> tuple[Any, Field | None]:
    """The type under ``Annotated[...]`` and the description it carries (a
    string or a :class:`Field`)."""
    field = None
    while typing.get_origin(hint) is typing.Annotated:
        args = typing.get_args(hint)
        hint = args[0]
        for extra in args[1:]:
            if isinstance(extra, Field):
                field = extra
            elif isinstance(extra, str) and field is None:
                field = Field(extra)
    return hint, field


def is_typeddict(hint: Any) -> bool:
    return isinstance(hint, type) and typing.is_typeddict(hint)


def is_record(hint: Any) -> bool:
    """A type that becomes a JSON object with known properties."""
    return (isinstance(hint, type) and dataclasses.is_dataclass(hint)) or is_typeddict(hint)


def _is_union(hint: Any) -> bool:
    origin = typing.get_origin(hint)
    return origin is Union or origin is types.UnionType


def _record_fields(hint: Any) -> list[tuple[str, Any, bool, Any]]:
    """(name, hint, required, default) for each field of a dataclass or TypedDict."""
    hints = typing.get_type_hints(hint, include_extras=True)
    fields = []
    if dataclasses.is_dataclass(hint):
        for f in dataclasses.fields(hint):
            if not f.init:
                continue
            default = f.default
            if default is _MISSING and f.default_factory is not _MISSING:
                default = f.default_factory()
            fields.append((f.name, hints.get(f.name, Any), default is _MISSING, default))
    else:
        required = getattr(hint, "__required_keys__", frozenset(hints))
        for name, field_hint in hints.items():
            fields.append((name, field_hint, name in required, _MISSING))
    return fields


def _json_default(value: Any) -> Any:
    """A default value as JSON (enums by value, records as objects)."""
    try:
        return json.loads(json.dumps(to_json(value)))
    except (TypeError, ValueError):
        return None


def schema_of(hint: Any, _seen: tuple[Any, ...] = ()) -> dict[str, Any]:
    """The JSON Schema of a type hint."""
    hint, field = unwrap_annotated(hint)
    schema = _bare_schema(hint, _seen)
    return field.apply(schema) if field else schema


def _bare_schema(hint: Any, seen: tuple[Any, ...]) -> dict[str, Any]:
    if hint is Any or hint is object:
        return {}
    if hint is None or hint is type(None):
        return {"type": "null"}
    if hint is str:
        return {"type": "string"}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is float:
        return {"type": "number"}
    if hint is bytes:
        return {"type": "string", "contentEncoding": "base64"}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        values = [member.value for member in hint]
        schema: dict[str, Any] = {"enum": values}
        kinds = {type(v) for v in values}
        if kinds == {str}:
            schema["type"] = "string"
        elif kinds <= {int} and bool not in kinds:
            schema["type"] = "integer"
        return schema
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Literal:
        values = list(args)
        schema = {"enum": values}
        if all(isinstance(v, str) for v in values):
            schema["type"] = "string"
        return schema
    if _is_union(hint):
        members = [a for a in args if a is not type(None)]
        nullable = len(members) < len(args)
        if len(members) == 1:
            inner = schema_of(members[0], seen)
            simple = inner.get("type")
            if nullable and isinstance(simple, str) and "enum" not in inner:
                return {**inner, "type": [simple, "null"]}
            return {"anyOf": [inner, {"type": "null"}]} if nullable else inner
        options = [schema_of(a, seen) for a in members]
        if nullable:
            options.append({"type": "null"})
        return {"anyOf": options}
    if origin in (list, set, frozenset, typing.Sequence) or hint in (list, set, frozenset):
        schema = {"type": "array"}
        if args:
            schema["items"] = schema_of(args[0], seen)
        if origin in (set, frozenset) or hint in (set, frozenset):
            schema["uniqueItems"] = True
        return schema
    if origin is tuple or hint is tuple:
        if args and args[-1] is not Ellipsis:
            items = [schema_of(a, seen) for a in args]
            return {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}
        return {"type": "array", "items": schema_of(args[0], seen)} if args else {"type": "array"}
    if origin is dict or hint is dict or origin is typing.Mapping:
        schema = {"type": "object"}
        if len(args) == 2 and args[1] is not Any:
            schema["additionalProperties"] = schema_of(args[1], seen)
        return schema
    if is_record(hint):
        if hint in seen:
            raise TypeError(f"{hint.__name__} refers to itself: recursive types are not supported")
        return record_schema(hint, seen + (hint,))
    raise TypeError(f"no JSON Schema for the type {hint!r}")


def record_schema(hint: Any, seen: tuple[Any, ...] = ()) -> dict[str, Any]:
    """The object schema of a dataclass or TypedDict: its fields, the ones
    without a default required."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, field_hint, is_required, default in _record_fields(hint):
        prop = schema_of(field_hint, seen)
        if is_required:
            required.append(name)
        elif default is not _MISSING:
            prop["default"] = _json_default(default)
        properties[name] = prop
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    doc = hint.__doc__
    # A dataclass without a docstring gets a generated one: its signature.
    if doc and not doc.startswith(hint.__name__ + "("):
        schema["description"] = " ".join(doc.split())
    return schema


def _describe(value: Any) -> str:
    text = json.dumps(value) if isinstance(value, (str, int, float, bool, type(None))) else type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def convert(value: Any, hint: Any, path: str = "") -> Any:
    """``value`` (decoded JSON) as the type ``hint`` says; a
    :class:`DecodeError` naming where it does not fit."""
    hint, _ = unwrap_annotated(hint)
    if hint is Any or hint is object:
        return value
    if hint is None or hint is type(None):
        if value is not None:
            raise DecodeError(path, f"expected null, got {_describe(value)}")
        return None
    if hint is str:
        if not isinstance(value, str):
            raise DecodeError(path, f"expected a string, got {_describe(value)}")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise DecodeError(path, f"expected a boolean, got {_describe(value)}")
        return value
    if hint is int:
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise DecodeError(path, f"expected an integer, got {_describe(value)}")
        return value
    if hint is float:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise DecodeError(path, f"expected a number, got {_describe(value)}")
        return float(value)
    if hint is bytes:
        if not isinstance(value, str):
            raise DecodeError(path, f"expected base64 text, got {_describe(value)}")
        try:
            return base64.b64decode(value, validate=True)
        except ValueError:
            raise DecodeError(path, "expected base64 text") from None
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            allowed = ", ".join(_describe(m.value) for m in hint)
            raise DecodeError(path, f"expected one of {allowed}, got {_describe(value)}") from None
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Literal:
        if not any(value == a and type(value) is type(a) for a in args):
            allowed = ", ".join(_describe(a) for a in args)
            raise DecodeError(path, f"expected one of {allowed}, got {_describe(value)}")
        return value
    if _is_union(hint):
        if value is None and type(None) in args:
            return None
        errors = []
        for member in args:
            if member is type(None):
                continue
            try:
                return convert(value, member, path)
            except DecodeError as error:
                errors.append(error)
        if len(errors) == 1:
            raise errors[0]
        raise DecodeError(path, f"{_describe(value)} fits none of the allowed types")
    if origin in (list, set, frozenset, tuple, typing.Sequence) or hint in (list, set, frozenset, tuple):
        if not isinstance(value, list):
            raise DecodeError(path, f"expected an array, got {_describe(value)}")
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(value) != len(args):
                raise DecodeError(path, f"expected {len(args)} items, got {len(value)}")
            return tuple(convert(v, a, f"{path}[{i}]") for i, (v, a) in enumerate(zip(value, args)))
        item = args[0] if args else Any
        items = [convert(v, item, f"{path}[{i}]") for i, v in enumerate(value)]
        container = origin or hint
        return items if container in (list, typing.Sequence) else container(items)
    if origin in (dict, typing.Mapping) or hint is dict:
        if not isinstance(value, dict):
            raise DecodeError(path, f"expected an object, got {_describe(value)}")
        item = args[1] if len(args) == 2 else Any
        return {k: convert(v, item, _join(path, k)) for k, v in value.items()}
    if is_record(hint):
        if not isinstance(value, dict):
            raise DecodeError(path, f"expected an object, got {_describe(value)}")
        decoded = {}
        for name, field_hint, is_required, _ in _record_fields(hint):
            where = _join(path, name)
            if name in value:
                decoded[name] = convert(value[name], field_hint, where)
            elif is_required:
                raise DecodeError(where, "missing")
        return hint(**decoded)
    raise DecodeError(path, f"cannot decode into {hint!r}")


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def convert_text(text: str, hint: Any, path: str) -> Any:
    """A string argument (a prompt's, a URI template's variable) as ``hint``:
    numbers and booleans parsed, other structured types read as JSON."""
    bare, _ = unwrap_annotated(hint)
    if bare is Any or bare is str:
        return text
    try:
        return convert(text, hint, path)
    except DecodeError:
        pass
    if text in ("true", "false"):
        parsed: Any = text == "true"
    else:
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = text
    return convert(parsed, hint, path)


def to_json(value: Any) -> Any:
    """``value`` as JSON-ready data: dataclasses as objects, enums by
    value, bytes as base64, tuples and sets as arrays."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json(v) for v in value]
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return value
