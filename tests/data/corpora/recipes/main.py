"""Entry point: registers every tool module."""

import pkg.alias  # noqa: F401
import pkg.star  # noqa: F401
import pkg.tools  # noqa: F401
