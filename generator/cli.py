"""Command line: ``python -m generator`` / ``k8s-api-docs``.

Exit 0 ok, 1 gate tripped (``diff --fail-on``, stale ``check``), 2 bad input or usage."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

from generator import __version__
from generator.analysis.severity import SEVERITIES, STABILITIES
from generator.config import HISTORY_SCOPES, PAGE_FORMATS
from generator.errors import GeneratorError, UsageError, one_line
from generator.sources import DEFAULT_CACHE, SOURCE_KINDS
from generator.sources.upstream import LOCK_NAME, MIRROR_ENV, spec_mirror

if TYPE_CHECKING:
    from generator.config import SiteConfig
    from generator.sources import SourceOptions

# The pipeline (and Jinja) are imported by the commands that render: ``diff`` stays fast.
ReportFormat = Literal["text", "markdown", "json", "github"]
FORMATS: tuple[ReportFormat, ...] = get_args(ReportFormat)
"""What ``diff`` and ``scan`` write (``--format``)."""
ExplainFormat = Literal["text", "json"]
EXPLAIN_FORMATS: tuple[ExplainFormat, ...] = get_args(ExplainFormat)

EXIT_OK, EXIT_GATE, EXIT_INPUT = 0, 1, 2

SOURCE_HELP = (
    "where the definitions come from: kubernetes-validate:VERSION (default, offline), "
    "upstream:VERSION (the release's official swagger.json, e.g. upstream:1.32 or upstream:1.32.3), "
    "a path or http(s) URL of an OpenAPI v2 swagger.json(.gz), or a path of an OpenAPI v3 document "
    "or a directory of them; append #sha256=HEX to a URL to pin it. Paired with --version by "
    "position."
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"error: {one_line(message)}", file=sys.stderr)
        raise SystemExit(EXIT_INPUT)


def add_source_options(p: argparse.ArgumentParser, *, version_required: bool = True,
                       one_release: bool = False) -> None:
    """``one_release``: the command reads exactly one release (``export``)."""
    p.add_argument("--version", dest="versions", action="append", default=[],
                   required=version_required, metavar="VERSION",
                   help="Kubernetes release to " + ("export, e.g. 1.31 (exactly one)"
                                                    if one_release else
                                                    "document, e.g. 1.31 (repeatable)")
                        + ". With an explicit --source it is only a label.")
    p.add_argument("--source", dest="sources", action="append", default=[], metavar="SPEC",
                   help=SOURCE_HELP)
    add_source_kind_option(p)
    p.add_argument("--crds", dest="crds", action="append", default=[], metavar="PATH",
                   help="CustomResourceDefinition manifests (file, directory or URL) to document "
                        "with every release, linked to its ObjectMeta (repeatable)")
    p.add_argument("--offline", action="store_true",
                   help="never download; URL and upstream: sources must already be in the cache "
                        "(or, upstream:, in the --spec-mirror)")
    p.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE, metavar="DIR",
                   help=f"download cache (default: {DEFAULT_CACHE})")
    add_upstream_options(p)
    p.add_argument("--lenient", action="store_true",
                   help="render a dangling $ref as an unknown type (with a warning) "
                        "instead of failing")


def add_source_kind_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--source-kind", choices=SOURCE_KINDS, default="bundled",
                   help="source of a --version without --source: bundled (kubernetes-validate, "
                        "offline; snapshots with known differences from upstream; default) or "
                        "upstream (upstream:VERSION, the official swagger.json: exact text)")


def add_upstream_options(p: argparse.ArgumentParser) -> None:
    """Options of ``upstream:`` sources (every command that reads sources)."""
    p.add_argument("--spec-mirror", type=Path, default=None, metavar="DIR",
                   help=f"directory of swagger-1.NN.json files read for upstream:1.NN instead of "
                        f"downloading (default: ${MIRROR_ENV} if set)")
    p.add_argument("--lock", type=Path, default=None, metavar="FILE",
                   help=f"digests of upstream releases this tool ships none for, recorded on first "
                        f"use and checked afterwards; commit it (default: {LOCK_NAME} next to the "
                        f"MkDocs config for build-site, else in the current directory)")


def program_name(argv0: str | None = None) -> str:
    """The program as invoked: ``k8s-api-docs`` (the installed script) or ``python -m
    generator`` (``__main__.py``, or any other runner)."""
    name = os.path.basename(sys.argv[0] if argv0 is None else argv0)
    return name if name.startswith("k8s-api-docs") else "python -m generator"


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    parser = _Parser(prog=prog or program_name(),
                     description="Versioned Kubernetes API reference docs from OpenAPI.")
    parser.add_argument("--version", action="version", version=f"k8s-api-docs {__version__}",
                        help="print the version of k8s-api-docs and exit (after a command, "
                             "--version is the Kubernetes release)")
    parser.add_argument("-V", "--tool-version", action="version", version=__version__,
                        help="print the bare version number and exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    gen = sub.add_parser("generate", help="write the Markdown pages of one or more releases",
                         description="Write DIR/<version>/<group>/<apiVersion>/<kind>.md plus "
                                     "index pages. Each DIR/<version>/ written is replaced "
                                     "atomically; other releases already in DIR stay.")
    add_source_options(gen)
    gen.add_argument("--out", type=Path, required=True, metavar="DIR",
                     help="output directory (created; the releases written are replaced)")
    add_site_options(gen)
    gen.add_argument("-q", "--quiet", action="store_true", help="print only errors")

    exp = sub.add_parser("export", help="print the normalized model as JSON",
                         description="Print the normalized model of one release as JSON "
                                     "(schema: docs/command-line.md 'Export format').")
    add_source_options(exp, one_release=True)

    dif = sub.add_parser(
        "diff", help="compare two releases; exit 1 when a change of --fail-on class or worse",
        description="Compare the definitions of OLD and NEW: API versions, kinds, models and "
                    "fields added/removed/changed, each classed by the impact of upgrading from "
                    "OLD to NEW: breaking (something that worked fails: an API version or kind "
                    "no longer served, a field removed, a type narrowed, newly required without "
                    "a default, enum values removed, merge semantics changed), warning "
                    "(compatible but worth a look) or info; with its stability, whether the "
                    "Kubernetes deprecation policy allows it, and what to use instead of what is "
                    "no longer served. Exit 0: no gate tripped; 1: a change of the --fail-on "
                    "class or worse; 2: bad input or usage. JSON schema: docs/command-line.md 'Diff JSON "
                    "format'.")
    dif.add_argument("old", metavar="OLD", help="old release: a version such as 1.31 "
                     "(kubernetes-validate) or any source spec. " + SOURCE_HELP.split(";")[0])
    dif.add_argument("new", metavar="NEW", help="new release, same forms as OLD")
    dif.add_argument("--format", choices=FORMATS, default="text",
                     help="text (default), markdown (GitHub-flavoured, for a PR comment), json "
                          "(stable schema) or github (::error/::warning workflow annotations, "
                          "at most 10 of each; the Markdown report is appended to "
                          "$GITHUB_STEP_SUMMARY when set)")
    dif.add_argument("--fail-on", choices=SEVERITIES, metavar="CLASS",
                     help="exit 1 when a change of this class or worse remains after the "
                          "filters: breaking | warning | info (default: never)")
    dif.add_argument("--group", dest="groups", action="append", default=[], metavar="GROUP",
                     help="only this API group as written in apiVersion (core: the core group) "
                          "or as the site's navigation names it (flowcontrol); repeatable; a "
                          "group neither release has is an error")
    dif.add_argument("--kind", dest="kinds", action="append", default=[], metavar="KIND",
                     help="only this kind (any case), the types it uses and the unserved "
                          "versions that served it; repeatable; a kind neither release has is "
                          "an error")
    dif.add_argument("--ignore-stability", action="append", default=[], choices=STABILITIES,
                     metavar="LEVEL", help="drop changes of this stability: alpha | beta | ga; "
                                           "repeatable")
    dif.add_argument("--no-descriptions", action="store_true",
                     help="leave out description-only changes (description changed); "
                          "feature-gate mentions stay")
    dif.add_argument("--offline", action="store_true",
                     help="never download; URL sources must already be in the cache")
    dif.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE, metavar="DIR",
                     help=f"download cache (default: {DEFAULT_CACHE})")
    add_upstream_options(dif)
    dif.add_argument("--lenient", action="store_true",
                     help="read a dangling $ref as an unknown type instead of failing")

    chk = sub.add_parser(
        "check", help="exit 1 when committed generated Markdown is stale",
        description="Regenerate (same options as generate) into a temporary directory and "
                    "compare with DIR: a summary, then the first pages edited (DIR's page "
                    "differs), missing (generated, absent from DIR) and not generated (in DIR "
                    "only), plus a unified diff of the first edited pages. Exit 0: up to date; "
                    "1: stale; 2: bad input.")
    chk.add_argument("dir", type=Path, metavar="DIR", help="directory written by generate --out")
    add_source_options(chk)
    add_site_options(chk)
    chk.add_argument("--max-diffs", type=int, default=3, metavar="N",
                     help="show the unified diff of the first N changed pages (default 3)")
    add_build_site_parser(sub)
    add_explain_parser(sub)
    add_scan_parser(sub)
    add_completion_parser(sub)
    add_assemble_parser(sub)
    return parser


def add_build_site_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from generator.sitebuild.presets import PRESETS
    from generator.sitebuild.runner import BUILDERS, default_jobs

    site = sub.add_parser(
        "build-site", help="build every release as its own MkDocs site, side by side",
        description="Generate and build each release as its own MkDocs site (SITE/1.31/, "
                    "SITE/1.32/, ...), in parallel, plus SITE/versions.json (Material's version "
                    "selector) and a landing page. A release whose inputs did not change is not "
                    "rebuilt. Per-release configs INHERIT the MkDocs config given by --config.")
    site.add_argument("--version", dest="versions", action="append", default=[], metavar="VERSION",
                      help="release to publish (repeatable); default: the --preset's releases")
    site.add_argument("--source", dest="sources", action="append", default=[], metavar="SPEC",
                      help=SOURCE_HELP)
    site.add_argument("--preset", choices=PRESETS, default=None,
                      help="default: 1.31 and 1.32; all: every release kubernetes-validate ships "
                           "(with --source-kind upstream: every release whose swagger.json digest "
                           "this tool ships, 1.28 to 1.36)")
    add_source_kind_option(site)
    site.add_argument("--crds", dest="crds", action="append", default=[], metavar="PATH",
                      help="CustomResourceDefinition manifests (file, directory or URL) to "
                           "document with every release, linked to its pages (repeatable)")
    site.add_argument("--out", type=Path, required=True, metavar="SITE",
                      help="output directory (created; only releases that changed are replaced)")
    site.add_argument("--config", type=Path, default=None, metavar="FILE",
                      help="MkDocs config every release inherits (default: mkdocs.yml of the "
                           "current directory, else the built-in one: the project's own)")
    site.add_argument("--jobs", "-j", type=int, default=default_jobs(), metavar="N",
                      help=f"builds at a time (default: one per core, here {default_jobs()})")
    site.add_argument("--group", dest="groups", action="append", default=[], metavar="GROUP",
                      help="publish only these API groups (repeatable; for previews and tests)")
    site.add_argument("--force", action="store_true", help="rebuild every release")
    site.add_argument("--builder", choices=BUILDERS, default="mkdocs",
                      help="mkdocs (default: mkdocs build with the k8s-api-docs plugin) or zensical "
                           "(pip install 'k8s-api-docs[zensical]'): the same URLs, versions.json, "
                           "root page, version selector and search; every internal link of the "
                           "result is checked")
    site.add_argument("--offline", action="store_true",
                      help="never download; URL sources must already be in the cache")
    site.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE, metavar="DIR",
                      help=f"downloads, generated Markdown and the build manifest "
                           f"(default: {DEFAULT_CACHE})")
    add_upstream_options(site)
    site.add_argument("--site-url", default=None, metavar="URL",
                      help="where SITE is published, e.g. https://org.github.io/repo/ (default: "
                           "site_url of --config); with it the version selector keeps the page "
                           "(through each release's sitemap), without it it opens the other "
                           "release's home page")
    site.add_argument("-q", "--quiet", action="store_true",
                      help="no progress (a bar on a terminal, else a line as each release "
                           "starts and is done, with its time) and no summary line")
    site.add_argument("--only", dest="only", action="append", default=[], metavar="VERSION",
                      help="build only this release of the site (repeatable): a part for "
                           "'assemble' (one CI matrix job per release, all given the same "
                           "--version list); no versions.json, latest/ or landing page")


def add_site_options(p: argparse.ArgumentParser) -> None:
    """Options of generate that shape the pages (shared by check)."""
    p.add_argument("--format", dest="page_format", choices=PAGE_FORMATS, default=None,
                   help="mkdocs (default for generate: headings plus HTML blocks, for the MkDocs "
                        "site) or gfm (plain GitHub-flavoured Markdown, no HTML: reads on GitHub "
                        "and in other renderers, one line per field); check: default the format "
                        "recorded in DIR")
    p.add_argument("--templates", type=Path, metavar="DIR",
                   help="directory of template overrides (same file names as templates/)")
    p.add_argument("--history", choices=HISTORY_SCOPES, default="all",
                   help="releases that field 'since'/'removed in' notes consider: all (every "
                        "kubernetes-validate release, default) or site (only the --version ones)")
    p.add_argument("--changes", dest="change_pairs", action="append", default=[],
                   metavar="OLD:NEW", help="also write NEW/changes-from-OLD.md (repeatable); "
                                          "adjacent --version pairs always get NEW/changes.md")
    p.add_argument("--no-versions", action="store_true",
                   help="no Other versions line, field history or change pages")


def _config(args: argparse.Namespace, page_format: str) -> SiteConfig:
    """The site config of ``generate``/``check`` options."""
    from generator.config import cli_config

    return cli_config(args.versions, args.sources, kind=args.source_kind, crds=args.crds,
                      source_options=_options(args), templates=args.templates, lenient=args.lenient,
                      history=args.history, change_pairs=args.change_pairs,
                      no_versions=args.no_versions, page_format=page_format)


def _options(args: argparse.Namespace) -> SourceOptions:
    from generator.config import cli_source_options

    return cli_source_options(args.cache_dir, args.offline, args.spec_mirror, args.lock)


def _emit(text: str) -> None:
    """Write ``text`` to stdout; when the reader stops reading (``… | head``) the rest is dropped
    quietly and the command keeps its exit code."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()


