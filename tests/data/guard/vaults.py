"""Vault tools registered from a class; closing a vault with linked vaults asks for consent."""

from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp.types import METHOD_NOT_FOUND
from pydantic import BaseModel, Field

mcp = MCPServer("vaults")


class VaultTools:
    def register(self, server: MCPServer) -> None:
        server.tool(name="close_vault")(self.close_vault)

    async def close_vault(self, ctx: Context, vault: str, linked: str = "") -> str:
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
                reply = await ctx.elicit(message=f"Close vault {vault}?", schema=Consent)
                if reply.action != "accept" or not reply.data.confirm:
                    return "rejected by the user"
                close_linked = reply.data.close_linked
            except MCPError as e:
                if e.code == METHOD_NOT_FOUND:
                    return "this client cannot confirm: nothing closed"
                raise e
        return f"closed {vault}" + (f" after {linked}" if close_linked else "")


VaultTools().register(mcp)
