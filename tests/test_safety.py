"""Never corrupt code, never lose a file (docs/architecture.md): untouched files stay byte-identical,
encoding/BOM/newlines/mode survive a fix, writes are atomic, and bad input is reported with its
path and reason while the rest of the tree is still checked."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import mcpmigrate.files as F
from tests.helpers import MCP104_FIXED, MCP104_SOURCE, cli, findings_of

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0

NON_MCP = [
    "import os\n\n\ndef main():\n    return os.getcwd()\n",
    "# -*- coding: utf-8 -*-\nNAME = 'café'\r\nVALUE = 1\r\n",  # mixed newlines
    "\ufeffx = 1\n",  # BOM
    "def f(:\n    pass\n",  # broken, but no MCP token: never parsed
    "",  # empty
    "x = 1",  # no final newline
    "# list_roots is mentioned in a comment only\nvalue = 'listChanged'\n",  # token, no finding
    "\tif True:\n\t\tpass\n",  # bad indentation, no token
]


def _snapshot(root: Path) -> dict[str, tuple[bytes, int, int]]:
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            st = p.stat()
            out[str(p.relative_to(root))] = (p.read_bytes(), st.st_mtime_ns, stat.S_IMODE(st.st_mode))
    return out


def _tmp_leftovers(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.endswith(".mcpmigrate.tmp") or ".tmp" in p.name]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A project with one fixable MCP file, one MCP file without a fix, and many other files
    (enough to go through the process pool)."""
    root = tmp_path / "proj"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "server.py").write_bytes(MCP104_SOURCE.encode())
    (root / "pkg" / "remote.py").write_text(
        'from mcp.types import Root\n\nREPO = Root(uri="https://x.org/r", name="r")\n'
    )
    for i in range(40):
        d = root / "pkg" / ("sub" if i % 2 else "")
        (d / f"mod{i:02d}.py").write_bytes(NON_MCP[i % len(NON_MCP)].encode("utf-8"))
    (root / "README.md").write_text("list_roots\n")
    (root / "data.txt").write_bytes(b"\x00\x01")
    return root


def test_fix_leaves_files_without_findings_byte_identical(tree: Path) -> None:
    before = _snapshot(tree)
    res = cli(["fix", "--unsafe-fixes", "--output-format", "json", "."], tree)
    assert res.json["errors"] == [], str(res)
    assert res.json["files_checked"] == 42
    assert res.json["changed_files"] == ["pkg/server.py"]
    after = _snapshot(tree)
    assert set(after) == set(before)  # no file created or removed (no temp file left behind)
    for name, (data, mtime, mode) in before.items():
        if name == "pkg/server.py":
            continue
        assert after[name] == (data, mtime, mode), f"{name} was touched"
    assert after["pkg/server.py"][0] == MCP104_FIXED.encode()
    assert findings_of(res) == [("MCP105", 3)]
    # a second run changes nothing at all
    again = _snapshot(tree)
    res2 = cli(["fix", "--unsafe-fixes", "--output-format", "json", "."], tree)
    assert res2.json["changed_files"] == []
    assert _snapshot(tree) == again


def test_check_never_writes(tree: Path) -> None:
    before = _snapshot(tree)
    res = cli(["check", "."], tree)
    assert res.exit_code == 1
    assert _snapshot(tree) == before


def test_file_mode_preserved(tmp_path: Path) -> None:
    target = tmp_path / "server.py"
    target.write_text(MCP104_SOURCE)
    target.chmod(0o751)
    res = cli(["fix", "server.py"], tmp_path)
    assert res.exit_code == 0, str(res)
    assert target.read_text() == MCP104_FIXED
    assert stat.S_IMODE(target.stat().st_mode) == 0o751
    assert _tmp_leftovers(tmp_path) == []


