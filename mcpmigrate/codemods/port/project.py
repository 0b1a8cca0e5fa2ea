"""The port is a project-wide decision (``fix --target-sdk mcp2`` or ``fastmcp4``): every file of
the project is ported, or none is written and the run names the files that block it; when it goes
through, the project's requirement of the ported SDK moves to the target's
(:data:`mcpmigrate.pins.PORT_PINS`): ``mcp>=2.3,<3`` (the first 2.x with every API the port
targets: ``Server(on_…=…)``, ``MCPServer``, ``MCPError``; mcp 2.3's ``InputRequiredResult`` is what
the interim fix needs next), or ``fastmcp>=4.2,<5`` (fastmcp 4.2: the guard pattern the interim
fix writes, on mcp 2.3).

A file blocks the port when a breaking port finding (MCP5xx) is left in it — a manual site, or
a fix that was not applied — or when its fix could not be verified: on mcp 2.x that module would
not import or would fail where mcp 1.x served. Advisory port findings (code nothing reaches)
do not block, and neither does anything left in a test module, a script or an example (the served
code does not import them): it stays reported with what to change. On fastmcp 4 a finding left at a call of a ``Context`` method fastmcp 4 removed
(``ctx.sample``, ``ctx.sample_step``, ``ctx.list_roots``, ``ctx.send_*_list_changed``: reported by
the roots, sampling and notification rules, not again by the port) blocks too: that call would
fail on every era (fastmcp docs/getting-started/upgrading/from-fastmcp-3.mdx, “Protocol Version
Support”).

The requirement is rewritten in the files :mod:`mcpmigrate.pins` reads: ``[project].dependencies``
and the poetry tables of ``pyproject.toml``, ``requirements*.txt``, ``setup.cfg``'s
``install_requires`` — every quoted or listed requirement of the package (extras and markers kept).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath

from mcpmigrate.analysis.project import unserved
from mcpmigrate.codemods.port import callers, elsewhere
from mcpmigrate.config import PORT_RULE_PREFIX
from mcpmigrate.model import FileError, Finding, Safety, Severity
from mcpmigrate.pins import AT_LEAST, PORT_PINS, project_dir, project_files, project_pins
from mcpmigrate.surfaces import CONTEXT_NAMES

PIN = PORT_PINS["mcp2"][1]
# Packages released in lockstep with the target's, re-pinned with it: ``fastmcp`` is a thin wrapper
# that requires ``fastmcp-slim`` at its own version.
ALSO_PINNED = {"fastmcp4": ("fastmcp-slim",)}
# What each target is called in the messages of the port.
TARGET_NAMES = {"mcp2": "mcp 2.x", "fastmcp4": "fastmcp 4"}


@dataclass(frozen=True)
class Patterns:
    """The requirement patterns of one package (``mcp``, ``fastmcp``): not ``mcp-foo``/``mcp_foo``,
    its extras, its specifier (up to a marker or the end)."""

    quoted: re.Pattern[str]
    poetry: re.Pattern[str]
    line: re.Pattern[str]


@cache
def patterns(package: str) -> Patterns:
    req = rf"(?P<name>{re.escape(package)})(?P<extras>\[[^\]]*\])?(?P<ws>\s*)(?P<spec>(?:[<>=!~]=?|===)[^;\"'\n#]*?)?"
    return Patterns(
        re.compile(r"(?P<q>[\"'])" + req + r"(?P<rest>\s*(?:;(?:(?!(?P=q))[^\n])*)?)(?P=q)"),
        re.compile(rf"^(?P<key>\s*{re.escape(package)}\s*=\s*)(?P<q>[\"'])(?P<spec>[^\"']*)(?P=q)", re.M),
        re.compile(r"^(?P<lead>[ \t]*)" + req + r"(?P<rest>[ \t]*(?:[;#].*)?)$", re.M),
    )


_MCP = patterns("mcp")
QUOTED, POETRY, LINE = _MCP.quoted, _MCP.poetry, _MCP.line
HEADER = re.compile(r"^(\[[^\]\n]+\]+[ \t]*)$", re.M)
POETRY_TABLE = re.compile(r"\[tool\.poetry\.(?:group\.[^.\]]+\.)?dependencies\]")
# A module that imports the ported package (``fastmcp``; ``mcp`` for mcp2).
_IMPORTS = {p: re.compile(rf"^[ \t]*(?:from|import)[ \t]+{p}\b", re.M) for p, _pin in PORT_PINS.values()}
# A call of a fastmcp Context method fastmcp 4 removed, at the start of a finding's span.
REMOVED_ON_FASTMCP4 = re.compile(
    r"(?P<recv>[\w.]*)\.(?P<method>sample|sample_step|list_roots|send_(?:tool|resource|prompt)_list_changed)\s*\("
)


@dataclass
class PinChange:
    path: Path
    original: bytes
    new: bytes
    requirement: str = f"mcp{PIN}"  # what the requirement now says (the port's target)
    hashes: str = ""  # the hashes the re-pin dropped, and what regenerates them (:func:`hash_note`)


# the command line pip-compile / uv pip compile write into the header of what they generate
COMPILED_BY = re.compile(r"^#[ \t]+((?:uv pip compile|pip-compile)\b[^\n]*)$", re.M)
# a requirements line continued onto the next (``mcp==1.27.0 \``), and a ``--hash=…`` option
_CONTINUED = re.compile(r"\\[ \t]*\r?$")
_HASH = re.compile(r"[ \t]*--hash[ =]\S+")


def blockers(results: list, errors: list[FileError], target: str = "mcp2") -> list[FileError]:
    """One error per file that blocks the port (see the module docstring). A test module, a script
    or an example (:func:`~mcpmigrate.analysis.project.unserved`) never blocks the port of the served
    code: what is left in it stays reported, with what to change."""
    out = []
    name = TARGET_NAMES[target]
    failed = {e.path: e.message for e in errors if e.message.startswith("fix not applied")}
    for res in results:
        if unserved(PurePosixPath(res.display)):
            continue
        removed = _removed_calls(res) if target == "fastmcp4" else {}
        left = sorted(
            (f for f in res.findings if _blocks(f) or (f.line, f.column) in removed),
            key=lambda f: (f.manual is None, f.sort_key),
        )
        if left:
            f = left[0]
            why = f.manual or (
                "its fix needs --unsafe-fixes (its review note says what changes)"
                if f.fix is not None and f.fix.safety is Safety.UNSAFE
                else "its fix was not applied"
            )
            if (f.line, f.column) in removed and "does not exist in fastmcp 4" not in why:
                why = f"`{removed[(f.line, f.column)]}` is gone on {name} (it fails on every era): {why}"
            more = f" (and {len(left) - 1} more)" if len(left) > 1 else ""
            disk = on_disk(res, f)  # nothing is written: the position in the file as it is
            where = f"at line {disk.line}" if disk is not None else "in the text the other fixes would write"
            out.append(
                FileError(
                    res.display,
                    f"blocks the port to {name}: {f.rule} {where}: {why}{more}; nothing was written",
                    disk.line if disk is not None else None,
                    disk.column if disk is not None else None,
                )
            )
        elif res.display in failed and any(f.rule.startswith(PORT_RULE_PREFIX) for f in res.findings + res.fixed):
            out.append(FileError(res.display, f"blocks the port to {name}: {failed[res.display]}; nothing was written"))
    return out


def _blocks(f: Finding) -> bool:
    return f.rule.startswith(PORT_RULE_PREFIX) and f.severity is not Severity.ADVISORY


def _removed_calls(res) -> dict[tuple[int, int], str]:
    """``(line, column) → ctx.<method>`` of the findings left in ``res`` at a call of a Context
    method fastmcp 4 removed: the interim fix's own refusal says so (it typed the receiver), or, in
    a module that imports fastmcp, the finding's span starts with such a call on a receiver named
    like a context (``ctx``, ``context``: read from the text the findings are positioned in, the
    rewritten text when there is one, else the file)."""
    if not res.findings:
        return {}
    source = res.new_source
    if source is None:
        try:
            source = Path(res.display).read_bytes()
        except OSError:
            return {}
    text = source.decode("utf-8", "replace")
    lines = text.splitlines()
    imports_fastmcp = _IMPORTS["fastmcp"].search(text) is not None
    out = {}
    for f in res.findings:
        if f.severity is Severity.ADVISORY or not 0 < f.line <= len(lines):
            continue
        m = REMOVED_ON_FASTMCP4.match(lines[f.line - 1], f.column - 1)
        if m is None:
            continue
        said = f.manual is not None and "does not exist in fastmcp 4" in f.manual
        if said or (imports_fastmcp and m["recv"].rsplit(".", 1)[-1] in CONTEXT_NAMES):
            out[(f.line, f.column)] = f"ctx.{m['method']}"
    return out


def on_disk(res, f: Finding) -> Finding | None:
    """The finding of the file as read (``res.checked``) that ``f``, left in the rewritten text,
    is: the same rule and message, in order; ``f`` itself when nothing was rewritten; None when
    the rewrite made it (the file on disk has no such site)."""
    if res.new_source is None or res.checked is None:
        return f
    same = [g for g in res.findings if (g.rule, g.message) == (f.rule, f.message)]
    before = [g for g in res.checked if (g.rule, g.message) == (f.rule, f.message)]
    i = next(k for k, g in enumerate(same) if g is f)
    return before[i] if i < len(before) else None


def hold(results: list) -> None:
    """Write nothing: every rewritten file keeps its original text and the findings it was checked
    with, at their positions on disk (not those of the text that is not written), and the sites
    only a fix made reachable (MCP514 on the constructor MCP511's rewrite makes fastmcp 4's): they
    have no position on disk, so they keep the rewritten text's."""
    for res in results:
        if res.new_source is not None:
            if res.checked is None:
                found = res.findings + res.fixed
            else:
                found = res.checked + [f for f in res.findings if on_disk(res, f) is None]
            res.findings = sorted(found, key=lambda f: f.sort_key)
            res.fixed = []
            res.new_source = None


