"""MCP522: mcp 1.x client calls in a server project (a proxy forwarding to an upstream server)
whose shape mcp 2.x changed; the plans are :mod:`mcpmigrate.codemods.port.client`'s.

- ``async with streamable_http_client(...) as (read, write, get_session_id)``: mcp 2.x yields two
  streams (1.27 ``mcp/client/streamable_http.py`` yields ``(read_stream, write_stream,
  transport.get_session_id)``; 2.3 ``yield read_stream, write_stream``);
- ``ClientSession(read, write, read_timeout_seconds=timedelta(...))``: ``timedelta | None`` on
  1.27, ``float | None`` on 2.3 (the same third parameter).
"""

from __future__ import annotations

import libcst as cst

from mcpmigrate.codemods.port import client
from mcpmigrate.detectors.base import Detector, Report, ReportingVisitor
from mcpmigrate.detectors.port import GUIDE, names_mcp

STREAMABLE = {"mcp.client.streamable_http.streamable_http_client"}
SESSIONS = {"mcp.ClientSession", "mcp.client.session.ClientSession"}
UNPACK_SECTION = "`get_session_id` callback removed from `streamable_http_client`"
TIMEOUT_SECTION = "Timeouts take `float` seconds instead of `timedelta`"


class PortClientDetector(Detector):
    rules = ("MCP522",)
    tokens = (rb"streamable_http_client", rb"read_timeout_seconds")
    screen = staticmethod(names_mcp)

    def detect(self) -> list[Report]:
        v = _ClientVisitor(self.analysis)
        self.analysis.flat.visit(v)
        return v.reports


class _ClientVisitor(ReportingVisitor):
    def visit_WithItem(self, node: cst.WithItem) -> None:
        call, target = node.item, node.asname.name if node.asname is not None else None
        if not (isinstance(call, cst.Call) and isinstance(target, cst.Tuple) and len(target.elements) == 3):
            return
        if not self.a.resolves_to(call.func, STREAMABLE):
            return
        fn = self.fn(node)
        scope = fn.node if fn is not None else self.a.module
        plan = client.plan_unpack(self.a, target, scope, "streamable_http_client")
        self.planned(
            "MCP522",
            target,
            "`streamable_http_client(...)` is unpacked into three names, but mcp 2.x yields two streams "
            "(`read, write`), so the `async with` raises `ValueError: not enough values to unpack`. "
            f"mcp 2.x's transport no longer hands out a session-id callback (read “{UNPACK_SECTION}” in {GUIDE}).",
            plan,
        )

    def visit_Call(self, node: cst.Call) -> None:
        if not self.a.resolves_to(node.func, SESSIONS):
            return
        positional = [a for a in node.args if a.keyword is None and not a.star]
        arg = next((a for a in node.args if a.keyword is not None and a.keyword.value == "read_timeout_seconds"), None)
        if arg is None and len(positional) >= 3:
            arg = positional[2]
        if arg is None or not client.timedelta_value(self.a, arg.value):
            return
        self.planned(
            "MCP522",
            arg.value,
            "`ClientSession(read_timeout_seconds=…)` is given a `timedelta`, but mcp 2.x takes seconds (a "
            "`float`). A `timedelta` there fails the first request the session sends with a `TypeError` "
            f"(read “{TIMEOUT_SECTION}” in {GUIDE}).",
            client.plan_timeout(self.a, arg.value),
        )
