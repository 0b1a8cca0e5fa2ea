# The shapes of mcp-use's own roots tools (field case requests-19): the roots listed with their
# names and counted (primitive_server.py `get_client_roots`), asked inside a `try` whose `except`
# answers the error while the context stays in use (examples/server/context_example.py), and the
# first root's path.
import json

from mcp_use.server import Context, MCPServer

server = MCPServer(name="frames")


@server.tool()
async def listing(ctx: Context) -> str:
    roots = await ctx.list_roots()
    if not roots:
        return json.dumps({"roots": [], "count": 0})
    return json.dumps({"roots": [{"uri": str(r.uri), "name": r.name} for r in roots], "count": len(roots)})


@server.tool()
async def described(context: Context) -> str:
    try:
        roots = await context.list_roots()
        if not roots:
            return "none"
        lines = [f"{context.request_id is not None}: {len(roots)}"]
        for root in roots:
            lines.append(f"{root.name or '(unnamed)'}: {root.uri}")
        return "\n".join(lines)
    except Exception as e:
        return f"error: {e}"


@server.tool()
async def first_dir(ctx: Context) -> str:
    roots = await ctx.list_roots()
    return roots[0].uri.path
