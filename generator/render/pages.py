"""Views → ``{path: markdown}`` for one release. Pure: no disk I/O."""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable

import jinja2

from generator.model.types import ApiSpec
from generator.views.builder_section import builder_pages
from generator.views.changes import ChangesPage
from generator.views.library import library_pages
from generator.views.pages import (
    IndexPage,
    ModelPage,
    Section,
    index_pages,
    model_page,
    nested_pages,
)
from generator.views.site import SitePlan

SectionHook = Callable[[ModelPage, ApiSpec, SitePlan], Section | None]
"""Makes a section of a model page (builders, examples…): typed data naming its partial
(``views.pages.Section``), or ``None`` when the page has none. ``render_models`` adds it to
``page.sections`` in hook order."""


def _collapse_blank_lines(text: str) -> str:
    if "\n\n\n" not in text:
        return text
    # str.replace: several times faster than a regex over a page; runs of four newlines (the
    # commonest after three) first, which saves a pass over most pages
    text = text.replace("\n\n\n\n", "\n\n")
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text


def tidy(text: str) -> str:
    """Collapse runs of blank lines (not inside ``<pre>``, where they are content) and end with
    exactly one newline."""
    out: list[str] = []
    done = 0  # text before this index is in ``out``
    while (start := text.find("<pre", done)) >= 0:
        out.append(_collapse_blank_lines(text[done:start]))
        end = text.find("</pre>", start)
        if end < 0:  # an unclosed <pre>: the rest is its content
            out.append(text[start:])
            return "".join(out).strip() + "\n"
        out.append(text[start:end])
        done = end
    out.append(_collapse_blank_lines(text[done:]))
    return "".join(out).strip() + "\n"


def render_version(
    api: ApiSpec,
    plan: SitePlan,
    env: jinja2.Environment,
    hooks: Iterable[SectionHook] = (),
    index_hook: Callable[[IndexPage], None] | None = None,
) -> dict[str, str]:
    """Markdown of every page of one release, keyed by path relative to the docs root."""
    out = render_models(api, plan, env, hooks, api.models)
    out.update(render_indexes(api, plan, env, index_hook))
    return dict(sorted(out.items()))


def render_models(api: ApiSpec, plan: SitePlan, env: jinja2.Environment,
                  hooks: Iterable[SectionHook], names: Iterable[str]) -> dict[str, str]:
    """Markdown of the model pages of definitions ``names`` (in that order)."""
    hooks = list(hooks)
    out: dict[str, str] = {}
    model_template = env.get_template("pages/model.md.j2")
    for name in names:
        if name not in plan.model_pages:
            continue  # a nested object: a section of its root's page
        page = model_page(api.models[name], api, plan)
        for hook in hooks:
            section = hook(page, api, plan)
            if section is not None:
                page.sections.append(section)
        out[plan.model_pages[name]] = tidy(model_template.render(page=page))
        if page.nested_pages:
            nested_template = env.get_template("pages/nested.md.j2")
            for sub in nested_pages(page.model, api, plan, page.release_title):
                out[sub.path] = tidy(nested_template.render(page=sub))
        if name in plan.builder_pages:
            builders_template = env.get_template("pages/builders.md.j2")
            for part in builder_pages(page.model, api, plan, page.release_title):
                out[part.path] = tidy(builders_template.render(page=part))
    return out


def render_indexes(api: ApiSpec, plan: SitePlan, env: jinja2.Environment,
                   index_hook: Callable[[IndexPage], None] | None = None,
                   paths: Container[str] | None = None) -> dict[str, str]:
    """Markdown of the release home, group and API-version pages, and of the helper-only
    k8s-libsonnet objects beside them (``views.library``); only ``paths``, when given."""
    out: dict[str, str] = {}
    index_template = env.get_template("pages/index.md.j2")
    for index in index_pages(api, plan, paths):
        if index_hook is not None:
            index_hook(index)
        out[index.path] = tidy(index_template.render(page=index))
    for library in library_pages(api, plan) if plan.library_pages else ():
        if paths is None or library.path in paths:
            out[library.path] = tidy(env.get_template("pages/library.md.j2").render(page=library))
    return out


def render_changes(page: ChangesPage, env: jinja2.Environment) -> str:
    """Markdown of a change page (``diff --format markdown`` is ``render.reports``)."""
    return tidy(env.get_template("pages/changes.md.j2").render(page=page))
