"""The SDK natively, without a component: schemas, decoding, routing, results.

Run from sdk/python: PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s tests
"""

import errno
import json
import sys
import unittest
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated, Literal, Optional, TypedDict

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcp_wit import Context, EmbeddedResource, Field, Message, Router, Text, ToolError  # noqa: E402
from mcp_wit._errors import McpError  # noqa: E402
from mcp_wit._errors import error_kind  # noqa: E402
from mcp_wit.__main__ import environment_read_at_import  # noqa: E402


class Units(Enum):
    C = "celsius"
    F = "fahrenheit"


@dataclass
class Day:
    day: int
    high: float


@dataclass
class Forecast:
    city: str
    days: list[Day]


class Point(TypedDict):
    x: int
    y: int


router = Router("test")


@router.tool(read_only=True, title="Forecast")
def forecast(
    city: Annotated[str, "The city"],
    days: Annotated[int, Field(ge=1, le=7)] = 1,
    units: Units = Units.C,
    tags: Optional[list[str]] = None,
) -> Forecast:
    """Forecast for a city."""
    return Forecast(city, [Day(d, 1.5) for d in range(days)])


@router.tool()
def where(point: Point, mode: Literal["a", "b"], ctx: Context) -> str:
    return f"{point['x']},{point['y']} {mode} {ctx.handler}"


@router.tool()
def fails() -> str:
    raise KeyError("missing key")


@router.resource("t://static")
def static() -> bytes:
    return b"\x00\x01"


@router.resource("t://item/{id}/data")
def item(id: int) -> dict:
    return {"id": id}


@router.resource("t://files/{+path}")
def files(path: str) -> EmbeddedResource:
    return EmbeddedResource(f"t://files/{path}", text=path)


@router.prompt()
def plan(city: str, days: int = 3, mood: Literal["calm", "busy"] = "calm") -> list[Message]:
    return [Message.user(f"{city} {days} {mood}"), Message.assistant("ok")]


class SchemaTest(unittest.TestCase):
    def test_input_schema_from_hints(self):
        tool = next(t for t in router.list_tools() if t["name"] == "forecast")
        schema = tool["inputSchema"]
        self.assertEqual(schema["title"], "Forecast")
        self.assertEqual(schema["required"], ["city"])
        self.assertEqual(schema["properties"]["city"], {"type": "string", "description": "The city"})
        self.assertEqual(
            schema["properties"]["days"], {"type": "integer", "minimum": 1, "maximum": 7, "default": 1}
        )
        self.assertEqual(
            schema["properties"]["units"], {"enum": ["celsius", "fahrenheit"], "type": "string", "default": "celsius"}
        )
        self.assertEqual(
            schema["properties"]["tags"], {"type": ["array", "null"], "items": {"type": "string"}}
        )
        self.assertEqual(tool["description"], "Forecast for a city.")
        self.assertEqual(tool["annotations"], {"read_only": True})
        self.assertEqual(tool["outputSchema"]["required"], ["city", "days"])

    def test_typeddict_and_literal(self):
        tool = next(t for t in router.list_tools() if t["name"] == "where")
        props = tool["inputSchema"]["properties"]
        self.assertEqual(props["point"]["required"], ["x", "y"])
        self.assertEqual(props["mode"], {"enum": ["a", "b"], "type": "string"})
        self.assertNotIn("ctx", props)


