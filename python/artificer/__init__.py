"""Arcane Artificer: a roguelite where the gun is a program (Python face of the Rust core).

Python owns game flow, content, tools and the UI; `artificer._core` (Rust)
owns everything that runs per entity per frame. See ARCHITECTURE.md.
"""

from __future__ import annotations

from importlib import metadata

from artificer.errors import ArtificerError, CoreArgumentError

try:
    __version__ = metadata.version("arcane-artificer")
except metadata.PackageNotFoundError:  # running from a source tree without install
    __version__ = "0.0.0"

__all__ = ["ArtificerError", "CoreArgumentError", "__version__"]