def _drop_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush has nowhere to fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file (captured output)
        pass


def _print_diagnostics(diagnostics: Iterable[object]) -> None:
    for diagnostic in diagnostics:
        print(diagnostic, file=sys.stderr)


def cmd_generate(args: argparse.Namespace) -> int:
    import gc

    from generator.output.writer import ReleaseStage
    from generator.pipeline.build import build
    from generator.views.site import version_dir

    config = _config(args, args.page_format or "mkdocs")
    # model pages written as they are rendered (by whichever process renders them), the rest
    # (kept encoded) after; the releases are swapped in at the end
    stage = ReleaseStage(args.out, [version_dir(v) for v in config.rendered], config.page_format)
    collecting = gc.isenabled()
    gc.disable()  # one build, then exit: its few reference cycles are not worth the collections
    try:
        try:
            site, _ = build(config, encoded=True, sink=stage.write, last=True)
        finally:
            if collecting:  # callers in the same process (tests) keep their collector
                gc.enable()
        _print_diagnostics(site.diagnostics)
        stage.commit(site.pages)
    finally:
        stage.discard()
    if not args.quiet:
        pages = sum(1 for path in site.rendered if path.endswith(".md"))  # + each release's fieldpaths.json
        print(f"wrote {pages} pages for {len(config.releases)} release(s) to {args.out}")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from generator.config import pair_releases
    from generator.pipeline.load import load_api

    releases = pair_releases(args.versions, args.sources, args.source_kind, args.crds)
    if len(releases) != 1:
        raise GeneratorError("export takes exactly one --version")
    api, diagnostics = load_api(releases[0], _options(args), lenient=args.lenient)
    _print_diagnostics(diagnostics)
    _emit(json.dumps(api.to_dict(), indent=1, sort_keys=False, ensure_ascii=False) + "\n")
    return EXIT_OK


