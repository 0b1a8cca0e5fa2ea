"""The content-keyed result cache (README, result cache): a warm run reuses results without
parsing, and any change of content, configuration or tool build invalidates them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mcpmigrate.engine as E
from mcpmigrate import cache as C
from mcpmigrate.config import Config
from mcpmigrate.engine import Options, run
from tests.helpers import MCP101_SERVER, MCP104_FIXED, MCP104_SOURCE

PLAIN = "import os\n\n\ndef f():\n    return os.sep\n"


@pytest.fixture(autouse=True)
def cache_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MCPMIGRATE_NO_CACHE", raising=False)


def _project(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "caps.py").write_text(MCP104_SOURCE)
    (root / "server.py").write_text(MCP101_SERVER)
    (root / "remote.py").write_text('from mcp.types import Root\n\nREPO = Root(uri="https://x.org/r", name="r")\n')
    (root / "broken.py").write_text("import mcp\ndef f(:\n    ctx.session.list_roots()\n")
    for i in range(12):
        (root / f"plain{i}.py").write_text(PLAIN + f"# list_roots {i}\n")
    return root


def _check(root: Path, config: Config | None = None, **kw):
    return run([root], config or Config(root=root), Options(mode="check", jobs=1, **kw), cwd=root)


def _summary(res) -> str:
    return json.dumps(
        {
            "findings": [f.to_json() for f in res.findings],
            "errors": sorted((e.path, e.message) for e in res.errors),
            "unused": res.unused_suppressions,
            "files": res.files_checked,
        },
        sort_keys=True,
    )


def _no_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*a, **k):
        raise AssertionError("a cached file was processed again")

    monkeypatch.setattr(E, "prefilter_regex", boom)
    monkeypatch.setattr(E, "process_file", boom)


def test_warm_run_equals_cold_run_without_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path / "p")
    cold = _check(root)
    assert (root / C.CACHE_DIR_NAME / "CACHEDIR.TAG").is_file()
    assert (root / C.CACHE_DIR_NAME / ".gitignore").read_text().strip().endswith("*")
    with monkeypatch.context() as m:
        _no_parse(m)
        warm = _check(root)
    assert _summary(warm) == _summary(cold)
    assert {f.rule for f in warm.findings} >= {"MCP101", "MCP104", "MCP105"}


def test_no_cache_neither_reads_nor_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path / "p")
    _check(root, no_cache=True)
    assert not (root / C.CACHE_DIR_NAME).exists()
    monkeypatch.setenv("MCPMIGRATE_NO_CACHE", "1")
    _check(root)
    assert not (root / C.CACHE_DIR_NAME).exists()


def test_content_change_invalidates(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    _check(root)
    (root / "plain3.py").write_text(MCP104_SOURCE)
    (root / "caps.py").write_text(PLAIN)
    res = _check(root)
    assert sorted((f.path, f.rule) for f in res.findings if f.rule == "MCP104") == [("plain3.py", "MCP104")]


def test_config_and_paths_are_part_of_the_key(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    full = _check(root)
    only = run([root], Config(root=root), Options(mode="check", jobs=1, select=["MCP104"]), cwd=root)
    assert {f.rule for f in only.findings} == {"MCP104"}
    ignored = _check(root, Config(root=root, per_file_ignores={"caps.py": ["MCP104"]}))
    assert "caps.py" not in {f.path for f in ignored.findings}
    # the same content at another path: reported at its own path
    (root / "copy.py").write_bytes((root / "caps.py").read_bytes())
    again = _check(root)
    assert sorted(f.path for f in again.findings if f.rule == "MCP104") == ["caps.py", "copy.py"]
    assert _summary(_check(root, no_cache=True)) == _summary(again)
    assert len(full.findings) + 1 == len(again.findings)


def test_tool_build_is_part_of_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path / "p")
    _check(root)
    monkeypatch.setattr(C, "_build_id", lambda: "other-build")
    with monkeypatch.context() as m:
        calls = []
        real = E.prefilter_regex
        m.setattr(E, "prefilter_regex", lambda rules: calls.append(1) or real(rules))
        _check(root)
    assert calls, "results of another build were reused"


def test_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    cold = _check(root)
    for p in (root / C.CACHE_DIR_NAME).rglob("*.json"):
        p.write_bytes(b"\x80\x04garbage")
    assert _summary(_check(root)) == _summary(cold)


def test_fix_with_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """fix reuses clean results, fixes what is fixable, and caches the fixed content's result."""
    root = _project(tmp_path / "p")
    _check(root)
    res = run([root], Config(root=root), Options(mode="fix", jobs=1), cwd=root)
    assert (root / "caps.py").read_text() == MCP104_FIXED
    assert "caps.py" in {r.display for r in res.changed}
    with monkeypatch.context() as m:
        _no_parse(m)
        warm = _check(root)
    assert _summary(warm) == _summary(_check(root, no_cache=True))
    assert "caps.py" not in {f.path for f in warm.findings}


def test_unwritable_cache_dir_is_skipped(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    (root / C.CACHE_DIR_NAME).write_text("not a directory")
    res = _check(root)
    assert not res.errors or all("cannot parse" in e.message for e in res.errors)
