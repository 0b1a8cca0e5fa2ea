"""One round of the param fix: the shared :class:`~mcpmigrate.codemods.edits.Edits` it records
into, plus the few facts the threading reads back while it records — which nodes are gone (a
name read only there is no longer read), which schema edits and argument reads are made already
(two sites of one tool share them), and which names a caller passed in place of a context
argument (a parameter that may become unused)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import libcst as cst

from mcpmigrate.codemods.edits import Edits, RemoveMarker, Result

#: What a site does to one node: replace it, remove it (``REMOVE``), or rewrite it from its
#: updated form (``fn(updated) -> new``).
Change = cst.CSTNode | RemoveMarker | Callable[[cst.CSTNode], Result]


@dataclass
class Round:
    """The edits of one round and the facts the threading reads back (see the module docstring)."""

    edits: Edits = field(default_factory=Edits)
    rewritten: set[int] = field(default_factory=set)  # ids of nodes a Change function rewrites as a whole
    made: set[Hashable] = field(default_factory=set)
    replaced_args: dict[int, list[str]] = field(default_factory=dict)  # id(caller FunctionInfo) -> names

    @property
    def dead(self) -> set[int]:
        """Ids of the nodes removed, replaced or rewritten as a whole: what they read is gone."""
        return self.edits.replaced_ids | self.rewritten

    def change(self, node: cst.CSTNode, change: Change) -> None:
        """Record one :data:`Change` of ``node``."""
        if isinstance(change, RemoveMarker):  # REMOVE is its only instance
            self.edits.remove(node, keep_comments=True)  # its comments describe the code around it
        elif isinstance(change, cst.CSTNode):
            self.edits.replace(node, change)
        else:
            fn = change
            self.edits.transform(node, lambda _original, updated: fn(updated))
            self.rewritten.add(id(node))

    def once(self, key: Hashable) -> bool:
        """True the first time ``key`` is seen this round (an edit two sites share is made once)."""
        if key in self.made:
            return False
        self.made.add(key)
        return True
