"""Project-wide facts: which functions of a checked module are called from other modules of the
project, by whom, and which arguments of those calls are contexts or sessions.

One pass over the project (its root: where the configuration is), before the per-file pipeline:

1. The *targets* are the files the byte prefilter lets through (the only ones a rule can report
   on); a regular expression reads their top-level ``def`` names and ``__all__``.
2. A file of the project can call into a target only when an import statement in it names the
   target's module (its file stem, or its package for an ``__init__.py``) and it mentions one of
   the target's function names, called (``name(``) or, in a file that may register functions
   (:data:`~mcpmigrate.analysis.summary.REGISTER_TOKENS`), anywhere: only those files are parsed,
   with Python's own ``ast``, into a :class:`~mcpmigrate.analysis.summary.ModuleSummary`
   (:mod:`~mcpmigrate.analysis.summary`: imports, star imports, every call of an imported name with
   the kinds of its arguments, and every registration of one as a tool, prompt or resource —
   ``server.tool(name="x")(fn)``, ``server.add_tool(Tool.from_function(fn))`` …).
   Summaries are cached per file content with the results. The pass is split around them
   (:func:`start`, then :func:`~mcpmigrate.analysis.summary.summarize_all`, then :func:`finish`)
   so that the engine can run them in its worker pool.
3. Each call is resolved through the caller's imports — ``from pkg.paths import album_dir``,
   ``import pkg.paths as p; p.album_dir(ctx)``, relative imports, ``from pkg.paths import *``
   (``__all__`` when the target has one, else its public names), and one level of re-export
   through a package ``__init__`` — to a target's function: :class:`ExternalCall`. A registration
   resolves the same way, to an :class:`ExternalCall` whose ``registers`` is the role the
   function is registered with (the checked module gives the function that role:
   :mod:`mcpmigrate.analysis.module`).

What a checked module receives is its :data:`Incoming` slice (function name → calls from other
modules); the slice is part of the module's cache key, so a change in a caller re-checks the
callee. Nothing here imports libcst: a warm run stays cheap.

Kinds are :class:`mcpmigrate.analysis.kinds.Kind` values (strings), read by the summaries.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from mcpmigrate.analysis.summary import REGISTER_TOKENS, ModuleSummary, Registration, summarize_all
from mcpmigrate.analysis.summary import dotted as dotted  # where codemods.imports reads it
from mcpmigrate.cache import expect, rows
from mcpmigrate.files import read_regular

if TYPE_CHECKING:
    from mcpmigrate.cache import Cache

SUMMARY_FORMAT = b"proj-summary-4"  # part of a summary's cache key (at most 16 bytes: a blake2b person)
#: The requests a context or a session passed in from another module can make (roots, sampling,
#: elicitation, ping, a raw request): a function of a checked module is a target (its callers in
#: other modules are looked for) only when one of these occurs in it, or it calls such a function.
#: The context reads the port removes are targets too: the port threads the context into such a
#: function only when no other module calls it (``codemods/port/context.py``).
REQUEST_TOKENS = (
    b"list_roots",
    b"create_message",
    b".sample",
    b"elicit",
    b"MCPSamplingModel",
    b"send_ping",
    b"send_request",
    b".get_context(",
    b".request_context",
)


@dataclass(frozen=True)
class ExternalCall:
    """A call of a target's function from another module of the project, or (``registers`` set)
    its registration there as a tool, prompt or resource."""

    path: str  # the calling file, relative to the project root
    caller: str  # the calling function's qualname (``count_photos``, ``Tools.run``; "" at module level)
    role: str | None  # ``tool``/``prompt``/``resource``, another MCP method it serves, or None
    kinds: tuple[tuple[int | str, str], ...]  # (argument position or keyword, Kind value)
    registers: str | None = None  # a registration: the role it gives the function (``tool``)
    generation: str | None = None  # a registration: the SDK generation the registering module imports
    registered_name: str | None = None  # a registration: the literal MCP name (``name="x"``)
    task: str | None = None  # a registration: fastmcp's background-task keyword as written (``task=True``)

    @property
    def label(self) -> str:
        """How a finding names the caller: the caller in backquotes, then its file (``in tools/photos.py``)."""
        return f"`{self.caller}` in {self.path}" if self.caller else self.path

    @property
    def rank(self) -> tuple[bool, bool]:
        """Sort key of what a finding names first: registered tools and handlers, then other
        code, then tests."""
        return self.role is None, _is_test(PurePosixPath(self.path))


def _is_test(path: PurePosixPath | Path) -> bool:
    """A test module: ``test_*.py``, ``*_test.py``, ``conftest.py``, or under a ``tests`` folder."""
    name = path.name
    return (
        name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
        or any(part in ("tests", "test") for part in path.parts[:-1])
    )


# Folders of modules a server does not serve: its tests, scripts and examples.
_UNSERVED_DIRS = frozenset({"tests", "test", "scripts", "examples", "example", "docs", "benchmarks"})


def unserved(path: PurePosixPath | Path) -> bool:
    """A module the served code does not import: a test module (:func:`_is_test`), or one under a
    ``scripts``, ``examples``, ``docs`` or ``benchmarks`` folder."""
    return _is_test(path) or any(part in _UNSERVED_DIRS for part in path.parts[:-1])


#: What one checked module receives: its function name → the calls of it from other modules.
Incoming = dict[str, tuple[ExternalCall, ...]]


# -- reading one file ------------------------------------------------------------------------
_TOP = re.compile(rb"^(?:(?:async[ \t]+)?def|class)[ \t]+(\w+)", re.MULTILINE)
_ALL = re.compile(rb"^__all__[ \t]*(?::[^=\n]*)?=[ \t]*([\[(][^\])]*[\])])", re.MULTILINE)


def is_target(source: bytes) -> bool:
    return any(tok in source for tok in REQUEST_TOKENS)


def target_names(source: bytes) -> tuple[set[str], set[str] | None]:
    """The top-level functions of a checked module that make a request (:data:`REQUEST_TOKENS`
    occur in their text) or call one that does, by name; and its literal ``__all__`` (None: none)."""
    starts = [(m.start(), m.group(0).startswith(b"class"), m.group(1).decode()) for m in _TOP.finditer(source)]
    chunks: dict[str, bytes] = {}
    for i, (at, is_class, name) in enumerate(starts):
        if not is_class:
            chunks[name] = source[at : starts[i + 1][0] if i + 1 < len(starts) else len(source)]
    defs = {n for n, text in chunks.items() if is_target(text)}
    grew = bool(defs)
    while grew:  # a helper that calls a requesting function (one pass per level)
        more = {n for n, text in chunks.items() if n not in defs and any(d.encode() in text for d in defs)}
        defs |= more
        grew = bool(more)
    for i, (at, is_class, name) in enumerate(starts):
        if is_class:
            end = starts[i + 1][0] if i + 1 < len(starts) else len(source)
            defs |= {f"{name}.{m}" for m in _requesting_methods(source[at:end])}
    exported: set[str] | None = None
    m = _ALL.search(source)
    if m is not None:
        try:
            value = ast.literal_eval(m.group(1).decode("utf-8", "replace"))
            exported = {v for v in value if isinstance(v, str)}
        except (ValueError, SyntaxError):
            exported = set(defs)  # computed (`[n for n in globals() ...]`): any of them may be exported
    return defs, exported


_METHOD = re.compile(rb"^([ \t]+)(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)


def _requesting_methods(text: bytes) -> set[str]:
    """The methods of a top-level class (``text``: its source) that make a request themselves:
    called through an instance in another module (``executor = AgentExecutor(…)``,
    ``executor.execute(…)``), they are ``Class.method`` targets."""
    found = list(_METHOD.finditer(text))
    if not found:
        return set()
    indent = found[0].group(1)
    own = [m for m in found if m.group(1) == indent]
    out = set()
    for i, m in enumerate(own):
        body = text[m.start() : own[i + 1].start() if i + 1 < len(own) else len(text)]
        if is_target(body):
            out.add(m.group(2).decode())
    return out


# -- the project ---------------------------------------------------------------------------------
def module_names(path: Path, root: Path) -> list[str]:
    """The dotted names a file can be imported by, longest first: every suffix of its path
    below ``root`` made of identifiers (``src/pkg/paths.py``: ``src.pkg.paths``, ``pkg.paths``,
    ``paths``)."""
    try:
        rel = PurePosixPath(os.path.relpath(path, root))
    except ValueError:
        rel = PurePosixPath(path.name)
    parts = [*rel.parts[:-1], rel.stem] if rel.stem != "__init__" else list(rel.parts[:-1])
    # only the identifiers nearest the file can be a module path (`src/my-server/pkg/x.py`: pkg.x)
    first = len(parts)
    while first > 0 and parts[first - 1].isidentifier():
        first -= 1
    parts = parts[first:]
    if not parts:
        return []
    return [".".join(parts[i:]) for i in range(len(parts))]


def import_screen(stems: set[str]) -> re.Pattern[bytes] | None:
    """The byte pattern of an import statement that names one of the targets' module ``stems``
    (group 1 or 2: the dotted module name from the first stem on, which :func:`imported_stems`
    splits: ``from pkg.tools.generation import …`` names ``pkg``, ``tools`` and ``generation``
    when each is a stem)."""
    if not stems:
        return None
    alt = b"|".join(re.escape(s.encode()) for s in sorted(stems))
    return re.compile(
        rb"from[ \t]+[\w.]*?\b((?:" + alt + rb")\b[\w.]*)|import[ \t]+\(?[\w.,\s]*?\b((?:" + alt + rb")\b[\w.]*)"
    )


def imported_stems(imp: re.Pattern[bytes], src: bytes, stems: dict[bytes, set[str]]) -> set[bytes]:
    """The ``stems`` the import statements of ``src`` name (:func:`import_screen`)."""
    return {part for a, b in imp.findall(src) for part in (a or b).split(b".") if part in stems}


@dataclass
class Target:
    path: Path
    names: list[str]  # module_names
    defs: set[str]
    exported: set[str] | None  # __all__


class Resolver:
    """Resolves the calls of the summarized callers to the targets' functions."""

    def __init__(self, root: Path, targets: list[Target], summaries: dict[Path, ModuleSummary]) -> None:
        self.root = root
        self.by_name: dict[str, list[Target]] = {}
        self.by_path = {t.path: t for t in targets}
        for t in targets:
            for n in t.names:
                self.by_name.setdefault(n, []).append(t)
        self.summaries = summaries
        self.packages: dict[str, Path] = {}  # dotted name -> a summarized package __init__.py
        for p in summaries:
            if p.name == "__init__.py":
                for n in module_names(p, root):
                    self.packages.setdefault(n, p)
        self._modules: dict[tuple[Path, str, int], Path | None] = {}

    def module(self, caller: Path, mod: str, level: int) -> Path | None:
        """The file a module reference in ``caller`` names (a target's or a summarized one's)."""
        key = (caller.parent, mod, level)
        if key not in self._modules:
            self._modules[key] = self._module(caller, mod, level)
        return self._modules[key]

    def _module(self, caller: Path, mod: str, level: int) -> Path | None:
        if level:
            base = caller.parent
            for _ in range(level - 1):
                base = base.parent
            stem = base.joinpath(*mod.split(".")) if mod else base
            for cand in (stem.with_suffix(".py") if mod else None, stem / "__init__.py"):
                if cand is not None and (cand in self.by_path or cand in self.summaries):
                    return cand
            return None
        found = self.by_name.get(mod)
        if found:
            # the nearest one: the longest directory prefix shared with the caller
            return max(found, key=lambda t: len(os.path.commonpath([t.path.parent, caller.parent]))).path
        return self.packages.get(mod)

    def name_in(self, caller: Path, mod: str, level: int, name: str, depth: int = 0) -> tuple[Target, str] | None:
        """The target function ``from mod import name`` binds, through one package re-export."""
        p = self.module(caller, mod, level)
        if p is None:
            return None
        t = self.by_path.get(p)
        if t is not None and (name in t.defs or any(d.startswith(f"{name}.") for d in t.defs)):
            return t, name  # a function, or a class with requesting methods
        s = self.summaries.get(p)
        if s is None or depth:
            return None
        for local, m, n, lv in s.imports:  # pkg/__init__.py: from .paths import album_dir
            if local == name and n is not None:
                return self.name_in(p, m, lv, n, depth + 1)
        for m, lv in s.stars:
            hit = self.name_in(p, m, lv, name, depth + 1)
            if hit is not None:
                return hit
        return None

    def incoming(self) -> dict[Path, dict[str, list[ExternalCall]]]:
        out: dict[Path, dict[str, list[ExternalCall]]] = {}
        for caller, s in self.summaries.items():
            scope = self._scope(caller, s)
            try:
                shown = PurePosixPath(os.path.relpath(caller, self.root)).as_posix()
            except ValueError:
                shown = caller.name
            found: list[tuple[str, ExternalCall]] = [
                (name, ExternalCall(shown, qual, role, kinds)) for qual, role, name, kinds in s.calls
            ]
            found += [
                (r.name, ExternalCall(shown, r.where, None, (), r.role, r.generation, r.registered_name, r.task))
                for r in s.registrations
            ]
            for name, call in found:
                target = self._resolve(name, caller, s, *scope)
                if target is not None:
                    out.setdefault(target[0].path, {}).setdefault(target[1], []).append(call)
        return out

    def _scope(
        self, caller: Path, s: ModuleSummary
    ) -> tuple[dict[str, tuple[Target, str]], dict[str, Target], dict[str, Target]]:
        """What ``caller``'s imports bind: target functions by local name, target modules by
        local name, and the names its star imports bring in."""
        functions: dict[str, tuple[Target, str]] = {}
        modules: dict[str, Target] = {}
        for local, mod, name, level in s.imports:
            if name is None:
                p = self.module(caller, mod, level)
                if p in self.by_path:
                    modules[local] = self.by_path[p]
                continue
            hit = self.name_in(caller, mod, level, name)
            if hit is not None:
                functions[local] = hit
                continue
            sub = f"{mod}.{name}" if mod else name
            p = self.module(caller, sub, level)
            if p in self.by_path:  # from pkg import paths
                modules[local] = self.by_path[p]
        starred: dict[str, Target] = {}
        for mod, level in s.stars:
            p = self.module(caller, mod, level)
            t = self.by_path.get(p) if p is not None else None
            if t is not None:
                names = t.defs | {d.partition(".")[0] for d in t.defs if "." in d}  # a class with requesting methods
                public = t.exported if t.exported is not None else {d for d in names if not d.startswith("_")}
                for d in public & names:
                    starred.setdefault(d, t)
        return functions, modules, starred

    @staticmethod
    def _resolve(
        name: str,
        caller: Path,
        s: ModuleSummary,
        functions: dict[str, tuple[Target, str]],
        modules: dict[str, Target],
        starred: dict[str, Target],
    ) -> tuple[Target, str] | None:
        """The target function a name as the caller spells it (``fn``, ``paths.fn``) is, if any."""
        owner, _, last = name.rpartition(".")
        head, _, cls = owner.rpartition(".")
        target: tuple[Target, str] | None = None
        if not owner and name in functions:
            target = functions[name]
        elif owner in modules and last in modules[owner].defs:
            target = modules[owner], last
        elif owner in functions and f"{functions[owner][1]}.{last}" in functions[owner][0].defs:
            target = functions[owner][0], f"{functions[owner][1]}.{last}"  # a method, through an instance
        elif head in modules and f"{cls}.{last}" in modules[head].defs:
            target = modules[head], f"{cls}.{last}"
        elif owner in modules and any(d.startswith(f"{last}.") for d in modules[owner].defs):
            target = modules[owner], last  # a class used other than to make an instance (`agents.Runner`)
        elif owner in starred and owner not in s.defs and f"{owner}.{last}" in starred[owner].defs:
            target = starred[owner], f"{owner}.{last}"
        elif not owner and name in starred and name not in s.defs:
            target = starred[name], name
        return None if target is None or target[0].path == caller else target


