"""The fix verifier and the fix's name hygiene (field cases bugs-01, bugs-02, bugs-03, requests-01).

A fix is written only when the fixed module, and every module of the project that imports from
it, still imports: no new undefined name, no added import over a name the module already binds,
no removed name another module imports (docs/architecture.md, "What each fix-safety label
promises"). The fixed code runs on the real SDK (tests/proof).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from mcpmigrate.codemods.namecheck import name_problem
from tests.helpers import cli, write_pyproject
from tests.proof import run_proof

DESCRIPTION = "Absolute path of the directory to work in (formerly the client's MCP root)."
FIELD = f'Field(description="{DESCRIPTION}")'


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


# -- bugs-01: an import another module of the package re-imports is kept -------------------------
APP = '''\
"""Recipe server: the server object lives here; other modules import what they need from here."""
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("recipes")


@mcp.tool()
async def pantry_dir(ctx: Context) -> str:
    """Where the pantry files are."""
    roots = await ctx.session.list_roots()
    return roots.roots[0].uri.path
'''
APP_FIXED = (
    '"""Recipe server: the server object lives here; other modules import what they need from here."""\n'
    "from typing import Annotated\n"
    "\n"
    "from mcp.server.fastmcp import Context, FastMCP\n"
    "from pydantic import Field\n"
    "\n"
    'mcp = FastMCP("recipes")\n'
    "\n"
    "\n"
    "@mcp.tool()\n"
    "async def pantry_dir(\n"
    "    root: Annotated[\n"
    "        str,\n"
    "        Field(\n"
    '            description="Absolute path of the directory to work in (formerly the client\'s MCP root)."\n'
    "        ),\n"
    "    ],\n"
    ") -> str:\n"
    '    """Where the pantry files are."""\n'
    "    return root\n"
)
TOOLS = '''\
"""Extra tools registered on the shared server object."""
from pkg.app import Context, mcp


@mcp.tool()
async def scale(grams: int, factor: float, ctx: Context) -> str:
    """Scale an ingredient amount."""
    return f"{grams * factor:.0f} g"
'''
MAIN = "import pkg.app\nimport pkg.tools  # noqa: F401\n"


@pytest.mark.parametrize("target", [".", "pkg/app.py"], ids=["whole-tree", "staged-file-only"])
def test_bugs01_an_import_another_module_imports_is_kept(tmp_path: Path, target: str, legacy_python: str) -> None:
    # `pkg/app.py` alone is what the pre-commit hook passes: pkg/tools.py is still read from disk
    write_pyproject(tmp_path, "")
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/app.py": APP, "pkg/tools.py": TOOLS, "main.py": MAIN})
    res = cli(["fix", target], tmp_path)
    assert res.exit_code == 0, str(res)
    assert (tmp_path / "pkg/app.py").read_text() == APP_FIXED
    assert (tmp_path / "pkg/tools.py").read_text() == TOOLS
    run = subprocess.run(
        [legacy_python, "-c", "import pkg.app, pkg.tools"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize(
    "importer",
    [
        "from .app import Context, mcp\n",  # relative import
        "from . import app as m\n\nCTX = m.Context\n",  # the module as an alias
        "import pkg.app as m\n\nCTX = m.Context\n",
        "import pkg.app\n\nCTX = pkg.app.Context\n",
        "from pkg.app import *\n",
    ],
    ids=["relative", "from-package-alias", "import-as", "import-dotted", "star"],
)
def test_every_spelling_of_an_import_from_the_module_keeps_the_name(tmp_path: Path, importer: str) -> None:
    write_pyproject(tmp_path, "")
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/app.py": APP, "pkg/tools.py": importer})
    assert cli(["fix", "."], tmp_path).exit_code == 0
    assert (tmp_path / "pkg/app.py").read_text() == APP_FIXED


def test_a_name_listed_in_all_is_kept(tmp_path: Path) -> None:
    write_pyproject(tmp_path, "")
    _write(tmp_path, {"app.py": APP + '\n__all__ = ["Context", "mcp"]\n'})
    assert cli(["fix", "."], tmp_path).exit_code == 0
    assert (tmp_path / "app.py").read_text() == (
        '"""Recipe server: the server object lives here; other modules import what they need from here."""\n'
        "from typing import Annotated\n"
        "\n"
        "from mcp.server.fastmcp import Context, FastMCP\n"
        "from pydantic import Field\n"
        "\n"
        'mcp = FastMCP("recipes")\n'
        "\n"
        "\n"
        "@mcp.tool()\n"
        "async def pantry_dir(\n"
        "    root: Annotated[\n"
        "        str,\n"
        "        Field(\n"
        '            description="Absolute path of the directory to work in (formerly the client\'s MCP root)."\n'
        "        ),\n"
        "    ],\n"
        ") -> str:\n"
        '    """Where the pantry files are."""\n'
        "    return root\n"
        "\n"
        '__all__ = ["Context", "mcp"]\n'
    )


def test_an_import_nothing_else_needs_is_still_pruned(tmp_path: Path) -> None:
    write_pyproject(tmp_path, "")
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/app.py": APP, "pkg/tools.py": "from pkg.app import mcp\n"})
    assert cli(["fix", "."], tmp_path).exit_code == 0
    assert (tmp_path / "pkg/app.py").read_text() == APP_FIXED.replace("import Context, FastMCP", "import FastMCP")


# -- bugs-02: `Field` is the module's own class: pydantic's is imported under an alias ------------
FORMS = '''\
from dataclasses import dataclass

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("survey-forms")


@dataclass
class Field:
    label: str
    kind: str = "text"


FORM = [Field("name"), Field("age", "int")]


@mcp.tool()
async def export(ctx: Context) -> str:
    """Export the form definition next to the client's workspace."""
    roots = await ctx.session.list_roots()
    return roots.roots[0].uri.path + "/form.csv:" + ",".join(f.label for f in FORM)
