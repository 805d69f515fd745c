"""The ``tabula`` command. Each sub-module adds its commands to :data:`app`."""

from services.cli.main import app

__all__ = ["app"]