def digest(incoming: Incoming | None) -> str:
    """A stable digest of a module's slice (part of its cache key)."""
    if not incoming:
        return ""
    h = hashlib.blake2b(repr(sorted(incoming.items())).encode(), digest_size=8)
    return h.hexdigest()


@dataclass
class Pass:
    """The project pass between its two halves, :func:`start` and :func:`finish`: the summaries of
    the possible callers still to make (:func:`summarize_all`; the engine runs them in its worker
    pool), and those the cache had. ``result`` is set when nothing is left to do."""

    root: Path
    key: bytes  # the whole pass's cache key
    targets: list[Target] = field(default_factory=list)
    todo: list[tuple[Path, bytes, frozenset[str], bytes]] = field(default_factory=list)  # path, source, names, key
    cached: dict[Path, ModuleSummary] = field(default_factory=dict)
    order: list[Path] = field(default_factory=list)  # the callers considered, in the project's order
    result: dict[Path, Incoming] | None = None

    @property
    def receivers(self) -> set[Path]:
        """The checked files that may receive calls (every other file's slice is empty)."""
        return set(self.result) if self.result is not None else {t.path for t in self.targets}

    @property
    def jobs(self) -> list[tuple[bytes, frozenset[str]]]:
        """The arguments of :func:`summarize_all` for what is left to summarize."""
        return [(src, names) for _p, src, names, _k in self.todo]


