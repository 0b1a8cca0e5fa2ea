from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import UrlElicitationRequiredError

from agents import Runner

mcp = MCPServer("crew")


@mcp.tool()
async def ask(task: str, ctx: Context) -> str:
    try:
        runner = Runner(mcp)
        return await runner.run(task, ctx=ctx)
    except (ToolError, UrlElicitationRequiredError):
        raise
    except Exception as exc:
        raise ToolError(str(exc)) from exc


def _register(names: list[str]) -> None:
    for name in names:

        def make(label: str):
            async def crew_tool(task: str, ctx: Context) -> str:
                runner = Runner(mcp)
                return await runner.run(task, f"{label}: ", ctx=ctx)

            crew_tool.__doc__ = f"Ask {label}"
            return crew_tool

        tool_func = make(name)
        mcp.add_tool(tool_func, name=f"ask_{name}")


_register(["alice"])

if __name__ == "__main__":
    mcp.run()