def cmd_diff(args: argparse.Namespace) -> int:
    import gc

    collecting = gc.isenabled()
    gc.disable()  # its many objects are acyclic: collections cost CPU and free next to nothing
    try:
        return _diff(args)
    finally:
        if collecting:  # callers in the same process (tests) keep their collector
            gc.enable()


def _diff(args: argparse.Namespace) -> int:
    from generator.analysis.diff import DiffFilter
    from generator.config import diff_sides
    from generator.pipeline.compare import diff_releases
    from generator.render.reports import format_github, format_json, format_markdown, format_text

    keep = DiffFilter(frozenset(args.groups), frozenset(args.kinds),
                      frozenset(args.ignore_stability), descriptions=not args.no_descriptions)
    result = diff_releases(*diff_sides(args.old, args.new), _options(args), lenient=args.lenient,
                           keep=keep)
    _print_diagnostics(result.diagnostics)
    diff = result.diff
    if args.format == "json":
        out = format_json(diff)
    elif args.format == "markdown":
        out = format_markdown(diff, display_path(args.old), display_path(args.new))
    elif args.format == "github":
        summary = os.environ.get("GITHUB_STEP_SUMMARY", "")
        if summary:
            report = format_markdown(diff, display_path(args.old), display_path(args.new))
            from generator.output.writer import append_text

            append_text(Path(summary), report)
        out = format_github(diff, workspace_file(args.new), summary_written=bool(summary))
    else:
        out = format_text(diff)
    _emit(out)
    return EXIT_GATE if args.fail_on and diff.trips(args.fail_on) else EXIT_OK


