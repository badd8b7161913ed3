"""The version of whist-sim that is installed (``0.0.0+unknown`` in a source tree that is not)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("whist-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"
