import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("watchers")
followers: dict[str, set] = {}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    schema = {"type": "object", "properties": {"topic": {"type": "string"}}, "required": ["topic"]}
    return [
        types.Tool(name="follow", description="Follow a topic", inputSchema=schema),
        types.Tool(name="unfollow", description="Stop following a topic", inputSchema=schema),
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    topic = arguments["topic"]
    session = server.request_context.session
    if name == "follow":
        followers.setdefault(topic, set()).add(session)
        return [types.TextContent(type="text", text=f"following {topic} ({len(followers[topic])})")]
    subs = followers.get(topic, set())
    if session in subs:
        subs.discard(session)
        return [types.TextContent(type="text", text=f"stopped following {topic}")]
    return [types.TextContent(type="text", text=f"not following {topic}")]
