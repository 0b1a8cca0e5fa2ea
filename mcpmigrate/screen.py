"""Second-stage prefilter: cheap facts from Python's own ``ast`` (``docs/architecture.md``, the prefilter).

The byte-token prefilter lets through every file that merely *mentions* a token (in a comment,
a docstring, a type stub, a client-side test). libcst's parse costs about six times
``ast.parse``, so before it the engine parses with ``ast``, collects :class:`Facts` in one walk,
and asks each enabled detector's ``screen(facts)`` whether it *could* report anything. A file
that no detector's screen accepts is not parsed with libcst at all.

A screen must be conservative: it may say yes to a file without findings, never no to a file
with one. ``Detector.screen`` defaults to "yes" (a detector without a screen loses nothing);
``tests/test_fuzz.py`` checks the property on every fixture, rule example and fuzzed program.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from mcpmigrate import surfaces as S

MCP_HEADS = ("mcp", "fastmcp")  # absolute imports of mcp, mcp.*, mcp_types, fastmcp, ...


@dataclass
class Facts:
    attrs: set[str] = field(default_factory=set)  # every ``x.attr``
    names: set[str] = field(default_factory=set)  # every ``Name``
    keywords: set[str] = field(default_factory=set)  # every ``f(kw=...)`` keyword
    called: set[str] = field(default_factory=set)  # last component of every call's callee
    strings: set[str] = field(default_factory=set)  # every str constant
    dict_keys: set[str] = field(default_factory=set)  # str constant keys of dict displays
    compared: set[str] = field(default_factory=set)  # str constants in comparisons and match values
    imported: dict[str, str] = field(default_factory=dict)  # local name -> original (last component)
    import_modules: set[str] = field(default_factory=set)  # absolute modules imported (full dotted)
    # ``<receiver>.debug/info/warning/error/log(…)`` calls whose receiver is not provably a
    # stdlib-style logger (a name or ``self.<attr>`` bound only by ``… = getLogger(…)``)
    log_receivers_unknown: bool = False
    # first line of each top-level statement as libcst splits them (``a; b`` is one; a decorated
    # definition starts at its first decorator): the engine's per-statement positions
    top_lines: list[int] = field(default_factory=list)
    # the tree the facts were read from, for the engine's pre-check (mcpmigrate.parsing.precheck)
    tree: ast.Module | None = field(default=None, repr=False, compare=False)

    @property
    def imports_mcp(self) -> bool:
        return any(m.startswith(MCP_HEADS) for m in self.import_modules)

    @property
    def names_mcp(self) -> bool:
        """A name here could resolve into mcp/fastmcp: an absolute import of them, a dotted
        ``mcp.…`` name, or a string annotation that mentions one (never evaluated, so it needs no
        import). Every receiver-typed site (a session, a context, a server) needs one."""
        return bool(
            self.imports_mcp
            or self.names & {"mcp", "mcp_types", "fastmcp"}
            or any("mcp." in s or "fastmcp" in s or "mcp_types" in s for s in self.strings)
        )

    @property
    def imports_fastmcp(self) -> bool:
        return any(m.startswith("fastmcp") for m in self.import_modules)

    def spelled(self, originals: set[str]) -> set[str]:
        """The local spellings of names: the originals plus every ``import … as`` alias of them."""
        return set(originals) | {local for local, orig in self.imported.items() if orig in originals}

    def mentions(self, originals: set[str]) -> bool:
        """A name (or an alias of it) is used as a name, an attribute or inside a string."""
        spelled = self.spelled(originals)
        if spelled & self.names or spelled & self.attrs:
            return True
        return any(o in s for s in self.strings for o in originals)


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` (depth first), about twice as fast as ``ast.walk``: each node
    type's fields are looked up once, and ``ctx`` markers are not visited."""
    fields = _CHILD_FIELDS
    stack: list = [tree]
    pop, push, extend = stack.pop, stack.append, stack.extend
    AST = ast.AST
    while stack:
        n = pop()
        if not isinstance(n, AST):
            continue  # None keys of `{**x}`, names of `global a, b`
        yield n
        t = type(n)
        fs = fields.get(t)
        if fs is None:
            fs = fields[t] = tuple(f for f in t._fields if f != "ctx")
        for name in fs:
            v = getattr(n, name, None)
            if type(v) is list:
                extend(v)
            elif isinstance(v, AST):
                push(v)


