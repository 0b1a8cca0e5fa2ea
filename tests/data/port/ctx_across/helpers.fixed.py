from mcp.server.mcpserver import Context


def signature(ctx: Context) -> str:
    return f"{ctx.mcp_server.name}#{ctx.request_id is not None}"


def tag(q: str, upper: bool = False, *, ctx: Context) -> str:
    text = q.upper() if upper else q
    return f"{text} ({signature(ctx=ctx)})"
