from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import UrlElicitationRequiredError

from app import mcp
from helpers import tag
import helpers as h


def _both(q: str, ctx: Context) -> list[str]:
    return [tag(q, ctx=ctx), h.tag(q, upper=True, ctx=ctx)]


@mcp.tool()
def lookup(q: str, ctx: Context) -> str:
    try:
        return " / ".join(_both(q, ctx=ctx))
    except (ToolError, UrlElicitationRequiredError):
        raise
    except Exception as exc:
        raise ToolError(str(exc)) from exc


@mcp.tool()
async def shout(q: str, context: Context) -> str:
    try:
        return tag(q, True, ctx=context)
    except (ToolError, UrlElicitationRequiredError):
        raise
    except Exception as exc:
        raise ToolError(str(exc)) from exc


@mcp.prompt()
def ask(topic: str, ctx: Context) -> str:
    return f"Ask about {tag(topic, ctx=ctx)}"


if __name__ == "__main__":
    mcp.run()