def workspace_file(spec: str) -> str:
    """``spec`` relative to the working directory when it is a file inside it, else ``""``
    (GitHub attaches ``file=`` annotations to paths relative to the checkout)."""
    path = Path(spec)
    if not path.is_file():
        return ""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return ""


def display_path(spec: str) -> str:
    """How a report names a file source: relative to the working directory when inside it;
    ``""`` (the source as loaded) for other sources."""
    return workspace_file(spec) or (spec if Path(spec).exists() else "")


def cmd_check(args: argparse.Namespace) -> int:
    import tempfile

    from generator.output.check import compare_trees, unified
    from generator.output.writer import page_format_of, read_tree, replace_releases
    from generator.pipeline.build import build
    from generator.views.lookup import FIELD_PATHS
    from generator.views.site import version_dir

    generated = ("*.md", FIELD_PATHS)  # pages and each release's field-path data
    config = _config(args, args.page_format or page_format_of(args.dir) or "mkdocs")
    page_format = config.page_format
    dirs = [version_dir(v) for v in config.rendered]
    # Only the releases asked about: other releases in DIR were written by other runs.
    committed = {p: t for p, t in read_tree(args.dir, generated).items()
                 if p.split("/", 1)[0] in dirs}
    site, _ = build(config)
    with tempfile.TemporaryDirectory(prefix="k8s-api-docs-check-") as tmp:
        replace_releases(Path(tmp) / "out", site.pages, dirs, page_format)
        fresh = read_tree(Path(tmp) / "out", generated)
    result = compare_trees(fresh, committed)
    pages = sum(p.endswith(".md") for p in fresh)
    if not result.stale:
        _emit(f"{args.dir}: up to date ({pages} {page_format} pages)\n")
        return EXIT_OK
    lines = [f"{args.dir}: stale: {result.summary()} (regenerate with: generate --out "
             f"{args.dir} …)"]
    if not committed.keys() & fresh.keys():
        lines.append(f"{args.dir} has none of the {len(fresh)} files generated for "
                     f"{', '.join(config.rendered)}: is it the --out of generate for these "
                     f"releases?")
    lines += result.listing()
    for path in result.changed[: max(args.max_diffs, 0)]:
        lines += ["", f"page edited {path}: what {args.dir} has (-) and what is generated (+)",
                  *unified(path, committed[path], fresh[path])]
    _emit("\n".join(lines) + "\n")
    return EXIT_GATE


