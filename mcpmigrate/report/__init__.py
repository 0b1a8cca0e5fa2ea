"""Reporters: ``text`` (rich, grouped by file), ``concise``, ``json`` (README.md, "Output formats")."""
