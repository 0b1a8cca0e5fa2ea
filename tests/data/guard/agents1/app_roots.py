"""Agents as tools (mcp 1.x FastMCP): one tool names the agent, a factory makes one tool per agent."""

from mcp.server.fastmcp import Context, FastMCP

from agents.executor import AgentExecutor

mcp = FastMCP("agents")


async def _workspace(ctx: Context) -> str:
    try:
        listed = await ctx.session.list_roots()
        return str(listed.roots[0].uri) if listed.roots else "."
    except Exception:
        return "."


@mcp.tool()
async def ask_agent(agent: str, task: str, ctx: Context, budget: str = "200") -> str:
    """Ask the named agent."""
    try:
        where = await _workspace(ctx)
        executor = AgentExecutor(agent, mcp)
        return await executor.execute(f"{task} in {where}", budget)
    except Exception as e:
        return f"Agent execution failed: {e}"


def register_agents(names: list[str]) -> None:
    for name in names:

        def make_tool(agent: str):
            async def agent_tool(task: str) -> str:
                executor = AgentExecutor(agent, mcp)
                return await executor.execute(task)

            agent_tool.__doc__ = f"Ask {agent}."
            return agent_tool

        tool_func = make_tool(name)
        mcp.add_tool(fn=tool_func, name=f"ask_{name}", description=f"Ask {name}.")


register_agents(["planner"])
