"""Reading big trees and commands at the user's edge (issue 34 items 2 and 5), in Debian Chromium,
measured on the rendered boxes (as ``test_site_reading``):

- at 1400 and 390 px no navigation label, table-of-contents label or heading is clipped or broken
  inside a word on every sub-page of argo-cd's ApplicationSet (its field-path tree and builder
  functions) and on the 1.32 change page; at 390 px the drawer and its table of contents are
  opened and measured too;
- sub-pages list their sections in the table of contents (a nested-object page every section,
  nested as its tree; a builder page its upper obj groups) and show the field-path box, which
  resolves a path from the kind; cert-manager's issuer sub-pages (their whole tree in the table
  of contents) are measured as ApplicationSet's;
- the operations table breaks kubectl commands and RBAC rules between tokens only, and its small
  labels are 12 px or more on a phone.

Screenshots go to ``test-output/screens/``."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import VISIBLE_RIGHT, served

REPO = Path(__file__).resolve().parents[1]
SCREENS = REPO / "test-output" / "screens"
APPSET = "argo-cd/argoproj.io/v1alpha1/applicationSet/"

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.shared]

LABELS_AND_HEADINGS = r"""
() => {
  // Labels of the navigation and the table of contents, and the article's headings: each text
  // line must end inside what the reader sees (its clipping ancestors, the viewport), and a line
  // may break only where a word ends: at a space, after . / _ ] - : , ) or at a camelCase hump.
""" + VISIBLE_RIGHT + r"""
  const legal = (a, b) => /\s/.test(a) || /\s/.test(b) || /[./_\]\-:,;)\u2026]/.test(a) ||
    (/[a-z0-9]/.test(a) && /[A-Z]/.test(b)) || (/[A-Z]/.test(a) && /[A-Z]/.test(b));
  const out = {labels: 0, headings: 0, clipped: [], broken: []};
  const targets = [...document.querySelectorAll('.md-sidebar .md-nav__link .md-ellipsis')]
    .map(el => ['label', el])
    .concat([...document.querySelectorAll('article :is(h1, h2, h3, h4, h5, h6)')].map(el => ['heading', el]));
  for (const [what, el] of targets) {
    if (!el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= 0 || box.left >= vw) continue;  // a drawer level off-screen
    out[what === 'label' ? 'labels' : 'headings']++;
    const right = visibleRight(el);
    const text = el.textContent.replace(/\u00b6$/, '').trim();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let prev = null;  // [char, rect]
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('.headerlink')) continue;
      const s = node.textContent;
      for (let i = 0; i < s.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getClientRects()[0];
        if (!r || r.width === 0) {  // a space collapsed at a line's end still parts words
          if (prev && /\s/.test(s[i])) prev = [' ', prev[1]];
          continue;
        }
        if (r.right > right + 1 || r.left < -1) {
          out.clipped.push(`${what} ${Math.round(r.right)} > ${Math.round(right)}: ${text.slice(0, 80)}`);
          prev = null;
          break;
        }
        if (prev && r.top >= prev[1].bottom - 1 && !legal(prev[0], s[i]))
          out.broken.push(`${what} "${prev[0]}|${s[i]}": ${text.slice(0, 80)}`);
        prev = [s[i], r];
      }
    }
  }
  return out;
}
"""
"""Navigation and table-of-contents labels (``.md-sidebar .md-nav__link .md-ellipsis``) and the
article's headings (``h1`` to ``h6``): counts, lines past what the reader sees, and line breaks inside a word
(a break is allowed at a space, after ``. / _ ] - : , ; )`` and at a camelCase hump)."""

OPERATIONS = """() => {
  const out = {tokens: 0, broken: [], smallest: 99};
  document.querySelectorAll('.k8s-operations details').forEach(d => { d.open = true; });
  for (const span of document.querySelectorAll('.k8s-operations .k8s-nobr')) {
    out.tokens++;
    const tops = new Set([...span.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
    if (tops.size > 1) out.broken.push(span.textContent);
  }
  for (const s of document.querySelectorAll('.k8s-operations small'))
    out.smallest = Math.min(out.smallest, parseFloat(getComputedStyle(s).fontSize));
  return out;
}"""


@pytest.fixture(scope="module")
def argo_url(tmp_path_factory: pytest.TempPathFactory, shared: Path) -> Iterator[str]:
    """argo-cd's CRDs built as a site (``build-site``), served."""
    out = tmp_path_factory.mktemp("argo-cd")
    subprocess.run([sys.executable, "-m", "generator", "build-site", "--version", "argo-cd",
                    "--source", str(shared / "crds" / "corpus" / "argo-cd"), "--out", str(out / "site"),
                    "--cache-dir", str(out / "cache"),
                    "--jobs", "1", "-q"], cwd=REPO, check=True, capture_output=True, text=True,
                   env={**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"})
    yield from served(out / "site")


@pytest.fixture(scope="module")
def cert_manager_url(tmp_path_factory: pytest.TempPathFactory, shared: Path) -> Iterator[str]:
    """cert-manager's CRDs built as a site (``build-site``), served: ClusterIssuer's tree keeps a
    sub-page (``spec``)."""
    out = tmp_path_factory.mktemp("cert-manager")
    subprocess.run([sys.executable, "-m", "generator", "build-site", "--version", "cert-manager",
                    "--source", str(shared / "crds" / "cert-manager"), "--out", str(out / "site"),
                    "--cache-dir", str(out / "cache"),
                    "--jobs", "1", "-q"], cwd=REPO, check=True, capture_output=True, text=True,
                   env={**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"})
    yield from served(out / "site")


@pytest.fixture(scope="module")
def external_secrets_url(tmp_path_factory: pytest.TempPathFactory, shared: Path) -> Iterator[str]:
    """external-secrets' CRDs built as a site, served: its stores' ``spec.provider`` sub-pages list
    provider names of one word (``beyondtrustworkloadcredentials``) deep in their tables of
    contents."""
    out = tmp_path_factory.mktemp("external-secrets")
    subprocess.run([sys.executable, "-m", "generator", "build-site", "--version", "external-secrets",
                    "--source", str(shared / "crds" / "corpus" / "external-secrets"),
                    "--out", str(out / "site"), "--cache-dir", str(out / "cache"),
                    "--jobs", "1", "-q"], cwd=REPO, check=True, capture_output=True, text=True,
                   env={**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"})
    yield from served(out / "site")


@pytest.fixture(scope="module")
def combined_url(built_site: Path) -> Iterator[str]:
    """The README's default build (1.31 and 1.32 in one site), served."""
    yield from served(built_site)


def _sub_pages(argo_url: str, browser: Any) -> list[str]:
    """The URLs of ApplicationSet's sub-pages, from its page's navigation."""
    page = browser.new_page()
    try:
        page.goto(argo_url + APPSET, wait_until="load")
        hrefs = page.eval_on_selector_all(
            ".md-sidebar--primary a.md-nav__link[href]", "els => els.map(a => a.href)")
    finally:
        page.close()
    return sorted({h.split("#")[0] for h in hrefs if h.startswith(argo_url + APPSET)
                   and h.rstrip("/") != (argo_url + APPSET).rstrip("/")})


def _measure(browser: Any, url: str, width: int, shot: str = "") -> dict[str, Any]:
    """``LABELS_AND_HEADINGS`` of ``url`` at ``width``; at a phone's width with the drawer open
    and again with its table of contents open (the labels there are only laid out then)."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url, wait_until="load")
        seen = page.evaluate(LABELS_AND_HEADINGS)
        if width < 700:
            page.locator('label.md-header__button[for="__drawer"]').click()
            page.wait_for_timeout(400)
            drawer = page.evaluate(LABELS_AND_HEADINGS)
            toc = page.locator('.md-sidebar--primary label.md-nav__link[for="__toc"]')
            if toc.count() and toc.first.is_visible():
                toc.first.click()
                page.wait_for_timeout(400)
                contents = page.evaluate(LABELS_AND_HEADINGS)
                drawer["labels"] += contents["labels"]
                drawer["clipped"] += contents["clipped"]
                drawer["broken"] += contents["broken"]
            seen["labels"] = drawer["labels"]
            seen["clipped"] += drawer["clipped"]
            seen["broken"] += drawer["broken"]
        if shot:
            SCREENS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENS / f"{shot}-{width}.png"))
        seen["errors"] = errors
        return seen
    finally:
        context.close()


@pytest.mark.parametrize("width", [1400, 390])
def test_application_set_sub_pages_labels_and_headings_fit_and_break_between_words(
        browser: Any, argo_url: str, width: int) -> None:
    """Before issue 34: "spec.generators.matrix.(" three times in the sidebar, 30 of 73 links
    past it at 1400 px, sub-page titles broken "mat/rix" at 390 px."""
    pages = _sub_pages(argo_url, browser)  # its nested objects, repeats shown once, fit its page
    assert len(pages) >= 10 and any("/functions.spec/" in p for p in pages), pages
    labels = 0
    for url in pages:
        name = url.rstrip("/").rsplit("/", 1)[1]
        shot = f"reading-trees-{name}" if name == "spec.generators.matrix" else ""
        seen = _measure(browser, url, width, shot)
        assert seen["headings"] > 0, url
        assert seen["clipped"] == [], (url, seen["clipped"][:5])
        assert seen["broken"] == [], (url, seen["broken"][:5])
        assert seen["errors"] == [], (url, seen["errors"])
        labels += seen["labels"]
    assert labels > 15 * len(pages)  # the sidebar and the table of contents were measured


@pytest.mark.parametrize("width", [1400, 390])
def test_cert_manager_sub_pages_labels_and_headings_fit_and_break_between_words(
        browser: Any, cert_manager_url: str, width: int) -> None:
    """A nested-object sub-page whose table of contents lists its whole tree (97 sections, six
    levels of headings)."""
    for kind in ("clusterIssuer", "issuer"):
        url = f"{cert_manager_url}cert-manager/cert-manager.io/v1/{kind}/spec/"
        seen = _measure(browser, url, width, f"reading-trees-{kind}-spec" if kind == "issuer" else "")
        assert seen["labels"] > 90 and seen["headings"] > 90, (url, seen["labels"], seen["headings"])
        assert seen["clipped"] == [], (url, seen["clipped"][:5])
        assert seen["broken"] == [], (url, seen["broken"][:5])
        assert seen["errors"] == [], (url, seen["errors"])


@pytest.mark.parametrize("width", [1400, 390])
def test_long_one_word_labels_of_a_table_of_contents_fit(
        browser: Any, external_secrets_url: str, width: int) -> None:
    """Before: beyondtrustworkloadcredentials, bitwardensecretsmanager and
    yandexcertificatemanager 1-4 px past the sidebar (1400 px) and the drawer (390 px): now set
    a little smaller (the site script's ``fitLabels``), never cut or broken inside the word."""
    url = external_secrets_url + "external-secrets/external-secrets.io/v1/clusterSecretStore/spec.provider/"
    seen = _measure(browser, url, width)
    assert seen["labels"] > 150, seen["labels"]
    assert seen["clipped"] == [] and seen["broken"] == [] and seen["errors"] == [], seen


@pytest.mark.parametrize("width", [1400, 390])
def test_change_page_labels_and_headings_fit_and_break_between_words(
        browser: Any, combined_url: str, width: int) -> None:
    """Before issue 34: two table-of-contents labels clipped at 1400 px."""
    seen = _measure(browser, combined_url + "1.32/changes/", width, "reading-trees-changes")
    assert seen["labels"] > 20 and seen["headings"] > 20, seen
    assert seen["clipped"] == [] and seen["broken"] == [], seen
    assert seen["errors"] == []


def test_sub_page_lists_its_sections_and_its_field_path_box_starts_at_the_kind(
        browser: Any, argo_url: str, cert_manager_url: str) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        issuer = cert_manager_url + "cert-manager/cert-manager.io/v1/clusterIssuer/"
        page.goto(issuer + "spec/", wait_until="load")
        links = page.locator(".md-sidebar--secondary .md-nav__link")
        toc = ["".join(t.split()) for t in links.all_inner_texts()]
        # every section (97), nested as the tree, each labelled with the path after the section
        # above it (views.crd.toc_headings), the whole path its title; not one "Nested objects"
        # entry, nor the top levels only (TOC_SECTIONS, 30 before)
        sections = page.locator("article [id^='object-']").count()
        assert sections > 90 and len(toc) == sections + 1, (sections, toc)
        assert toc[:3] == ["Nestedobjects", "spec", "acme"] and "solvers[]" in toc, toc
        solvers = links.nth(toc.index("solvers[]"))
        assert solvers.get_attribute("title") == "spec.acme.solvers[]"
        depth = page.evaluate("""() => { const a = [...document.querySelectorAll(
            '.md-sidebar--secondary a.md-nav__link')].find(a => a.textContent.trim() === 'solvers[]');
            let n = 0; for (let p = a; p; p = p.parentElement) if (p.matches('nav.md-nav')) n++;
            return n; }""")
        assert depth >= 4  # the table of contents, Nested objects, spec, acme
        solvers.click()
        page.wait_for_function("location.hash === '#object-spec.acme.solvers'")
        box = page.locator("form.k8s-fieldpath input")
        box.fill("clusterissuer.spec.acme.server")
        box.press("Enter")
        page.wait_for_function("location.hash === '#field-spec.acme.server'")
        assert page.locator("form.k8s-fieldpath output").inner_text() == ""
        # a builder-function sub-page has the kind's box too (ApplicationSet's tree is on its page)
        page.goto(argo_url + APPSET + "functions.spec.generators/", wait_until="load")
        box = page.locator("form.k8s-fieldpath input")
        box.fill("spec.generators[].list.elements")
        box.press("Enter")
        page.wait_for_url("**/applicationSet/#field-spec.generators.list.elements")
        assert "[]any" in page.locator('[id="field-spec.generators.list.elements"]').inner_text()
        # its obj groups under headings, in its table of contents (views.builder_toc)
        page.goto(argo_url + APPSET + "functions.spec.generators.matrix/", wait_until="load")
        toc = ["".join(t.split()) for t in
               page.locator(".md-sidebar--secondary .md-nav__link").all_inner_texts()]
        assert "objtemplate" in toc and "spec" in toc, toc
        page.locator(".md-sidebar--secondary .md-nav__link", has_text="template").first.click()
        page.wait_for_function("location.hash === '#obj-specgeneratorsmatrixtemplate'")
    finally:
        page.close()


@pytest.mark.parametrize("width", [1400, 390])
def test_operations_break_between_tokens_and_labels_are_readable_on_phones(
        browser: Any, combined_url: str, width: int) -> None:
    """Before issue 34: ``kubectl create -f FILE`` wrapped inside ``-f`` and
    ``--all-namespaces`` after ``--`` at 1400 px; parameter types were 10 px at 390 px."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.goto(combined_url + "1.32/apps/v1/deployment/", wait_until="load")
        seen = page.evaluate(OPERATIONS)
        assert seen["tokens"] > 100 and seen["broken"] == [], seen
        assert "--all-namespaces" in page.locator(".k8s-operations").inner_text()
        if width < 700:
            assert seen["smallest"] >= 12, seen
    finally:
        context.close()
