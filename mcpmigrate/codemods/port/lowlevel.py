"""Port of a 1.x low-level ``Server`` whose handlers are registered with decorators
(``@server.list_tools()``, ``@server.call_tool()``, …) to mcp 2.x's ``Server(on_…=…)`` (MCP507).

mcp 2.3's low-level ``Server`` takes its handlers as keyword-only constructor arguments, each
called as ``handler(ctx: ServerRequestContext, params)`` and returning the full result
(``mcp/server/lowlevel/server.py``). mcp 1.27's decorators wrapped the function instead: a
``list_tools`` function returns ``list[Tool]``; ``call_tool(name, arguments)`` had its arguments
validated against the listed ``inputSchema`` (``jsonschema``), returned content blocks wrapped
into a ``CallToolResult``, and an exception turned into ``CallToolResult(isError=True)`` with
the message as text; ``get_prompt(name, arguments)`` returned the ``GetPromptResult``;
``read_resource(uri)`` got the URI as an ``AnyUrl`` and returned ``ReadResourceContents``, sent as
text or base64 blob contents under that URI; an exception in any handler was the error
``(0, str(exc))`` in every era (mcp 2.x hides its text on 2026-07-28 unless it is an MCPError).

The port keeps each handler function as written (its decorator removed) and adds next to it an
``on_…`` adapter with the 2.x signature that does what the 1.x decorator did; the constructor
moves below the last handler and names the adapters. Planned only when that is exact: the
handlers sit in the constructor's block, nothing between them uses the server, the handler
shapes are the ones the adapters reproduce (content-list tool results, no output schema).

A server built elsewhere (a ``register_tools(server: Server)`` function of another module, a
server imported from one) keeps its constructor: each adapter is registered where the decorator
ran, with mcp 2.x's ``server.add_request_handler(method, params_type, handler)``, which fills the
same table the constructor's ``on_…`` arguments do (capabilities are derived from it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, Kind, ModuleAnalysis
from mcpmigrate.codemods.edits import Edits, import_name
from mcpmigrate.codemods.port import context
from mcpmigrate.fastwalk import walk
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.names import all_name_values, assigned, fresh, name_refs, ref_names

GUIDE_DECORATORS = "Lowlevel `Server`: decorator-based handlers replaced with constructor `on_*` params"
TYPES = "mcp.types"
CONTEXT_MODULE = "mcp.server"
ERRORS_MODULE = "mcp.shared.exceptions"
HELPER_TYPES = "mcp.server.lowlevel.helper_types"
# 1.x ``Server(name, version, instructions, website_url, icons, lifespan)``: 2.x keeps ``name``
# positional and takes the rest by keyword.
LL_V1_POSITIONAL = ("name", "version", "instructions", "website_url", "icons", "lifespan")
_EQ = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
LIST_LIKE = ("list", "List", "Sequence", "Iterable", "tuple", "Tuple")
# adapters whose handler's exception 1.x answered with the error ``(0, str(exc))`` in every era
# (mcp 2.x keeps an MCPError's code and message, and hides any other exception's text on 2026-07-28)
ERROR_SHAPES = {"get", "read", "level", "uri", "complete"}

WRAPPING = (
    "tool arguments validated against the listed inputSchema, tool content wrapped into CallToolResult and "
    "exceptions as is_error results; the other handlers called with the arguments 1.x passed, and the "
    "exceptions of prompt, resource, completion, logging-level and subscription handlers answered as the "
    "error `(0, message)`"
)
# ``call_tool(validate_input=False)``: what the adapter keeps of the tool's wrapping instead
UNVALIDATED = "tool arguments not checked (`validate_input=False`), "


# mcp 1.27's ``get_capabilities`` hard-codes ``resources.subscribe: false``; mcp 2.3's declares it on
# legacy connections when a ``resources/subscribe`` handler is registered (``mcp/server/lowlevel/server.py``,
# measured: a server with a resource listing answers `initialize` with `subscribe: true` once ported)
SUBSCRIBE_REVIEW = (
    "review: mcp 2.x's low-level server declares `resources.subscribe` from the subscribe handler, so a legacy "
    "client's `initialize` now reads `resources: {subscribe: true}` where mcp 1.x's hard-coded `false` — a client "
    "that subscribes only when it is declared starts subscribing and gets the empty answer 1.x gave any client that "
    "sent it (2026-07-28 clients see the flag of `subscriptions/listen`, as before)"
)


def subscribe_declared(handlers: list[Handler], whole: bool) -> bool:
    """Porting ``handlers`` changes the ``resources.subscribe`` flag legacy clients read: a
    ``subscribe_resource`` handler on a server that lists resources (``whole``: ``handlers`` are all of
    the server's; else another module may register the listing, and it is assumed)."""
    decorators = {h.decorator for h in handlers}
    return "subscribe_resource" in decorators and (not whole or "list_resources" in decorators)


def _fix(in_place: bool, validate: bool = True, review: bool = False) -> FixInfo:
    """The fix of a ported server: the constructor takes the adapters, or each is registered in
    place; the tool's arguments are validated as 1.x's decorator did, or not (``validate``);
    unsafe with :data:`SUBSCRIBE_REVIEW` when ``review``."""
    wrapping = (
        WRAPPING
        if validate
        else UNVALIDATED + WRAPPING.removeprefix("tool arguments validated against the listed inputSchema, ")
    )
    where = (
        "register each handler where its decorator ran, with `server.add_request_handler(method, params, adapter)`, "
        if in_place
        else "register the handlers as `Server(on_…=…)` "
    )
    what = f"{where}through adapters that keep mcp 1.x's wrapping ({wrapping})"
    return (
        FixInfo(Safety.UNSAFE, "port", f"{what}; {SUBSCRIBE_REVIEW}") if review else FixInfo(Safety.SAFE, "port", what)
    )


@dataclass
class Handler:
    decorator: str  # list_tools, call_tool, …
    fn: cst.FunctionDef
    deco: cst.Decorator | cst.Call  # the decorator, or the call ``self.server.call_tool()(self.call)``
    alias: Alias | None = None  # ``register = server.call_tool`` applied as ``@register()``


@dataclass(frozen=True)
class Alias:
    """A low-level decorator held under another name in a statement of its own:
    ``register = server.call_tool`` (or ``cast(T, server.call_tool)``: ``typing.cast`` returns its
    argument) applied as ``@register()``, or ``register = server.call_tool()`` applied as
    ``@register``. The name is the decorator itself, so ``@register()`` is ``@server.call_tool()``."""

    target: cst.Name
    decorator: str  # list_tools, call_tool, …
    server: str
    stmt: cst.SimpleStatementLine
    read: cst.Attribute  # ``server.call_tool``
    called: cst.Call | None  # ``server.call_tool(...)`` when the alias holds the decorator's result


def alias_of(analysis: ModuleAnalysis, stmt: cst.SimpleStatementLine, fn: FunctionInfo | None) -> Alias | None:
    """The :class:`Alias` a statement binds, or None."""
    if len(stmt.body) != 1 or not isinstance(stmt.body[0], (cst.Assign, cst.AnnAssign)):
        return None
    assign = stmt.body[0]
    if isinstance(assign, cst.Assign):
        if len(assign.targets) != 1:
            return None
        target = assign.targets[0].target
    else:
        target = assign.target
    value = assign.value
    if not isinstance(target, cst.Name) or value is None:
        return None
    if isinstance(value, cst.Call) and analysis.qualname(value.func) == "typing.cast":
        if len(value.args) != 2 or any(a.keyword is not None or a.star for a in value.args):
            return None
        value = value.args[1].value
    called = None
    if isinstance(value, cst.Call):
        called, value = value, value.func
    if not (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name)):
        return None
    attr = value.attr.value
    if attr not in S.LOWLEVEL_DECORATOR_PORTS and attr not in S.LOWLEVEL_DECORATORS_MANUAL:
        return None
    if analysis.kind_of(value.value, fn) is not Kind.SERVER_LL:
        return None
    return Alias(target, attr, value.value.value, stmt, value, called)


