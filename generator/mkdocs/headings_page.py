"""MkDocs pages that need no Python-Markdown (``render.headings``): MkDocs makes a new
``markdown.Markdown`` instance, with every configured extension, for each page, ~20% of a
release build for pages of headings only. ``HeadingsPage.render`` uses ``render_headings``
(``Up:`` links rewritten by MkDocs' own link processor, to pages that exist) and falls back to
MkDocs' own rendering for anything else; ``renders_headings_alike`` first compares the two on a
sample page of every supported form under the site's Markdown configuration. Any exception turns
it off for the rest of the build (``accelerators.broke``) and the page is MkDocs'.
"""

from __future__ import annotations

from collections.abc import Callable

import markdown
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from generator.mkdocs import accelerators
from generator.render.headings import SAMPLE, render_headings

try:  # MkDocs' link rewriting (private): without it, Up links go through Python-Markdown
    from mkdocs.structure.pages import _RelativePathTreeprocessor
except ImportError:  # pragma: no cover - another MkDocs
    _RelativePathTreeprocessor = None  # type: ignore[assignment,misc]

NAME = "headings_page"


def renders_headings_alike(config: MkDocsConfig) -> bool:
    """Whether this site's Markdown configuration renders headings as ``render_headings`` does
    (and MkDocs has the link processor it uses)."""
    if _RelativePathTreeprocessor is None:
        return False
    md = markdown.Markdown(extensions=config["markdown_extensions"],
                           extension_configs=config["mdx_configs"] or {})
    expected = md.convert(SAMPLE)
    ours = render_headings(SAMPLE)
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
        if self._fast and not config.plugins.events["page_read_source"]:
            try:
                source = self.file.content_string
            except (OSError, ValueError):  # MkDocs reports it
                source = ""
            if source.startswith("# ") and "\r" not in source:
                self.markdown, self.meta = source, {}
                return
        super().read_source(config)

    def render(self, config: MkDocsConfig, files: Files) -> None:
        rendered, toc = None, None
        if self._fast and accelerators.wanted(NAME):
            try:
                rendered = render_headings(self.markdown or "", self._linker(config, files))
                toc = get_toc(rendered.toc_tokens) if rendered else None  # type: ignore[arg-type]
            except Exception as exc:  # whatever it is, MkDocs renders
                rendered = None
                accelerators.broke(NAME, exc)
        if rendered is None or toc is None:
            super().render(config, files)
            return
        self.content, self.toc = rendered.html, toc
        self._title_from_render = rendered.title
        self.present_anchor_ids = rendered.ids
        self.links_to_anchors = {}

    def _linker(self, config: MkDocsConfig, files: Files) -> Callable[[str], str | None]:
        """The URL MkDocs writes for a link to a page that exists; ``None`` for any other
        target (Python-Markdown then renders the page, and MkDocs reports the link)."""
        links = _RelativePathTreeprocessor(self.file, files, config)

        def link(target: str) -> str | None:
            found = files.get_file_from_path(links._target_uri(self.file.src_uri, target))
            if found is None or found.inclusion.is_excluded() or not found.is_documentation_page():
                return None
            return links.path_to_url(target)

        return link
