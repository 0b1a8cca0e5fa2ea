from mcp.server.fastmcp import FastMCP

from handlers import AddNote, ReadNote

class NotebookServer(FastMCP):
    """The notebook's server (a subclass, as servers that override a listing have)."""


notes = NotebookServer("notebook")

reader = ReadNote()
adder = AddNote()


@notes.tool()
def read_note(path: str) -> str:
    """Read a note."""
    return reader.run(path)


@notes.tool()
async def add_note(path: str, text: str) -> str:
    """Add a note."""
    return await adder.run(path, text)


@notes.tool()
def count_words(text: str) -> int:
    """Count the words of a text."""
    return len(text.split())
