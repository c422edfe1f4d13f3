"""MkDocs pages that need no Python-Markdown: once the plugin has lifted their raw HTML blocks
out, a model page's Markdown is only ATX headings with plain-text titles (optionally an attribute
list ``{ #id data-search-exclude }``) and block placeholder comments; a group or API version
index page adds an ``Up: [title](../index.md)`` line.

MkDocs makes a new ``markdown.Markdown`` instance, with every configured extension, for each page;
for ~700 pages of headings that is ~20% of a release build. ``HeadingsPage.render`` writes the
same HTML, table of contents, title and anchors as Python-Markdown with ``toc`` (``permalink:
true``) and ``attr_list`` would (``Up:`` links rewritten by MkDocs' own link processor, to pages that
exist), and falls back to MkDocs' own rendering for anything else.

Whether that equivalence holds depends on the site's Markdown configuration (``toc`` options,
extensions that rewrite headings), so ``renders_headings_alike`` first renders a sample page of
every supported form both ways; if the two differ, no page takes the fast path.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import markdown
from markdown.extensions.toc import nest_toc_tokens, slugify, unique
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from generator.render.raw_html import PLACEHOLDER

try:  # MkDocs' link rewriting (private): without it, Up links go through Python-Markdown
    from mkdocs.structure.pages import _RelativePathTreeprocessor
except ImportError:  # pragma: no cover - another MkDocs
    _RelativePathTreeprocessor = None  # type: ignore[assignment,misc]

_HEADING = re.compile(r"(#{1,6}) ([A-Za-z0-9][A-Za-z0-9 .,()/:-]*?)"
                      r"(?: \{ #([A-Za-z][A-Za-z0-9-]*)( data-search-exclude)? \})?")
_UP = re.compile(r"Up: \[([A-Za-z0-9.-]+(?: [A-Za-z0-9.-]+)*)\]"
                 r"\(((?:\.\./)*[A-Za-z0-9_-][A-Za-z0-9_./-]*\.md)\)")
"""The link to the parent index page (title, target) of group and API version index pages."""
_SAFE_URL = re.compile(r"[A-Za-z0-9_./-]*")
"""A rewritten link Python-Markdown writes as it is (nothing to escape)."""
_SAMPLE = ("# Sample Title\n\nUp: [Sample 1.2](../index.md)\n\n"
           "<!-- k8s-api-docs:block 0 -->\n\n<!-- k8s-api-docs:block 1 -->\n\n"
           "## Properties\n\n<!-- k8s-api-docs:block 2 -->\n\n"
           "## Example { #example data-search-exclude }\n\n<!-- k8s-api-docs:block 3 -->\n\n"
           "### Sub (v1, beta) { #sub-section }\n\n## Properties\n\n"
           "### Properties 1\n\n<!-- k8s-api-docs:block 4 -->\n")


@dataclass(frozen=True)
class RenderedHeadings:
    """What ``Page.render`` sets: HTML, TOC tokens, title (the first line's h1), anchor ids."""

    html: str
    toc_tokens: list[dict[str, Any]]
    title: str | None
    ids: set[str]


def render_headings(text: str,
                    link: Callable[[str], str | None] = str) -> RenderedHeadings | None:
    """``text`` as Python-Markdown (``toc`` with permalinks, ``attr_list``) renders it, or
    ``None`` when it holds anything but plain headings, placeholders, ``Up:`` links and blank
    lines. ``link``: the URL written for a link's target (``None``: not rendered here)."""
    items: list[tuple[int, str, str | None, bool] | str] = []
    for line in text.split("\n"):
        if not line:
            continue
        if line.startswith("<!--"):
            if not PLACEHOLDER.fullmatch(line):
                return None
            items.append(f"{line}\n\n")
            continue
        if line.startswith("Up: "):
            up = _UP.fullmatch(line)
            url = link(up.group(2)) if up else None
            if up is None or url is None or not _SAFE_URL.fullmatch(url):
                return None
            items.append(f'<p>Up: <a href="{url}">{up.group(1)}</a></p>\n')
            continue
        match = _HEADING.fullmatch(line)
        if match is None:
            return None
        hashes, title, given_id, exclude = match.groups()
        items.append((len(hashes), title.strip(), given_id, bool(exclude)))
    used = {item[2] for item in items if not isinstance(item, str) and item[2]}
    parts: list[str] = []
    tokens: list[dict[str, Any]] = []
    title = None
    for index, item in enumerate(items):
        if isinstance(item, str):
            parts.append(item)
            continue
        level, name, given_id, exclude = item
        anchor = given_id or unique(slugify(name, "-"), used)
        if index == 0 and level == 1:
            title = name
        attrs = f' data-search-exclude id="{anchor}"' if exclude else f' id="{anchor}"'
        parts.append(f'<h{level}{attrs}>{name}<a class="headerlink" href="#{anchor}" '
                     f'title="Permanent link">&para;</a></h{level}>\n')
        tokens.append({"level": level, "id": anchor, "name": name, "html": name,
                       "data-toc-label": "", "children": []})
    ids = {t["id"] for t in tokens}
    return RenderedHeadings("".join(parts).rstrip("\n"), nest_toc_tokens(tokens), title, ids)


def renders_headings_alike(config: MkDocsConfig) -> bool:
    """Whether this site's Markdown configuration renders headings as ``render_headings`` does."""
    md = markdown.Markdown(extensions=config["markdown_extensions"],
                           extension_configs=config["mdx_configs"] or {})
    expected = md.convert(_SAMPLE)
    ours = render_headings(_SAMPLE)
    return ours is not None and ours.html == expected and \
        ours.toc_tokens == getattr(md, "toc_tokens", None)


class HeadingsPage(Page):
    """A generated page rendered by ``render_headings`` when its Markdown allows (else as any
    MkDocs page)."""

    def __init__(self, title: str | None, file: File, config: MkDocsConfig, fast: bool) -> None:
        """``fast``: ``renders_headings_alike(config)``."""
        super().__init__(title, file, config)
        self._fast = fast

    def read_source(self, config: MkDocsConfig) -> None:
        """As MkDocs reads it; a page starting with a heading line holds no meta-data (and
        ``meta.get_data`` splits and joins its whole text to find none)."""
        if not config.plugins.events["page_read_source"]:
            try:
                source = self.file.content_string
            except (OSError, ValueError):  # MkDocs reports it
                source = ""
            if source.startswith("# ") and "\r" not in source:
                self.markdown, self.meta = source, {}
                return
        super().read_source(config)

    def render(self, config: MkDocsConfig, files: Files) -> None:
        rendered = render_headings(self.markdown or "", self._linker(config, files)) \
            if self._fast else None
        if rendered is None:
            super().render(config, files)
            return
        self.content = rendered.html
        self.toc = get_toc(rendered.toc_tokens)  # type: ignore[arg-type]  # the tokens' shape
        self._title_from_render = rendered.title
        self.present_anchor_ids = rendered.ids
        self.links_to_anchors = {}

    def _linker(self, config: MkDocsConfig, files: Files) -> Callable[[str], str | None]:
        """The URL MkDocs writes for a link to a page that exists; ``None`` for any other
        target (Python-Markdown then renders the page, and MkDocs reports the link)."""
        if _RelativePathTreeprocessor is None:
            return lambda target: None
        links = _RelativePathTreeprocessor(self.file, files, config)

        def link(target: str) -> str | None:
            found = files.get_file_from_path(links._target_uri(self.file.src_uri, target))
            if found is None or found.inclusion.is_excluded() or not found.is_documentation_page():
                return None
            return links.path_to_url(target)

        return link
