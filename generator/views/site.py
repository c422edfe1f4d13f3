"""Where each page lives: safe, stable, collision-free paths and relative links between them.

URL scheme (the k8s-libsonnet one): ``<k8sVersion>/<group>/<apiVersion>/<camelLowerKind>``.
Definitions with no API version in their path go to ``<k8sVersion>/common/<camelLowerKind>``.
Every path segment is made of ``[A-Za-z0-9._-]``, at most ~90 characters, never ``.``/``..``; a
segment that had to be changed, that is reserved, or that collides with another case-insensitively
(or, with directory URLs, with a directory: ``x.md`` and ``x/index.md`` are both ``x/``) gets a short
digest of the full name. Decisions are made in sorted order, so paths are stable across runs.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from generator.model.types import ApiSpec, Model

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
MAX_SEGMENT = 80
RESERVED = frozenset({"index", "changes", "assets", "search", "404"})
"""Names the site itself uses, compared case-insensitively."""
WINDOWS_DEVICES = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
                             *(f"lpt{i}" for i in range(10))})
"""Base names Windows cannot store, compared case-insensitively."""


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


def published_url(page: str) -> str:
    """Directory URL a page path is published at, relative to the site root:
    ``1.31/resource/v1alpha3/x.md`` → ``1.31/resource/v1alpha3/x/``; ``1.31/index.md`` → ``1.31/``."""
    stem = page[:-3] if page.endswith(".md") else page
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        stem = stem[: -len("/index")]
    return stem + "/"


def release_url(from_page: str, to_page: str) -> str:
    """Relative URL from one published page to a page of ANOTHER release.

    Links between releases cannot be ``.md`` links: with one MkDocs site per release
    (``SITE/1.31/``, ``SITE/1.32/``) the target is not a file of the linking site. Both pages are
    placed at their published directory URLs (``/<version>/<group>/<apiVersion>/<kind>/``), so
    the same relative URL works in the combined site and in per-release sites side by side.
    Links within one release stay ``.md`` links (``relative``), which MkDocs validates.
    """
    url = relative(published_url(from_page) + "_", published_url(to_page) + "_")[:-1]
    return url or "./"


@dataclass
class SitePlan:
    """Page paths of one release, relative to the docs root (``1.31/resource/…/x.md``)."""

    version: str
    root: str
    model_pages: dict[str, str] = field(default_factory=dict)
    """Definition name → page path."""
    group_dirs: dict[str, str] = field(default_factory=dict)
    """Group → its directory segment (decided by ``plan_site``)."""

    @property
    def home(self) -> str:
        return f"{self.root}/index.md"

    @property
    def changes(self) -> str:
        return f"{self.root}/changes.md"

    def group_dir(self, group: str) -> str:
        return f"{self.root}/{self.group_dirs.get(group) or safe_segment(group)}"

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


def _is_reserved(stem: str) -> bool:
    return stem.lower() in RESERVED or stem.lower().split(".")[0] in WINDOWS_DEVICES


def plan_site(api: ApiSpec) -> SitePlan:
    """Assign every group a directory and every model a page path; stable across runs."""
    plan = SitePlan(api.version, version_dir(api.version))
    taken: set[str] = set()
    """Lower-cased paths in use, directories as ``dir.md`` (what would clash with them)."""
    for group in sorted({m.group for m in api.models.values()}):
        segment = safe_segment(group)
        if _is_reserved(segment) or f"{plan.root}/{segment}.md".lower() in taken:
            segment = f"{segment}-{_digest(group)}"
        plan.group_dirs[group] = segment
        taken.add(f"{plan.root}/{segment}.md".lower())
    for model in api.models.values():
        if model.api_version:
            taken.add(f"{plan.group_dir(model.group)}/{safe_segment(model.api_version)}.md".lower())
    for name in sorted(api.models):
        plan.model_pages[name] = _claim(plan, api.models[name], taken)
    return plan


def _claim(plan: SitePlan, model: Model, taken: set[str]) -> str:
    directory = plan.group_dir(model.group)
    if model.api_version:
        directory += "/" + safe_segment(model.api_version)
    stem = safe_segment(lower_camel(model.kind))
    if _is_reserved(stem):
        stem = f"{stem}-{_digest(model.name)}"
    path = f"{directory}/{stem}.md"
    if path.lower() in taken:
        path = f"{directory}/{stem}-{_digest(model.name)}.md"
    taken.add(path.lower())
    return path