def build(
    root: Path,
    sources: dict[Path, bytes],
    rest: list[Path],
    cache: Cache | None = None,
) -> dict[Path, Incoming]:
    """The :data:`Incoming` slice of each checked file that other modules call into, in this
    process (:func:`start`, :func:`summarize_all`, :func:`finish`)."""
    p = start(root, sources, rest, cache)
    return p.result if p.result is not None else finish(p, summarize_all(p.jobs), cache)


def start(root: Path, sources: dict[Path, bytes], rest: list[Path], cache: Cache | None = None) -> Pass:
    """The first half of the pass: the targets, and which files may call them. ``sources``: the
    checked files (absolute paths) and their bytes (the targets are those :data:`REQUEST_TOKENS`
    occur in); ``rest``: the project's other Python files (read here, e.g. when a pre-commit hook
    passes only the staged files). Summaries and the whole pass are read from ``cache``."""
    everything = dict(sources)
    for p in rest:
        if p not in everything:
            try:
                everything[p] = read_regular(p, 2_000_000)  # never a FIFO: it would block
            except (OSError, ValueError):
                continue
    # the whole pass is cached by the project's files and contents (a warm run reads it back)
    whole = hashlib.blake2b(digest_size=16, person=b"project-pass-3")
    whole.update(os.fsencode(root) + b"\0")
    for p in sorted(everything):
        whole.update(os.fsencode(p) + b"\0" + hashlib.blake2b(everything[p], digest_size=16).digest())
    out = Pass(root, whole.digest())
    hit = cache.get(out.key, incoming_from_json) if cache is not None else None
    if hit is not None:
        out.result = hit
        return out
    _callers(out, sources, everything, cache)
    if out.result is not None and cache is not None:
        cache.put(out.key, incoming_to_json(out.result))
    return out


