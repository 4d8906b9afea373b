"""The package version, in one place.

The build reads it from here (``[tool.hatch.version]`` in ``pyproject.toml``), and library modules
that stamp it into their outputs import it from here, never from the top-level package, so that
importing one stage does not import every stage.
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