def _progress_line(text: str) -> None:
    """A progress line on standard error, flushed (a CI log shows it as it happens)."""
    print(text, file=sys.stderr, flush=True)


def cmd_build_site(args: argparse.Namespace) -> int:
    from generator.config import pair_releases
    from generator.sitebuild.build import BuildSiteOptions, build_site
    from generator.sitebuild.presets import preset_versions

    if args.versions and args.preset:
        raise UsageError("give either --preset or --version, not both")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    versions = args.versions or preset_versions(args.preset or "default", args.source_kind)
    releases = pair_releases(versions, args.sources, args.source_kind, args.crds)
    config = args.config if args.config or not Path("mkdocs.yml").is_file() else Path("mkdocs.yml")
    summary = build_site(BuildSiteOptions(
        releases=releases, out=args.out, config_file=config, cache_dir=args.cache_dir,
        offline=args.offline, jobs=args.jobs, force=args.force, groups=args.groups,
        progress=not args.quiet and sys.stderr.isatty(), spec_mirror=spec_mirror(args.spec_mirror),
        log=None if args.quiet or sys.stderr.isatty() else _progress_line,
        lock_file=args.lock, builder=args.builder, site_url=args.site_url, only=args.only))
    for note in summary.notes:
        print(f"note: {note}", file=sys.stderr)
    if not args.quiet:
        print(summary.line())
    return EXIT_OK


