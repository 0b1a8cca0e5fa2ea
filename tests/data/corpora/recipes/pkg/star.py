"""Takes every public name of the app module."""

from pkg.app import *  # noqa: F403

CONTEXT = Context  # noqa: F405