def finish(p: Pass, summarized: list[ModuleSummary | None], cache: Cache | None = None) -> dict[Path, Incoming]:
    """The second half of the pass: ``summarized`` (:func:`summarize_all` of ``p.jobs``) cached,
    the calls resolved to the targets' functions."""
    got = dict(p.cached)
    for (path, _src, _names, key), s in zip(p.todo, summarized):
        if s is not None:  # a file ``ast`` cannot parse calls nothing
            got[path] = s
            if cache is not None:
                cache.put(key, summary_to_json(s))
    summaries = {path: got[path] for path in p.order if path in got}
    resolved = Resolver(p.root, p.targets, summaries).incoming()
    result = {path: {name: tuple(calls) for name, calls in fns_.items()} for path, fns_ in resolved.items()}
    if cache is not None:
        cache.put(p.key, incoming_to_json(result))
    return result


class _Mentions:
    """How a possible caller mentions a target's name, read off its bytes: a call of it (not a
    method of the caller's own object), a call of a ``Class.method`` through an instance, a use as
    a value. One pattern per name, each with a literal prefix (fast), made when a file first needs it."""

    def __init__(self) -> None:
        self.calls_of: dict[str, re.Pattern[bytes]] = {}
        self.values_of: dict[str, re.Pattern[bytes]] = {}

    def calls(self, name: str, src: bytes) -> bool:
        rx = self.calls_of.get(name)
        if rx is None:
            rx = self.calls_of[name] = re.compile(re.escape(name.encode()) + rb"[ \t]*\(")
        for m in rx.finditer(src):
            before = src[max(0, m.start() - 5) : m.start()]
            if not (before[-1:].isalnum() or before[-1:] == b"_" or before.endswith((b"self.", b"cls."))):
                return True
        return False

    def method_called(self, name: str, src: bytes) -> bool:
        """``Class.method``: the class is called (an instance made) and a method of that name."""
        cls, _, meth = name.partition(".")
        return (
            bool(meth)
            and self.calls(cls, src)
            and re.search(rb"\.[ \t]*" + re.escape(meth.encode()) + rb"[ \t]*\(", src) is not None
        )

    def passed(self, name: str, src: bytes) -> bool:
        """``name`` is used as a value (``server.tool()(name)``, ``[name, …]``) outside an import line."""
        rx = self.values_of.get(name)
        if rx is None:
            rx = self.values_of[name] = re.compile(rb"(?<![\w])" + re.escape(name.encode()) + rb"\b(?![ \t]*\()")
        for m in rx.finditer(src):
            line = src[src.rfind(b"\n", 0, m.start()) + 1 : m.start()].lstrip()
            if not line.startswith((b"from ", b"import ", b"def ", b"async def ")):
                return True
        return False