@pytest.mark.parametrize(
    "name,encode",
    [
        ("crlf", lambda s: s.replace("\n", "\r\n").encode()),
        ("bom", lambda s: b"\xef\xbb\xbf" + s.encode()),
        ("bom_crlf", lambda s: b"\xef\xbb\xbf" + s.replace("\n", "\r\n").encode()),
        (
            "latin1_cookie",
            lambda s: ("# -*- coding: latin-1 -*-\n# café, naïve\n" + s + "NAME = 'Zoë'\n").encode("latin-1"),
        ),
        (
            "cp1252_cookie_crlf",
            lambda s: ("# coding: cp1252\r\n" + s.replace("\n", "\r\n") + "EURO = '€'\r\n").encode("cp1252"),
        ),
        ("utf8_nonascii", lambda s: ("# ünïcode\n" + s + "X = '日本'\n").encode()),
        ("trailing_ws_no_final_newline", lambda s: s.replace("\n\n", "\n   \n").rstrip("\n").encode()),
    ],
)
def test_encoding_bom_newlines_survive_a_fix(tmp_path: Path, name: str, encode) -> None:
    original = encode(MCP104_SOURCE)
    expected = encode(MCP104_FIXED)
    assert original != expected
    target = tmp_path / f"{name}.py"
    target.write_bytes(original)
    res = cli(["fix", "--output-format", "json", target.name], tmp_path)
    assert res.json["errors"] == [], str(res)
    assert res.json["changed_files"] == [target.name]
    assert target.read_bytes() == expected
    # --diff shows the change in the file's own encoding
    target.write_bytes(original)
    diff = cli(["fix", "--diff", target.name], tmp_path)
    assert "+caps = ClientCapabilities(roots=RootsCapability())" in diff.stdout
    assert "\ufffd" not in diff.stdout
    assert target.read_bytes() == original


def test_bad_input_is_reported_and_the_rest_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "good.py").write_text(MCP104_SOURCE)
    (root / "binary.py").write_bytes(b"\x7fELF\x00\x00list_roots\x00")
    (root / "py2.py").write_text('import mcp\nprint "x", ctx.session.list_roots()\n')  # MCP, so parsed
    (root / "latin1.py").write_bytes("NAME = 'café'  # list_roots\n".encode("latin-1"))
    (root / "bad_cookie.py").write_bytes(b"# -*- coding: klingon -*-\nx = 'list_roots'\n")
    (root / "x.py").mkdir()  # a directory named like a module: walked, not an error
    (root / "x.py" / "inner.py").write_text(MCP104_SOURCE)
    os.symlink("loop.py", root / "loop.py")  # a symlink loop
    os.symlink("missing.py", root / "dangling.py")
    os.symlink(".", root / "self_dir")  # a directory symlink loop: not followed
    os.mkfifo(root / "fifo.py")  # reading it would block forever
    (root / "huge.py").write_text("x = 'list_roots'\n" * 200)
    monkeypatch.setattr(F, "MAX_FILE_BYTES", 1000)
    secret = root / "secret.py"
    secret.write_text(MCP104_SOURCE)
    if IS_ROOT:
        # root reads a chmod 000 file anyway: make reading it fail the way it does for a user
        real_read = F.read_source

        def read_source(path: Path) -> bytes:
            if path.name == "secret.py":
                raise PermissionError(13, "Permission denied", str(path))
            return real_read(path)

        monkeypatch.setattr(F, "read_source", read_source)
    else:  # pragma: no cover - CI as a user
        secret.chmod(0)

    res = cli(["check", "--output-format", "json", "."], root)
    assert res.exit_code == 1, str(res)
    errors = {e["path"]: e["message"] for e in res.json["errors"]}
    expected_reasons = {
        "binary.py": "binary",
        "py2.py": "parse",
        "latin1.py": "decode",
        "bad_cookie.py": "decode",
        "loop.py": "symlink",
        "dangling.py": "symlink",
        "fifo.py": "not a regular file",
        "huge.py": "too large",
        "secret.py": "Permission denied",
    }
    assert set(errors) == set(expected_reasons), errors
    for path, reason in expected_reasons.items():
        assert reason in errors[path], (path, errors[path])
    assert sorted((f["path"], f["rule"]) for f in res.json["findings"]) == [
        ("good.py", "MCP104"),
        ("x.py/inner.py", "MCP104"),
    ]

    text = cli(["check", "."], root)
    for path in expected_reasons:
        assert f"error: {path}:" in text.stderr

    # fix: the good files are fixed, the bad ones untouched
    snapshot = {p: (root / p).read_bytes() for p in ("binary.py", "py2.py", "latin1.py", "bad_cookie.py", "huge.py")}
    fixed = cli(["fix", "--output-format", "json", "."], root)
    assert sorted(fixed.json["changed_files"]) == ["good.py", "x.py/inner.py"]
    assert (root / "good.py").read_text() == MCP104_FIXED
    for p, data in snapshot.items():
        assert (root / p).read_bytes() == data
    assert (root / "loop.py").is_symlink()
    assert _tmp_leftovers(root) == []


