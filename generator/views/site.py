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
import json
import re
from dataclasses import dataclass, field
from typing import Any

from generator.libsonnet.builders import (
    BuilderEntry,
    BuilderObject,
    builder_index,
    camel_lower,
    helper_objects,
)
from generator.memo import render_memo
from generator.model.ordering import release_sort_key
from generator.model.types import ApiSpec, Model

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
_UNSAFE_ANCHOR = re.compile(r"[^A-Za-z0-9._-]+")
MAX_SEGMENT = 80
SPLIT_AT = 360_000
"""Estimated Markdown bytes of a kind's page (``_section_bytes`` of its table and of the nested
objects it shows, plus the builder index it keeps: ``_split_builders``) above which the top-level
objects of its tree (``spec``, ``status``…) move to pages of their own
(``…/clusterIssuer/spec.md``), the largest first; a sub-page splits the same way above
``SUBPAGE_SPLIT_AT``, as many times as the tree needs. Every nested object keeps its section and
anchor (no cap), and every page of the corpus CRD sets stays under 500 KB of HTML (the estimate
follows the Markdown closely; the theme and nav add the rest)."""
SUBPAGE_SPLIT_AT = 430_000
_SPLIT_MIN = 20_000
"""A subtree smaller than this moves only when its page still needs the room."""
COMPACT_AFTER = 300
"""A CRD kind with more builder functions than this gets the compact builder index
(``views.builder_section``)."""
BUILDER_KEPT = 150_000
"""Estimated bytes of a compact builder index a page keeps; beyond it the members of its largest
``obj`` groups move to pages of their own (``…/applicationSet/functions.spec.generators.md``), each
split the same way above ``BUILDER_PAGE_AT``: every function keeps its line and anchor."""
BUILDER_PAGE_AT = 350_000
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
    """The k8s-libsonnet page name of a kind, its ``camelLower``: the first camel-case word
    lower-cased, a leading acronym whole (``ResourceClaimStatus`` → ``resourceClaimStatus``,
    ``APIService`` → ``apiService``, ``HPAScalingPolicy`` → ``hpaScalingPolicy``)."""
    return camel_lower(kind) if kind else kind


def version_dir(version: str) -> str:
    """The release's top directory (``1.31``)."""
    return safe_segment(version, allow_dots=True)


def relative(from_page: str, to_page: str) -> str:
    """Relative Markdown link from one page path to another (both relative to the docs root).

    Both paths are normalized ``a/b/c.md`` forms made by ``SitePlan``, so plain segment
    arithmetic suffices (``posixpath.relpath`` is much slower and this runs per link).
    """
    src = from_page.split("/")[:-1]
    dst = to_page.split("/")
    common = 0
    limit = min(len(src), len(dst) - 1)
    while common < limit and src[common] == dst[common]:
        common += 1
    return "/".join([".."] * (len(src) - common) + dst[common:])


def published_url(page: str, directory_urls: bool = True) -> str:
    """URL a page path is published at, relative to the site root, as MkDocs publishes it. With
    directory URLs (MkDocs' default): ``1.31/resource/v1alpha3/x.md`` → ``1.31/resource/v1alpha3/x/``,
    ``1.31/index.md`` → ``1.31/``, ``index.md`` → ``""``. Without (``use_directory_urls: false``)
    the file itself, so that a server without index rewriting (a file system, an object store)
    finds it: ``1.31/resource/v1alpha3/x.html``, ``1.31/index.html``, ``index.html``."""
    stem = page[:-3] if page.endswith(".md") else page
    if not directory_urls:
        return stem + ".html" if page.endswith(".md") else page
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        stem = stem[: -len("/index")]
    return stem + "/"


def _between(source: str, target: str) -> str:
    """Relative URL from the page published at ``source`` to ``target``, both published URLs
    relative to the site root (``published_url``: a directory ``a/b/``, ``""`` for the root, or a
    file ``a/b.html``)."""
    base = source if source and not source.endswith("/") else source + "_"
    if target and not target.endswith("/"):
        return relative(base, target)
    return relative(base, target + "_")[:-1] or "./"