def parse_quietly(source: bytes) -> ast.Module | None:
    """``ast.parse(source)`` without warnings, or ``None`` when it cannot be parsed."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for odd escapes: not ours to print
            return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None


def _log_receiver(f: Facts, recv: ast.expr, log_names: set[str], log_attrs: set[str]) -> None:
    """Note the receiver of a level call (``log.info(…)``): a plain name, ``self.<attr>`` /
    ``cls.<attr>``, or anything else (then the receivers are unknown)."""
    if type(recv) is ast.Name:
        log_names.add(recv.id)
    elif type(recv) is ast.Attribute and type(recv.value) is ast.Name and recv.value.id in ("self", "cls"):
        log_attrs.add(recv.attr)
    else:
        f.log_receivers_unknown = True


def _annotated_logger(
    n: ast.AnnAssign, logger_stores: set[int], factory_calls: list[tuple[ast.expr, list[int]]]
) -> None:
    """``_logger: logging.Logger = logging.getLogger(…)``: its target is bound by a logger factory."""
    v = n.value
    if (
        type(v) is ast.Call
        and _callee_name(v.func) in _LOGGER_FACTORIES
        and (_callee_name(n.annotation) or "").endswith("Logger")
    ):
        logger_stores.add(id(n.target))
        factory_calls.append((v.func, [id(n.target)]))


def _compared(f: Facts, n: ast.Compare) -> None:
    """The strings a comparison compares with (``method == "a"``, ``method in ("a", "b")``)."""
    for c in (n.left, *n.comparators):
        if type(c) is ast.Constant and type(c.value) is str:
            f.compared.add(c.value)
        elif type(c) in (ast.Tuple, ast.List, ast.Set):  # method in ("a", "b")
            f.compared.update(e.value for e in c.elts if type(e) is ast.Constant and type(e.value) is str)  # type: ignore[attr-defined]


def _imported(f: Facts, n: ast.Import | ast.ImportFrom) -> None:
    """The modules an import names and the names it binds under another name (``as``)."""
    if type(n) is ast.Import:
        for a in n.names:
            f.import_modules.add(a.name)
            if a.asname:
                f.imported[a.asname] = a.name.rsplit(".", 1)[-1]
        return
    assert isinstance(n, ast.ImportFrom)
    if n.level == 0 and n.module:
        f.import_modules.add(n.module)
    for a in n.names:
        if n.level == 0 and n.module:
            f.import_modules.add(f"{n.module}.{a.name}")
        if a.asname:
            f.imported[a.asname] = a.name


def _other_bindings(
    f: Facts,
    stores: list[ast.AST],
    logger_stores: set[int],
    factory_calls: list[tuple[ast.expr, list[int]]],
    log_names: set[str],
    log_attrs: set[str],
    other_names: set[str],
    other_attrs: set[str],
) -> bool:
    """Whether a level call's receiver (``log_names``, ``log_attrs``) may be bound other than by a
    getLogger call — a parameter, any other assignment, a class-level annotation… (``stores``,
    minus the ``logger_stores`` a logger factory binds): the detector could give those an MCP
    kind."""
    for callee, targets in factory_calls:
        # `from x import get_context as get_logger`: an alias is only a logger factory when
        # what it names is one
        local = callee.id if type(callee) is ast.Name else None
        if local is not None and f.imported.get(local, local) not in _LOGGER_FACTORIES:
            logger_stores.difference_update(targets)
    n: Any  # dispatched on its exact type, as in facts_of
    for n in stores:
        if id(n) in logger_stores:
            continue
        t = type(n)
        if t is ast.Name:
            other_names.add(n.id)
        elif t is ast.Attribute:
            other_attrs.add(n.attr)
        elif t is ast.Subscript:
            base = n.value
            while type(base) in (ast.Subscript, ast.Attribute):
                base = base.value
            if type(base) is ast.Name:
                other_names.add(base.id)
        elif type(n.target) is ast.Name and id(n.target) not in logger_stores:
            other_names.add(n.target.id)  # `ctx: Context` in a class body: a class attribute
            other_attrs.add(n.target.id)
    return bool(log_names & other_names or log_attrs & other_attrs or log_names & _CONTEXT_LIKE)


def facts_of(source: bytes) -> Facts | None:
    """The facts of ``source``, or ``None`` when ``ast`` cannot parse it (then the file goes on
    to libcst, which reports the error in its own words)."""
    tree = parse_quietly(source)
    if tree is None:
        return None
    f = Facts(tree=tree)
    attrs, names, keywords, called, strings = f.attrs, f.names, f.keywords, f.called, f.strings
    log_names: set[str] = set()  # receivers of level calls: plain names
    log_attrs: set[str] = set()  # receivers of level calls: self.<attr> / cls.<attr>
    logger_stores: set[int] = set()  # ids of the targets of `x = getLogger(…)` / `self.x = …`
    other_names: set[str] = set()  # names bound any other way (parameters, stores, definitions;
    #                                   an import never gives a name an MCP kind in the analysis)
    other_attrs: set[str] = set()
    try:
        stores: list[ast.AST] = []  # Name / Attribute / Subscript stores, annotated assignments
        factory_calls: list[tuple[ast.expr, list[int]]] = []  # getLogger-like callee, the targets it binds
        n: Any  # dispatched on its exact type below (cheaper than isinstance), which mypy cannot narrow
        for n in _nodes(tree):
            t = type(n)
            if t is ast.Name:
                names.add(n.id)
                if type(n.ctx) is not ast.Load:
                    stores.append(n)
            elif t is ast.Attribute:
                attrs.add(n.attr)
                if type(n.ctx) is not ast.Load:
                    stores.append(n)
            elif t is ast.Constant:
                if type(n.value) is str:
                    strings.add(n.value)
            elif t is ast.Call:
                fn = n.func
                if type(fn) is ast.Name:
                    called.add(fn.id)
                elif type(fn) is ast.Attribute:
                    called.add(fn.attr)
                    if fn.attr in _LOG_CALLS and not f.log_receivers_unknown:
                        _log_receiver(f, fn.value, log_names, log_attrs)
            elif t is ast.Assign:
                v = n.value
                if type(v) is ast.Call and _callee_name(v.func) in _LOGGER_FACTORIES:
                    logger_stores.update(id(tg) for tg in n.targets)
                    factory_calls.append((v.func, [id(tg) for tg in n.targets]))
            elif t is ast.Subscript and type(n.ctx) is not ast.Load:
                stores.append(n)  # `log[0] = ctx`: the analysis binds the subscripted name
            elif t is ast.AnnAssign:
                _annotated_logger(n, logger_stores, factory_calls)
                stores.append(n)
            elif t is ast.arg:
                other_names.add(n.arg)
            elif t is ast.FunctionDef or t is ast.AsyncFunctionDef or t is ast.ClassDef:
                other_names.add(n.name)
            elif t is ast.keyword:
                if n.arg:
                    keywords.add(n.arg)
            elif t is ast.Dict:
                for k in n.keys:
                    if type(k) is ast.Constant and type(k.value) is str:
                        f.dict_keys.add(k.value)
            elif t is ast.Compare:
                _compared(f, n)
            elif t is ast.MatchValue:
                if type(n.value) is ast.Constant and type(n.value.value) is str:
                    f.compared.add(n.value.value)
            elif t is ast.Import or t is ast.ImportFrom:
                _imported(f, n)
        if not f.log_receivers_unknown and (log_names or log_attrs):
            f.log_receivers_unknown = _other_bindings(
                f, stores, logger_stores, factory_calls, log_names, log_attrs, other_names, other_attrs
            )
    except RecursionError:
        return None
    f.top_lines = top_level_lines(tree)
    return f


_IDENT = r"[^\W\d]\w*"
_TEXT_NAMES = re.compile(_IDENT)
_TEXT_ATTRS = re.compile(rf"\.\s*({_IDENT})")
_TEXT_CALLED = re.compile(rf"({_IDENT})\s*\(")
_TEXT_STRINGS = re.compile(r"\"([^\"\\\n]*)\"|'([^'\\\n]*)'")
_TEXT_FROM = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import\b", re.M)
_TEXT_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w., \t]+)", re.M)
_TEXT_AS = re.compile(rf"({_IDENT})\s+as\s+({_IDENT})")


def facts_of_text(source: bytes) -> Facts:
    """Facts read from the text of a file ``ast`` cannot parse (a syntax error): every
    identifier counts as a name and a keyword, every identifier after a dot as an attribute,
    every quoted string as a string, dict key and comparison, and a level call's receiver as
    unknown. A superset of what :func:`facts_of` would collect, so the screens stay conservative;
    the engine asks them whether such a file is worth reporting at all."""
    text = source.decode("utf-8", errors="replace")
    f = Facts()
    f.names = set(_TEXT_NAMES.findall(text))
    f.keywords = set(f.names)
    f.attrs = set(_TEXT_ATTRS.findall(text))
    f.called = set(_TEXT_CALLED.findall(text))
    f.strings = {a or b for a, b in _TEXT_STRINGS.findall(text)}
    f.dict_keys = set(f.strings)
    f.compared = set(f.strings)
    f.import_modules = set(_TEXT_FROM.findall(text))
    for group in _TEXT_IMPORT.findall(text):
        f.import_modules |= {part.split()[0] for part in group.split(",") if part.split()}
    f.imported = {local: orig.rsplit(".", 1)[-1] for orig, local in _TEXT_AS.findall(text)}
    f.log_receivers_unknown = bool(f.attrs & _LOG_CALLS)
    return f


def top_level_lines(tree: ast.Module) -> list[int]:
    """The first line of each top-level statement of ``tree`` as libcst splits the module:
    statements sharing a line (``a; b``) are one, a decorated definition starts at its first
    decorator."""
    lines: list[int] = []
    prev_end = 0
    for stmt in tree.body:
        start = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        if not (lines and start == prev_end):
            lines.append(start)
        prev_end = stmt.end_lineno or start
    return lines


_LOG_CALLS = frozenset({"debug", "info", "warning", "error", "log"})
_LOGGER_FACTORIES = frozenset({"getLogger", "get_logger", "getChild", "get_task_logger"})
_CONTEXT_LIKE = S.CONTEXT_NAMES | {"session"}


def _callee_name(fn: ast.expr) -> str | None:
    if type(fn) is ast.Name:
        return fn.id
    if type(fn) is ast.Attribute:
        return fn.attr
    return None


# --- screens of the detectors ----------------------------------------------------------------

_ROOTS_SESSION_ATTRS = {"list_roots", "check_client_capability", "client_params"}
_SESSION_NAMES = {"session", "server_session", "mcp_session"}


# Frameworks whose context forwards requests to the SDK session (``ctx.list_roots()``).
_FRAMEWORK_HEADS = frozenset(q.split(".")[0] for q in S.FRAMEWORK_CONTEXT_METHODS)


def roots(f: Facts) -> bool:
    """Could :class:`~mcpmigrate.detectors.roots.RootsDetector` report anything? (MCP101–106)"""
    # Import-free sites: hand-built JSON-RPC dicts, capability dicts, dispatch on the method name.
    if "roots/list" in f.strings and "method" in f.dict_keys:
        return True  # MCP101/MCP106 dicts (also inside send_request)
    if "roots" in f.dict_keys:
        return True  # {"roots": {"listChanged": …}}, {"roots": [{"uri": …}]}
    changed = "notifications/roots/list_changed"
    if changed in f.compared:
        return True  # MCP103 comparisons and match cases
    if changed in f.strings and "add_notification_handler" in f.attrs:
        return True  # MCP103 handler registration
    if "list_roots" in f.attrs and f.names & _SESSION_NAMES:
        return True  # `session.list_roots()` on an untyped helper parameter
    # Every other site needs a name that resolves into mcp/fastmcp: an absolute import of them,
    # or a fully spelled dotted name (``mcp.types.Root(…)``).
    if not f.names_mcp:
        return False
    if f.attrs & _ROOTS_SESSION_ATTRS or ("client_params" in f.strings and "getattr" in f.called):
        # the receiver must be a session (or a fastmcp context): one comes from `.session`, a
        # variable named like one, a ServerSession annotation, or a fastmcp import
        if (
            "session" in f.attrs
            or f.names & _SESSION_NAMES
            or f.imports_fastmcp
            or any(m.split(".")[0] in _FRAMEWORK_HEADS for m in f.import_modules)
            or any("fastmcp" in s for s in f.strings)
            or f.mentions({"ServerSession"})
        ):
            return True
    if "on_roots_list_changed" in f.keywords:
        return True  # MCP103 low-level Server(on_roots_list_changed=…)
    if f.called & f.spelled({"Root"}):
        return True  # MCP105 Root(uri=…)
    if f.keywords & {"listChanged", "list_changed"} and f.called & f.spelled({"RootsCapability"}):
        return True  # MCP104 RootsCapability(listChanged=…)
    if f.called & f.spelled({"ListRoots"}):
        return True  # MCP106 resolver marker
    if f.called & f.spelled({"ListRootsRequest"}) and (
        "send_request" in f.attrs
        or f.keywords & {"input_requests", "inputRequests"}
        or f.dict_keys & {"inputRequests", "input_requests"}
        or f.mentions({"InputRequiredResult"})
    ):
        return True  # MCP101 raw request, MCP106 interim request
    # MCP103 notification_handlers[…] = …
    return "notification_handlers" in f.attrs and f.mentions({"RootsListChangedNotification"})


def logging(f: Facts) -> bool:
    """Could :class:`~mcpmigrate.detectors.logging.LoggingDetector` report anything? (MCP401–402)

    Its receivers must resolve to an MCP context, session or low-level server, which needs a name
    from mcp/fastmcp; the import-free sites are hand-built ``notifications/message`` and
    ``logging/setLevel`` payloads and routes. ``logger.info(…)`` in a module that never touches
    MCP is the common case this screen lets libcst skip."""
    if {"notifications/message", "logging/setLevel"} & f.strings:
        return True
    if not f.names_mcp:
        return False
    if f.keywords & {"on_set_logging_level"} or "set_logging_level" in f.attrs:
        return True  # MCP402 registrations
    if "request_handlers" in f.attrs and f.mentions({"SetLevelRequest"}):
        return True  # MCP402 request_handlers[SetLevelRequest] = …
    if "send_log_message" in f.called:
        return True  # MCP401 session.send_log_message(…)
    if "send_notification" in f.called and f.mentions({"LoggingMessageNotification"}):
        return True  # MCP401 a hand-built notification
    # MCP401 ctx.info(…): only when some level call's receiver is not provably a logger from
    # getLogger (``logger.info(…)`` is the common case this skips)
    return f.log_receivers_unknown


def sampling_elicitation(f: Facts) -> bool:
    """Could :class:`~mcpmigrate.detectors.sampling_elicitation.SamplingElicitationDetector`
    report anything? (MCP201, MCP202, MCP206, MCP207)

    Import-free sites are hand-built ``sampling/createMessage`` / ``elicitation/create`` requests
    and ``"resultType": "input_required"`` results returned for a method other than tools/call,
    prompts/get and resources/read; every other site is a call — a push method on a session or
    context, a raw ``send_request`` of such a request, ``InputRequiredResult(...)`` in a handler of
    another method, a sampling wrapper, or a server built with ``sampling_handler=`` — and its
    receiver or name must resolve into mcp. Migrated code (interim results from tools) is the
    common case this lets libcst skip."""
    pushed = {S.SAMPLING_METHOD, S.ELICITATION_METHOD} & f.strings
    if pushed and "method" in f.dict_keys and f.dict_keys & {"jsonrpc", "id"}:
        return True  # a hand-built request
    if S.INPUT_REQUIRED in f.strings and "resultType" in f.dict_keys and _serves_non_interim_method(f):
        return True  # MCP206 on a hand-built interim result
    if "send_request" in f.called and pushed:
        return True  # a raw send_request of such a request (any receiver)
    if not (f.names_mcp or "pydantic_ai" in f.names or f.imported):
        return False
    methods = (
        S.SESSION_SAMPLING_METHODS | S.FASTMCP_SAMPLING_METHODS | S.SESSION_ELICIT_METHODS | S.CONTEXT_ELICIT_METHODS
    )
    if f.called & set(methods) or S.SAMPLING_HANDLER_KWARG in f.keywords:
        return True
    if "send_request" in f.called and (pushed or f.mentions({"CreateMessageRequest", "ElicitRequest"})):
        return True  # a raw send_request of a sampling / elicitation request
    if f.called & f.spelled({w.rsplit(".", 1)[-1] for w in S.SESSION_SAMPLING_WRAPPERS}):
        return True
    if f.called & f.spelled({h.rsplit(".", 1)[-1] for h in S.SDK_ELICIT_HELPERS}):
        return True  # elicit_with_validation(session, …) / elicit_url(session, …)
    return bool(f.called & f.spelled({"InputRequiredResult"}) and _serves_non_interim_method(f))


def _serves_non_interim_method(f: Facts) -> bool:
    """The module serves (or dispatches on) some method other than tools/call, prompts/get and
    resources/read: a decorator, an ``on_…=`` handler, ``add_request_handler("…")`` or a
    comparison with the method's name. Only there can an interim result be misplaced (MCP206)."""
    if any(S.DECORATOR_METHODS[a] not in S.INTERIM_METHODS for a in f.attrs & S.DECORATOR_METHODS.keys()):
        return True
    if any(
        S.LOWLEVEL_REQUEST_KWARGS[k] not in S.INTERIM_METHODS for k in f.keywords & S.LOWLEVEL_REQUEST_KWARGS.keys()
    ):
        return True
    names = f.compared | (f.strings if "add_request_handler" in f.called else set())
    return any("/" in s and s not in S.INTERIM_METHODS for s in names)


