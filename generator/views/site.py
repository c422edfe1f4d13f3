"""Where each page lives: safe, stable, collision-free paths and relative links between them.

URL scheme (the k8s-libsonnet one): ``<k8sVersion>/<group>/<apiVersion>/<camelLowerKind>``.
Definitions with no API version in their path go to ``<k8sVersion>/common/<camelLowerKind>``.
Every path segment is made of ``[A-Za-z0-9._-]`` and never ``.``/``..``; a segment that had to
be changed, or that collides with another (case-insensitively), gets a short digest suffix.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from generator.model.types import ApiSpec, Model

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
MAX_SEGMENT = 80
RESERVED = frozenset({"index", "changes", "assets", "search", "404"})


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def safe_segment(text: str, *, allow_dots: bool = False) -> str:
    """A path segment that is the text itself when already safe, else a readable safe form."""
    pattern = re.compile(r"[^A-Za-z0-9._-]+") if allow_dots else _UNSAFE
    cleaned = pattern.sub("-", text).strip("-.")[:MAX_SEGMENT]
    if cleaned == text and text not in ("", ".", "..") and not text.startswith("."):
        return text
    return f"{cleaned or 'x'}-{_digest(text)}"


def lower_camel(kind: str) -> str:
    """``ResourceClaimStatus`` → ``resourceClaimStatus`` (the libsonnet page name)."""
    return kind[:1].lower() + kind[1:]


def version_dir(version: str) -> str:
    """The release's top directory (``1.31``)."""
    return safe_segment(version, allow_dots=True)


def relative(from_page: str, to_page: str) -> str:
    """Relative Markdown link from one page path to another (both relative to the docs root).

    Both paths are normalized ``a/b/c.md`` forms made by ``SitePlan``, so plain segment
    arithmetic suffices (``posixpath.relpath`` is ~10x slower and this runs per link).
    """
    src = from_page.split("/")[:-1]
    dst = to_page.split("/")
    common = 0
    limit = min(len(src), len(dst) - 1)
    while common < limit and src[common] == dst[common]:
        common += 1
    return "/".join([".."] * (len(src) - common) + dst[common:])


@dataclass
class SitePlan:
    """Page paths of one release, relative to the docs root (``1.31/resource/…/x.md``)."""

    version: str
    root: str
    model_pages: dict[str, str] = field(default_factory=dict)
    """Definition name → page path."""

    @property
    def home(self) -> str:
        return f"{self.root}/index.md"

    @property
    def changes(self) -> str:
        return f"{self.root}/changes.md"

    def group_dir(self, group: str) -> str:
        return f"{self.root}/{safe_segment(group)}"

    def group_index(self, group: str) -> str:
        return f"{self.group_dir(group)}/index.md"

    def api_version_index(self, group: str, api_version: str) -> str:
        if not api_version:
            return self.group_index(group)
        return f"{self.group_dir(group)}/{safe_segment(api_version)}/index.md"

    def page_of(self, name: str) -> str | None:
        return self.model_pages.get(name)

    def link(self, from_page: str, name: str) -> str | None:
        """Relative link from ``from_page`` to the page of definition ``name``, if it has one."""
        target = self.model_pages.get(name)
        return relative(from_page, target) if target else None


def plan_site(api: ApiSpec) -> SitePlan:
    """Assign every model a page path; stable across runs (decided in definition-name order)."""
    plan = SitePlan(api.version, version_dir(api.version))
    taken: set[str] = set()
    for name in sorted(api.models):
        plan.model_pages[name] = _claim(plan, api.models[name], taken)
    return plan


def _claim(plan: SitePlan, model: Model, taken: set[str]) -> str:
    directory = plan.group_dir(model.group)
    if model.api_version:
        directory += "/" + safe_segment(model.api_version)
    stem = safe_segment(lower_camel(model.kind))
    if stem.lower() in RESERVED:
        stem = f"{stem}-{_digest(model.name)}"
    path = f"{directory}/{stem}.md"
    if path.lower() in taken:
        path = f"{directory}/{stem}-{_digest(model.name)}.md"
    taken.add(path.lower())
    return path
