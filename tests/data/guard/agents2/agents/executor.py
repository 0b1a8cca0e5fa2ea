"""An agent answers through the client's model (sampling); a client without it gets the prompt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError
from mcp.types import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ClientCapabilities,
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    InputRequiredResult,
    ModelHint,
    ModelPreferences,
    SamplingMessage,
    TextContent,
)
from mcp.types.version import is_version_at_least

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer


class AgentExecutor:
    def __init__(self, name: str, server: MCPServer) -> None:
        self.name = name
        self.server = server

    async def execute(
        self, task: str, budget: str = "200", *, ctx: Context
    ) -> str | InputRequiredResult:
        prompt = f"You are the {self.name}."
        try:
            params = CreateMessageRequestParams(
                messages=[SamplingMessage(role="user", content=TextContent(type="text", text=task))],
                systemPrompt=prompt,
                modelPreferences=ModelPreferences(hints=[ModelHint(name="small")]),
                maxTokens=int(budget),
            )
            if is_version_at_least(ctx.protocol_version, "2026-07-28"):
                result = (ctx.input_responses or {}).get("execute.result")
                if not isinstance(result, CreateMessageResult):
                    declared = ctx.session.client_capabilities or ClientCapabilities()
                    if declared.sampling is None:
                        raise MCPError(
                            MISSING_REQUIRED_CLIENT_CAPABILITY,
                            "Client did not declare the sampling capability required by input request 'execute.result'",
                            {"requiredCapabilities": {"sampling": {}}},
                        )
                    return InputRequiredResult(
                        input_requests={
                            "execute.result": CreateMessageRequest(
                                params=CreateMessageRequestParams(
                                    messages=params.messages,
                                    system_prompt=params.system_prompt,
                                    model_preferences=params.model_preferences,
                                    max_tokens=params.max_tokens,
                                )
                            )
                        }
                    )
            else:
                result = await ctx.session.create_message(
                    messages=params.messages,
                    system_prompt=params.system_prompt,
                    model_preferences=params.model_preferences,
                    max_tokens=params.max_tokens,
                )
            if hasattr(result.content, "text"):
                return str(result.content.text)
            return str(result.content)
        except Exception as e:
            error_msg = str(e)
            if (
                "Method not found" in error_msg
                or isinstance(e, MCPError) and e.code == MISSING_REQUIRED_CLIENT_CAPABILITY
            ):
                return f"{self.name} cannot sample here; prompt: {prompt} {task}"
            return f"{self.name} failed: {e}"