def _callers(out: Pass, sources: dict[Path, bytes], everything: dict[Path, bytes], cache: Cache | None) -> None:
    """Fill ``out`` with the targets and the files that may call them (``out.result`` is set, to
    nothing, when no file can)."""
    root = out.root
    found = out.targets
    for p in (p for p, src in sources.items() if is_target(src)):
        dotted_names = module_names(p, root)
        if not dotted_names:
            continue
        defs, exported = target_names(sources[p])
        if defs:
            found.append(Target(p, dotted_names, defs, exported))
    by_stem: dict[bytes, set[str]] = {}  # a module's name, and its package's (a re-export)
    for t in found:
        for stem in {t.names[-1], *t.names[-2].split(".")[-2:-1]} if len(t.names) > 1 else {t.names[-1]}:
            by_stem.setdefault(stem.encode(), set()).update(t.defs)
    imp = import_screen({stem.decode() for stem in by_stem})
    if imp is None:
        out.result = {}
        return
    seen = _Mentions()

    for p, src in everything.items():
        if _is_test(p):
            continue  # tests call helpers, but never serve a client: not a caller that matters here
        try:
            str(p).encode("utf-8")
        except UnicodeEncodeError:
            continue  # a file name that is not valid UTF-8 cannot be imported, nor named in a message
        stems = imported_stems(imp, src, by_stem)
        if not stems:
            continue
        # a method (`Class.method`) is mentioned when its class is and the method is called
        names = {d for stem in stems for d in by_stem.get(stem, ()) if d.partition(".")[0].encode() in src}
        # a package's __init__ re-exports without calling; a file that may register a function
        # names it without calling it (`server.tool(name="x")(fn)`)
        if p.name != "__init__.py":
            registers = names and any(tok in src for tok in REGISTER_TOKENS)
            names = {
                d
                for d in names
                if seen.method_called(d, src) or seen.calls(d, src) or (registers and seen.passed(d, src))
            }
        if not names:
            continue
        h = hashlib.blake2b(src, digest_size=16, person=SUMMARY_FORMAT[:16])
        h.update(b"\0" + ",".join(sorted(names)).encode())
        key = h.digest()
        out.order.append(p)
        s = cache.get(key, summary_from_json) if cache is not None else None
        if s is not None:
            out.cached[p] = s
        else:
            out.todo.append((p, src, frozenset(names), key))