def aliased(analysis: ModuleAnalysis, fn: cst.FunctionDef) -> Alias | None:
    """The :class:`Alias` of ``fn``'s block that ``fn``'s decorator applies, when the port follows
    it (:func:`alias_reason` has nothing against it)."""
    block = analysis.parents.get(id(fn))
    aliases = {}
    for stmt in getattr(block, "body", ()):
        if isinstance(stmt, cst.SimpleStatementLine):
            found = alias_of(analysis, stmt, analysis.enclosing_function(stmt))
            if found is not None:
                aliases[found.target.value] = found
    for dec in fn.decorators:
        alias = aliases.get(_applied(dec) or "")
        if alias is None or (alias.called is None) != isinstance(dec.decorator, cst.Call):
            continue
        owner = analysis.enclosing_function(alias.stmt)
        scope = owner.node if owner is not None else analysis.module
        uses = [u for u in walk(scope) if isinstance(u, cst.Decorator) and _applied(u) == alias.target.value]
        if alias_reason(alias, scope, uses) is None:
            return alias
    return None


def _applied(deco: cst.Decorator) -> str | None:
    """The name a decorator applies: ``x`` of ``@x`` and ``@x(...)``."""
    named = deco.decorator.func if isinstance(deco.decorator, cst.Call) else deco.decorator
    return named.value if isinstance(named, cst.Name) else None