# -- assemble (docs/publishing.md) ------------------------------------------------------------
def add_assemble_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    asm = sub.add_parser(
        "assemble", help="put build-site parts built apart (a CI matrix) into one site",
        description="Put the outputs of build-site --only RELEASE (one per release, built apart, "
                    "e.g. by the jobs of a CI matrix, all with the same --version list) into one "
                    "site: every release, versions.json, latest/ and the landing page, with every "
                    "internal link checked, the same files as one build-site of all releases. "
                    "Refuses parts of different sites, a release twice with different content and "
                    "a directory that is not a build-site output (exit 2, SITE untouched).")
    asm.add_argument("parts", nargs="+", type=Path, metavar="PART",
                     help="a build-site output directory (a part or a whole site)")
    asm.add_argument("--out", type=Path, required=True, metavar="SITE",
                     help="the site to write (replaced whole, atomically)")
    asm.add_argument("-q", "--quiet", action="store_true", help="no summary line")


def cmd_assemble(args: argparse.Namespace) -> int:
    from generator.sitebuild.assemble import assemble

    summary = assemble(args.parts, args.out)
    if not args.quiet:
        print(summary)
    return EXIT_OK


# -- explain and scan (docs/terminal.md) ------------------------------------------------------
def add_explain_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    exp = sub.add_parser(
        "explain", help="what a field is in a release, like kubectl explain without a cluster",
        description="Print a field (or kind) of a release as kubectl explain writes it, plus "
                    "what the site says of it: type, required, description, enum, default, "
                    "constraints and CEL rules, stage and feature gates, its history (since, "
                    "changed, removed in) and the URL of its row on the site. PATH as kubectl "
                    "writes it: deployment.spec.replicas, pods.spec, deploy, Deployment.spec, "
                    "apps/v1/deployment.spec, core/v1/pod.spec. Exit 2 for an unknown path, "
                    "with the nearest names. Without --version: the newest release of the site "
                    "configured in ./mkdocs.yml (the k8s-api-docs plugin's versions), else the "
                    "newest bundled; several --version: the last is explained, the others (older "
                    "CRD sets, say) date it. The URL is printed only for a page that site has "
                    "(./mkdocs.yml's, else the default site of build-site). JSON schema: "
                    "docs/terminal.md.")
    exp.add_argument("path", metavar="PATH", help="RESOURCE[.FIELD...], optionally "
                                                  "GROUP/VERSION/ first")
    add_source_options(exp, version_required=False)
    exp.add_argument("--api-version", default="", metavar="GROUP/VERSION",
                     help="the API version to explain, as kubectl explain --api-version "
                          "(the same as writing it before PATH)")
    exp.add_argument("--recursive", action="store_true",
                     help="print every field below PATH, like kubectl explain --recursive")
    exp.add_argument("--format", choices=EXPLAIN_FORMATS, default="text",
                     help="text (default, kubectl's layout) or json (docs/terminal.md)")
    exp.add_argument("--site-url", default="", metavar="URL",
                     help="where the site is published: the row URL is printed below it, for "
                          "any release (default: ./mkdocs.yml's site_url, else relative to the "
                          "site root)")


def add_scan_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from generator.analysis.findings import CLASSES

    scn = sub.add_parser(
        "scan", help="check manifests against a release, field by field; exit 1 on --fail-on",
        description="Check every object of the manifests (files, directories, - for standard "
                    "input; multi-document YAML, JSON, List kinds) against the --target "
                    "release: apiVersions/kinds no longer served (with the replacement), "
                    "fields removed or unknown, wrong types, enum values, missing required "
                    "fields, formats; alpha/beta/deprecated use as warnings. Classes: error, "
                    "breaking, warning, info. Exit 0: no gate tripped; 1: a finding of the "
                    "--fail-on class or worse; 2: bad input or usage. JSON schema: "
                    "docs/terminal.md.")
    scn.add_argument("paths", nargs="+", metavar="PATH",
                     help="manifest file, directory or - (standard input)")
    scn.add_argument("--target", required=True, metavar="RELEASE",
                     help="the release to check against: 1.NN (kubernetes-validate), "
                          "upstream:1.NN or a spec file, as diff's NEW")
    scn.add_argument("--from", dest="before", default=None, metavar="RELEASE",
                     help="the release the manifests run on now: a failure on the target that "
                          "it accepts is breaking")
    scn.add_argument("--crds", dest="crds", action="append", default=[], metavar="PATH",
                     help="CustomResourceDefinition manifests (file, directory or URL) whose "
                          "custom resources to check (repeatable)")
    scn.add_argument("--format", choices=(*FORMATS, "sarif"), default="text",
                     help="text (default), json (docs/terminal.md), github (workflow "
                          "annotations with file and line), markdown or sarif (SARIF 2.1.0 for "
                          "code scanning: one rule per check)")
    scn.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                     help="leave out files whose path (as listed, or relative to the directory "
                          "given) or a directory of it matches GLOB: vendor, 'charts/*/ci/*', "
                          "'*.json' (repeatable)")
    scn.add_argument("--allow-empty", action="store_true",
                     help="exit 0 when no Kubernetes object is found (default: exit 2, so that "
                          "a wrong path does not turn the gate off)")
    scn.add_argument("-v", "--verbose", action="store_true",
                     help="list the files skipped (no Kubernetes manifest: Chart.yaml, "
                          "values*.yaml, kustomization.yaml, workflows, YAML without apiVersion "
                          "and kind; --exclude) on standard error")
    scn.add_argument("--fail-on", choices=CLASSES, metavar="CLASS",
                     help="exit 1 when a finding of this class or worse is found: error | "
                          "breaking | warning | info (breaking also trips on errors; "
                          "default: never)")
    scn.add_argument("--offline", action="store_true",
                     help="never download; URL sources must already be in the cache")
    scn.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE, metavar="DIR",
                     help=f"download cache (default: {DEFAULT_CACHE})")
    add_upstream_options(scn)