# -- the result cache holds JSON data (mcpmigrate.cache): what is stored here, and read back ----------
_OPT = (str, type(None))


def summary_to_json(s: ModuleSummary) -> dict[str, Any]:
    """A :class:`ModuleSummary` as JSON data (the result cache)."""
    return {
        "imports": [list(i) for i in s.imports],
        "stars": [list(i) for i in s.stars],
        "defs": sorted(s.defs),
        "calls": [[where, role, name, [list(k) for k in kinds]] for where, role, name, kinds in s.calls],
        "registrations": [[r.where, r.role, r.name, r.generation, r.registered_name, r.task] for r in s.registrations],
    }


def summary_from_json(data: Any) -> ModuleSummary:
    """The summary :func:`summary_to_json` stored; raises ``ValueError``/``KeyError`` on anything else."""
    calls = []
    for where, role, name, kinds in rows(data["calls"], str, _OPT, str, list):
        calls.append((where, role, name, _kinds(kinds)))
    return ModuleSummary(
        imports=rows(data["imports"], str, str, _OPT, int),
        stars=rows(data["stars"], str, int),
        defs={expect(d, str) for d in expect(data["defs"], list)},
        calls=calls,
        registrations=[Registration(*r) for r in rows(data["registrations"], str, str, str, _OPT, _OPT, _OPT)],
    )


