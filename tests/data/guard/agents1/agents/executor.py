"""An agent answers through the client's model (sampling); a client without it gets the prompt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp.types import CreateMessageRequestParams, ModelHint, ModelPreferences, SamplingMessage, TextContent

if TYPE_CHECKING:
    from mcp.server.fastmcp import FastMCP


class AgentExecutor:
    def __init__(self, name: str, server: FastMCP) -> None:
        self.name = name
        self.server = server

    async def execute(self, task: str, budget: str = "200") -> str:
        prompt = f"You are the {self.name}."
        try:
            params = CreateMessageRequestParams(
                messages=[SamplingMessage(role="user", content=TextContent(type="text", text=task))],
                systemPrompt=prompt,
                modelPreferences=ModelPreferences(hints=[ModelHint(name="small")]),
                maxTokens=int(budget),
            )

            ctx = self.server.get_context()
            result = await ctx.session.create_message(
                messages=params.messages,
                system_prompt=params.systemPrompt,
                model_preferences=params.modelPreferences,
                max_tokens=params.maxTokens,
            )
            if hasattr(result.content, "text"):
                return str(result.content.text)
            return str(result.content)
        except Exception as e:
            error_msg = str(e)
            if "Method not found" in error_msg:
                return f"{self.name} cannot sample here; prompt: {prompt} {task}"
            return f"{self.name} failed: {e}"