def cmd_explain(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from generator.config import Release, pair_releases
    from generator.pipeline.terminal import explain
    from generator.render.terminal import explain_json, explain_text
    from generator.sitebuild.configured import explain_site, newest
    from generator.sources import available_versions

    site, configured = explain_site(Path.cwd())
    if args.versions:
        releases = pair_releases(args.versions, args.sources, args.source_kind, args.crds)
    elif configured:  # the newest release of the site in this directory, as it is configured
        label, source, crds = newest(site)
        releases = [Release(label, args.sources[0] if args.sources else source,
                            tuple(args.crds) or crds)]
    else:
        releases = pair_releases(available_versions()[-1:], args.sources, args.source_kind, args.crds)
    site_url = args.site_url or site.site_url
    if args.site_url:
        site = replace(site, explicit=True, where=args.site_url)
    path = f"{args.api_version.strip('/')}/{args.path}" if args.api_version else args.path
    found, diagnostics = explain(releases[-1], path, _options(args), recursive=args.recursive,
                                 site_url=site_url, lenient=args.lenient, earlier=releases[:-1],
                                 published=site)
    _print_diagnostics(diagnostics)
    sys.stdout.write(explain_json(found) if args.format == "json" else explain_text(found))
    return EXIT_OK


def cmd_scan(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from generator.analysis.findings import trips
    from generator.config import diff_side
    from generator.pipeline.terminal import scan
    from generator.render.terminal import SCAN_FORMATS, scan_markdown

    target = replace(diff_side(args.target), crds=tuple(args.crds))
    before = replace(diff_side(args.before), crds=tuple(args.crds)) if args.before else None
    result = scan(args.paths, target, before, _options(args),
                  stdin=getattr(sys.stdin, "buffer", None), exclude=args.exclude)
    _print_diagnostics(result.diagnostics)
    if args.verbose:
        for file, why in result.skipped:
            print(f"skipped {file}: {why}", file=sys.stderr)
    if not result.objects and not args.allow_empty:
        raise GeneratorError(nothing_found(args.paths, result.files, result.templates,
                                           len(result.skipped), args.verbose))
    report = (result.findings, result.objects, result.target, result.before)
    if args.format == "github" and os.environ.get("GITHUB_STEP_SUMMARY"):
        from generator.output.writer import append_text

        append_text(Path(os.environ["GITHUB_STEP_SUMMARY"]), scan_markdown(*report))
    sys.stdout.write(SCAN_FORMATS[args.format](*report))
    return EXIT_GATE if args.fail_on and trips(result.findings, args.fail_on) else EXIT_OK


def nothing_found(paths: Sequence[str], files: int, templates: int, skipped: int,
                  verbose: bool) -> str:
    """The one line of a scan that found no Kubernetes object: where it looked and what it saw."""
    where = ", ".join("standard input" if p == "-" else p for p in paths)
    seen = [f"{files} file(s) listed"] if files else ["no YAML or JSON file"]
    if templates:
        seen.append(f"{templates} Helm template(s) not scanned (render them: helm template "
                    f"CHART | k8s-api-docs scan --target RELEASE -)")
    if skipped:
        seen.append(f"{skipped} skipped (no manifest, or --exclude)"
                    + ("" if verbose else ": --verbose lists them"))
    return (f"no Kubernetes object found in {where}: {'; '.join(seen)}; --allow-empty accepts "
            f"this")


# -- completion ---------------------------------------------------------------------------------
COMPLETION_POSITIONALS = {"diff": ("release", "release"), "explain": ("kind",), "scan": ("file",),
                          "check": ("file",), "completion": ("bash", "zsh")}
"""What the positional arguments of each command are, for completion."""
COMPLETION_SHELLS = ("bash", "zsh")
"""``render.completion.SHELLS``' names (a test keeps them equal): that module is imported only by
``completion`` itself."""


def add_completion_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    com = sub.add_parser(
        "completion", help="print a shell completion script (bash or zsh)",
        description="Print a completion script for commands, options, releases (the bundled "
                    "ones) and kinds (of the release on the command line, else the newest "
                    "bundled): eval \"$(k8s-api-docs completion bash)\" in ~/.bashrc, or "
                    "completion zsh in ~/.zshrc.")
    com.add_argument("shell", nargs="?", choices=COMPLETION_SHELLS, metavar="SHELL",
                     help="bash or zsh")
    com.add_argument("--kinds", default=None, metavar="RELEASE", nargs="?", const="",
                     help="print the resource names of RELEASE (default: the newest bundled), "
                          "one a line: what the script completes kinds with")


def completion_specs(parser: argparse.ArgumentParser) -> dict[str, object]:
    """Each command's options and choices, read from the parser itself."""
    from generator.render.completion import CommandSpec

    specs: dict[str, object] = {}
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        for name, command in action.choices.items():
            options: list[str] = []
            choices: dict[str, tuple[str, ...]] = {}
            for a in command._actions:
                options += [o for o in a.option_strings if o.startswith("--")]
                if a.option_strings and a.choices:
                    for o in a.option_strings:
                        choices[o] = tuple(str(c) for c in a.choices)
            specs[name] = CommandSpec(tuple(options), choices,
                                      COMPLETION_POSITIONALS.get(name, ()))
    return specs


def cmd_completion(args: argparse.Namespace) -> int:
    from generator.render.completion import SHELLS
    from generator.sources import available_versions

    if args.kinds is not None:
        _emit("".join(f"{name}\n" for name in resource_names(args.kinds, _options_offline())))
        return EXIT_OK
    if not args.shell:
        raise UsageError("completion: give a shell: bash or zsh")
    specs = completion_specs(build_parser("k8s-api-docs"))
    # for the installed script, whatever ran this (a function name cannot hold "python -m")
    script = SHELLS[args.shell]("k8s-api-docs", specs,  # type: ignore[arg-type]
                                available_versions(), ("--version", "--help"))
    _emit(script)
    return EXIT_OK


def _options_offline() -> SourceOptions:
    from generator.config import cli_source_options

    return cli_source_options(DEFAULT_CACHE, True, None, None)


def resource_names(release: str, options: SourceOptions) -> list[str]:
    """Every lower-case name kubectl accepts for a kind of ``release`` (its kind, plural,
    singular and short names), sorted: the newest bundled release when ``release`` is empty
    or unknown."""
    from generator.analysis.resources import Resources
    from generator.config import Release
    from generator.pipeline.load import load_api
    from generator.sources import available_versions

    versions = available_versions()
    version = release if release in versions else versions[-1]
    api, _ = load_api(Release(version), options)
    return sorted({n for r in Resources(api).by_group_kind.values() for n in r.names()})


COMMANDS = {"generate": cmd_generate, "export": cmd_export, "diff": cmd_diff, "check": cmd_check,
            "build-site": cmd_build_site, "explain": cmd_explain, "scan": cmd_scan,
            "completion": cmd_completion, "assemble": cmd_assemble}


FAST_EXIT = frozenset({"explain", "scan", "diff", "completion"})
"""Commands that hold nothing past their return (no files, processes or handlers to close): a
process that ran one ends without tearing the interpreter down (freeing every module and
object, a noticeable part of a command that takes a fraction of a second), as mypy does."""


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (``argv``: the process's own when None; only then may the process end
    here, see ``FAST_EXIT``)."""
    args = build_parser().parse_args(argv)
    code = _run(args)
    if argv is None and args.command in FAST_EXIT:
        _end_process(code)
    return code


def _end_process(code: int) -> None:
    """Flush what was written and end the process now (``os._exit``: no teardown)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away: nothing more to say
        pass
    except (OSError, ValueError):
        return  # let the interpreter's own exit report it
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    os._exit(code)


def _run(args: argparse.Namespace) -> int:
    try:
        return COMMANDS[args.command](args)
    except GeneratorError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader of our output went away (| head): nothing to say
        _drop_stdout()
        return EXIT_OK