'''
FORMS_FIXED = (
    "from dataclasses import dataclass\n"
    "from typing import Annotated\n"
    "\n"
    "from mcp.server.fastmcp import FastMCP\n"
    "from pydantic import Field as PydanticField\n"
    "\n"
    'mcp = FastMCP("survey-forms")\n'
    "\n"
    "\n"
    "@dataclass\n"
    "class Field:\n"
    "    label: str\n"
    '    kind: str = "text"\n'
    "\n"
    "\n"
    'FORM = [Field("name"), Field("age", "int")]\n'
    "\n"
    "\n"
    "@mcp.tool()\n"
    "async def export(\n"
    "    root: Annotated[\n"
    "        str,\n"
    "        PydanticField(\n"
    '            description="Absolute path of the directory to work in (formerly the client\'s MCP root)."\n'
    "        ),\n"
    "    ],\n"
    ") -> str:\n"
    '    """Export the form definition next to the client\'s workspace."""\n'
    '    return root + "/form.csv:" + ",".join(f.label for f in FORM)\n'
)


def test_bugs02_a_taken_field_name_is_imported_under_an_alias(tmp_path: Path, legacy_python: str) -> None:
    write_pyproject(tmp_path, "")
    _write(tmp_path, {"forms.py": FORMS})
    res = cli(["fix", "forms.py"], tmp_path)
    assert res.exit_code == 0, str(res)
    assert (tmp_path / "forms.py").read_text() == FORMS_FIXED
    answer = run_proof(
        legacy_python,
        tmp_path / "forms.py",
        "mcp",
        "legacy",
        [],
        [{"tool": "export", "arguments": {"root": "/srv/forms"}}],
    )
    assert answer["calls"][0]["error"] is None and not answer["calls"][0]["is_error"], answer
    assert answer["calls"][0]["text"] == ["/srv/forms/form.csv:name,age"]
    schema = next(t["inputSchema"] for t in answer["tools"] if t["name"] == "export")
    assert schema["properties"]["root"]["description"] == DESCRIPTION


def test_an_existing_import_of_the_same_name_is_reused(tmp_path: Path) -> None:
    write_pyproject(tmp_path, "")
    source = "from typing_extensions import Annotated\n\nfrom pydantic import Field\n" + APP.split("\n", 1)[1]
    _write(tmp_path, {"app.py": source})
    assert cli(["fix", "."], tmp_path).exit_code == 0
    text = (tmp_path / "app.py").read_text()
    assert "    root: Annotated[\n        str,\n        Field(\n            description=" in text
    assert "from typing import" not in text and "PydanticField" not in text


# -- bugs-03: the module's own `Sample` model: the SDK marker is imported as McpSample -------------
LAB = '''\
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import SamplingMessage, TextContent
from pydantic import BaseModel

mcp = MCPServer("lab")


class Sample(BaseModel):
    code: str
    volume_ml: float


SAMPLES = {"s1": Sample(code="s1", volume_ml=2.5)}


@mcp.tool()
async def describe(code: str, ctx: Context) -> str:
    """Describe a lab sample with the client's model."""
    s = SAMPLES[code]
    result = await ctx.session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=f"Describe sample {code}"))],
        max_tokens=40,
    )
    return f"{s.code}: {result.content.text}"
