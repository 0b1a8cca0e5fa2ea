"""Vault tools registered from a class; closing a vault with linked vaults asks for consent."""

from mcp.server.elicitation import (
    AcceptedElicitation,
    CancelledElicitation,
    DeclinedElicitation,
    render_elicitation_schema,
)
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp.types import (
    METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ClientCapabilities,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
)
from mcp.types.version import is_version_at_least
from pydantic import BaseModel, Field

mcp = MCPServer("vaults")


class VaultTools:
    def register(self, server: MCPServer) -> None:
        server.tool(name="close_vault")(self.close_vault)

    async def close_vault(
        self, ctx: Context, vault: str, linked: str = ""
    ) -> str | InputRequiredResult:
        """Close a vault (and, if the user agrees, its linked vaults first)."""
        close_linked = False
        if linked:
            try:
                Consent = type(
                    "Consent",
                    (BaseModel,),
                    {
                        "__annotations__": {"close_linked": bool, "confirm": bool},
                        "close_linked": Field(default=False, description=f"Close {linked} first."),
                        "confirm": Field(description="I understand the vault goes offline."),
                    },
                )
                if is_version_at_least(ctx.protocol_version, "2026-07-28"):
                    reply = (ctx.input_responses or {}).get("reply")
                    if not isinstance(reply, ElicitResult):
                        declared = (
                            ctx.session.client_capabilities or ClientCapabilities()
                        )
                        if declared.elicitation is None or (
                            declared.elicitation.form is None
                            and declared.elicitation.url is not None
                        ):
                            raise MCPError(
                                MISSING_REQUIRED_CLIENT_CAPABILITY,
                                "Client did not declare the form elicitation capability required by input request 'reply'",
                                {"requiredCapabilities": {"elicitation": {"form": {}}}},
                            )
                        return InputRequiredResult(
                            input_requests={
                                "reply": ElicitRequest(
                                    params=ElicitRequestFormParams(
                                        message=f"Close vault {vault}?",
                                        requested_schema=render_elicitation_schema(
                                            Consent
                                        ),
                                    )
                                )
                            }
                        )
                    reply = (
                        AcceptedElicitation(data=Consent.model_validate(reply.content))
                        if reply.action == "accept"
                        else DeclinedElicitation()
                        if reply.action == "decline"
                        else CancelledElicitation()
                    )
                else:
                    reply = await ctx.elicit(
                        message=f"Close vault {vault}?", schema=Consent
                    )
                if reply.action != "accept" or not reply.data.confirm:
                    return "rejected by the user"
                close_linked = reply.data.close_linked
            except MCPError as e:
                if e.code in (METHOD_NOT_FOUND, MISSING_REQUIRED_CLIENT_CAPABILITY):
                    return "this client cannot confirm: nothing closed"
                raise e
        return f"closed {vault}" + (f" after {linked}" if close_linked else "")


VaultTools().register(mcp)