def test_symlink_loop_given_on_the_command_line(tmp_path: Path) -> None:
    os.symlink("loop.py", tmp_path / "loop.py")
    res = cli(["check", "loop.py"], tmp_path)
    assert res.exit_code == 2
    assert "loop.py" in res.stderr and "symlink" in res.stderr


def test_read_only_file_is_reported_not_rewritten(tmp_path: Path) -> None:
    ro = tmp_path / "ro.py"
    ro.write_text(MCP104_SOURCE)
    ro.chmod(0o444)
    rw = tmp_path / "rw.py"
    rw.write_text(MCP104_SOURCE)
    mtime = ro.stat().st_mtime_ns
    res = cli(["fix", "--output-format", "json", "."], tmp_path)
    assert ro.read_text() == MCP104_SOURCE, "a read-only file was rewritten"
    assert ro.stat().st_mtime_ns == mtime
    assert stat.S_IMODE(ro.stat().st_mode) == 0o444
    assert rw.read_text() == MCP104_FIXED
    assert res.json["changed_files"] == ["rw.py"]
    assert [(e["path"], "read-only" in e["message"]) for e in res.json["errors"]] == [("ro.py", True)]
    assert findings_of(res) == [("MCP104", 3)]  # the read-only file's finding remains
    assert [f["path"] for f in res.json["fixed"]] == ["rw.py"]
    assert res.exit_code == 1
    assert _tmp_leftovers(tmp_path) == []
    text = cli(["fix", "."], tmp_path)
    assert "ro.py" in text.stderr and "read-only" in text.stderr


