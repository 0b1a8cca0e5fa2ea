"""Reads `Context` as an attribute of the app module."""

import pkg.app as app

CONTEXT = app.Context
