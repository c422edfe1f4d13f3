"""The plugin's options have one set of defaults: ``config.PLUGIN_DEFAULTS`` (what ``build-site``
and Zensical builds read) equals what the MkDocs config class ``PluginConfig`` declares."""

from __future__ import annotations

import pytest

from generator.config import PLUGIN_DEFAULTS
from generator.mkdocs.plugin import PluginConfig


def test_plugin_config_defaults_are_config_plugin_defaults() -> None:
    declared = {name: option.default for name, option in PluginConfig._schema}
    declared.pop("enabled")  # MkDocs' on/off switch, not an option of the build
    assert declared == PLUGIN_DEFAULTS


def test_a_changed_default_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.config as config

    monkeypatch.setitem(config.PLUGIN_DEFAULTS, "history", "site")
    declared = {name: option.default for name, option in PluginConfig._schema if name != "enabled"}
    assert declared != config.PLUGIN_DEFAULTS
