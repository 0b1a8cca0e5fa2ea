#!/usr/bin/env python3
"""Regenerate the rule table in README.md from rules/*.toml (``mcpmigrate rules --output-format
markdown``), between the ``<!-- rules-table:begin -->`` and ``<!-- rules-table:end -->`` markers.

Usage: python scripts/update_readme.py [--check]   (--check: exit 1 when the table is stale)
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
BEGIN = "<!-- rules-table:begin (generated from rules/*.toml by scripts/update_readme.py; do not edit) -->"
END = "<!-- rules-table:end -->"


def render(readme: str) -> str:
    sys.path.insert(0, str(REPO))
    from mcpmigrate.cli import rules_markdown

    head, sep, rest = readme.partition(BEGIN)
    if not sep or END not in rest:
        raise SystemExit(f"{README}: the rule table markers are missing ({BEGIN} … {END})")
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{rules_markdown()}{END}{tail}"


def main(argv: list[str]) -> int:
    current = README.read_text(encoding="utf-8")
    wanted = render(current)
    if "--check" in argv:
        if wanted != current:
            print("README.md: the rule table is stale; run `python scripts/update_readme.py`", file=sys.stderr)
            return 1
        return 0
    if wanted != current:
        README.write_text(wanted, encoding="utf-8")
        print("README.md: rule table updated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
