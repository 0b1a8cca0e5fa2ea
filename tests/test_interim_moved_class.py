"""``fix --strategy interim`` on an ``MCPServer`` tool whose elicitation schema is a class defined in
the tool body (issue 22: lastmile-ai/mcp-agent's demo_server ``ConfirmBooking`` and rentspider
``CompAnalysisPrefs``; field case requests-01): a resolver cannot see that class, so it moves, as
written and with its comments, right above the tool when nothing it reads or does depends on the
tool, and the request becomes a resolver as for a module-level class (``codemods/interim/moved.py``).

The cases of tests/data/moved/ (written for this project) are fixed to exactly their
``.fixed.py`` (or left unchanged, with the exact reason), a second ``fix`` changes nothing, and the
fixed servers run on the real SDKs: mcp 1.27 (the original, legacy) and mcp 2.3 (the fixed one, on a
legacy and a 2026-07-28 connection) answer alike."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cli
from tests.proof import run_proof

DATA = Path(__file__).resolve().parent / "data" / "moved"
ERROR = "<error>"


def _fix(tmp_path: Path, name: str, port: bool = False) -> tuple[dict[str, Any], str]:
    """``name``.py fixed in ``tmp_path`` with the safe fixes only (the label must not change), ported
    from mcp 1.x when ``port`` (with --unsafe-fixes: a resolver written on the mcp 1.x code this run
    ports is unsafe, since a client without elicitation then gets -32021); a second run must change
    nothing."""
    target = tmp_path / f"{name}.py"
    shutil.copyfile(DATA / f"{name}.py", target)
    args = ["fix", "--strategy", "interim", "--no-cache", "--output-format", "json"]
    if port:
        (tmp_path / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
        args += ["--target-sdk", "mcp2", "--unsafe-fixes"]
    res = cli([*args, target.name], tmp_path)
    assert res.exception is None, str(res)
    fixed = target.read_text(encoding="utf-8")
    again = cli([*args, target.name], tmp_path)
    assert again.exception is None and target.read_text(encoding="utf-8") == fixed, "a second fix changed the file"
    return res.json, fixed


def _left(out: dict[str, Any]) -> list[tuple[int, str]]:
    return [(f["line"], f["manual"]) for f in out["findings"] if f["rule"] in ("MCP201", "MCP202")]


def _texts(answer: dict[str, Any]) -> list[str]:
    return [ERROR if (r["error"] is not None or r["is_error"]) else "\n".join(r["text"]) for r in answer["calls"]]


@pytest.mark.parametrize(("name", "port"), [("booking", True), ("constant", False)])
def test_the_class_moves_above_the_tool_exactly(tmp_path: Path, name: str, port: bool) -> None:
    out, fixed = _fix(tmp_path, name, port)
    assert fixed == (DATA / f"{name}.fixed.py").read_text(encoding="utf-8")
    assert _left(out) == []


BOOKING_CALLS = [{"tool": "reserve", "arguments": {"day": "friday", "guests": 4}}]
CONFIRM = {"elicitation": {"action": "accept", "content": {"confirm": True, "notes": "window"}}}
NOT_CONFIRMED = {"elicitation": {"action": "accept", "content": {"confirm": False}}}
DECLINE = {"elicitation": {"action": "decline"}}


@pytest.mark.parametrize("client", [CONFIRM, NOT_CONFIRMED, DECLINE])
def test_the_ported_booking_answers_like_the_mcp1_original_in_both_eras(
    tmp_path: Path, client: dict[str, Any], legacy_python: str, mcp2_python: str
) -> None:
    """The original on mcp 1.27 (its class defined in the tool, on every call) and the fixed file on
    mcp 2.3 (the class moved above the tool) give the same answers, the schema's fields included."""
    before = run_proof(legacy_python, DATA / "booking.py", "mcp", "legacy", [], BOOKING_CALLS, client=client)
    assert ERROR not in _texts(before), before
    for mode in ("legacy", "modern"):
        got = run_proof(mcp2_python, DATA / "booking.fixed.py", "mcp", mode, [], BOOKING_CALLS, client=client)
        assert got["protocol_version"] == ("2026-07-28" if mode == "modern" else "2025-11-25")
        assert _texts(got) == _texts(before), f"{mode}: {got['calls']} vs {before['calls']}"
    if client is CONFIRM:
        assert _texts(before) == ["reserved (window) ['confirm', 'notes']"]


