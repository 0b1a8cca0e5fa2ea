"""The project step of the ``interim`` fix (issue 22, "answer threading" and "several files, one
fix"): a module-level helper of one module that asks the client (elicitation, sampling, roots) and
is called by handlers of other modules takes the answer as a parameter in its own module's fix;
this step then rewrites each calling module so that its handler asks in its round right before
the call and passes the answer (``codemods/interim/across.py``).

One fix over several files is written for all of them or for none, as the param fix's project
step does (``project_threads.py``): when a calling module cannot be rewritten (the caller is not a
handler that can return an interim result, calls the helper more than once, is not among the
files being fixed, the result would not verify), no file of the step is written — the helper keeps
its text and its findings, and the run reports why, naming the caller. Each rewrite is verified
like any fix (``pipeline.rewrite_module``).
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Any

from mcpmigrate.codemods.interim.across import caller_edits
from mcpmigrate.pipeline import FileResult
from mcpmigrate.project_threads import Step

#: The rules whose interim fix can thread an answer across modules.
RULES = ("MCP101", "MCP201", "MCP202")


def _collect(results: list[FileResult], root: Path) -> tuple[list[FileResult], dict[Path, list[Any]], list[str]]:
    """The helper modules whose requests the run's ``interim`` fixes threaded across modules, and
    what each calling module needs (what ``thread.thread_reason`` recorded on the site,
    ``Finding.project_needs``)."""
    helpers: list[FileResult] = []
    needs: dict[Path, list[Any]] = {}
    for res in results:
        across = [
            d
            for f in res.fixed
            if f.rule in RULES and f.fix is not None and f.fix.strategy == "interim"
            for d in f.project_needs
        ]
        if not across or res.new_source is None:
            continue
        helpers.append(res)
        for d in across:
            group = needs.setdefault(Path(os.path.abspath(root / d["path"])), [])
            if d not in group:
                group.append(d)
    return helpers, needs, []


#: The interim fix's project step, run by ``project_threads.settle``.
STEP = Step(
    _collect,
    lambda group, _original, _current: partial(caller_edits, needs=group),
    lambda group: ", ".join(dict.fromkeys(f"`{n['caller']}`" for n in group)),
    "the handlers in other modules must ask the question (or relay the helper's interim result)",
)
