"""The strict YAML loaders (safe, no aliases, no timestamp or binary magic).

A module of its own so that ``reader`` and ``crd`` import PyYAML only when a YAML document is
read: loading JSON sources (every ``diff`` of bundled releases) does not pay its ~25 ms import.
"""

from __future__ import annotations

from typing import Any

import yaml


class StrictYamlLoader(yaml.SafeLoader):
    """Safe YAML without aliases (no "billion laughs") and without timestamp or binary magic."""

    def compose_node(self, parent: Any, index: Any) -> Any:  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.MarkedYAMLError(problem="YAML aliases (*name) are not supported",
                                       problem_mark=mark)
        return super().compose_node(parent, index)


StrictYamlLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
for _tag in ("tag:yaml.org,2002:binary", "tag:yaml.org,2002:set", "tag:yaml.org,2002:omap",
             "tag:yaml.org,2002:pairs", "tag:yaml.org,2002:timestamp"):
    StrictYamlLoader.add_constructor(_tag, StrictYamlLoader.construct_undefined)  # type: ignore[type-var]

FastLoader: type = StrictYamlLoader
"""libyaml when PyYAML has it, with the strict loader's tags; it cannot refuse aliases while
parsing, so its callers check for them afterwards (``crd._has_aliases``)."""
if getattr(yaml, "__with_libyaml__", False):
    class _CStrictLoader(yaml.CSafeLoader):  # type: ignore[name-defined,misc]
        """libyaml (~50x faster on CRD sets) with the strict loader's tags; aliases are refused
        after loading (``crd._has_aliases``: they come back as shared objects)."""

    _CStrictLoader.yaml_implicit_resolvers = StrictYamlLoader.yaml_implicit_resolvers
    _CStrictLoader.yaml_constructors = StrictYamlLoader.yaml_constructors
    FastLoader = _CStrictLoader
