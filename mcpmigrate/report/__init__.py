"""Reporters: ``text`` (rich, grouped by file), ``concise``, ``json`` (DESIGN §6)."""
