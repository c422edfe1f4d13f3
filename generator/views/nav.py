"""The MkDocs navigation of generated releases (titles are sanitized spec text), and what a
release site adds to the project's own pages (the same for every builder: the MkDocs plugin and
``build-site --builder zensical``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from generator.model.types import ApiSpec
from generator.views.pages import release_title, title_of
from generator.views.site import SitePlan, relative, version_dir

NavItem = Any
RELEASES_MARKER = "<!-- k8s-api-docs:releases -->"
"""Replaced, on a hand-written page, by the list of the site's releases (``releases_list``)."""
DOCS_HOME_IN_RELEASE_LAYOUT = "about.md"
"""Where a release site publishes the project's hand-written ``index.md`` (the release home is
the site home)."""
ABOUT_TITLE = "About this reference"
"""Nav title of the hand-written home in a release site (its own title is the site's name)."""
SPLIT_AFTER = 60
"""An API version with more models than this is split into alphabetical ranges in the nav."""
RANGE_SIZE = 40
"""Most models in one range (a single initial letter may hold more)."""


def nav_title(text: str) -> str:
    """A nav title with no markup characters and no control characters."""
    cleaned = "".join(ch if ch.isprintable() and ch not in "<>&\"'`" else "_" for ch in text)
    return cleaned[:80] or "_"


def release_nav(api: ApiSpec, plan: SitePlan, extra: Sequence[tuple[str, str]] = ()
                ) -> dict[str, list[NavItem]]:
    """``{"Kubernetes 1.31": [home, {title: page}…, {group: [index, {version: [index, {Kind: page}…]}]}]}``;
    ``extra`` (title, page) pairs, such as change pages, follow the release home. The pages of
    helper-only k8s-libsonnet objects (``SitePlan.library_pages``: ``list``) follow the models
    of their group/version (in its alphabetical ranges when it has them)."""
    groups: list[NavItem] = [plan.home, *({nav_title(t): p} for t, p in extra)]
    library: dict[tuple[str, str], list[NavItem]] = {}
    for path, (page, group, api_version) in plan.library_pages.items():
        library.setdefault((group, api_version), []).append({nav_title(path.rsplit(".", 1)[1]): page})
    for group, versions in api.tree.items():
        group_items: list[NavItem] = [plan.group_index(group)]
        for api_version, models in versions.items():
            model_items = [kind_item(m.kind, m.name, plan) for m in models]
            model_items += library.get((group, api_version), [])
            if len(model_items) > SPLIT_AFTER:
                model_items = alphabetical_ranges(model_items)
            if api_version:
                index = plan.api_version_index(group, api_version)
                group_items.append({nav_title(api_version): [index, *model_items]})
            else:
                group_items.extend(model_items)
        groups.append({nav_title(group): group_items})
    return {nav_title(release_title(api)): groups}


def kind_item(kind: str, name: str, plan: SitePlan) -> NavItem:
    """``{Kind: page}``; a kind whose nested objects or builder functions have pages of their own
    (a huge CRD: ``SitePlan.nested_pages``, ``SitePlan.builder_pages``) is a section: its page,
    then those pages in tree order (``spec``, ``spec.generators``…, then ``functions: spec``…)."""
    page = plan.model_pages[name]
    parts: list[NavItem] = []
    stack = list(reversed(plan.nested_pages.get(page, ())))
    while stack:
        sub, _ = stack.pop()
        parts.append({nav_title(sub.rsplit("/", 1)[1][:-3]): sub})
        stack.extend(reversed(plan.nested_pages.get(sub, ())))
    parts += [{nav_title("functions: " + sub.rsplit("/", 1)[1][:-3].removeprefix("functions.")): sub}
              for sub in plan.builder_pages.get(name, {}).values()]
    if not parts:
        return {nav_title(kind): page}
    return {nav_title(kind): [{nav_title(kind): page}, *parts]}


