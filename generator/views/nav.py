"""The MkDocs navigation of generated releases (titles are sanitized spec text)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generator.model.types import ApiSpec
from generator.views.site import SitePlan

NavItem = Any


def nav_title(text: str) -> str:
    """A nav title with no markup characters and no control characters."""
    cleaned = "".join(ch if ch.isprintable() and ch not in "<>&\"'`" else "_" for ch in text)
    return cleaned[:80] or "_"


def release_nav(api: ApiSpec, plan: SitePlan, extra: Sequence[tuple[str, str]] = ()
                ) -> dict[str, list[NavItem]]:
    """``{"Kubernetes 1.31": [home, {title: page}…, {group: [index, {version: [index, {Kind: page}…]}]}]}``;
    ``extra`` (title, page) pairs, such as change pages, follow the release home."""
    groups: list[NavItem] = [plan.home, *({nav_title(t): p} for t, p in extra)]
    for group, versions in api.tree.items():
        group_items: list[NavItem] = [plan.group_index(group)]
        for api_version, models in versions.items():
            model_items = [{nav_title(m.kind): plan.model_pages[m.name]} for m in models]
            if api_version:
                index = plan.api_version_index(group, api_version)
                group_items.append({nav_title(api_version): [index, *model_items]})
            else:
                group_items.extend(model_items)
        groups.append({nav_title(group): group_items})
    return {nav_title(f"Kubernetes {api.version}"): groups}
