"""Shop tools, registered from a class."""

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import UrlElicitationRequiredError
from mcp.types import InputRequiredResult

from shop.consent import confirm


class ShopTools:
    def register(self, server: MCPServer) -> None:
        server.tool(name="drop_table")(self.drop_table)
        server.tool(name="wipe_cart")(self.wipe_cart)

    async def drop_table(self, ctx: Context, table: str) -> str | InputRequiredResult:
        try:
            try:
                interim = await confirm(
                    f"Drop table {table}.", "I know the rows are gone for good.", ctx
                )
                if isinstance(interim, InputRequiredResult):
                    return interim
            except ValueError as e:
                return f"not dropped: {e}"
            return f"dropped {table}"
        except (ToolError, UrlElicitationRequiredError):
            raise
        except Exception as exc:
            raise ToolError(str(exc)) from exc

    async def wipe_cart(
        self, ctx: Context, cart: str, keep_saved: bool = False
    ) -> str | InputRequiredResult:
        try:
            what = "unsaved items" if keep_saved else "every item"
            try:
                interim = await confirm(
                    f"Wipe {what} of cart {cart}.", f"I know {what} of {cart} go.", ctx
                )
                if isinstance(interim, InputRequiredResult):
                    return interim
            except ValueError as e:
                return f"not wiped: {e}"
            return f"wiped {what} of {cart}"
        except (ToolError, UrlElicitationRequiredError):
            raise
        except Exception as exc:
            raise ToolError(str(exc)) from exc