def pin_changes(roots: list[Path], target: str = "mcp2") -> list[PinChange]:
    """The rewrites of the target's requirement in the dependency files of each project directory
    in ``roots``."""
    package, pin = PORT_PINS[target]
    out = []
    for path in [p for root in roots for p, _kind in project_files(root)]:
        original = path.read_bytes()
        try:
            text = original.decode("utf-8")
        except UnicodeDecodeError:
            continue
        new, changed = text, []
        for name in (package, *ALSO_PINNED.get(target, ())):
            after = repin(new, path.name, name, pin)
            if after != new:
                new = after
                changed.append(f"{name}{pin}")
        if changed:
            note = hash_note(path, text, new) if path.name.endswith(".txt") else ""
            out.append(PinChange(path, original, new.encode("utf-8"), ", ".join(changed), note))
    return out


Spec = str | Callable[[str], str]  # the new specifier, or a function of the old one ("" when none)


def _new(pin: Spec, old: str | None) -> str:
    return pin if isinstance(pin, str) else pin((old or "").strip())


def _spaced(pin: Spec, m: re.Match[str]) -> str:
    """The new specifier of a requirements line; a function's keeps the space written before the old one."""
    if isinstance(pin, str) or m["spec"] is None:
        return _new(pin, m["spec"]) + (m["ws"] if m["spec"] is None else "")
    return m["ws"] + _new(pin, m["spec"])