def page_url(from_page: str, to_page: str, directory_urls: bool = True) -> str:
    """Published URL of ``to_page`` relative to that of ``from_page``, both of one site (for raw
    HTML, where MkDocs rewrites no ``.md`` link); ``directory_urls``: MkDocs'
    ``use_directory_urls`` (``SitePlan.directory_urls``). Every model page of a directory gets the
    same URL (a page links to itself as ``../self/``, or ``self.html`` without directory URLs),
    so views may share links per directory."""
    if not directory_urls:
        return relative(from_page, published_url(to_page, False))
    source = published_url(from_page)
    if from_page != "index.md" and not from_page.endswith("/index.md"):
        source = source[: source.rstrip("/").rfind("/") + 1] + "\0/"
    url = relative(source + "_", published_url(to_page) + "_")[:-1]
    return url or "./"


def file_url(from_page: str, path: str, directory_urls: bool = True) -> str:
    """URL of ``path``, a file of the site that is not a page (``1.31/fieldpaths.json``),
    relative to the published URL of ``from_page``."""
    return relative(published_url(from_page, directory_urls) + ("_" if directory_urls else ""), path)


def release_url(from_page: str, to_page: str, from_plan: SitePlan | None = None,
                to_plan: SitePlan | None = None) -> str:
    """Relative URL from one published page to a page of ANOTHER release.

    Links between releases cannot be ``.md`` links: with one MkDocs site per release
    (``SITE/1.31/``, ``SITE/1.32/``) the target is not a file of the linking site. Both pages are
    placed at their published URLs (``/<version>/<group>/<apiVersion>/<kind>/``, or ``….html``
    without directory URLs), so the same relative URL works in the combined site and in
    per-release sites side by side.
    Links within one release stay ``.md`` links (``relative``), which MkDocs validates.
    Give the plans of the pages when a release may sit at the docs root (``SitePlan.root == ""``,
    the per-release sites of ``build-site``): its page paths then lack the release directory.
    """
    source = from_plan.site_url(from_page) if from_plan else published_url(from_page)
    target = to_plan.site_url(to_page) if to_plan else published_url(to_page)
    return _between(source, target)


def tree_link(from_page: str, to_page: str, from_plan: SitePlan, to_plan: SitePlan) -> str | None:
    """Relative ``.md`` link to a page of another release when both releases are folders of one
    tree (``generate``: ``DIR/1.31/…``, ``DIR/1.32/…``); None when either is a site of its own.
    For Markdown read as files (``--format gfm``); published pages use ``release_url``."""
    if not from_plan.root or not to_plan.root:
        return None
    return relative(from_page, to_page)


