"""``mcpmigrate verify``: run the server before and after the migration and compare what clients get.

The only part of mcpmigrate that runs the user's code (README.md, "Verify the migration"):
``run`` (the command), ``driver`` (one connection with the official mcp 2.x client; also used by
the repository's proofs), ``settings`` (``[tool.mcpmigrate.verify]``, how the server starts),
``envs`` (cached environments), ``compare`` (the differences), ``render`` (text and Markdown).
"""