def alias_reason(alias: Alias, scope: cst.CSTNode, decorators: list[cst.Decorator]) -> str | None:
    """Why the functions an alias registers cannot all be told from ``scope`` (the function or
    module holding it; ``decorators``: its uses as a decorator there), or None: it is applied as a
    decorator exactly once and its name occurs nowhere else."""
    spelled = f"`{alias.server}.{alias.decorator}`"
    if len(decorators) > 1:
        return (
            f"{spelled} is held as `{alias.target.value}` and applied to {len(decorators)} functions; on mcp 1.x the last "
            f"one replaces the others: keep the one that is served and move it to `Server(on_{_kwarg(alias.decorator)}=…)` by hand"
        )
    seen = {id(alias.target)}
    for d in decorators:
        seen.add(id(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator))
    other = [n for n in walk(scope) if isinstance(n, cst.Name) and n.value == alias.target.value and id(n) not in seen]
    if not decorators or other:
        return (
            f"{spelled} is held as `{alias.target.value}`, which is {'also ' if decorators else ''}used other than as the "
            f"decorator of a function of the same block (passed on, called, or bound again), so the port cannot "
            f"tell which functions it registers: move each to `Server(on_{_kwarg(alias.decorator)}=…)` by hand"
        )
    return None


@dataclass
class LowlevelPort:
    """Everything the port of one low-level server changes (shared by its findings)."""

    ctor_stmt: cst.SimpleStatementLine | None  # None: built elsewhere, registered in place
    ctor: cst.Call | None
    server: str
    handlers: list[Handler] = field(default_factory=list)
    adapters: dict[int, str] = field(default_factory=dict)  # id(fn) -> adapter name
    wrap_results: bool = False  # the tool handler may return more than content: 1.x's full wrapping
    validate: bool = True  # ``call_tool(validate_input=False)``: the arguments are not checked
    # id(fn) -> the parameter under which a handler takes the request context its adapter passes
    # (a `server.request_context` read threaded to it, MCP505: codemods.port.context)
    contexts: dict[int, str] = field(default_factory=dict)
    # handlers that are methods registered by calling the decorator on the bound method
    # (``self.server.call_tool()(self.call)``): ``self.`` — each adapter is a method next to its
    # handler, registered where the decorator was called (``add_request_handler``)
    receiver: str = ""
    registrations: dict[int, cst.SimpleStatementLine] = field(default_factory=dict)  # id(fn) -> the call's line

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        spell = {n: edits.import_name(analysis, TYPES, n) for n in _type_names(self)}
        spell["ServerRequestContext"] = edits.import_name(analysis, CONTEXT_MODULE, "ServerRequestContext")
        shapes = {S.LOWLEVEL_DECORATOR_PORTS[h.decorator][3] for h in self.handlers}
        if shapes & ERROR_SHAPES:
            spell["MCPError"] = edits.import_name(analysis, ERRORS_MODULE, "MCPError")
        if shapes & {"read", "uri"}:
            spell["AnyUrl"] = edits.import_name(analysis, "pydantic", "AnyUrl")
        if "complete" in shapes:
            spell["Completion"] = edits.import_name(analysis, TYPES, "Completion")
        if any(h.decorator == "read_resource" for h in self.handlers):
            for n in ("TextResourceContents", "BlobResourceContents"):
                spell[n] = edits.import_name(analysis, TYPES, n)
            edits.add_import("base64")
            if any(h.decorator == "read_resource" and not _content_only(h.fn) for h in self.handlers):
                spell["ReadResourceContents"] = edits.import_name(analysis, HELPER_TYPES, "ReadResourceContents")
        if any(h.decorator == "call_tool" for h in self.handlers):
            spell["TextContent"] = edits.import_name(analysis, TYPES, "TextContent")
            if _lister(self) is not None and (self.validate or self.wrap_results):
                edits.add_import("jsonschema")
            if self.wrap_results:
                edits.add_import("json")
        kwargs = []
        last = self.handlers[-1].fn
        # blank lines before each added statement: two at module level (PEP 8), one in a function
        gap = [cst.EmptyLine(indent=False)] * (2 if isinstance(analysis.parents.get(id(last)), cst.Module) else 1)
        for h in self.handlers:
            if id(h.fn) in self.contexts:
                context.add_param(edits, analysis, h.fn, self.contexts[id(h.fn)], lowlevel=True)
        for h in self.handlers:
            adapter = self.adapters[id(h.fn)]
            code = _adapter_code(h, adapter, spell, self)
            if id(h.fn) in self.registrations:  # `…()(handler)`: the registration takes the call's place
                method, params_t, _r, _s = S.LOWLEVEL_DECORATOR_PORTS[h.decorator]
                line = self.registrations[id(h.fn)]
                kept = {"trailing_whitespace": line.trailing_whitespace} if not self.receiver else {}
                edits.replace(
                    line,
                    cst.parse_statement(
                        f'{self.server}.add_request_handler("{method}", {spell[params_t]}, {self.receiver}{adapter})\n'
                    ).with_changes(leading_lines=line.leading_lines, **kept),
                )
                edits.transform(h.fn, _flatten_with(None, code, None, gap))
                continue
            kwargs.append(cst.Arg(cst.Name(adapter), keyword=cst.Name(f"on_{_kwarg(h.decorator)}"), equal=_EQ))
            new_ctor: cst.BaseStatement | None = None
            if self.ctor_stmt is None:
                method, params_t, _r, _s = S.LOWLEVEL_DECORATOR_PORTS[h.decorator]
                new_ctor = cst.parse_statement(
                    f'{self.server}.add_request_handler("{method}", {spell[params_t]}, {adapter})\n'
                ).with_changes(leading_lines=gap)  # ruff format's blank lines after a function
            elif h.fn is last:
                assert self.ctor is not None
                new_ctor = self.ctor_stmt.with_changes(
                    leading_lines=gap,
                    body=[self.ctor_stmt.body[0].with_changes(value=_ctor_with(self.ctor, kwargs))],
                )
            deco = h.deco if isinstance(h.deco, cst.Decorator) else None
            edits.transform(h.fn, _flatten_with(deco, code, new_ctor, gap))
        if self.ctor_stmt is not None:
            edits.remove(self.ctor_stmt)
        for h in self.handlers:
            if h.alias is not None:
                edits.remove(h.alias.stmt)