@dataclass
class SitePlan:
    """Page paths of one release, relative to the docs root.

    ``root`` is the release's directory inside the docs: ``1.31`` in the combined site
    (``1.31/resource/…/x.md``) or ``""`` when the release is a site of its own
    (``resource/…/x.md``, published under ``SITE/1.31/``). Either way a page is published at the
    same site URL (``site_url``), so links between releases can be written once.
    """

    version: str
    root: str
    model_pages: dict[str, str] = field(default_factory=dict)
    """Definition name → page path."""
    group_dirs: dict[str, str] = field(default_factory=dict)
    """Group → its directory segment (decided by ``plan_site``)."""
    sections: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Nested object (``Model.field_path``) → (its root's page, its section's anchor)."""
    directory_urls: bool = True
    """MkDocs' ``use_directory_urls``: pages published at ``…/x/`` (True) or ``…/x.html``; every
    link a view writes as a published URL follows it (``published``, ``page_url``)."""
    memos: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """What views derive from this release and remember while it is built (links that depend
    only on the plan): part of the build state (``pipeline.state.LoadedRelease.plan``), never a
    process-wide memo."""
    nested_pages: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Page (a kind's, or a sub-page) → its sub-pages as (page path, nested object shown at the
    top of it), in field order: parts of a huge nested-object tree (``SPLIT_AT``)."""
    builder_pages: dict[str, dict[str, str]] = field(default_factory=dict)
    """Kind (definition name) → the ``obj`` groups of its builder index whose members are on a
    page of their own (``BUILDER_KEPT``): ``obj`` anchor → that page, in index order."""
    library_pages: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    """k8s-libsonnet objects of hand-written helpers only, no definition having their path
    (``core.v1.list``) → (page, group, API version): a page at the library's path
    (``1.31/core/v1/list.md``) beside the pages of that group/version."""

    def in_root(self, rest: str) -> str:
        """``rest`` (``a/b.md``) inside the release's directory."""
        return f"{self.root}/{rest}" if self.root else rest

    @property
    def home(self) -> str:
        return self.in_root("index.md")

    @property
    def changes(self) -> str:
        return self.in_root("changes.md")

    def site_url(self, page: str) -> str:
        """URL of ``page`` relative to the published site root (``1.31/resource/…/x/``), the same
        in the combined site and in the per-release sites of ``build-site``."""
        inside = page[len(self.root) + 1 :] if self.root else page
        return f"{version_dir(self.version)}/{published_url(inside, self.directory_urls)}"

    def published(self, page: str) -> str:
        """``published_url`` of ``page`` (below the docs root) with this plan's URL style."""
        return published_url(page, self.directory_urls)

    def page_url(self, from_page: str, to_page: str) -> str:
        """``page_url`` with this plan's URL style."""
        return page_url(from_page, to_page, self.directory_urls)

    def group_dir(self, group: str) -> str:
        return self.in_root(self.group_dirs.get(group) or safe_segment(group, allow_dots=True))

    def group_index(self, group: str) -> str:
        return f"{self.group_dir(group)}/index.md"

    def api_version_dir(self, group: str, api_version: str) -> str:
        """Directory of a group/version's pages (the group's own for the common section)."""
        directory = self.group_dir(group)
        return f"{directory}/{safe_segment(api_version)}" if api_version else directory

    def api_version_index(self, group: str, api_version: str) -> str:
        return f"{self.api_version_dir(group, api_version)}/index.md"

    def page_of(self, name: str) -> str | None:
        return self.model_pages.get(name)

    def target_of(self, name: str) -> tuple[str, str] | None:
        """(page, anchor) of a definition's page (anchor ``""``) or of a nested object's section."""
        page = self.model_pages.get(name)
        if page is not None:
            return page, ""
        return self.sections.get(name)

    def link(self, from_page: str, name: str) -> str | None:
        """Relative link from ``from_page`` to the page of definition ``name``, if it has one."""
        target = self.model_pages.get(name)
        return relative(from_page, target) if target else None


def _is_reserved(stem: str) -> bool:
    return stem.lower() in RESERVED or stem.lower().split(".")[0] in WINDOWS_DEVICES