def server_requests(f: Facts) -> bool:
    """Could :class:`~mcpmigrate.detectors.server_requests.ServerRequestsDetector` report
    anything? (MCP203–MCP205)"""
    if S.ELICIT_COMPLETE_METHOD in f.strings and "method" in f.dict_keys:
        return True  # a hand-built notifications/elicitation/complete
    if S.ELICITATION_ID_KEYS[0] in f.dict_keys:
        return True  # {"elicitationId": …} in a URL elicitation
    if (f.compared | f.dict_keys) & S.SERVER_METHODS and f.strings & S.BIDIRECTIONAL_METHODS:
        return True  # a hand-rolled server building ping / tasks/*
    if not f.names_mcp:
        return False
    if f.called & ({S.SEND_PING_ATTR, S.SEND_REQUEST_ATTR, S.SEND_ELICIT_COMPLETE_ATTR} | f.spelled({"elicit_url"})):
        return True  # session.send_ping() / send_request / send_elicit_complete
    if S.SEND_NOTIFICATION_ATTR in f.called and f.mentions({"ElicitCompleteNotification"}):
        return True
    return bool(f.keywords & set(S.ELICITATION_ID_KEYS) and f.called & f.spelled({"ElicitRequestURLParams"}))


def notifications(f: Facts) -> bool:
    """Could :class:`~mcpmigrate.detectors.notifications.NotificationsDetector` report anything?
    (MCP301, MCP302)"""
    if S.SUBSCRIBE_METHODS & (f.compared | f.dict_keys | f.strings):
        return True  # dispatch on / routes for resources/subscribe
    if S.LIST_CHANGED_METHODS & f.strings and {"method", "jsonrpc"} <= f.dict_keys:
        return True  # a hand-built list_changed notification
    if "method" in f.strings | f.dict_keys and any(
        "list_changed" in x or x.endswith("resources/updated") for x in f.strings
    ):
        return True  # a relay matching change notifications, or one built with an f-string method
    if not f.names_mcp:
        return False
    if f.called & set(S.LIST_CHANGED_SENDS):
        return True  # session.send_*_list_changed() / send_resource_updated
    if S.SEND_NOTIFICATION_ATTR in f.called and f.mentions(set(S.LIST_CHANGED_NOTIFICATIONS)):
        return True  # send_notification(ToolListChangedNotification(…))
    if f.keywords & S.SUBSCRIBE_KWARGS or f.attrs & S.SUBSCRIBE_DECORATORS:
        return True  # low-level subscribe handlers
    return "request_handlers" in f.attrs and f.mentions({"SubscribeRequest", "UnsubscribeRequest"})