def repin(text: str, name: str, package: str = "mcp", pin: Spec = PIN) -> str:
    """``text`` with every ``package`` requirement pinned to ``pin`` (default: ``mcp``, :data:`PIN`;
    a function: of the requirement's specifier, as MCP521's cap)."""
    pats = patterns(package)
    if name.endswith(".txt"):
        text = _repin_hashed(text, package, pin)
    if name.endswith(".txt") or name == "setup.cfg":
        # a continued line (``… \\``) is :func:`_repin_hashed`'s: its backslash is no specifier
        text = pats.line.sub(
            lambda m: (
                m[0]
                if _CONTINUED.search(m[0])
                else f"{m['lead']}{package}{m['extras'] or ''}{_spaced(pin, m)}{m['rest']}"
            ),
            text,
        )
    if name != "setup.cfg" and not name.endswith(".txt"):
        parts = HEADER.split(text)  # [before the first table, header, body, header, body, …]
        for i in range(1, len(parts), 2):
            header, body = parts[i].strip(), parts[i + 1]
            if POETRY_TABLE.match(header):
                body = pats.poetry.sub(lambda m: f"{m['key']}{m['q']}{_new(pin, m['spec'])}{m['q']}", body)
            elif header in ("[project]", "[project.optional-dependencies]", "[dependency-groups]"):
                body = _repin_arrays(body, "dependencies" if header == "[project]" else None, package, pin)
            parts[i + 1] = body
        text = "".join(parts)
    return text


