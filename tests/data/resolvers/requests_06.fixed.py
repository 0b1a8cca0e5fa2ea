# requests-06: a request built from a local that is a pure function of the tool's arguments
# (`prompt = f"...{topic}..."`) is left manual.
#
# What mcpmigrate does now: MCP201, "manual: the request is built from `prompt`, which only
# exists mid-body ...; move that computation into a module-level function of the arguments,
# then run the fix again". This is the shape of the SDK's own sampling snippet
# (modelcontextprotocol/python-sdk@57394b05:examples/snippets/servers/sampling.py:10-12); the
# same refusal hits nkarasiak/qgis-mcp@0cdd4d09:src/qgis_mcp/server.py `delete_features`
# (`target = f"fids={fids}" if fids else ...` passed to the consent helper) and mnemo-lite's
# request_confirmation (title/prompt_text from its parameters).
#
# What it should do: when the local is assigned once, before the request, from an expression
# that reads only tool arguments, module-level names and literals (no calls with side effects,
# no ctx), copy that assignment into the resolver and apply the normal fix:
#     def poem_sampling(topic: str) -> Sample:
#         prompt = f"Write four lines about {topic}"
#         return Sample([SamplingMessage(... text=prompt ...)], max_tokens=80)
from typing import Annotated

from mcp.server.mcpserver import MCPServer, Resolve, Sample
from mcp.types import CreateMessageResult, SamplingMessage, TextContent

app = MCPServer("poet")


def poem_sampling(topic: str) -> Sample:
    prompt = f"Write four lines about {topic}"
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=prompt))],
        max_tokens=80,
    )


@app.tool()
async def poem(
    topic: str, result: Annotated[CreateMessageResult, Resolve(poem_sampling)]
) -> str:
    return result.content.text if result.content.type == "text" else ""