SEARCH_CALLS = [{"tool": "search", "arguments": {"query": "maps"}}]


@pytest.mark.parametrize(
    "client",
    [
        {"elicitation": {"action": "accept", "content": {"limit": 80, "exact": True}}},  # the validator caps it
        DECLINE,
    ],
)
def test_the_class_reading_module_constants_answers_alike_in_both_eras(
    tmp_path: Path, client: dict[str, Any], mcp2_python: str
) -> None:
    before = run_proof(mcp2_python, DATA / "constant.py", "mcp", "legacy", [], SEARCH_CALLS, client=client)
    assert ERROR not in _texts(before), before
    modern_before = run_proof(mcp2_python, DATA / "constant.py", "mcp", "modern", [], SEARCH_CALLS, client=client)
    assert _texts(modern_before) != _texts(before), "the original already works on 2026-07-28"
    for mode in ("legacy", "modern"):
        got = run_proof(mcp2_python, DATA / "constant.fixed.py", "mcp", mode, [], SEARCH_CALLS, client=client)
        assert _texts(got) == _texts(before), f"{mode}: {got['calls']} vs {before['calls']}"
    assert _texts(before) in (["maps: limit 50, exact True"], ["decline: default 5"])


BUILT_FROM = "the request is built from "
RULE = (
    ": a resolver may only use the tool's arguments, module-level names and locals assigned once from them, "
    "without calls, before the request; rewrite by hand"
)


def test_two_tools_with_a_different_class_of_one_name_stay_manual(tmp_path: Path) -> None:
    out, fixed = _fix(tmp_path, "same_name")
    assert fixed == (DATA / "same_name.py").read_text(encoding="utf-8")
    clash = (
        "`Choice` is a class defined inside the tool, which a resolver does not see, and `{other}` defines a "
        "different class `Choice`: one module-level name cannot hold both; rename one of them, then run the fix again"
    )
    assert _left(out) == [
        (16, f"{BUILT_FROM}`Choice`, which a resolver cannot recompute ({clash.format(other='pick_meal')}){RULE}"),
        (26, f"{BUILT_FROM}`Choice`, which a resolver cannot recompute ({clash.format(other='pick_drink')}){RULE}"),
    ]


def test_a_class_reading_a_parameter_of_the_tool_stays_manual(tmp_path: Path) -> None:
    out, fixed = _fix(tmp_path, "reads_param")
    assert fixed == (DATA / "reads_param.py").read_text(encoding="utf-8")
    assert _left(out) == [
        (
            16,
            f"{BUILT_FROM}`Quantity`, which a resolver cannot recompute (`Quantity` is a class defined inside the "
            "tool that reads the tool's parameter `limit`: a resolver does not see it, and it cannot move to module "
            f"level without that parameter; define it at module level by hand){RULE}",
        )
    ]


# -- the edges: what the class reads, does and is called -----------------------------------------

HEAD = """import datetime

from pydantic import BaseModel, Field, field_validator

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("x")
LIMIT = 9


"""