def alphabetical_ranges(items: list[dict[str, str]]) -> list[NavItem]:
    """``{title: page}`` items (sorted by title) as sections ``A-C``, ``D-H``..., of at most
    ``RANGE_SIZE`` items unless one initial letter has more. With ``navigation.prune`` a page's
    nav holds its section's items, so a large group in one list costs all its items on each of its
    pages; in ranges, a range's worth (the nav is the biggest part of a page's build time)."""
    by_letter: dict[str, list[dict[str, str]]] = {}
    for item in sorted(items, key=lambda i: next(iter(i)).lower()):
        by_letter.setdefault(next(iter(item))[:1].upper(), []).append(item)
    ranges: list[tuple[list[str], list[dict[str, str]]]] = []
    for letter, members in by_letter.items():
        if ranges and len(ranges[-1][1]) + len(members) <= RANGE_SIZE:
            ranges[-1][0].append(letter)
            ranges[-1][1].extend(members)
        else:
            ranges.append(([letter], list(members)))
    return [{nav_title(letters[0] if len(letters) == 1 else f"{letters[0]}\u2013{letters[-1]}"): members}
            for letters, members in ranges]


def releases_list(page: str, page_url: str, built: Sequence[tuple[ApiSpec, SitePlan]],
                  others: Sequence[str] = (), titles: Mapping[str, str] | None = None) -> str:
    """The Markdown list that replaces ``RELEASES_MARKER`` on hand-written page ``page``
    (published at ``page_url``): each generated release's home, then ``others``, releases that
    are sites of their own beside this one (links from the site root: ``../1.32/``, or
    ``../1.32/index.html`` when ``page_url`` names a file: ``use_directory_urls: false``), titled
    by ``titles`` (``GeneratedSite.titles``; default ``views.pages.title_of``)."""
    titles = titles or {}
    lines = [f"- [{nav_title(release_title(api))}]({relative(page, plan.home)}) — "
             f"{len(api.models)} models, from `{api.source}`" for api, plan in built]
    directory = not page_url or page_url.endswith("/")
    depth = len([part for part in page_url.split("/") if part]) - (0 if directory else 1)
    to_site_root = "../" * (depth + 1)
    for v in others:
        title = nav_title(titles.get(v) or title_of(v))
        if directory:
            lines.append(f"- [{title}]({to_site_root}{version_dir(v)}/)")
        else:  # as HTML: MkDocs would look for an ``.html`` link's target among this site's files
            lines.append(f'- <a href="{to_site_root}{version_dir(v)}/index.html">{title}</a>')
    return "\n".join(lines)


def site_nav(configured: list[Any] | None, generated: list[Any], release_layout: bool,
             has_home: bool) -> list[Any]:
    """A site's nav: the configured one (or the docs home when none is configured) and the
    generated pages'; in the release layout the generated pages come first and the docs home is
    renamed to the "About" page it becomes there."""
    nav = configured if configured is not None else (["index.md"] if has_home else [])
    if release_layout:
        return [*generated, *rename_in_nav(nav, "index.md", DOCS_HOME_IN_RELEASE_LAYOUT, ABOUT_TITLE)]
    return [*nav, *generated]


def rename_in_nav(nav: list[Any], old: str, new: str, title: str | None = None) -> list[Any]:
    """The nav with every reference to page ``old`` pointing at ``new``; such an entry loses its
    title (``Home: index.md`` would name the wrong page): ``title`` when given, else the page's
    own title is shown."""
    entry: Any = {title: new} if title else new

    def rename(item: Any) -> Any:
        if isinstance(item, str):
            return entry if item == old else item
        if isinstance(item, dict):
            if len(item) == 1 and next(iter(item.values())) == old:
                return entry
            return {key: rename(value) for key, value in item.items()}
        if isinstance(item, list):
            return [rename(value) for value in item]
        return item
    return [rename(item) for item in nav]


def nav_titles(nav: Any, titles: dict[str, str | None] | None = None) -> dict[str, str | None]:
    """Title MkDocs gives each page of a ``nav`` config (``{title: path}``; ``None`` for a bare
    path); the first mention of a page counts."""
    titles = {} if titles is None else titles
    if isinstance(nav, str):
        titles.setdefault(nav, None)
    elif isinstance(nav, list):
        for item in nav:
            nav_titles(item, titles)
    elif isinstance(nav, dict):
        for key, value in nav.items():
            if isinstance(value, str):
                titles.setdefault(value, key)
            else:
                nav_titles(value, titles)
    return titles