class CallTest(unittest.TestCase):
    def test_structured_result(self):
        result = router.call_tool("forecast", '{"city":"Oslo","days":2,"units":"fahrenheit"}')
        self.assertEqual(json.loads(result["content"][0]["text"]), {"city": "Oslo", "days": [{"day": 0, "high": 1.5}, {"day": 1, "high": 1.5}]})

    def test_a_list_is_structured_under_result_and_content_lists_are_content(self):
        wrapping = Router("lists")

        @wrapping.tool()
        def days() -> list[Day]:
            return [Day(0, 1.5)]

        @wrapping.tool()
        def pieces() -> list[Text]:
            return [Text("a"), Text("b")]

        schemas = {t["name"]: t["outputSchema"] for t in wrapping.list_tools()}
        self.assertEqual(schemas["days"]["required"], ["result"])
        self.assertEqual(schemas["days"]["properties"]["result"]["type"], "array")
        self.assertIsNone(schemas["pieces"])
        result = wrapping.call_tool("days", {})
        self.assertEqual(json.loads(result["content"][0]["text"]), {"result": [{"day": 0, "high": 1.5}]})
        self.assertEqual([c["text"] for c in wrapping.call_tool("pieces", {})["content"]], ["a", "b"])

    def test_decode_errors_name_the_field(self):
        for arguments, message in [
            ('{"days":2}', "`city`: missing"),
            ('{"city":"Oslo","days":"x"}', '`days`: expected an integer, got "x"'),
            ('{"city":"Oslo","units":"kelvin"}', '`units`: expected one of "celsius", "fahrenheit", got "kelvin"'),
            ('{"city":"Oslo","tags":[1]}', '`tags[0]`: expected a string, got 1'),
            ("[1]", "the arguments must be a JSON object"),
        ]:
            with self.assertRaises(ToolError) as raised:
                router.call_tool("forecast", arguments)
            self.assertEqual(raised.exception.kind, "invalid-parameters")
            self.assertEqual(raised.exception.message, message)
        with self.assertRaises(ToolError) as raised:
            router.call_tool("where", '{"point":{"x":1},"mode":"a"}')
        self.assertEqual(raised.exception.message, "`point.y`: missing")

    def test_context_and_typeddict(self):
        result = router.call_tool("where", '{"point":{"x":1,"y":2},"mode":"b"}')
        self.assertEqual(result["content"][0]["text"], "1,2 b where")

    def test_exceptions_become_the_message(self):
        with self.assertRaises(KeyError) as raised:
            router.call_tool("fails", "{}")
        self.assertEqual(error_kind(raised.exception, ("execution-error",), "execution-error"), ("execution-error", "'missing key'"))
        self.assertEqual(error_kind(McpError("x", "not-found"), ("execution-error",), "execution-error"), ("execution-error", "x"))
        self.assertEqual(error_kind(ValueError(), ("execution-error",), "execution-error"), ("execution-error", "ValueError"))

    def test_a_file_not_found_says_which_grant_would_reach_it(self):
        missing = FileNotFoundError(errno.ENOENT, "No such file or directory", "/notes/a.txt")
        kind, message = error_kind(missing, ("execution-error",), "execution-error")
        self.assertEqual(kind, "execution-error")
        self.assertIn("No such file or directory: '/notes/a.txt'", message)
        self.assertIn("`mcp-wit serve --dir HOST[:GUEST]`: is /notes/a.txt under one of them?", message)
        self.assertEqual(error_kind(OSError(errno.EIO, "I/O error", "/x"), ("execution-error",), "execution-error")[1], "[Errno 5] I/O error: '/x'")
        self.assertEqual(error_kind(FileNotFoundError("no name"), ("execution-error",), "execution-error")[1], "no name")

    def test_the_build_warns_of_the_environment_read_at_import(self):
        source = (
            "import os\n"
            "KEY = os.environ['API_KEY']\n"
            "@router.tool(name=os.getenv('TOOL'))\n"
            "def f(region=os.environ.get('REGION')):\n"
            "    return os.environ['AT_CALL_TIME']\n"
            "class Settings:\n"
            "    url = os.getenv('URL')\n"
            "handler = lambda key=os.environ['K']: os.environ[key]\n"
        )
        warnings = environment_read_at_import(source, "app.py")
        self.assertEqual([w.split(":")[1] for w in warnings], ["2", "3", "4", "7", "8"])
        self.assertIn("`mcp-wit serve --env` cannot change it", warnings[0])
        self.assertEqual(environment_read_at_import("import os\ndef f():\n    return os.environ\n", "app.py"), [])

    def test_unknown_tool(self):
        with self.assertRaises(ToolError) as raised:
            router.call_tool("nope", "{}")
        self.assertEqual(raised.exception.kind, "not-found")


class ResourceTest(unittest.TestCase):
    def test_static_and_templates(self):
        self.assertEqual(router.read_resource("t://static"), [{"uri": "t://static", "mimeType": "application/octet-stream", "blob": "AAE="}])
        self.assertEqual(router.read_resource("t://item/7/data")[0]["text"], '{"id":7}')
        self.assertEqual(router.read_resource("t://files/a/b%20c.txt")[0]["text"], "a/b c.txt")
        for uri in ("t://item/x/data", "t://item/1/2/data", "t://item//data", "t://other"):
            with self.assertRaises(McpError, msg=uri):
                router.read_resource(uri)
        self.assertEqual([r["mimeType"] for r in router.list_resources()], ["application/octet-stream"])
        self.assertEqual([t["uriTemplate"] for t in router.list_resource_templates()], ["t://item/{id}/data", "t://files/{+path}"])


class PromptTest(unittest.TestCase):
    def test_arguments_are_converted(self):
        result = router.get_prompt("plan", {"city": "Oslo", "days": "2"})
        self.assertEqual(result["messages"][0]["content"]["text"], "Oslo 2 calm")
        self.assertEqual(result["messages"][1]["role"], "assistant")
        with self.assertRaises(McpError) as raised:
            router.get_prompt("plan", {"city": "Oslo", "days": "two"})
        self.assertEqual(raised.exception.kind, "invalid-parameters")
        listed = router.list_prompts()[0]["arguments"]
        self.assertEqual([(a["name"], a["required"]) for a in listed], [("city", True), ("days", False), ("mood", False)])

    def test_literal_arguments_complete(self):
        params = {"ref": {"type": "ref/prompt", "name": "plan"}, "argument": {"name": "mood", "value": "b"}}
        self.assertEqual(router.complete(params), ["busy"])
        self.assertTrue(router.capabilities()["completions"])


class ContextTest(unittest.TestCase):
    def test_no_client_outside_a_component(self):
        from mcp_wit import ClientError

        ctx = Context("t")
        ctx.progress(1, 2, "x")
        ctx.log("info", {"a": 1})
        with self.assertRaises(ClientError) as raised:
            ctx.sample("hi")
        self.assertEqual(raised.exception.kind, "unavailable")


if __name__ == "__main__":
    unittest.main()