def _check(tmp_path: Path, body: str) -> list[dict[str, Any]]:
    (tmp_path / "server.py").write_text(HEAD + body, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "interim"\n', encoding="utf-8")
    res = cli(["check", "--no-cache", "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    return [f for f in res.json["findings"] if f["rule"] in ("MCP201", "MCP202")]


def _tool(cls: str, before: str = "", after: str = "") -> str:
    return f"""@mcp.tool()
async def ask(query: str, ctx: Context) -> str:
{before}{cls}
    answer = await ctx.elicit(f"Search {{query}}?", Prefs)
{after}    return answer.action
"""


PREFS = """    class Prefs(BaseModel):
        limit: int = LIMIT
"""


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (
            _tool("    local = 3\n" + PREFS.replace("= LIMIT", "= local")),
            "`Prefs` is a class defined inside the tool that reads `local`, a local of the tool: a resolver does not "
            "see it, and it cannot move to module level without that local; define it at module level by hand",
        ),
        (
            _tool(
                PREFS + "\n        @field_validator('limit')\n        @classmethod\n"
                "        def cap(cls, value: int) -> int:\n            return min(value, len(query))\n"
            ),
            "`Prefs` is a class defined inside the tool that reads the tool's parameter `query`: a resolver does not "
            "see it, and it cannot move to module level without that parameter; define it at module level by hand",
        ),
        (
            _tool(PREFS + "        stamp: str = datetime.datetime.now().isoformat()\n"),
            "`Prefs` is a class defined inside the tool whose definition runs `stamp: str = "
            "datetime.datetime.now().isoformat()`: moved to module level it would run once at import instead of on "
            "every call; define the class at module level by hand",
        ),
        (
            _tool(PREFS, after="    Prefs.limit = 4\n"),
            "`Prefs` is a class defined inside the tool, and `Prefs.limit = 4` changes it or reaches its own "
            "attributes: moved to module level, such a change would last from one call to the next; define the class "
            "at module level by hand",
        ),
        (  # a module-level name bound only below the tool (review of hoist36: the port was blocked instead)
            _tool(PREFS.replace("limit: int = LIMIT", "limit: Later = LIMIT")) + "\n\nLater = int\n",
            "`Prefs` is a class defined inside the tool that reads `Later`, which the module binds only below the "
            "tool: moved above the tool, the class would be defined before `Later` is and fail at import; define it "
            "at module level, below that, by hand",
        ),
        (  # a ClassVar list changed through a method call (review of hoist36: state carried between calls)
            "from typing import ClassVar\n\n\n"
            + _tool(
                PREFS.replace("limit: int", "days: ClassVar[list[str]] = []\n        limit: int"),
                after="    Prefs.days.append(query)\n",
            ),
            "`Prefs` is a class defined inside the tool, and `Prefs.days.append(query)` changes it or reaches its own "
            "attributes: moved to module level, such a change would last from one call to the next; define the class "
            "at module level by hand",
        ),
        (
            "Prefs = None\n\n\n" + _tool(PREFS),
            "`Prefs` is a class defined inside the tool, which a resolver does not see, and the module binds `Prefs` "
            "too: moving the class there would replace that; rename one of them, then run the fix again",
        ),
        (
            _tool("    if query:\n    " + PREFS.replace("\n    ", "\n        ")),
            "`Prefs` is a class defined under `if query:` in the tool, which a resolver does not see: it is not "
            "defined once at the top of the tool's body, so the fix does not move it; define it at module level",
        ),
        (
            "def register(cls):\n    return cls\n\n\n" + _tool("    @register\n" + PREFS),
            "`Prefs` is a class defined inside the tool whose definition runs `@register`: moved to module level it "
            "would run once at import instead of on every call; define the class at module level by hand",
        ),
        (
            "class Base(BaseModel):\n    def __init_subclass__(cls, **kw):\n        super().__init_subclass__(**kw)\n"
            "\n\n" + _tool(PREFS.replace("(BaseModel)", "(Base)")),
            "`Prefs` is a class defined inside the tool, which a resolver does not see, and its base `Base` defines "
            "`__init_subclass__`, which runs when it is defined: that would then run once at import instead of on "
            "every call; define the class at module level by hand",
        ),
        (
            "from shared import Base\n\n\n" + _tool(PREFS.replace("(BaseModel)", "(Base)")),
            "`Prefs` is a class defined inside the tool, which a resolver does not see, and its base `Base` is not a "
            "class of this module: the fix cannot see whether defining a subclass runs code (an `__init_subclass__`, "
            "a metaclass), which would then run once at import instead of on every call; define the class at module "
            "level by hand",
        ),
    ],
    ids=[
        "tool-local",
        "method-reads-parameter",
        "effect",
        "written",
        "bound-below",
        "classvar-mutated",
        "module-name",
        "under-if",
        "decorator",
        "base-hook",
        "base-elsewhere",
    ],
)
def test_a_class_that_cannot_move_unchanged_stays_manual(tmp_path: Path, body: str, why: str) -> None:
    [f] = _check(tmp_path, body)
    assert f["fix"] is None, f
    assert f["manual"] == f"{BUILT_FROM}`Prefs`, which a resolver cannot recompute ({why}){RULE}"


def test_names_the_class_binds_itself_are_not_the_tools(tmp_path: Path) -> None:
    """A field and a method parameter named like the tool's parameter are the class's own; two
    requests of the tool read the class, which moves once; a tool inside a factory gets it right
    above, in the factory."""
    body = """def build() -> MCPServer:
    app = MCPServer("y")

    @app.tool()
    async def ask(query: str, ctx: Context) -> str:
        # asked twice
        class Prefs(BaseModel):
            query: str = Field(default="", description=f"at most {LIMIT}")

            @field_validator("query")
            @classmethod
            def trim(cls, query: str) -> str:
                return query[:LIMIT]

        first = await ctx.elicit(f"First {query}?", Prefs)
        second = await ctx.elicit(f"Second {query}?", Prefs)
        return f"{first.action} {second.action}"

    return app
"""
    found = _check(tmp_path, body)
    # the second request is asked after the first today: the same label as with a module-level class
    assert [f["fix"]["safety"] for f in found] == ["safe", "unsafe"], found
    res = cli(["fix", "--strategy", "interim", "--unsafe-fixes", "--no-cache", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    assert (tmp_path / "server.py").read_text(encoding="utf-8") == (
        """import datetime
from typing import Annotated

from pydantic import BaseModel, Field, field_validator

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve

mcp = MCPServer("x")
LIMIT = 9


def build() -> MCPServer:
    app = MCPServer("y")

    # asked twice
    class Prefs(BaseModel):
        query: str = Field(default="", description=f"at most {LIMIT}")

        @field_validator("query")
        @classmethod
        def trim(cls, query: str) -> str:
            return query[:LIMIT]

    def ask_elicitation(query: str) -> Elicit[Prefs]:
        return Elicit(f"First {query}?", Prefs)

    def ask_elicitation_2(query: str) -> Elicit[Prefs]:
        return Elicit(f"Second {query}?", Prefs)

    @app.tool()
    async def ask(
        query: str,
        first: Annotated[ElicitationResult[Prefs], Resolve(ask_elicitation)],
        second: Annotated[ElicitationResult[Prefs], Resolve(ask_elicitation_2)],
    ) -> str:
        return f"{first.action} {second.action}"

    return app
"""
    )


def test_a_base_of_the_module_without_hooks_lets_the_class_move(tmp_path: Path) -> None:
    body = "class Base(BaseModel):\n    model_config = {'extra': 'forbid'}\n\n\n" + _tool(
        PREFS.replace("(BaseModel)", "(Base)")
    )
    [f] = _check(tmp_path, body)
    assert f["manual"] is None, f
    assert f["fix"]["safety"] == "safe"
    assert "(the class `Prefs` moves from the tool body to right above the tool" in f["fix"]["description"]


def test_string_annotations_are_read_where_they_are_types(tmp_path: Path) -> None:
    """A forward reference (``Optional["Item"]``) is read as the name pydantic resolves; a
    ``Literal`` value and ``Field`` metadata are not names."""
    cls = """    class Prefs(BaseModel):
        mode: Literal["fast", "slow"] = "fast"
        notes: Annotated[str, Field(description="notes")] = ""
        item: Optional["{ref}"] = None
"""
    head = "from typing import Annotated, Literal, Optional\n\n\nclass Item(BaseModel):\n    name: str = ''\n\n\n"
    [f] = _check(tmp_path, head + _tool(cls.format(ref="Item")))
    assert (f["manual"], f["fix"]["safety"]) == (None, "safe"), f
    [f] = _check(tmp_path, head + _tool(cls.format(ref="query")))
    assert f["manual"] == (
        f"{BUILT_FROM}`Prefs`, which a resolver cannot recompute (`Prefs` is a class defined inside the tool that "
        "reads the tool's parameter `query`: a resolver does not see it, and it cannot move to module level without "
        f"that parameter; define it at module level by hand){RULE}"
    )


HELPER = """from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("x")


async def confirm(ctx: Context, what: str) -> bool:
    # the form
    class Consent(BaseModel):
        ok: bool

    answer = await ctx.elicit(f"Really {what}?", Consent)
    return answer.action == "accept" and answer.data.ok


@mcp.tool()
async def drop(name: str, ctx: Context) -> str:
    if not await confirm(ctx, f"drop {name}"):
        return "kept"
    return "dropped"
"""


def test_a_class_of_a_helper_moves_above_the_helper_and_answers_alike_in_both_eras(
    tmp_path: Path, mcp2_python: str
) -> None:
    """The helper's request becomes a resolver per calling tool; the class the request reads goes
    right above the helper, which comes before its tools (and so before their resolvers)."""
    (tmp_path / "before").mkdir()
    (tmp_path / "before" / "server.py").write_text(HELPER, encoding="utf-8")
    (tmp_path / "server.py").write_text(HELPER, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "interim"\n', encoding="utf-8")
    res = cli(["fix", "--no-cache", "--output-format", "json", "server.py"], tmp_path)  # safe
    assert res.exception is None and res.json["findings"] == [], str(res)
    fixed = (tmp_path / "server.py").read_text(encoding="utf-8")
    assert fixed == (
        """from typing import Annotated

from pydantic import BaseModel

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve

mcp = MCPServer("x")


# the form
class Consent(BaseModel):
    ok: bool


async def confirm(answer: ElicitationResult[Consent], what: str) -> bool:
    return answer.action == "accept" and answer.data.ok


def drop_elicitation(name: str) -> Elicit[Consent]:
    what = f"drop {name}"
    return Elicit(f"Really {what}?", Consent)


@mcp.tool()
async def drop(
    name: str, answer: Annotated[ElicitationResult[Consent], Resolve(drop_elicitation)]
) -> str:
    if not await confirm(answer, f"drop {name}"):
        return "kept"
    return "dropped"
"""
    )
    calls = [{"tool": "drop", "arguments": {"name": "logs"}}]
    for client in ({"elicitation": {"action": "accept", "content": {"ok": True}}}, DECLINE):
        before = run_proof(mcp2_python, tmp_path / "before" / "server.py", "mcp", "legacy", [], calls, client=client)
        assert ERROR not in _texts(before), before
        for mode in ("legacy", "modern"):
            got = run_proof(mcp2_python, tmp_path / "server.py", "mcp", mode, [], calls, client=client)
            assert _texts(got) == _texts(before), f"{mode}: {got['calls']} vs {before['calls']}"


def test_a_class_of_a_helper_defined_after_its_tool_stays_manual(tmp_path: Path) -> None:
    tool = HELPER[HELPER.index("@mcp.tool()") :]
    text = HELPER[: HELPER.index("async def confirm")] + tool + "\n\n" + HELPER[HELPER.index("async def confirm") :]
    text = text[: text.index("@mcp.tool()", text.index("async def confirm"))].rstrip() + "\n"
    (tmp_path / "server.py").write_text(text, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "interim"\n', encoding="utf-8")
    res = cli(["check", "--no-cache", "--output-format", "json", "server.py"], tmp_path)
    [f] = [f for f in res.json["findings"] if f["rule"] == "MCP202"]
    assert f["manual"] == (
        "the request is made in the helper `confirm`, built from `Consent`, a class defined inside the helper: it "
        "would move right above the helper, after `drop`, whose resolver reads it where it is defined; define the "
        "class at module level by hand"
    )
