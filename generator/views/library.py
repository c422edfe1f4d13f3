"""Pages of k8s-libsonnet objects that no definition has: hand-written helpers only.

k8s-libsonnet's ``core.v1.list`` (``list.new(items)``, ``list.withItems(items)``) builds a ``v1``
``List``, which the API does not define. So that every k8s-libsonnet URL path exists on this site,
such an object gets a page at the library's path (``1.31/core/v1/list.md``, planned in
``SitePlan.library_pages``) beside its group/version's pages: its builder section (the helpers with
their arguments and the library's anchors, ``#fn-new``) and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.libsonnet.builders import helper_index
from generator.model.types import ApiSpec
from generator.views.builder_section import index_section
from generator.views.pages import Link, Section
from generator.views.site import SitePlan, relative


@dataclass
class LibraryPage:
    """Context of ``pages/library.md.j2``."""

    path: str
    version: str
    name: str
    """The library's name of the object: ``list``."""
    call: str
    """``k.core.v1.list``."""
    group_label: str
    """``core/v1``: the group/version whose pages it sits beside."""
    up: Link
    sections: list[Section] = field(default_factory=list)
    """The builder section (``partials/builders.md.j2``)."""


def library_pages(api: ApiSpec, plan: SitePlan) -> list[LibraryPage]:
    """One page per helper-only library object of the release (``SitePlan.library_pages``)."""
    pages = []
    for path, (page, group, api_version) in plan.library_pages.items():
        index = helper_index(path, api.version)
        section = index_section(index, page, api, plan) if index is not None else None
        if section is None:
            continue
        up_path = plan.api_version_index(group, api_version)
        label = f"{group}/{api_version}" if api_version else group
        pages.append(LibraryPage(page, api.version, path.rsplit(".", 1)[1], section.call, label,
                                 Link(label, relative(page, up_path), url=plan.page_url(page, up_path)),
                                 [section]))
    return pages