def _kwarg(decorator: str) -> str:
    return "completion" if decorator == "completion" else decorator


def _type_names(port: LowlevelPort) -> list[str]:
    names: list[str] = []
    for h in port.handlers:
        _m, params, result, _shape = S.LOWLEVEL_DECORATOR_PORTS[h.decorator]
        for n in (params, result):
            if n not in names:
                names.append(n)
    return names


def _lister(port: LowlevelPort) -> Handler | None:
    return next((h for h in port.handlers if h.decorator == "list_tools"), None)


def _ctor_with(ctor: cst.Call, kwargs: list[cst.Arg]) -> cst.Call:
    args = []
    for i, arg in enumerate(ctor.args):
        if i and arg.keyword is None and arg.star == "":
            arg = arg.with_changes(keyword=cst.Name(LL_V1_POSITIONAL[i]), equal=_EQ)
        args.append(arg.with_changes(comma=cst.MaybeSentinel.DEFAULT))
    return ctor.with_changes(args=[*args, *kwargs])


def _flatten_with(deco: cst.Decorator | None, code: str, ctor: cst.BaseStatement | None, gap: list[cst.EmptyLine]):
    def apply(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.FlattenSentinel:
        assert isinstance(upd, cst.FunctionDef)
        fn = upd.with_changes(decorators=[d for d, o in zip(upd.decorators, orig.decorators) if o is not deco])  # type: ignore[attr-defined]
        adapter = cst.parse_statement(code)
        adapter = adapter.with_changes(leading_lines=gap)
        out: list[cst.BaseStatement] = [fn, adapter]
        if ctor is not None:
            out.append(ctor)  # the moved constructor, or the adapter's registration
        return cst.FlattenSentinel(out)

    return apply


def _adapter_code(h: Handler, adapter: str, spell: dict[str, str], port: LowlevelPort) -> str:
    """The source of the mcp 2.x ``on_*`` adapter that calls the 1.x handler ``h`` (``adapter``: its
    name; ``spell``: each SDK name as the module spells it), one template per handler shape
    (paginated listings, ``resources/read``, ``prompts/get``, ``tools/call`` with or without 1.x's
    result wrapping and schema checks).

    Over 80 lines on purpose: each branch is the generated function written out top to bottom, as
    it lands in the user's file, next to the comment saying which 1.x behaviour it keeps; split
    into helpers, a template would be read in pieces across functions."""
    _m, params_t, result_t, shape = S.LOWLEVEL_DECORATOR_PORTS[h.decorator]
    ctx_t = spell["ServerRequestContext"]
    P, R, f = spell[params_t], spell[result_t], port.receiver + h.fn.name.value
    kw = port.contexts.get(id(h.fn))
    this = "self, " if port.receiver else ""

    def call(*args: str) -> str:  # the handler's call, passing the context where it takes it
        passed = [*args, f"{kw}=ctx"] if kw else list(args)
        return f"{f}(" + ", ".join(passed) + ")"

    if params_t == "PaginatedRequestParams":
        head = f"async def {adapter}({this}ctx: {ctx_t}, params: {P} | None) -> {R}:\n"
        if _returns_list(h.fn):
            return head + f"    return {R}({shape}=list(await {call()}))\n"
        return (
            head
            + f"    result = await {call()}\n    return result if isinstance(result, {R}) else {R}({shape}=list(result))\n"
        )
    head = f"async def {adapter}({this}ctx: {ctx_t}, params: {P}) -> {R}:\n"
    if shape == "read":
        # 1.x parsed the URI as an AnyUrl (the handler reads it so), answered each
        # ReadResourceContents as text or base64 blob contents under that (normalised) URI
        err, any_url = spell["MCPError"], spell["AnyUrl"]
        text_t, blob_t = spell["TextResourceContents"], spell["BlobResourceContents"]
        items = f"        for item in await {call('uri')}:\n"
        if not _content_only(h.fn):  # 1.x also took a bare str or bytes, as one content of the default type
            items = (
                f"        result = await {call('uri')}\n"
                "        if isinstance(result, (str, bytes)):\n"
                f"            result = [{spell['ReadResourceContents']}(content=result)]\n"
                "        for item in result:\n"
            )
        return head + (
            "    try:\n"
            f"        uri = {any_url}(params.uri)\n"
            "        contents = []\n"
            + items
            + '            meta = {"_meta": item.meta} if getattr(item, "meta", None) is not None else {}\n'
            "            if isinstance(item.content, str):\n"
            f'                contents.append({text_t}(uri=str(uri), text=item.content, mime_type=item.mime_type or "text/plain", **meta))\n'
            "            else:\n"
            f"                blob = base64.b64encode(item.content).decode()\n"
            f'                contents.append({blob_t}(uri=str(uri), blob=blob, mime_type=item.mime_type or "application/octet-stream", **meta))\n'
            f"    except {err}:\n        raise\n"
            f"    except Exception as exc:\n        raise {err}(0, str(exc)) from exc\n"
            f"    return {R}(contents=contents)\n"
        )
    if shape in ("get", "level", "uri", "complete"):
        err = spell["MCPError"]
        if shape == "get":
            body, tail = f"return await {call('params.name', 'params.arguments')}", ""
        elif shape == "complete":  # 1.x answered None with an empty completion
            body = f"completion = await {call('params.ref', 'params.argument', 'params.context')}"
            empty = f"{spell['Completion']}(values=[], total=None, has_more=None)"
            tail = f"    return {R}(completion=completion if completion is not None else {empty})\n"
        else:  # the level as sent; the URI parsed as an AnyUrl, as 1.x passed it
            arg = "params.level" if shape == "level" else spell["AnyUrl"] + "(params.uri)"
            body, tail = f"await {call(arg)}", f"    return {R}()\n"
        return head + (
            f"    try:\n        {body}\n"
            f"    except {err}:\n        raise\n"
            f"    except Exception as exc:\n        raise {err}(0, str(exc)) from exc\n" + tail
        )
    text = spell["TextContent"]
    lister = _lister(port)
    body = "    arguments = params.arguments or {}\n    try:\n"
    lookup = (
        f"        tool = next((t for t in await {port.receiver}{lister.fn.name.value}() if t.name == params.name), None)\n"
        if lister is not None
        else ""
    )
    if lister is not None and port.validate:  # `validate_input=False`: 1.x read the listing for the output only
        body += lookup + (
            "        if tool is not None:\n"
            "            try:\n"
            "                jsonschema.validate(instance=arguments, schema=tool.input_schema)\n"
            "            except jsonschema.ValidationError as exc:\n"
            f'                return {R}(content=[{text}(type="text", text=f"Input validation error: {{exc.message}}")], is_error=True)\n'
        )
    if not port.wrap_results:
        body += (
            f"        content = await {call('params.name', 'arguments')}\n"
            "    except Exception as exc:\n"
            f'        return {R}(content=[{text}(type="text", text=str(exc))], is_error=True)\n'
            f"    return {R}(content=list(content), is_error=False)\n"
        )
        return head + body
    # what 1.x's decorator did with any other result: a CallToolResult as is, (content,
    # structured), a dict as structured content and its JSON as text; the output schema checked
    body += (
        f"        result = await {call('params.name', 'arguments')}\n"
        f"        if isinstance(result, {R}):\n            return result\n"
        "        if isinstance(result, tuple) and len(result) == 2:\n            content, structured = result\n"
        "        elif isinstance(result, dict):\n"
        f'            content, structured = [{text}(type="text", text=json.dumps(result, indent=2))], result\n'
        "        else:\n            content, structured = result, None\n"
    )
    if lister is not None:
        body += ("" if port.validate else lookup) + (
            "        if tool is not None and tool.output_schema is not None:\n"
            "            if structured is None:\n"
            f'                return {R}(content=[{text}(type="text", text="Output validation error: outputSchema defined but no structured output returned")], is_error=True)\n'
            "            try:\n"
            "                jsonschema.validate(instance=structured, schema=tool.output_schema)\n"
            "            except jsonschema.ValidationError as exc:\n"
            f'                return {R}(content=[{text}(type="text", text=f"Output validation error: {{exc.message}}")], is_error=True)\n'
        )
    body += (
        "    except Exception as exc:\n"
        f'        return {R}(content=[{text}(type="text", text=str(exc))], is_error=True)\n'
        f"    return {R}(content=list(content), structured_content=structured, is_error=False)\n"
    )
    return head + body


def _returns_list(fn: cst.FunctionDef) -> bool:
    """The function is annotated to return a list (or sequence) of items."""
    ann = fn.returns.annotation if fn.returns else None
    if isinstance(ann, cst.Subscript):
        ann = ann.value
    if isinstance(ann, cst.Attribute):
        ann = ann.attr
    return isinstance(ann, cst.Name) and ann.value in LIST_LIKE


def _content_only(fn: cst.FunctionDef) -> bool:
    """A handler whose 1.x result is a list (of content blocks, of resource contents): annotated
    so, or every ``return`` of its own body returns a list display or comprehension."""
    if _returns_list(fn):
        return True
    returns = [n for n in _own_returns(fn.body)]
    return bool(returns) and all(isinstance(r.value, (cst.List, cst.ListComp)) for r in returns)


def _own_returns(node: cst.CSTNode) -> list[cst.Return]:
    out: list[cst.Return] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Return):
            out.append(n)
        elif not isinstance(n, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            stack.extend(n.children)
    return out


def plan(
    analysis: ModuleAnalysis, ctor_stmt: cst.SimpleStatementLine | None, server: str, handlers: list[Handler]
) -> FixPlan:
    """The port of one low-level server's decorator handlers, or why it is left for a human
    (the guide section to read is named)."""
    section = f"read “{GUIDE_DECORATORS}” in {S.MIGRATION_GUIDE} and move the handlers by hand"
    manual = [h.decorator for h in handlers if h.decorator not in S.LOWLEVEL_DECORATOR_PORTS]
    if manual:
        return _without_port(f"`@{server}.{manual[0]}()`", section)
    if ctor_stmt is None:
        why, body = _registered_in_place(analysis, server, handlers, section)
        ctor = None
    else:
        why, body, ctor = _moved_constructor(analysis, ctor_stmt, server, handlers, section)
    if why is not None:
        return FixPlan(manual=why)
    return checked(analysis, server, handlers, section, body, ctor_stmt, ctor)


def _without_port(spelled: str, section: str) -> FixPlan:
    return FixPlan(manual=f"{spelled} has no automatic port yet: {section}")


def handler_plan(plan: FixPlan, h: Handler, handlers: list[Handler], spelled: str) -> FixPlan:
    """The plan of handler ``h`` of a server whose handlers are ``handlers`` (``plan``: theirs):
    where another handler of the same server has no automatic port, a handler that has one says in
    its own words why it stays (one server's handlers move together); ``spelled``: how a
    registration reads up to the decorator's name (```@server.``)."""
    blocker = next((g.decorator for g in handlers if g.decorator not in S.LOWLEVEL_DECORATOR_PORTS), None)
    if blocker is None or h.decorator not in S.LOWLEVEL_DECORATOR_PORTS:
        return plan
    section = f"read “{GUIDE_DECORATORS}” in {S.MIGRATION_GUIDE} and move the handlers by hand"
    return FixPlan(
        manual=f"{spelled}{h.decorator}()` has an automatic port, but the handlers of one server move together and "
        f"{spelled}{blocker}()` of the same server has none yet: {section}"
    )


RECEIVER = "self."


def bound_registration(
    analysis: ModuleAnalysis, call: cst.Call, fn: FunctionInfo | None
) -> tuple[int, str, Handler] | None:
    """``self.<server>.<decorator>()(self.<method>)`` in a method, on a low-level ``Server``
    attribute, naming a method of the same class: ``(id of the class, "self.<server>", handler)``."""
    deco = call.func
    if fn is None or fn.class_name is None or len(call.args) != 1:
        return None
    if not (isinstance(deco, cst.Call) and isinstance(deco.func, cst.Attribute)):
        return None
    attr = deco.func.attr.value
    if attr not in S.LOWLEVEL_DECORATOR_PORTS and attr not in S.LOWLEVEL_DECORATORS_MANUAL:
        return None
    recv, target = deco.func.value, call.args[0].value
    if not (
        isinstance(recv, cst.Attribute)
        and isinstance(recv.value, cst.Name)
        and recv.value.value == "self"
        and isinstance(target, cst.Attribute)
        and isinstance(target.value, cst.Name)
        and target.value.value == "self"
        and call.args[0].keyword is None
        and not call.args[0].star
    ):
        return None
    if analysis.kind_of(recv, fn) is not Kind.SERVER_LL:
        return None
    method = analysis.function_named(target.attr.value, fn.class_name)
    if method is None:
        return None
    cls = analysis.parents.get(id(analysis.parents.get(id(method.node))))
    return id(cls), f"self.{recv.attr.value}", Handler(attr, method.node, call)


def plan_bound(analysis: ModuleAnalysis, server: str, handlers: list[Handler]) -> FixPlan:
    """The port of the handlers of one class's low-level server registered by calling the
    decorator on bound methods (``self.server.call_tool()(self.call)``): each adapter is a method
    of the class next to its handler, registered in place of the call with mcp 2.x's
    ``add_request_handler`` (the server's constructor stays as written)."""
    section = f"read “{GUIDE_DECORATORS}” in {S.MIGRATION_GUIDE} and move the handlers by hand"
    manual = [h.decorator for h in handlers if h.decorator not in S.LOWLEVEL_DECORATOR_PORTS]
    if manual:
        return _without_port(f"`{server}.{manual[0]}()`", section)
    lines: dict[int, cst.SimpleStatementLine] = {}
    for h in handlers:
        expr = analysis.parents.get(id(h.deco))
        line = analysis.parents.get(id(expr))
        if not (isinstance(expr, cst.Expr) and isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1):
            return FixPlan(manual=f"`{server}.{h.decorator}()(...)` is not a statement of its own: {section}")
        lines[id(h.fn)] = line
    if len({h.decorator for h in handlers}) != len(handlers):
        return FixPlan(manual=f"a handler kind is registered twice on `{server}`: {section}")
    block = analysis.parents.get(id(handlers[0].fn))
    body = list(getattr(block, "body", ()))
    if any(h.fn not in body for h in handlers):
        return FixPlan(manual=f"the handlers on `{server}` are not methods of one class: {section}")
    p = checked(analysis, server, handlers, section, body, None, None, receiver=RECEIVER)
    if isinstance(p.site, LowlevelPort):
        p.site.registrations = lines
    return p


def checked(
    analysis: ModuleAnalysis,
    server: str,
    handlers: list[Handler],
    section: str,
    body: list,
    ctor_stmt: cst.SimpleStatementLine | None,
    ctor: cst.Call | None,
    receiver: str = "",
) -> FixPlan:
    """The checks every handler of a ported server passes, and the port's site."""
    validated = True
    for h in handlers:
        if h.fn.asynchronous is None:
            return FixPlan(manual=f"`{h.fn.name.value}` is not `async`: {section}")
        if (validate := _validate_input(h)) is None:
            return FixPlan(manual=f"`@{server}.{h.decorator}(...)` takes arguments the port does not map: {section}")
        if not validate:
            validated = False
        params = h.fn.params
        if h.decorator.startswith("list_") and (
            params.params[1 if receiver else 0 :] or isinstance(params.star_arg, cst.Param) or params.kwonly_params
        ):
            return FixPlan(manual=f"`{h.fn.name.value}` takes the request (the 1.x form returning a result): {section}")
        if h.decorator == "call_tool" and _mentions(analysis, ("UrlElicitationRequiredError",)):
            return FixPlan(
                manual=f"a tool raises UrlElicitationRequiredError, which 1.x's `call_tool` decorator re-raised: {section}"
            )
    wrap_results = any(h.decorator == "call_tool" and not _content_only(h.fn) for h in handlers) or _mentions(
        analysis, ("outputSchema", "output_schema")
    )
    taken = set(all_name_values(analysis))
    if "jsonschema" in taken and any(h.decorator == "call_tool" for h in handlers):
        return FixPlan(manual=f"the module already uses the name `jsonschema`: {section}")
    if wrap_results and "json" in taken and not _bound_module(analysis, "json"):
        return FixPlan(manual=f"the module already uses the name `json` for something else: {section}")
    if "base64" in taken and any(h.decorator == "read_resource" for h in handlers):
        if not _bound_module(analysis, "base64"):
            return FixPlan(manual=f"the module already uses the name `base64` for something else: {section}")
    port = LowlevelPort(ctor_stmt, ctor, server, sorted(handlers, key=lambda h: body.index(h.fn)), receiver=receiver)
    port.wrap_results = wrap_results and any(h.decorator == "call_tool" for h in handlers)
    port.validate = validated
    for h in port.handlers:
        port.adapters[id(h.fn)] = fresh(taken, f"on_{_kwarg(h.decorator)}")
        if (name := context.handler_context(analysis, h.fn)) is not None:
            port.contexts[id(h.fn)] = name
    for n in (*_type_names(port), "TextContent"):
        import_name(analysis, TYPES, n)  # the spelling the edits will use exists (aliases when taken)
    review = subscribe_declared(handlers, whole=ctor_stmt is not None)
    return FixPlan(fix=_fix(in_place=ctor_stmt is None, validate=validated, review=review), site=port)


def _validate_input(h: Handler) -> bool | None:
    """What ``validate_input`` the decorator of ``h`` is called with (``True`` without arguments),
    or None when it takes arguments the port does not map (``call_tool(validate_input=<bool>)`` is
    the only one)."""
    if h.alias is not None and h.alias.called is not None:
        deco: cst.BaseExpression = h.alias.called
    else:
        deco = h.deco.decorator if isinstance(h.deco, cst.Decorator) else h.deco.func
    args = deco.args if isinstance(deco, cst.Call) else ()
    if not args:
        return True
    (arg, *more) = args
    if more or h.decorator != "call_tool" or arg.keyword is None or arg.keyword.value != "validate_input":
        return None
    value = arg.value
    if isinstance(value, cst.Name) and value.value in ("True", "False"):
        return value.value == "True"
    return None


def _registered_in_place(
    analysis: ModuleAnalysis, server: str, handlers: list[Handler], section: str
) -> tuple[str | None, list]:
    """A server built outside this module's view: the handlers are statements of one block
    (each adapter is registered right after it), each kind once."""
    block = analysis.parents.get(id(handlers[0].fn))
    body = list(getattr(block, "body", ()))
    if any(h.fn not in body for h in handlers):
        return f"the handlers on `{server}` are not statements of one block: {section}", body
    if len({h.decorator for h in handlers}) != len(handlers):
        return f"a handler kind is registered twice on `{server}`: {section}", body
    return None, body


def _moved_constructor(
    analysis: ModuleAnalysis, ctor_stmt: cst.SimpleStatementLine, server: str, handlers: list[Handler], section: str
) -> tuple[str | None, list, cst.Call]:
    """The constructor can move below the last handler (nothing between uses the server)."""
    block = analysis.parents.get(id(ctor_stmt))
    body = list(getattr(block, "body", ()))
    ctor = ctor_stmt.body[0].value  # type: ignore[attr-defined]
    if ctor_stmt not in body:
        return f"the `Server(...)` is not a statement of a block: {section}", body, ctor
    start = body.index(ctor_stmt)
    positions = []
    for h in handlers:
        if h.fn not in body:
            return f"`{h.fn.name.value}` is not defined next to `{server} = Server(...)`: {section}", body, ctor
        positions.append(body.index(h.fn))
    if min(positions) < start:
        return f"a handler is defined before `{server} = Server(...)`: {section}", body, ctor
    if len({h.decorator for h in handlers}) != len(handlers):
        return f"a handler kind is registered twice on `{server}`: {section}", body, ctor
    ctor_names = {n.value for n in ref_names(ctor)}
    handler_ids = {id(h.fn) for h in handlers} | {id(h.alias.stmt) for h in handlers if h.alias is not None}
    for stmt in body[start + 1 : max(positions) + 1]:
        if id(stmt) in handler_ids:
            continue
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            uses = any(name_refs(d, server) for d in stmt.decorators)
        else:
            uses = bool(name_refs(stmt, server))
        if uses:
            return f"`{server}` is used between its construction and its last handler: {section}", body, ctor
        if assigned(stmt) & (ctor_names | {server}):
            return f"a name the `Server(...)` call reads is rebound before the last handler: {section}", body, ctor
    if any(a.star for a in ctor.args) or len([a for a in ctor.args if a.keyword is None]) > len(LL_V1_POSITIONAL):
        return f"the `Server(...)` call passes `*args`/`**kwargs`: {section}", body, ctor
    return None, body, ctor


def _mentions(analysis: ModuleAnalysis, words: tuple[str, ...]) -> bool:
    code = analysis.code()
    return any(w in code for w in words)


def _bound_module(analysis: ModuleAnalysis, name: str) -> bool:
    """``name`` is bound by a plain ``import name`` of the module and nothing else."""
    return analysis.imports.get(name) == name
