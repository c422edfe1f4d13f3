"""Helpers shared by the tests (import ``helpers.paths``, ``helpers.sites``; never ``conftest``)."""