def _repin_hashed(text: str, package: str, pin: Spec) -> str:
    """``text`` (a requirements file) with each ``package`` requirement continued onto more lines
    (``mcp==1.27.0 \\`` then ``    --hash=sha256:…`` lines: pip-compile ``--generate-hashes``)
    re-pinned on one line: its hashes were for the old files and cannot stay (pip's hash-checking
    mode needs ``==`` and a hash for every requirement: the file has to be regenerated, which
    :func:`hash_note` says). Other continued options stay; a requirement whose specifier does not
    change is left as it is."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not _CONTINUED.search(line):
            out.append(line)
            i += 1
            continue
        block = [line]
        while _CONTINUED.search(block[-1]) and i + len(block) < len(lines):
            block.append(lines[i + len(block)])
        i += len(block)
        head = _CONTINUED.sub("", _HASH.sub("", block[0].rstrip("\r\n")))
        m = patterns(package).line.fullmatch(head.rstrip())
        if m is None:
            out.extend(block)
            continue
        new = f"{m['lead']}{package}{m['extras'] or ''}{_spaced(pin, m)}{m['rest']}"
        if new == head.rstrip():
            out.extend(block)
            continue
        kept = [_CONTINUED.sub("", _HASH.sub("", b.rstrip("\r\n"))).rstrip() for b in block[1:]]
        kept = [k for k in kept if k.strip()]
        ending = line[len(line.rstrip("\r\n")) :] or "\n"
        if kept:
            out.append(new.rstrip() + " \\" + ending)
            out.extend(k + (" \\" if j < len(kept) - 1 else "") + ending for j, k in enumerate(kept))
        else:
            out.append(new.rstrip() + ending)
    return "".join(out)


def hash_note(path: Path, original: str, new: str) -> str:
    """What the re-pin of the requirements file at ``path`` did to its hashes (``""``: none were
    dropped): pip refuses the file until it is regenerated, with the command its header names."""
    if original.count("--hash") == new.count("--hash"):
        return ""
    m = COMPILED_BY.search(original)
    how = f"`{m[1].strip()}`" if m else "the command that generated it"
    return (
        f"; {path.name} pinned it with hashes, which were for the old version's files and were dropped: pip's "
        f"hash-checking mode refuses the file (it needs `==` and hashes on every requirement) until it is "
        f"regenerated with {how}, once the requirement is re-pinned where that command reads it"
    )


ARRAY_KEY = re.compile(r"^[ \t]*(?P<key>[\w.\"'-]+)[ \t]*=[ \t]*\[", re.M)


def _repin_arrays(body: str, only: str | None, package: str, pin: Spec) -> str:
    """The quoted ``package`` requirements inside the arrays of a table (``only``: of that key)."""
    quoted = patterns(package).quoted
    out, pos = [], 0
    for m in ARRAY_KEY.finditer(body):
        if m.start() < pos or (only is not None and m["key"] != only):
            continue
        end = _array_end(body, m.end())
        out.append(body[pos : m.end()])
        out.append(
            quoted.sub(
                lambda q: f"{q['q']}{package}{q['extras'] or ''}{_new(pin, q['spec'])}{q['rest']}{q['q']}",
                body[m.end() : end],
            )
        )
        pos = end
    out.append(body[pos:])
    return "".join(out)


def _array_end(text: str, start: int) -> int:
    """The index of the ``]`` closing the array whose items start at ``start`` (quotes and
    nested brackets — extras such as ``mcp[cli]`` — are skipped)."""
    depth, quote, i = 1, "", start
    while i < len(text):
        c = text[i]
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return i
        elif c == "#":
            nl = text.find("\n", i)
            i = len(text) if nl < 0 else nl
            continue
        i += 1
    return len(text)


def settle(
    run: object,
    root: Path,
    target: str = "mcp2",
    paths: dict[str, Path] | None = None,
    sources: dict[Path, bytes] | None = None,
) -> list[PinChange]:
    """The project step of ``fix --target-sdk`` on a finished run (``engine.RunResult``):
    when a file blocks the port, nothing is written (each blocking file is reported as an
    error); otherwise the requirement changes to write with the ported files.

    The requirement is rewritten where :mod:`mcpmigrate.pins` reads the pins of each file the port
    concerns: the nearest directory above it (``paths``: display → path) that has a dependency file
    — each server of a monorepo, or the project named on the command line from elsewhere — else
    ``root`` (the configuration's directory); ``sources`` are the files' bytes (absolute path →
    bytes) the run read. A file the port concerns is one it rewrote, or one
    that imports the ported SDK while its project's declared requirement still admits the old
    generation: code that needs no rewrite (fastmcp 2.x/3.x code fastmcp 4 runs as is) is ported
    by the requirement alone."""
    results, errors = run.results, run.errors  # type: ignore[attr-defined]
    blocking = blockers(results, errors, target) + _unparsed(errors, target)
    if not blocking:  # the calls other modules make into functions that take the context now
        blocking = callers.thread(results, paths or {}, sources or {}, TARGET_NAMES[target])
        blocking += elsewhere.settle(results, paths or {}, sources or {}, TARGET_NAMES[target])
    if blocking:
        hold(results)
        errors.extend(blocking)
        return []
    roots: dict[Path, None] = {}  # ordered: the first ported file's project first
    for res in results:
        path = (paths or {}).get(res.display)
        if any(f.rule.startswith(PORT_RULE_PREFIX) for f in res.fixed):
            found = project_dir(path.parent) if path is not None else None
            roots[found or root] = None
        elif path is not None and _imports_sdk((sources or {}).get(path), target):
            found = project_dir(path.parent)
            if found is not None and found not in roots and _admits_old(found, target):
                roots[found] = None
    return pin_changes(list(roots), target) if roots else []


def _imports_sdk(source: bytes | None, target: str) -> bool:
    """The file (its bytes, as the run read them) imports the package the port re-pins
    (``fastmcp``; ``mcp`` for mcp2)."""
    if source is None:
        return False
    return _IMPORTS[PORT_PINS[target][0]].search(source.decode("utf-8", "replace")) is not None


def _admits_old(directory: Path, target: str) -> bool:
    """A declared requirement of the ported package in ``directory``'s project admits the
    generation before the target (``fastmcp==2.7.0``, ``fastmcp>=3.2.0``): the port moves it."""
    package = PORT_PINS[target][0]
    return any(p.package == package and p.side() != AT_LEAST for p in project_pins(directory).pins)


def _unparsed(errors: list[FileError], target: str = "mcp2") -> list[FileError]:
    """Files that could not be read, parsed or fixed and mention mcp: the port cannot vouch for them."""
    out = []
    for e in list(errors):
        if e.message.startswith(("cannot parse", "internal error", "cannot decode")):
            try:
                mentions = b"mcp" in Path(e.path).read_bytes()
            except OSError:
                mentions = True
            if mentions:
                out.append(
                    FileError(e.path, f"blocks the port to {TARGET_NAMES[target]}: {e.message}; nothing was written")
                )
    return out
