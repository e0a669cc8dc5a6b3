"""``python -m mcp_wit``: build an app into a component, or say where the WIT is.

    python -m mcp_wit build app.py -o router.wasm [--router NAME] [--build-dir DIR]
    python -m mcp_wit wit

``build`` writes an entry module that imports the app and hands its router
to the glue (componentize-py wants the exported interfaces as classes of one
module), then runs::

    componentize-py -d <mcp_wit>/wit -w mcp-wit:extension/router componentize mcp_wit_entry \\
        -p <build dir> -p <app's folder> -p <mcp_wit's parent> -o router.wasm

componentize-py imports the app while it builds (its top level runs then,
not at each start) and may write ``__pycache__`` beside every module it
imports; the build copies the app's folder and the SDK into the build
directory first, so the source tree stays clean.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
WORLD = "mcp-wit:extension/router"
ENTRY = "mcp_wit_entry"


def componentize_py() -> str:
    """componentize-py beside this Python (a venv's bin), else on PATH."""
    beside = Path(sys.executable).parent / "componentize-py"
    if beside.is_file():
        return str(beside)
    found = shutil.which("componentize-py")
    if found is None:
        sys.exit("componentize-py not found: pip install -r requirements-build.txt (componentize-py 0.25)")
    return found


def _ignore(_: str, names: list[str]) -> set[str]:
    return {n for n in names if n in ("__pycache__", ".git", ".venv", "venv", "node_modules") or n.endswith(".wasm")}


def environment_read_at_import(source: str, filename: str) -> list[str]:
    """Where a module reads the environment as it is imported. The build
    imports it once (its top level, decorators and default values run then),
    so what it reads there is the build machine's, frozen into the component:
    `mcp-wit serve --env` cannot change it. A function's body runs at each
    call, where the server's grant is what it reads."""
    found: list[int] = []

    class Visitor(ast.NodeVisitor):
        def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
            # Evaluated at import: decorators and default values; not the body.
            for part in [*node.decorator_list, *node.args.defaults, *node.args.kw_defaults]:
                if part is not None:
                    self.visit(part)

        visit_AsyncFunctionDef = visit_FunctionDef

        def visit_Lambda(self, node: ast.Lambda) -> None:
            for part in [*node.args.defaults, *node.args.kw_defaults]:
                if part is not None:
                    self.visit(part)

        def visit_Attribute(self, node: ast.Attribute) -> None:
            if isinstance(node.value, ast.Name) and node.value.id == "os" and node.attr in ("environ", "getenv"):
                found.append(node.lineno)
            self.generic_visit(node)

    Visitor().visit(ast.parse(source, filename))
    return [
        f"{filename}:{line}: reads the environment as the module is imported, which the build does once: the "
        "value is this machine's, frozen into the component, and `mcp-wit serve --env` cannot change it; read "
        "it inside the tool, at each call"
        for line in sorted(set(found))
    ]


def build(app: Path, output: Path, router: str | None, build_dir: Path | None, extra_paths: list[str]) -> None:
    if not app.is_file() or app.suffix != ".py":
        sys.exit(f"{app}: not a Python file")
    try:
        for warning in environment_read_at_import(app.read_text(encoding="utf-8"), str(app)):
            print(f"warning: {warning}", file=sys.stderr)
    except (SyntaxError, UnicodeDecodeError):
        pass  # componentize-py says what is wrong with the file
    module = app.stem
    if not module.isidentifier():
        sys.exit(f"{app}: the file name must be a Python module name")
    temporary = None
    if build_dir is None:
        temporary = tempfile.TemporaryDirectory(prefix="mcp-wit-build-")
        build_dir = Path(temporary.name)
    build_dir = build_dir.resolve()
    try:
        stage = build_dir / "stage"
        if stage.exists():
            shutil.rmtree(stage)
        shutil.copytree(app.resolve().parent, stage / "app", ignore=_ignore)
        shutil.copytree(PACKAGE, stage / "sdk" / "mcp_wit", ignore=_ignore)
        attribute = "None" if router is None else repr(router)
        (stage / f"{ENTRY}.py").write_text(
            "# Written by `python -m mcp_wit build`: the app's router as the component's exports.\n"
            f"import {module} as _app\n"
            "from mcp_wit._component import exports as _exports\n"
            f"Router, Extension, Presentation = _exports(_app, {attribute})\n",
            encoding="utf-8",
        )
        output.parent.mkdir(parents=True, exist_ok=True)
        command = [componentize_py(), "-d", str(stage / "sdk" / "mcp_wit" / "wit"), "-w", WORLD]
        command += ["componentize", ENTRY, "-p", str(stage), "-p", str(stage / "app"), "-p", str(stage / "sdk")]
        for path in extra_paths:
            command += ["-p", str(Path(path).resolve())]
        command += ["-o", str(output.resolve())]
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        result = subprocess.run(command, env=env, cwd=build_dir)
        if result.returncode != 0:
            sys.exit(result.returncode)
    finally:
        if temporary is not None:
            temporary.cleanup()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m mcp_wit", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    b = commands.add_parser("build", help="build an app into a component")
    b.add_argument("app", type=Path, help="the app's module, e.g. app.py")
    b.add_argument("-o", "--output", type=Path, default=Path("router.wasm"), help="the component (router.wasm)")
    b.add_argument("--router", help="the module attribute holding the Router (by default, its one Router)")
    b.add_argument("--build-dir", type=Path, help="where to stage the sources (a temporary directory by default)")
    b.add_argument("-p", "--python-path", action="append", default=[], help="another folder of modules to bundle")
    commands.add_parser("wit", help="print the folder of the WIT files the package ships")
    args = parser.parse_args(argv)
    if args.command == "wit":
        print(PACKAGE / "wit")
    else:
        build(args.app, args.output, args.router, args.build_dir, args.python_path)


if __name__ == "__main__":
    main()