def incoming_to_json(result: dict[Path, Incoming]) -> dict[str, Any]:
    """The project pass's slices as JSON data (the result cache)."""
    return {
        os.fsdecode(path): {
            name: [
                [
                    c.path,
                    c.caller,
                    c.role,
                    [list(k) for k in c.kinds],
                    c.registers,
                    c.generation,
                    c.registered_name,
                    c.task,
                ]
                for c in calls
            ]
            for name, calls in slice_.items()
        }
        for path, slice_ in result.items()
    }


def incoming_from_json(data: Any) -> dict[Path, Incoming]:
    """The slices :func:`incoming_to_json` stored; raises ``ValueError``/``KeyError`` on anything else."""
    out: dict[Path, Incoming] = {}
    for path, slice_ in expect(data, dict).items():
        mine: Incoming = {}
        for name, calls in expect(slice_, dict).items():
            mine[name] = tuple(
                ExternalCall(p, caller, role, _kinds(kinds), registers, gen, registered, task)
                for p, caller, role, kinds, registers, gen, registered, task in rows(
                    calls, str, str, _OPT, list, _OPT, _OPT, _OPT, _OPT
                )
            )
        out[Path(path)] = mine
    return out


def _kinds(value: list) -> tuple[tuple[int | str, str], ...]:
    return tuple(rows(value, (int, str), str))
