"""Shop tools, registered from a class."""

from mcp.server.fastmcp import Context, FastMCP

from shop.consent import confirm


class ShopTools:
    def register(self, server: FastMCP) -> None:
        server.tool(name="drop_table")(self.drop_table)
        server.tool(name="wipe_cart")(self.wipe_cart)

    async def drop_table(self, ctx: Context, table: str) -> str:
        try:
            await confirm(f"Drop table {table}.", "I know the rows are gone for good.", ctx)
        except ValueError as e:
            return f"not dropped: {e}"
        return f"dropped {table}"

    async def wipe_cart(self, ctx: Context, cart: str, keep_saved: bool = False) -> str:
        what = "unsaved items" if keep_saved else "every item"
        try:
            await confirm(f"Wipe {what} of cart {cart}.", f"I know {what} of {cart} go.", ctx)
        except ValueError as e:
            return f"not wiped: {e}"
        return f"wiped {what} of {cart}"