def plan_site(api: ApiSpec, root: str | None = None, directory_urls: bool = True) -> SitePlan:
    """Assign every group a directory and every model a page path; stable across runs.

    ``root`` defaults to the release directory (``1.31``); ``""`` puts the release at the docs root.
    ``directory_urls``: MkDocs' ``use_directory_urls`` (``SitePlan.directory_urls``).
    """
    plan = SitePlan(api.version, version_dir(api.version) if root is None else root,
                    directory_urls=directory_urls)
    taken: set[str] = set()
    """Lower-cased paths in use, directories as ``dir.md`` (what would clash with them)."""
    for group in sorted({m.group for m in api.models.values()}):
        segment = safe_segment(group, allow_dots=True)
        if _is_reserved(segment) or plan.in_root(f"{segment}.md").lower() in taken:
            segment = f"{segment}-{_digest(group)}"
        plan.group_dirs[group] = segment
        taken.add(plan.in_root(f"{segment}.md").lower())
    for model in api.models.values():
        if model.api_version:
            taken.add(f"{plan.api_version_dir(model.group, model.api_version)}.md".lower())
    for name in sorted(api.models):
        model = api.models[name]
        if model.field_path and model.root in api.models:
            continue
        plan.model_pages[name] = _claim(plan, model, taken)
    used: dict[str, set[str]] = {}
    nested = [m for m in api.models.values() if m.field_path and m.root in plan.model_pages]
    for model in sorted(nested, key=lambda m: (len(m.field_path), m.name)):  # parents first
        page = plan.model_pages[model.root]
        if model.parent != model.root and model.parent not in plan.sections:
            continue  # under an object that is not a nested object of this tree
        if api.models[model.parent].same_as:
            continue  # under a repeat: shown once, under the object it repeats (model.repeats)
        anchor = path_anchor("object-", model.field_path, used.setdefault(page, set()))
        plan.sections[model.name] = (page, anchor)
    kept = _split_builders(plan, api, taken)
    _split_trees(plan, api, taken, kept)
    for path, (group, api_version) in helper_objects(api).items():  # after every model's page
        directory = plan.api_version_dir(group, api_version)
        stem = safe_segment(path.rsplit(".", 1)[1])
        page = f"{directory}/{stem}.md"
        if _is_reserved(stem) or page.lower() in taken:
            page = f"{directory}/{stem}-{_digest(path)}.md"
        taken.add(page.lower())
        plan.library_pages[path] = (page, group, api_version)
    return plan


def _split_trees(plan: SitePlan, api: ApiSpec, taken: set[str], kept: dict[str, int]) -> None:
    """Move the subtrees of huge nested-object trees to sub-pages (``SPLIT_AT``); ``kept``: the
    estimated bytes of the builder index each kind's page keeps (``_split_builders``)."""
    children: dict[str, list[Model]] = {}
    for name in plan.sections:
        model = api.models[name]
        children.setdefault(model.parent, []).append(model)
    sizes: dict[str, int] = {}
    tocs: dict[str, int] = {}

    def size(model: Model) -> int:
        if model.name not in sizes:
            sizes[model.name] = _section_bytes(model) + sum(size(c) for c in children.get(model.name, ()))
        return sizes[model.name]

    def weight(model: Model, sub_page: bool) -> int:
        """``size``, plus on a sub-page the table-of-contents entries of its sections."""
        if not sub_page:
            return size(model)
        if model.name not in tocs:
            tocs[model.name] = toc_entry_bytes(plan.sections[model.name][1]) + sum(
                weight(c, True) - size(c) for c in children.get(model.name, ()))
        return size(model) + tocs[model.name]

    def move(model: Model, page: str) -> None:
        plan.sections[model.name] = (page, plan.sections[model.name][1])
        for child in children.get(model.name, ()):
            move(child, page)

    def split(top: Model, page: str, limit: int) -> None:
        """Split the tree under ``top`` (shown on ``page``) when it is over ``limit``: its
        subtrees move, the largest first, until the page is under it (those under ``_SPLIT_MIN``
        only when the page still needs the room)."""
        on_sub = bool(top.field_path)  # a sub-page lists every section in its table of contents
        tree = weight(top, True) if on_sub else sum(size(c) for c in children.get(top.name, ()))
        if tree <= limit:
            return
        order = {f.name: i for i, f in enumerate(top.fields)}
        moved: list[Model] = []
        left = tree
        for child in sorted(children.get(top.name, []),
                            key=lambda c: (size(c) < _SPLIT_MIN, -weight(c, on_sub), c.field_path)):
            if left <= limit:
                break
            moved.append(child)
            left -= weight(child, on_sub)
        moved.sort(key=lambda c: (order.get(_last_field(c), len(order)), c.field_path))
        for child in moved:
            directory = page[:-3] if not top.field_path else page.rsplit("/", 1)[0]
            stem = safe_segment(plan.sections[child.name][1].removeprefix("object-"), allow_dots=True)
            sub = f"{directory}/{stem}.md"
            if _is_reserved(stem) or sub.lower() in taken:
                sub = f"{directory}/{stem}-{_digest(child.field_path)}.md"
            taken.add(sub.lower())
            move(child, sub)
            plan.nested_pages.setdefault(page, []).append((sub, child.name))
            split(child, sub, SUBPAGE_SPLIT_AT)

    for name, page in list(plan.model_pages.items()):
        if name in children:
            model = api.models[name]
            split(model, page, max(SPLIT_AT - kept.get(name, 0) - _section_bytes(model), 0))


