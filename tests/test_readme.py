"""The README stays true: its rule table is the one generated from rules/*.toml, and the
options it documents exist."""

from __future__ import annotations

import importlib.util
import re

from mcpmigrate.cli import FORMATS, rules_markdown
from tests.helpers import REPO, cli

README = REPO / "README.md"


def _script():
    spec = importlib.util.spec_from_file_location("update_readme", REPO / "scripts" / "update_readme.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_readme_rule_table_is_generated_from_the_rules() -> None:
    text = README.read_text(encoding="utf-8")
    assert _script().render(text) == text, (
        "README.md's rule table is stale (a rule was added or changed in rules/*.toml): "
        "run `python scripts/update_readme.py`"
    )


def test_rules_markdown_lists_every_rule(tmp_path) -> None:
    from mcpmigrate.catalog import load_catalog

    res = cli(["rules", "--output-format", "markdown"], tmp_path)
    assert res.exit_code == 0 and res.stdout == rules_markdown()
    rows = [ln for ln in res.stdout.splitlines() if ln.startswith("| MCP")]
    assert [r.split("|")[1].strip() for r in rows] == list(load_catalog())


def test_readme_documents_every_output_format_and_option() -> None:
    text = README.read_text(encoding="utf-8")
    for fmt in FORMATS:
        assert f"--output-format {fmt}" in text or f"`{fmt}`" in text, fmt
    for option in (
        "--statistics",
        "--add-noqa",
        "--baseline",
        "--extend-select",
        "--force-exclude",
        "--config",
        "--diff",
        "--unsafe-fixes",
        "--strategy",
        "respect-gitignore",
        "extend-exclude",
        "per-file-ignores",
        "--no-legacy-clients",
        "--no-cache",
        "--cache-dir",
        "MCPMIGRATE_CACHE_DIR",
        "legacy-clients",
        "mcpmigrate-check",
        "mcpmigrate-fix",
        "upload-sarif",
    ):
        assert option in text, option
    # the hook ids in the README are the ones .pre-commit-hooks.yaml defines
    hooks = (REPO / ".pre-commit-hooks.yaml").read_text()
    for hook in re.findall(r"id: (mcpmigrate-\w+)", text):
        assert f"- id: {hook}" in hooks