def test_symlinked_file_fix_rewrites_the_target(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "caps.py"
    target.write_text(MCP104_SOURCE)
    os.symlink("real/caps.py", tmp_path / "link.py")
    res = cli(["fix", "--output-format", "json", "link.py"], tmp_path)
    assert res.json["errors"] == []
    assert (tmp_path / "link.py").is_symlink()
    assert target.read_text() == MCP104_FIXED


def test_same_file_twice_is_checked_once(tmp_path: Path) -> None:
    (tmp_path / "caps.py").write_text(MCP104_SOURCE)
    os.symlink("caps.py", tmp_path / "alias.py")
    res = cli(["check", "--output-format", "json", "caps.py", "caps.py", "."], tmp_path)
    assert res.json["files_checked"] == 1
    assert findings_of(res) == [("MCP104", 3)]


def test_failed_write_leaves_original_and_no_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "caps.py"
    target.write_text(MCP104_SOURCE)

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(F.os, "replace", boom)
    res = cli(["fix", "--output-format", "json", "caps.py"], tmp_path)
    assert target.read_text() == MCP104_SOURCE
    assert [e["path"] for e in res.json["errors"]] == ["caps.py"]
    assert "No space left" in res.json["errors"][0]["message"]
    assert res.json["changed_files"] == [] and res.json["fixed"] == []
    assert findings_of(res) == [("MCP104", 3)]
    assert res.exit_code == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["caps.py"]


def test_atomic_write_unit(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"old\r\n")
    target.chmod(0o640)
    F.atomic_write(target, b"new\r\n")
    assert target.read_bytes() == b"new\r\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]
    target.chmod(0o400)
    with pytest.raises(PermissionError):
        F.atomic_write(target, b"newer\n")
    assert target.read_bytes() == b"new\r\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]


def test_invalid_pyproject_exit_2_names_the_file(tree: Path) -> None:
    (tree / "pyproject.toml").write_text('[tool.mcpmigrate]\nselect = ["MCP1"\n')
    before = _snapshot(tree)
    for command in ("check", "fix"):
        res = cli([command, "."], tree)
        assert res.exit_code == 2, str(res)
        assert "pyproject.toml" in res.stderr
    assert _snapshot(tree) == before


def test_fixed_file_parses_and_verify_rejects_broken_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """If a codemod produced code that does not compile, the file is left alone and the reason
    reported."""
    import libcst as cst

    from mcpmigrate.codemods import remove

    target = tmp_path / "caps.py"
    target.write_text(MCP104_SOURCE)
    real_record = remove.ListChangedField.record

    def broken_record(self, edits, analysis):
        real_record(self, edits, analysis)
        # `return` outside a function parses (libcst) but does not compile
        edits.transform(
            analysis.module, lambda _o, u: u.with_changes(body=[*u.body, cst.parse_statement("return 1\n")])
        )

    monkeypatch.setattr(remove.ListChangedField, "record", broken_record)
    res = cli(["fix", "--output-format", "json", "caps.py"], tmp_path)
    assert target.read_text() == MCP104_SOURCE
    assert [e["path"] for e in res.json["errors"]] == ["caps.py"]
    assert "fix not applied" in res.json["errors"][0]["message"]
    assert res.exit_code == 1


# --- more bad input, and an interrupted fix --------------------------------------------


def test_tabs_and_mixed_newlines_survive_a_fix(tmp_path: Path) -> None:
    """A tab-indented file with mixed LF/CRLF newlines: fixed in place, everything else kept."""
    source = (
        "from mcp.types import ClientCapabilities, RootsCapability\r\n"
        "\n"
        "def caps():\r\n"
        "\tif True:\n"
        "\t\treturn ClientCapabilities(roots=RootsCapability(listChanged=True))\r\n"
        "\treturn None\n"
    )
    target = tmp_path / "tabs.py"
    target.write_bytes(source.encode())
    res = cli(["fix", "--output-format", "json", "tabs.py"], tmp_path)
    assert res.json["errors"] == [], str(res)
    assert target.read_bytes() == source.replace("RootsCapability(listChanged=True)", "RootsCapability()").encode()
    compile(target.read_bytes(), "tabs.py", "exec")


def test_latin1_without_cookie_is_reported_and_kept_under_fix(tmp_path: Path) -> None:
    data = ("from mcp.types import RootsCapability\nNAME = 'café'\ncap = RootsCapability(listChanged=True)\n").encode(
        "latin-1"
    )
    target = tmp_path / "legacy.py"
    target.write_bytes(data)
    res = cli(["fix", "--output-format", "json", "legacy.py"], tmp_path)
    assert [(e["path"], "decode" in e["message"]) for e in res.json["errors"]] == [("legacy.py", True)]
    assert target.read_bytes() == data
    assert res.exit_code == 1


def test_five_megabyte_generated_file(tmp_path: Path) -> None:
    """A 5 MB generated module whose tokens sit only in strings and comments: checked quickly
    (the ast screen spares libcst), no finding, byte-identical after fix; a small real server
    beside it is still fixed."""
    chunk = (
        "def f{i}(x):\n    # list_roots listChanged check_client_capability\n"
        "    return {{'k{i}': 'roots/list', 'v': x * {i}}}\n\n"
    )
    parts, size, i = [], 0, 0
    while size < 5 * 1024 * 1024:
        part = chunk.format(i=i)
        parts.append(part)
        size += len(part)
        i += 1
    big = tmp_path / "generated.py"
    big.write_text("".join(parts))
    before = big.read_bytes()
    (tmp_path / "caps.py").write_text(MCP104_SOURCE)
    res = cli(["fix", "--output-format", "json", "."], tmp_path)
    assert res.json["errors"] == [], str(res)
    assert res.json["changed_files"] == ["caps.py"]
    assert big.read_bytes() == before
    assert (tmp_path / "caps.py").read_text() == MCP104_FIXED


def test_nonexistent_path_among_good_ones(tmp_path: Path) -> None:
    (tmp_path / "caps.py").write_text(MCP104_SOURCE)
    res = cli(["check", "caps.py", "nope.py"], tmp_path)
    assert res.exit_code == 2 and "nope.py" in res.stderr


def test_killed_fix_leaves_every_file_original_or_fixed(tmp_path: Path) -> None:
    """``fix`` killed (SIGKILL) while it writes: every file is either the original or the fully
    fixed text, never partial; a second ``fix`` finishes the job."""
    import signal
    import subprocess
    import sys
    import time

    root = tmp_path / "proj"
    root.mkdir()
    n = 300
    for i in range(n):
        (root / f"m{i:03d}.py").write_text(MCP104_SOURCE + f"X{i} = {i}\n")
    original = {f"m{i:03d}.py": (MCP104_SOURCE + f"X{i} = {i}\n").encode() for i in range(n)}
    fixed = {f"m{i:03d}.py": (MCP104_FIXED + f"X{i} = {i}\n").encode() for i in range(n)}
    env = dict(os.environ, MCPMIGRATE_NO_CACHE="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcpmigrate", "fix", "."],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    killed_mid_run = False
    while proc.poll() is None and time.monotonic() < deadline:
        if any((root / name).read_bytes() != data for name, data in original.items()):
            proc.send_signal(signal.SIGKILL)
            killed_mid_run = True
            break
        time.sleep(0.002)
    proc.wait(timeout=60)
    states = {
        name: "original"
        if (root / name).read_bytes() == original[name]
        else "fixed"
        if (root / name).read_bytes() == fixed[name]
        else "PARTIAL"
        for name in original
    }
    assert "PARTIAL" not in states.values(), [k for k, v in states.items() if v == "PARTIAL"]
    if killed_mid_run:
        assert "fixed" in states.values()
    assert sorted(p.name for p in root.glob("*.py")) == sorted(original)  # no stray module
    res = cli(["fix", "--output-format", "json", "."], root)
    assert res.json["errors"] == [], str(res)
    for name, data in fixed.items():
        assert (root / name).read_bytes() == data


ENABLING_FIX = """from mcp.server import MCPServer
from mcp.server.mcpserver.context import Context

app = MCPServer()


@app.tool()
async def confirm(context: Context) -> str:
    try:
        await context.session.send_ping()
        answer = await context.elicit("why?", response_type=str)
    except Exception:
        return "no"
    return str(answer.action)
"""


def test_a_fix_that_enables_another_is_applied_in_the_same_run(tmp_path: Path) -> None:
    """Found by scripts/fuzz.py: deleting the ping (MCP203) leaves the `try` guarding only the
    elicitation, which the interim fix may then unwrap. One `fix` applies both, and a second
    `fix` has nothing left to do (before, verification refused the file as not idempotent)."""
    (tmp_path / "server.py").write_text(ENABLING_FIX, encoding="utf-8")
    args = ["fix", "--strategy", "interim", "--unsafe-fixes", "server.py"]
    res = cli(args, tmp_path)
    assert res.exception is None and "fix not applied" not in res.stdout + res.stderr, res.stdout + res.stderr
    after = (tmp_path / "server.py").read_text(encoding="utf-8")
    assert "send_ping" not in after and "Resolve(confirm_elicitation)" in after and "try:" not in after
    cli(args, tmp_path)
    assert (tmp_path / "server.py").read_text(encoding="utf-8") == after


def test_an_undecodable_file_without_mcp_is_still_reported(tmp_path: Path) -> None:
    """Found by a new-user trial: files that mention nothing MCP are never parsed, but a file that
    cannot even be decoded is reported (and the run is not clean); a syntax error there is not."""
    (tmp_path / "bytes.py").write_bytes(b'x = "\xff"\n')
    (tmp_path / "syntax.py").write_text("def f(:\n    pass\n", encoding="utf-8")
    (tmp_path / "fine.py").write_text("y = 1\n", encoding="utf-8")
    res = cli(["check", "."], tmp_path)
    assert res.exit_code == 1
    assert "bytes.py: cannot decode: 'utf-8' codec can't decode byte 0xff in position 5" in res.stderr, res.stderr
    assert "syntax.py" not in res.stderr + res.stdout
