"""The layer contract, checked on the source: imports run one way, and no module reaches into
another module's private names.

The layers and their order are described in ``docs/architecture.md`` ("Layers"); the table
below is that description as data — change both together. Every import is read with ``ast``,
function-level and ``TYPE_CHECKING`` imports included: an import placed inside a function to
dodge a cycle is still a dependency.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mcpmigrate"

# -- the table (docs/architecture.md, "Layers") ----------------------------------------------
# Which layer a module is in: its own entry, else its package's (``mcpmigrate.analysis.kinds`` is
# in ``mcpmigrate.analysis``'s layer). The package itself (``mcpmigrate``: ``__version__``) is base.
LAYER_OF: dict[str, str] = {
    "mcpmigrate.__main__": "cli",
    "mcpmigrate.cli": "cli",
    "mcpmigrate.report": "report",  # the output formats, called by the cli
    "mcpmigrate.verify": "verify",  # `verify`: runs the user's server before and after (README "Verify the migration")
    "mcpmigrate.engine": "engine",
    "mcpmigrate.pipeline": "engine",
    "mcpmigrate.writes": "engine",
    "mcpmigrate.project_threads": "engine",  # the param fix's project step (callers in other modules)
    "mcpmigrate.project_answers": "engine",  # the interim fix's project step (callers in other modules)
    "mcpmigrate.detectors": "detectors",  # the rules
    "mcpmigrate.codemods": "codemods",  # the fixes (a rule asks its fix module for a plan)
    "mcpmigrate.analysis": "analysis",  # facts about one module
    "mcpmigrate.names": "analysis",
    "mcpmigrate.fastwalk": "analysis",
    "mcpmigrate.screen": "analysis",
    "mcpmigrate.positions": "analysis",
    "mcpmigrate.parsing": "analysis",
    "mcpmigrate.surfaces": "base",  # data and plumbing with no knowledge of the layers above
    "mcpmigrate.model": "base",
    "mcpmigrate.config": "base",
    "mcpmigrate.catalog": "base",
    "mcpmigrate.files": "base",
    "mcpmigrate.pins": "base",
    "mcpmigrate.lockfiles": "base",
    "mcpmigrate.suppress": "base",
    "mcpmigrate.cache": "base",
    "mcpmigrate.isolation": "base",  # a time limit, a child process, the pool's in-flight marks
    "mcpmigrate": "base",
}

# What a layer's modules may import: layers (by name) or single modules (by dotted name).
# cli → engine → detectors → codemods → analysis → base; each layer may use every layer below
# it and its own. The reporters render a run's result and nothing else: the finding model, the
# rule catalog (names, help texts) and the version.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "cli": frozenset({"cli", "report", "verify", "engine", "detectors", "codemods", "analysis", "base"}),
    "engine": frozenset({"engine", "detectors", "codemods", "analysis", "base"}),
    "detectors": frozenset({"detectors", "codemods", "analysis", "base"}),
    "codemods": frozenset({"codemods", "analysis", "base"}),
    "analysis": frozenset({"analysis", "base"}),
    "base": frozenset({"base"}),
    "report": frozenset({"report", "mcpmigrate.model", "mcpmigrate.catalog", "mcpmigrate"}),
    # verify starts servers and compares what a client gets; it knows no rule, finding or fix
    "verify": frozenset({"verify", "base"}),
}

# Known violations, each to be deleted with the code that makes it (the test warns when an entry
# no longer occurs). Keys are (importing module, what it reaches: a layer edge "→ module" or a
# private name "module.name").
KNOWN_VIOLATIONS: dict[tuple[str, str], str] = {}


# -- reading the source ------------------------------------------------------------------------
def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@lru_cache(maxsize=1)
def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


@cache
def _tree(module: str) -> ast.Module:
    return ast.parse(_modules()[module].read_text(encoding="utf-8"))


def _is_package(module: str) -> bool:
    return _modules()[module].name == "__init__.py"


def _layer(module: str) -> str | None:
    if module == "mcpmigrate":
        return LAYER_OF[module]
    name = module
    while name != "mcpmigrate":
        if name in LAYER_OF:
            return LAYER_OF[name]
        name = name.rpartition(".")[0]
    return None


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@dataclass(frozen=True)
class Import:
    importer: str
    target: str  # the module imported from (or imported)
    name: str | None  # the name taken from it, when that name is not itself a module
    line: int


def _imports(module: str, tree: ast.Module | None = None) -> list[Import]:
    """Every import of a ``mcpmigrate`` module in ``module`` (or in ``tree``, read as if it were
    ``module``'s source), at any depth of the file."""
    out: list[Import] = []
    package = module if module in _modules() and _is_package(module) else module.rpartition(".")[0]
    for node in ast.walk(_tree(module) if tree is None else tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "mcpmigrate" or alias.name.startswith("mcpmigrate."):
                    out.append(Import(module, alias.name, None, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if not (source == "mcpmigrate" or source.startswith("mcpmigrate.")):
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                if sub in _modules():
                    out.append(Import(module, sub, None, node.lineno))
                else:
                    out.append(Import(module, source, alias.name, node.lineno))
    return out


@cache
def _defined_names(module: str) -> frozenset[str]:
    """Names ``module`` defines anywhere: functions, classes, assigned names and attributes."""
    out: set[str] = set()
    for node in ast.walk(_tree(module)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            out.add(node.attr)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
    return frozenset(out)


def _owner_of_private(name: str, importer: str) -> str | None:
    """The ``mcpmigrate`` module (other than ``importer``) that defines the private ``name``."""
    for module in _modules():
        if module != importer and name in _defined_names(module):
            return module
    return None


# -- the checks --------------------------------------------------------------------------------
Violation = tuple[tuple[str, str], str]  # (the KNOWN_VIOLATIONS key, the message)


def _layer_violations(module: str, tree: ast.Module | None = None) -> list[Violation]:
    out = []
    layer = _layer(module)
    allowed = MAY_IMPORT[layer]  # type: ignore[index]
    for imp in _imports(module, tree):
        target_layer = _layer(imp.target)
        if target_layer in allowed or imp.target in allowed:
            continue
        out.append(
            (
                (module, f"→ {imp.target}"),
                f"{module} (layer {layer}) imports {imp.target} (layer {target_layer}) at line {imp.line}",
            )
        )
    return out


def _private_violations(module: str, tree: ast.Module | None = None) -> list[Violation]:
    out = []
    package = module if module in _modules() and _is_package(module) else module.rpartition(".")[0]
    for imp in _imports(module, tree):
        if imp.name is not None and _is_private(imp.name):
            out.append(
                (
                    (module, f"{imp.target}.{imp.name}"),
                    f"{module} imports the private name {imp.name} from {imp.target} (line {imp.line})",
                )
            )
        # a private module (detectors/_shared.py) belongs to its own package
        parts = imp.target.split(".")
        for i, part in enumerate(parts):
            if _is_private(part) and not (package + ".").startswith(".".join(parts[:i]) + "."):
                out.append(
                    ((module, imp.target), f"{module} imports the private module {imp.target} (line {imp.line})")
                )
    # `obj._name` where _name is another module's (a method or attribute it keeps private)
    own = _defined_names(module) if tree is None else frozenset()
    for node in ast.walk(_tree(module) if tree is None else tree):
        if (
            isinstance(node, ast.Attribute)
            and _is_private(node.attr)
            and node.attr not in own
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ):
            owner = _owner_of_private(node.attr, module)
            if owner is not None:
                out.append(
                    (
                        (module, f"{owner}.{node.attr}"),
                        f"{module} reads {owner}'s private {node.attr} (line {node.lineno})",
                    )
                )
    return out


def _unexpected(found: list[Violation]) -> list[str]:
    return sorted({msg for key, msg in found if key not in KNOWN_VIOLATIONS})


def test_every_module_is_in_the_layer_table() -> None:
    missing = [m for m in _modules() if _layer(m) is None]
    assert not missing, f"modules with no layer in tests/test_layers.py LAYER_OF (and docs/architecture.md): {missing}"
    assert set(LAYER_OF.values()) == set(MAY_IMPORT)


def test_imports_run_one_way() -> None:
    bad = _unexpected([v for m in _modules() for v in _layer_violations(m)])
    assert not bad, "imports against the layer order (docs/architecture.md):\n" + "\n".join(bad)


def test_no_module_uses_another_modules_private_names() -> None:
    bad = _unexpected([v for m in _modules() for v in _private_violations(m)])
    assert not bad, "private names used across modules (make the name public where it is defined):\n" + "\n".join(bad)


def test_known_violations_are_few_explained_and_current() -> None:
    assert len(KNOWN_VIOLATIONS) <= 5, "the allow-list is for code being rewritten, not a place to grow"
    assert all(why.strip() for why in KNOWN_VIOLATIONS.values())
    seen = {key for m in _modules() for key, _ in _layer_violations(m) + _private_violations(m)}
    stale = sorted(set(KNOWN_VIOLATIONS) - seen)
    if stale:  # fixed elsewhere: a warning, so parallel branches merge without a red suite
        warnings.warn(
            f"tests/test_layers.py KNOWN_VIOLATIONS entries that no longer occur, delete them: {stale}", stacklevel=1
        )


def test_the_checks_see_violations() -> None:
    """The reader finds what it is meant to find — a function-level import against the layers,
    a private name, a private module of another package, another module's private method — so
    a clean result means a clean tree."""
    tree = ast.parse(
        "def render(result):\n"
        "    from mcpmigrate.engine import RunResult\n"
        "    from mcpmigrate.codemods.remove import _uses\n"
        "    from mcpmigrate.detectors._shared import CatalogVisitor\n"
        "    return result.analysis._owners()\n"
    )
    layers = [key for key, _ in _layer_violations("mcpmigrate.report.text", tree)]
    assert layers == [
        ("mcpmigrate.report.text", "→ mcpmigrate.engine"),
        ("mcpmigrate.report.text", "→ mcpmigrate.codemods.remove"),
        ("mcpmigrate.report.text", "→ mcpmigrate.detectors._shared"),
    ]
    private = {key for key, _ in _private_violations("mcpmigrate.report.text", tree)}
    assert private == {
        ("mcpmigrate.report.text", "mcpmigrate.codemods.remove._uses"),
        ("mcpmigrate.report.text", "mcpmigrate.detectors._shared"),
        ("mcpmigrate.report.text", "mcpmigrate.analysis.calls._owners"),
    }
    ok = ast.parse("from mcpmigrate.detectors._shared import CatalogVisitor\nfrom mcpmigrate import __version__\n")
    assert _private_violations("mcpmigrate.detectors.roots", ok) == []


# -- the fix handoff (docs/architecture.md, "How a finding becomes a fix") ------------------------
# A detector reports a site with the plan its fix module makes; it never rewrites a report (or a
# plan) afterwards — a fix that depends on other findings is the fix module's settle step, which
# returns new plans. A fix turns typed sites into edits: it reads no finding's ``data``.
PLAN_FIELDS = frozenset({"fix", "manual", "site", "data", "severity", "message"})
_MUTATORS = frozenset({"append", "extend", "update", "setdefault", "pop", "insert", "remove", "clear"})
_EDIT_PATHS = frozenset({"edits", "record"})  # the functions of a fix module that make the edits


def _is_data(node: ast.expr) -> bool:
    """``<x>.data`` or ``<x>.data[...]``."""
    if isinstance(node, ast.Subscript):
        node = node.value
    return isinstance(node, ast.Attribute) and node.attr == "data"


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        found = [node.target]
    elif isinstance(node, ast.Delete):
        found = list(node.targets)
    else:
        return []
    out: list[ast.expr] = []
    while found:
        t = found.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            found.extend(t.elts)
        else:
            out.append(t)
    return out


def _report_rewrites(module: str, tree: ast.Module | None = None) -> list[str]:
    """Where ``module`` (a detector) changes a report or a plan after building it: assigns one of
    :data:`PLAN_FIELDS` (``r.fix = …``), writes into a ``.data`` (``r.data["x"] = …``,
    ``r.data["reviews"].append(…)``)."""
    out = []
    for node in ast.walk(_tree(module) if tree is None else tree):
        for t in _targets(node):
            if isinstance(t, ast.Attribute) and t.attr in PLAN_FIELDS:
                out.append(f"{module}:{t.lineno} assigns .{t.attr}")
            elif isinstance(t, ast.Subscript) and _is_data(t.value):
                out.append(f"{module}:{t.lineno} writes into .data")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS:
            if _is_data(node.func.value):
                out.append(f"{module}:{node.lineno} changes .data with {node.func.attr}()")
    return out


def _data_reads_in_edits(module: str, tree: ast.Module | None = None) -> list[str]:
    """Where a fix module's edit path (``edits``, a site's ``record``) reads a finding's ``.data``."""
    out = []
    for fn in ast.walk(_tree(module) if tree is None else tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name in _EDIT_PATHS:
            out += [
                f"{module}:{n.lineno} {fn.name}() reads .data"
                for n in ast.walk(fn)
                if isinstance(n, ast.Attribute) and n.attr == "data"
            ]
    return out


def test_detectors_never_rewrite_a_report() -> None:
    found = [v for m in _modules() if _layer(m) == "detectors" for v in _report_rewrites(m)]
    assert found == [], "a fix that depends on other findings is its fix module's settle step: " + "; ".join(found)


def test_fixes_read_typed_sites_not_finding_data() -> None:
    found = [v for m in _modules() if _layer(m) == "codemods" for v in _data_reads_in_edits(m)]
    assert found == [], "plan a typed site (FixPlan.site) instead: " + "; ".join(found)


def test_the_fix_handoff_checks_see_violations() -> None:
    """MCP401's old label pass (``r.fix = …``, ``r.data["reviews"].append(…)``, a tuple target)
    and the old subscription fix (``d = f.data``) are found."""
    detector = ast.parse(
        "def _plan_fixes(reports):\n"
        "    for r in reports:\n"
        "        r.fix, r.manual = None, 'why'\n"
        "        r.data['configure'] = 'INFO'\n"
        "        r.data['reviews'].append('note')\n"
        "        plan.site = None\n"
        "        fix = r.fix\n"
    )
    assert _report_rewrites("mcpmigrate.detectors.logging", detector) == [
        "mcpmigrate.detectors.logging:3 assigns .manual",
        "mcpmigrate.detectors.logging:3 assigns .fix",
        "mcpmigrate.detectors.logging:4 writes into .data",
        "mcpmigrate.detectors.logging:6 assigns .site",
        "mcpmigrate.detectors.logging:5 changes .data with append()",
    ]
    fix = ast.parse("def edits(analysis, findings, config):\n    for f in findings:\n        d = f.data\n")
    assert _data_reads_in_edits("mcpmigrate.codemods.subscription", fix) == [
        "mcpmigrate.codemods.subscription:3 edits() reads .data"
    ]


# -- a detector finds sites; the fix module builds the fix data ----------------------------------
# (docs/architecture.md, "How a finding becomes a fix"): a detector asks the fix module for a plan
# (``plan(...) -> FixPlan``) and reports it; what the fix is — its ``FixInfo``, its typed site —
# is decided in the fix module, where the settle step and ``record`` read it back.
_FIX_KEYWORDS = frozenset({"fix", "site"})


def _is_site_type(value: object) -> bool:
    """A fix module's site type: a class of ``mcpmigrate.codemods`` with ``record`` (the
    ``model.FixSite`` protocol). The facts a detector hands to a ``plan(...)`` function
    (``stdlib_logging.LogSend``, ``subscription.Push``) are not sites."""
    import inspect

    return inspect.isclass(value) and value.__module__.startswith("mcpmigrate.codemods") and hasattr(value, "record")


def _bound_fix_types(module: str, tree: ast.Module) -> tuple[dict[str, str], dict[str, str]]:
    """The names ``tree`` binds by import to fix data: ``{local: what}`` for ``FixInfo`` and the
    classes of the fix modules (``mcpmigrate.codemods``: the site types), and ``{local: module}``
    for the fix modules bound as names (``from mcpmigrate.codemods.port import renames``, ``import
    mcpmigrate.codemods.port.fastmcp4 as F``)."""
    import importlib

    classes: dict[str, str] = {}
    modules: dict[str, str] = {}

    def take(source: str, name: str, local: str) -> None:
        sub = f"{source}.{name}"
        if sub in _modules():
            if sub.startswith("mcpmigrate.codemods"):
                modules[local] = sub
            return
        if source == "mcpmigrate.model" and name == "FixInfo":
            classes[local] = "mcpmigrate.model.FixInfo"
        elif source.startswith("mcpmigrate.codemods"):
            value = getattr(importlib.import_module(source), name, None)
            if _is_site_type(value):
                classes[local] = f"{value.__module__}.{value.__qualname__}"

    package = module if module in _modules() and _is_package(module) else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name.startswith("mcpmigrate.codemods"):
                    modules[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                source = ".".join(base[: len(base) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                take(source, alias.name, alias.asname or alias.name)
    return classes, modules


def _fix_data_built(module: str, tree: ast.Module | None = None) -> list[str]:
    """Where ``module`` (a detector) builds fix data itself: constructs a ``FixInfo`` or a fix
    module's class (a site type: ``renames.AttrRename(node, new)``), or passes ``fix=``/``site=``
    (``FixPlan(fix=…, site=…)``, ``replace(plan, fix=…)``, ``self.report(…, fix=…)``) or a
    positional fix to ``FixPlan`` or ``Report`` — each is the fix module's ``plan(...)``."""
    tree = _tree(module) if tree is None else tree
    classes, modules = _bound_fix_types(module, tree)
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f, what = node.func, None
        if isinstance(f, ast.Name) and f.id in classes:
            what = classes[f.id]
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in modules:
            import importlib

            value = getattr(importlib.import_module(modules[f.value.id]), f.attr, None)
            if _is_site_type(value):
                what = f"{value.__module__}.{value.__qualname__}"
        if what is not None:
            out.append(f"{module}:{node.lineno} builds {what}")
        for kw in node.keywords:
            if kw.arg in _FIX_KEYWORDS and not (isinstance(kw.value, ast.Constant) and kw.value.value is None):
                out.append(f"{module}:{node.lineno} passes {kw.arg}=")
        if isinstance(f, ast.Name) and f.id == "FixPlan" and node.args:
            out.append(f"{module}:{node.lineno} passes a positional fix to FixPlan")
        if isinstance(f, ast.Name) and f.id == "Report" and len(node.args) > 3:  # Report(rule, node, message, fix, …)
            out.append(f"{module}:{node.lineno} passes a positional fix to Report")
    return out


# ``detectors.base`` defines the report that carries a plan (``Report.plan``, ``Report.planned``).
_REPORT_MODULE = "mcpmigrate.detectors.base"


def test_detectors_never_build_fix_data() -> None:
    found = [v for m in _modules() if _layer(m) == "detectors" and m != _REPORT_MODULE for v in _fix_data_built(m)]
    assert found == [], "ask the fix module for its plan (plan(...) -> FixPlan): " + "; ".join(found)


def test_the_fix_data_check_sees_violations() -> None:
    """The old MCP102 guard fix (a ``FixInfo`` built in the roots detector), the old MCP207 plan
    (a positional fix), a site type built by name and through its module, a plan rewritten with
    ``replace``: each is found; asking the fix module for a plan is not."""
    detector = ast.parse(
        "from dataclasses import replace\n"
        "from mcpmigrate.codemods.param import plan_roots_request\n"
        "from mcpmigrate.codemods.port import renames as R\n"
        "from mcpmigrate.codemods.port.renames import AttrRename\n"
        "from mcpmigrate.model import FixInfo as Fix, FixPlan, Safety\n"
        "def visit(self, node, plan):\n"
        "    self.report('MCP102', node, 'm', fix=Fix(Safety.SAFE, 'param', 'removed'))\n"
        "    FixPlan(plan.fix, None, plan.site)\n"
        "    AttrRename(node, 'x')\n"
        "    R.WrapStr(node)\n"
        "    replace(plan, fix=R.SAFE_RENAME)\n"
        "    self.planned('MCP101', node, 'm', plan_roots_request(self.a, self.config, node, None))\n"
        "    FixPlan(manual='why', fix=None)\n"
        "    Report('MCP101', node, 'm', plan.fix)\n"
    )
    assert sorted(_fix_data_built("mcpmigrate.detectors.roots", detector)) == sorted(
        [
            "mcpmigrate.detectors.roots:7 builds mcpmigrate.model.FixInfo",
            "mcpmigrate.detectors.roots:7 passes fix=",
            "mcpmigrate.detectors.roots:8 passes a positional fix to FixPlan",
            "mcpmigrate.detectors.roots:9 builds mcpmigrate.codemods.port.renames.AttrRename",
            "mcpmigrate.detectors.roots:10 builds mcpmigrate.codemods.port.renames.WrapStr",
            "mcpmigrate.detectors.roots:11 passes fix=",
            "mcpmigrate.detectors.roots:14 passes a positional fix to Report",
        ]
    )
