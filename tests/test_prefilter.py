"""The byte-token prefilter (``pipeline.Prefilter``): plain tokens looked for as substrings, the
patterns with one regular expression, lets through exactly the files the alternation of all
tokens (as ``re`` would run it) finds a token in."""

from __future__ import annotations

import re
from pathlib import Path

from mcpmigrate.config import Config
from mcpmigrate.detectors import all_detectors
from mcpmigrate.pipeline import Options, Prefilter, enabled_rules, prefilter_regex

ROOT = Path(__file__).parent.parent


def test_the_prefilter_finds_what_the_alternation_of_its_tokens_finds() -> None:
    rules = enabled_rules(Config(), Options())
    tokens = sorted({t for d in all_detectors() if set(d.rules) & rules for t in d.tokens})
    whole = re.compile(b"|".join(tokens))
    pf = prefilter_regex(rules)
    assert pf is not None and pf.literals and pf.pattern is not None  # both kinds are in use
    sources = [p.read_bytes() for d in ("fixtures", "tests/data") for p in sorted((ROOT / d).rglob("*.py"))]
    sources += [b"", b"import os\n", b"x = obj.sample\n", b"@server.call_tool()\n", b"# mentions roots/list\n"]
    found = [pf.search(s) for s in sources]
    assert found == [whole.search(s) is not None for s in sources]
    assert any(found) and not all(found)


def test_a_prefilter_of_literals_or_patterns_only() -> None:
    assert Prefilter([b"list_roots"]).search(b"await s.list_roots()")
    assert not Prefilter([b"list_roots"]).search(b"await s.list_tools()")
    assert Prefilter([rb"\bRoot\("]).search(b"Root(uri)") and not Prefilter([rb"\bRoot\("]).search(b"MyRoot(uri)")
