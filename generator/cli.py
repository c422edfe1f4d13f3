"""Command line: ``python -m generator`` / ``k8s-api-docs``. Exit 0 ok, 2 bad input or usage."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from generator import __version__
from generator.errors import GeneratorError, UsageError, one_line
from generator.pipeline import generate, load_api, pair_releases
from generator.sources import DEFAULT_CACHE, SourceOptions

EXIT_OK, EXIT_GATE, EXIT_INPUT = 0, 1, 2

SOURCE_HELP = (
    "where the definitions come from: kubernetes-validate:VERSION (default, offline), a path or "
    "http(s) URL of an OpenAPI v2 swagger.json(.gz), or a path of an OpenAPI v3 document or a "
    "directory of them; append #sha256=HEX to a URL to pin it. Paired with --version by position."
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"error: {one_line(message)}", file=sys.stderr)
        raise SystemExit(EXIT_INPUT)


def add_source_options(p: argparse.ArgumentParser, *, version_required: bool = True) -> None:
    p.add_argument("--version", dest="versions", action="append", default=[],
                   required=version_required, metavar="VERSION",
                   help="Kubernetes release to document, e.g. 1.31 (repeatable). With an "
                        "explicit --source it is only a label.")
    p.add_argument("--source", dest="sources", action="append", default=[], metavar="SPEC",
                   help=SOURCE_HELP)
    p.add_argument("--offline", action="store_true",
                   help="never download; URL sources must already be in the cache")
    p.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE, metavar="DIR",
                   help=f"download cache (default: {DEFAULT_CACHE})")
    p.add_argument("--lenient", action="store_true",
                   help="render a dangling $ref as an unknown type (with a warning) "
                        "instead of failing")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m generator",
                     description="Versioned Kubernetes API reference docs from OpenAPI.")
    parser.add_argument("-V", "--tool-version", action="version", version=__version__)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    gen = sub.add_parser("generate", help="write the Markdown pages of one or more releases",
                         description="Write DIR/<version>/<group>/<apiVersion>/<kind>.md plus "
                                     "index pages. DIR is replaced atomically.")
    add_source_options(gen)
    gen.add_argument("--out", type=Path, required=True, metavar="DIR",
                     help="output directory (created or replaced)")
    gen.add_argument("--templates", type=Path, metavar="DIR",
                     help="directory of template overrides (same file names as templates/)")
    gen.add_argument("-q", "--quiet", action="store_true", help="print only errors")

    exp = sub.add_parser("export", help="print the normalized model as JSON",
                         description="Print the normalized model of one release as JSON "
                                     "(schema: README 'Export format').")
    add_source_options(exp)
    add_build_site_parser(sub)
    return parser


def add_build_site_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from generator.sitebuild.presets import PRESETS
    from generator.sitebuild.runner import default_jobs

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
                      help="default: 1.31 and 1.32; all: every release kubernetes-validate ships")
    site.add_argument("--out", type=Path, required=True, metavar="SITE",
                      help="output directory (created; only releases that changed are replaced)")
    site.add_argument("--config", type=Path, default=Path("mkdocs.yml"), metavar="FILE",
                      help="MkDocs config every release inherits (default: mkdocs.yml)")
    site.add_argument("--jobs", "-j", type=int, default=default_jobs(), metavar="N",
                      help=f"builds at a time (default: one per core, here {default_jobs()})")
    site.add_argument("--group", dest="groups", action="append", default=[], metavar="GROUP",
                      help="publish only these API groups (repeatable; for previews and tests)")
    site.add_argument("--force", action="store_true", help="rebuild every release")
    site.add_argument("--offline", action="store_true",
                      help="never download; URL sources must already be in the cache")
    site.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE, metavar="DIR",
                      help=f"downloads, generated Markdown and the build manifest "
                           f"(default: {DEFAULT_CACHE})")
    site.add_argument("-q", "--quiet", action="store_true",
                      help="no progress bar and no summary line")


def _options(args: argparse.Namespace) -> SourceOptions:
    return SourceOptions(cache_dir=args.cache_dir, offline=args.offline)


def cmd_generate(args: argparse.Namespace) -> int:
    from generator.writer import replace_tree

    releases = pair_releases(args.versions, args.sources)
    site = generate(releases, _options(args), templates=args.templates, lenient=args.lenient)
    for diagnostic in site.diagnostics:
        print(diagnostic, file=sys.stderr)
    replace_tree(args.out, site.pages)
    if not args.quiet:
        print(f"wrote {len(site.pages)} pages for {len(releases)} release(s) to {args.out}")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    releases = pair_releases(args.versions, args.sources)
    if len(releases) != 1:
        raise GeneratorError("export takes exactly one --version")
    api, diagnostics = load_api(releases[0], _options(args), lenient=args.lenient)
    for diagnostic in diagnostics:
        print(diagnostic, file=sys.stderr)
    json.dump(api.to_dict(), sys.stdout, indent=1, sort_keys=False, ensure_ascii=False)
    sys.stdout.write("\n")
    return EXIT_OK


def cmd_build_site(args: argparse.Namespace) -> int:
    from generator.sitebuild.build import BuildSiteOptions, build_site
    from generator.sitebuild.presets import preset_versions

    if args.versions and args.preset:
        raise UsageError("give either --preset or --version, not both")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    versions = args.versions or preset_versions(args.preset or "default")
    releases = pair_releases(versions, args.sources)
    summary = build_site(BuildSiteOptions(
        releases=releases, out=args.out, config_file=args.config, cache_dir=args.cache_dir,
        offline=args.offline, jobs=args.jobs, force=args.force, groups=args.groups,
        progress=not args.quiet and sys.stderr.isatty()))
    if not args.quiet:
        print(summary.line())
    return EXIT_OK


COMMANDS = {"generate": cmd_generate, "export": cmd_export, "build-site": cmd_build_site}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except GeneratorError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