def _split_builders(plan: SitePlan, api: ApiSpec, taken: set[str]) -> dict[str, int]:
    """Move the members of the largest ``obj`` groups of huge compact builder indexes to pages
    of their own (``BUILDER_KEPT``, ``SitePlan.builder_pages``); the estimated bytes of the
    builder index each CRD kind's page keeps."""
    kept: dict[str, int] = {}
    for name, page in list(plan.model_pages.items()):
        model = api.models[name]
        index = builder_index(model, api) if model.crd is not None else None
        if index is None:
            continue
        if len(index) <= COMPACT_AFTER:  # the full reference: ~500 bytes an entry
            kept[name] = sum(500 + 3 * len(entry.anchor) for _, entry in index.entries())
            continue
        moved: dict[str, str] = {}
        kept[name] = _split_index(index.root.members, page, page[:-3], BUILDER_KEPT, moved, taken, {})
        if moved:  # in index order (the nav lists them so)
            plan.builder_pages[name] = {entry.anchor: moved[entry.anchor] for _, entry in index.entries()
                                        if isinstance(entry, BuilderObject) and entry.anchor in moved}
    return kept


def _index_bytes(members: tuple[BuilderEntry, ...], sizes: dict[int, int]) -> int:
    """``_line_bytes`` of ``members`` and everything under them; ``sizes``: of each ``obj``'s
    members, filled in."""
    total = 0
    for entry in members:
        total += _line_bytes(entry)
        if isinstance(entry, BuilderObject):
            if entry.uid not in sizes:
                sizes[entry.uid] = _index_bytes(entry.members, sizes)
            total += sizes[entry.uid]
    return total


def _split_index(members: tuple[BuilderEntry, ...], page: str, directory: str, limit: int,
                 moved: dict[str, str], taken: set[str], sizes: dict[int, int]) -> int:
    """Move the members of the largest ``obj`` groups among ``members`` (shown on ``page``) to
    pages of their own until the page is under ``limit`` (``moved``: obj anchor → page); the
    bytes left on the page."""
    total = _index_bytes(members, sizes)
    objects: list[BuilderObject] = []
    stack = [m for m in members if isinstance(m, BuilderObject)]
    while stack:  # every obj shown on this page, the largest first
        obj = stack.pop()
        objects.append(obj)
        stack.extend(m for m in obj.members if isinstance(m, BuilderObject))
    objects.sort(key=lambda o: (-sizes[o.uid], o.anchor))
    chosen: list[BuilderObject] = []
    for obj in objects:
        if total <= limit:
            break
        if any(obj.path[:len(c.path)] == c.path for c in chosen):
            continue  # inside an obj that already moved
        chosen.append(obj)
        total -= sizes[obj.uid]
    for obj in sorted(chosen, key=lambda o: o.path):
        stem = safe_segment("functions." + obj.dotted, allow_dots=True)
        sub = f"{directory}/{stem}.md"
        if sub.lower() in taken:
            sub = f"{directory}/{stem}-{_digest(obj.anchor)}.md"
        taken.add(sub.lower())
        moved[obj.anchor] = sub
        _split_index(obj.members, sub, directory, BUILDER_PAGE_AT, moved, taken, sizes)
    return total


def _line_bytes(entry: BuilderEntry) -> int:
    """Roughly the HTML bytes of a compact builder index line (``partials/builder_index``): its
    id, its name and, for an ``obj``, the link to its field's row."""
    if isinstance(entry, BuilderObject):
        return 60 + len(entry.anchor) + len(entry.name) + 3 * sum(len(p) for p in entry.target)
    return 22 + len(entry.anchor) + len(entry.name)


