"""The router's tools called natively, without building a component:
python3 -m unittest (from this directory)."""

import json
import sys
import unittest

sys.dont_write_bytecode = True

from app import router  # noqa: E402


class RouterTest(unittest.TestCase):
    def test_reverse_answers_with_structured_content(self) -> None:
        result = router.call_tool("reverse", {"text": "abc"})
        self.assertEqual(json.loads(result["content"][0]["text"]), {"text": "cba", "length": 3})

    def test_every_tool_is_listed_with_a_schema(self) -> None:
        names = [tool["name"] for tool in router.list_tools()]
        self.assertEqual(names, ["reverse", "greet"])


if __name__ == "__main__":
    unittest.main()