'''
LAB_FIXED = (
    "from typing import Annotated\n"
    "\n"
    "from mcp.server.mcpserver import MCPServer, Resolve\n"
    "from mcp.server.mcpserver import Sample as McpSample\n"
    "from mcp.types import CreateMessageResult, SamplingMessage, TextContent\n"
    "from pydantic import BaseModel\n"
    "\n"
    'mcp = MCPServer("lab")\n'
    "\n"
    "\n"
    "class Sample(BaseModel):\n"
    "    code: str\n"
    "    volume_ml: float\n"
    "\n"
    "\n"
    'SAMPLES = {"s1": Sample(code="s1", volume_ml=2.5)}\n'
    "\n"
    "\n"
    "def describe_sampling(code: str) -> McpSample:\n"
    "    return McpSample(\n"
    "        [\n"
    "            SamplingMessage(\n"
    '                role="user",\n'
    '                content=TextContent(type="text", text=f"Describe sample {code}"),\n'
    "            )\n"
    "        ],\n"
    "        max_tokens=40,\n"
    "    )\n"
    "\n"
    "\n"
    "@mcp.tool()\n"
    "async def describe(\n"
    "    code: str, result: Annotated[CreateMessageResult, Resolve(describe_sampling)]\n"
    ") -> str:\n"
    '    """Describe a lab sample with the client\'s model."""\n'
    "    s = SAMPLES[code]\n"
    '    return f"{s.code}: {result.content.text}"\n'
)


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_bugs03_a_taken_sample_name_is_imported_under_an_alias(tmp_path: Path, mode: str, mcp2_python: str) -> None:
    write_pyproject(tmp_path, "")
    _write(tmp_path, {"lab.py": LAB})
    res = cli(["fix", "--strategy", "interim", "lab.py"], tmp_path)
    assert res.exit_code == 0, str(res)
    assert (tmp_path / "lab.py").read_text() == LAB_FIXED
    answer = run_proof(
        mcp2_python,
        tmp_path / "lab.py",
        "mcp",
        mode,
        [],
        [{"tool": "describe", "arguments": {"code": "s1"}}],
        client={"sampling": True},
    )
    call = answer["calls"][0]
    assert call["error"] is None and not call["is_error"], answer
    assert call["text"][0].startswith("s1: ") and "Describe sample s1" in call["text"][0]


# -- requests-01: a schema class defined inside the tool body ---------------------------------------
SEATS = """\
from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer

app = MCPServer("seats")


@app.tool()
async def hold_seat(show: str, row: int, ctx: Context) -> str:
    class Reservation(BaseModel):
        confirm: bool
        name: str = ""

    reply = await ctx.elicit(f"Hold a seat in row {row} for {show}?", Reservation)
    if reply.action == "accept" and reply.data.confirm:
        return f"held for {reply.data.name or 'guest'}"
    return "not held"
"""


def test_requests01_an_in_body_schema_moves_above_the_tool_before_the_resolver_reads_it(
    tmp_path: Path, mcp2_python: str
) -> None:
    """The class leaves the tool body for module level, above the resolver that reads it
    (codemods/interim/moved.py; tests/test_interim_moved_class.py), and the fixed server answers on
    both eras."""
    write_pyproject(tmp_path, "")
    _write(tmp_path, {"seats.py": SEATS})
    res = cli(["fix", "--strategy", "interim", "--output-format", "json", "seats.py"], tmp_path)
    assert res.json["findings"] == [], res.json
    assert (tmp_path / "seats.py").read_text() == (
        """from typing import Annotated

from pydantic import BaseModel

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve

app = MCPServer("seats")


class Reservation(BaseModel):
    confirm: bool
    name: str = ""


def hold_seat_elicitation(show: str, row: int) -> Elicit[Reservation]:
    return Elicit(f"Hold a seat in row {row} for {show}?", Reservation)


@app.tool()
async def hold_seat(
    show: str,
    row: int,
    reply: Annotated[ElicitationResult[Reservation], Resolve(hold_seat_elicitation)],
) -> str:
    if reply.action == "accept" and reply.data.confirm:
        return f"held for {reply.data.name or 'guest'}"
    return "not held"
"""
    )
    calls = [{"tool": "hold_seat", "arguments": {"show": "Hamlet", "row": 3}}]
    client = {"elicitation": {"action": "accept", "content": {"confirm": True, "name": "Ann"}}}
    for mode in ("legacy", "modern"):
        got = run_proof(mcp2_python, tmp_path / "seats.py", "app", mode, [], calls, client=client)
        assert [c["text"] for c in got["calls"]] == [["held for Ann"]], got


# -- the verifier itself --------------------------------------------------------------------------
def test_the_verifier_refuses_a_new_undefined_name() -> None:
    # what the interim fix wrote for requests-01 before the planner knew: Reservation out of reach
    broken = SEATS.replace(
        "@app.tool()", "def hold_seat_elicitation(show, row) -> Reservation:\n    ...\n\n\n@app.tool()"
    )
    problem = name_problem(SEATS.encode(), broken.encode(), "seats.py", None, Path("."))
    assert problem == (
        "the rewritten code reads `Reservation` where it is not defined (line 8); the fixed module would fail"
    )


def test_the_verifier_refuses_an_added_import_over_a_bound_name() -> None:
    broken = FORMS.replace(
        "from dataclasses import dataclass\n", "from dataclasses import dataclass\nfrom pydantic import Field\n"
    )
    problem = name_problem(FORMS.encode(), broken.encode(), "forms.py", None, Path("."))
    assert problem is not None and problem.startswith("the rewritten code binds `Field` twice before using it")


def test_the_verifier_refuses_removing_a_name_another_module_imports(tmp_path: Path) -> None:
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/app.py": APP, "pkg/tools.py": TOOLS})
    pruned = APP.replace("import Context, FastMCP", "import FastMCP").replace("ctx: Context", "ctx")
    problem = name_problem(APP.encode(), pruned.encode(), "pkg/app.py", tmp_path / "pkg/app.py", tmp_path)
    assert problem == "the fix removes `Context`, which pkg/tools.py imports from this module"
    assert name_problem(APP.encode(), APP.encode(), "pkg/app.py", tmp_path / "pkg/app.py", tmp_path) is None


def test_a_refused_fix_leaves_the_file_and_reports_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a planner that spells a name it does not import: the verifier stops it
    from mcpmigrate.codemods.param import parameter

    real = parameter.documented_param
    monkeypatch.setattr(parameter, "documented_param", lambda *a, **k: real(*a, **{**k, "field": "Fieldz"}))
    import mcpmigrate.codemods.param.sites as sites
    import mcpmigrate.codemods.param.thread as thread

    monkeypatch.setattr(sites, "documented_param", parameter.documented_param)
    monkeypatch.setattr(thread, "documented_param", parameter.documented_param)
    write_pyproject(tmp_path, "")
    _write(tmp_path, {"app.py": APP})
    res = cli(["fix", "--output-format", "json", "."], tmp_path)
    assert (tmp_path / "app.py").read_text() == APP
    (error,) = res.json["errors"]
    assert error["message"].startswith("fix not applied: the rewritten code reads `Fieldz` where it is not defined")
    assert [f["rule"] for f in res.json["findings"]] == ["MCP101"]


# -- Edits.import_name ------------------------------------------------------------------------------
def _analysis(source: str):
    import libcst as cst

    from mcpmigrate.analysis import ModuleAnalysis

    return ModuleAnalysis(cst.parse_module(source))


@pytest.mark.parametrize(
    "source, expected, imported",
    [
        ("x = 1\n", "Field", ("pydantic", "Field", None)),  # free: plain import
        ("from pydantic import Field\n", "Field", None),  # that import: reused
        ("from pydantic import Field as F\n", "F", None),  # under its alias
        ("class Field: ...\n", "PydanticField", ("pydantic", "Field", "PydanticField")),  # the module's own
        ("from sqlmodel import Field\n", "PydanticField", ("pydantic", "Field", "PydanticField")),
        ("def f(Field): ...\n", "PydanticField", ("pydantic", "Field", "PydanticField")),  # a local shadows too
        ("from pydantic import Field\nField = 3\n", "PydanticField", ("pydantic", "Field", "PydanticField")),
        ("class Field: ...\nPydanticField = 1\n", "PydanticField2", ("pydantic", "Field", "PydanticField2")),
        ("obj.Field = 1\nf(Field=2)\n", "Field", ("pydantic", "Field", None)),  # attribute / keyword: free
    ],
)
def test_import_name(source: str, expected: str, imported: tuple | None) -> None:
    from mcpmigrate.codemods.edits import Edits, apply_edits

    a = _analysis(source)
    ed = Edits()
    assert ed.import_name(a, "pydantic", "Field") == expected
    if imported is None:
        assert not ed.imports
        return
    mod, name, alias = imported
    assert ed.imports == {(mod, name)} and ed.aliases.get((mod, name)) == alias
    new = apply_edits(a.module, ed).code
    assert (f"Field as {alias}" if alias else "from pydantic import Field\n") in new


def test_import_name_reuses_an_equivalent_spelling() -> None:
    from mcpmigrate.codemods.edits import Edits

    ed = Edits()
    assert ed.import_name(_analysis("from typing_extensions import Annotated\n"), "typing", "Annotated") == "Annotated"
    assert not ed.imports
