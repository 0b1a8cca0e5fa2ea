"""mcpmigrate: find and rewrite what breaks in a Python MCP server on protocol revision 2026-07-28."""

__version__ = "0.1.0"
