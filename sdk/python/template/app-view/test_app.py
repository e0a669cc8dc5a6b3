"""The app's tools called natively, without building a component:
python3 -m unittest (from this directory)."""

import json
import sys
import unittest

sys.dont_write_bytecode = True

from app import VIEW, router  # noqa: E402


class AppTest(unittest.TestCase):
    def test_a_client_without_apps_gets_a_sentence(self) -> None:
        result = router.call_tool("show_sum", {"a": 2, "b": 3})
        self.assertEqual(result["content"][0]["text"], "2 + 3 = 5")

    def test_the_view_calls_add_back(self) -> None:
        result = router.call_tool("add", {"a": 5, "b": 1})
        self.assertEqual(json.loads(result["content"][0]["text"]), {"sum": 6})

    def test_the_tools_name_the_view_and_the_view_is_html(self) -> None:
        decorations = {(subject, name): meta for subject, name, meta, _ in router.decorations()}
        self.assertEqual(decorations[("tool", "show_sum")], {"ui": {"resourceUri": VIEW}})
        self.assertEqual(decorations[("tool", "add")], {"ui": {"resourceUri": VIEW, "visibility": ["app"]}})
        contents = router.read_resource(VIEW)[0]
        self.assertEqual(contents["mimeType"], "text/html;profile=mcp-app")
        self.assertIn("ui/initialize", contents["text"])


if __name__ == "__main__":
    unittest.main()