TOC_ENTRY = 560
"""Roughly the HTML bytes a sub-page's section adds for its table-of-contents entry, besides its
anchor: the theme writes each entry twice (the sidebar and the phone drawer's copy), and the
section's Markdown heading (its permalink) (``views.crd.NestedObjectsPage.headings``)."""


def toc_entry_bytes(anchor: str) -> int:
    """Estimated HTML bytes of a sub-page section's table-of-contents entries and heading."""
    return TOC_ENTRY + 3 * len(anchor)


def _last_field(model: Model) -> str:
    """The parent's field a nested object is found under (``spec.rules[]`` → ``rules``)."""
    return model.field_path.rsplit(".", 1)[-1].split("[", 1)[0].split("{", 1)[0]


def _section_bytes(model: Model) -> int:
    """Roughly the Markdown bytes of a nested object's section (``partials/nested_objects``): per
    row its cells, the field's anchor twice (the row's id and its link) and the ``<wbr>``s."""
    path = len(model.field_path)
    total = 400 + 3 * path + len(model.description)
    if model.same_as:
        return total + 3 * len(model.same_as)  # a reference, no rows
    for f in model.fields:
        total += 210 + 3 * (path + len(f.name)) + len(f.description) + len(repr(f.enum))
        total += sum(len(repr(rule)) for rule in (*f.validations, *f.item_validations))
    return total


def path_anchor(prefix: str, path: str, used: set[str]) -> str:
    """Element id for a field path (``spec.rules[].matches[]`` → ``object-spec.rules.matches``):
    the path without ``[]``/``{}``, case kept; characters other than ``[A-Za-z0-9._-]`` (a hostile
    field name) and a clash on the page add a digest of the path."""
    anchor, altered = _path_anchor(prefix, path)
    if altered or anchor in used:
        anchor = f"{anchor}-{_digest(path)}"
    used.add(anchor)
    return anchor


@render_memo(65536)
def _path_anchor(prefix: str, path: str) -> tuple[str, bool]:
    """``path_anchor`` before clashes, and whether the path had to be changed (the same paths
    recur: rows, sections, builder-index links)."""
    plain = path.replace("[]", "").replace("{}", "")
    safe = _UNSAFE_ANCHOR.sub("-", plain)[:120]
    return prefix + safe, safe != plain


def _claim(plan: SitePlan, model: Model, taken: set[str]) -> str:
    directory = plan.api_version_dir(model.group, model.api_version)
    stem = safe_segment(lower_camel(model.kind))
    if _is_reserved(stem):
        stem = f"{stem}-{_digest(model.name)}"
    path = f"{directory}/{stem}.md"
    if path.lower() in taken:
        path = f"{directory}/{stem}-{_digest(model.name)}.md"
    taken.add(path.lower())
    return path


_NOT_ID = re.compile(r"[^a-z0-9]+")


@render_memo(65536)
def anchor_id(text: str) -> str:
    """An HTML id made only of ``[a-z0-9-]`` (cached: field names recur on many pages)."""
    slug = _NOT_ID.sub("-", str(text).lower()).strip("-")
    return slug[:80] or "x"


RELEASES = "releases.json"
"""File at the docs root of a combined site (every release below one MkDocs site): its releases,
for the site's release switcher and search (``site_src/assets/k8s-api-docs.js``)."""


def releases_json(plans: list[SitePlan], titles: dict[str, str]) -> str | None:
    """The releases of a combined site, newest first, in the shape of Material's ``versions.json``
    (``version``, ``title``, ``aliases``) plus ``dir``, the release's directory below the site
    root (one release: the script sees there is nothing to switch to, without a failed request);
    ``None`` when the releases are sites of their own (``build-site``: Material's selector reads
    its ``versions.json``)."""
    if not plans or not all(p.root for p in plans):
        return None
    ordered = sorted(plans, key=lambda p: release_sort_key(p.version), reverse=True)
    entries = [{"version": p.version, "title": p.version, "aliases": [], "dir": p.root,
                "name": titles.get(p.version, p.version)} for p in ordered]
    text = json.dumps(entries, ensure_ascii=False, indent=1)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e") + "\n"
