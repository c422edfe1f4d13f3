"""Model pages skip Python-Markdown (``generator.mkdocs.headings_page``): the fast rendering must be
exactly what Python-Markdown writes with the site's configuration, and must step aside when it
cannot be."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import markdown
import pytest
from conftest import REPO
from mkdocs.config import load_config

from generator.mkdocs.headings_page import render_headings, renders_headings_alike
from generator.render import raw_html


def _site_markdown(config: Any) -> markdown.Markdown:
    return markdown.Markdown(extensions=config["markdown_extensions"],
                             extension_configs=config["mdx_configs"] or {})


def _ids(tokens: list[dict[str, Any]]) -> list[str]:
    return [i for t in tokens for i in [t["id"], *_ids(t["children"])]]


@pytest.fixture(scope="module")
def site_config() -> Any:
    return load_config(str(REPO / "mkdocs.yml"))


def test_fast_pages_equal_python_markdown(default_pages: Any, site_config: Any) -> None:
    fast = 0
    for path, text in default_pages.pages.items():
        lifted, _ = raw_html.lift(text)
        ours = render_headings(lifted)
        if ours is None:
            continue
        fast += 1
        md = _site_markdown(site_config)
        assert ours.html == md.convert(lifted), path
        assert ours.toc_tokens == md.toc_tokens, path
        assert ours.title == md.toc_tokens[0]["name"], path
        assert ours.ids == set(_ids(md.toc_tokens)), path
    model_pages = sum(1 for p in default_pages.pages
                      if p.endswith(".md") and not p.endswith(("index.md", "changes.md")))
    assert fast == model_pages > 1200


@pytest.mark.parametrize("text", [
    "# Title\n\nSome paragraph.\n",
    "# Title with *emphasis*\n",
    "# Title\n\n## [Link](other.md)\n",
    "# Title\n\n<!-- another comment -->\n",
    "# Title { .cls }\n",
    "Title\n=====\n",
])
def test_anything_else_is_left_to_python_markdown(text: str) -> None:
    assert render_headings(text) is None


def test_fast_path_off_when_the_site_renders_headings_differently(site_config: Any,
                                                                  tmp_path: Path) -> None:
    assert renders_headings_alike(site_config)
    other = tmp_path / "mkdocs.yml"
    other.write_text((REPO / "mkdocs.yml").read_text().replace("permalink: true", 'permalink: "#"')
                     .replace("docs_dir: site_src", f"docs_dir: {REPO / 'site_src'}"))
    config = load_config(str(other))
    assert not renders_headings_alike(config)
