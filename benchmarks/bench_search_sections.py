"""What splitting pages into search sections costs: the content HTML of every page of one release
(an in-process ``mkdocs build`` as ``build-site`` lays it out, pages recorded as the search plugin
reads them) split by Material's ``Parser`` and by ``generator.mkdocs.search_sections.split``, in
CPU seconds (median of ``--runs``; ``split``'s first run, with its markup cache empty, apart).

    python benchmarks/bench_search_sections.py [--version 1.32] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from measure import REPO, header
from mkdocs.commands.build import build
from mkdocs.config import load_config

from generator.mkdocs import search_sections


def page_contents(version: str, root: Path) -> list[str]:
    """The content HTML of every page of ``version``'s release site, as the search plugin reads it."""
    config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": str(REPO / "site_src"),
              "site_dir": str(root / "site"),
              "plugins": ["search", {"k8s-api-docs": {
                  "versions": [{"version": version}], "layout": "release",
                  "cache_dir": str(root / "cache")}}]}
    (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")
    pages: list[str] = []
    fast_add_entry = search_sections.fast_add_entry

    def recording(index: Any, fallback: Any) -> Any:
        add = fast_add_entry(index, fallback)

        def add_entry_from_context(page: Any) -> None:
            pages.append(page.content)
            add(page)

        add_entry_from_context.fast = True  # type: ignore[attr-defined]
        return add_entry_from_context

    search_sections.fast_add_entry = recording  # type: ignore[assignment]
    try:
        build(load_config(str(root / "mkdocs.yml")))
    finally:
        search_sections.fast_add_entry = fast_add_entry  # type: ignore[assignment]
    return pages[1:]  # the first: install's trial of search_sections.SAMPLE


def cpu(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default="1.32")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-search-sections-") as tmp:
        pages = page_contents(args.version, Path(tmp))
    refused = sum(search_sections.split(p) is None for p in pages)
    search_sections._read.clear()
    header(f"search sections of {len(pages)} pages of {args.version} "
           f"({sum(map(len, pages)) / 1e6:.1f} MB of HTML); median of {args.runs} runs")

    def material() -> None:
        for page in pages:
            search_sections.material_sections(page)

    def ours() -> None:
        for page in pages:
            search_sections.split(page)

    first = cpu(ours)
    theirs = statistics.median(cpu(material) for _ in range(args.runs))
    mine = statistics.median(cpu(ours) for _ in range(args.runs))
    print(f"  Material's Parser (html.parser)   {theirs:6.3f} s CPU")
    print(f"  search_sections.split             {mine:6.3f} s CPU (first run {first:.3f} s); "
          f"{theirs / mine:.1f}x; {refused} page(s) left to Material's parser")


if __name__ == "__main__":
    main()
