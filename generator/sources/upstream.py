"""``upstream:1.32`` (or ``upstream:1.32.3``): the official ``api/openapi-spec/swagger.json`` of a
Kubernetes release tag, exactly as released.

Read from a spec mirror directory (``swagger-1.32.json``; for air-gapped machines and CI), else
from the download cache, else downloaded once (``fetch``: deadline, size cap, atomic cache). Every
read is checked against the digest this tool ships for the tag (``KNOWN_SHA256``) or, for a tag
without one, against the digest recorded on first use in the lock file (``k8s-api-docs.lock``
next to the config, committed by the user).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from generator.errors import Location, SpecError, UsageError, one_line
from generator.sources.fetch import atomic_write, cached_body, fetch
from generator.sources.reader import read_bytes

PREFIX = "upstream:"
URL_TEMPLATE = ("https://raw.githubusercontent.com/kubernetes/kubernetes/{tag}/api/openapi-spec/"
                "swagger.json")
MIRROR_ENV = "K8S_API_DOCS_SPEC_MIRROR"
"""Environment variable naming the spec mirror directory when no option does."""
LOCK_NAME = "k8s-api-docs.lock"

KNOWN_SHA256: dict[str, str] = {
    "v1.28.0": "0b0440f5951e160bb651c269c45cc7bf83b838549fcac96244d867b654b0f5c2",
    "v1.29.0": "e359a0cac138d118d71815338eda3c24b2d9ce219d204afb277f8cfb9832c162",
    "v1.30.0": "86dce48e9e83e503bef07a693656dd0e6a4420c00ce2ab7bb65609571bb38b86",
    "v1.31.0": "ac2a6f2fe9263f1ad488e9ca41640fd50753b603957e0027fd6453c412ea1b7d",
    "v1.32.0": "0350c464f4e616e1240676ca629dac47e46d87d6c42d84b42a0bd98dfa0d5139",
    "v1.33.0": "07855fb227fcede0acdfff1d7e52fdc4bfd98e99bf2c042c745f68719ade2876",
    "v1.34.0": "f0cb7a8eaad46df1883eeb494771d310609c859649aff668bba3d238ffcb1a6e",
    "v1.35.0": "98a678cd7f4113d3aa3526ab8df98012763b37935078d39740c1c5052c1709e3",
    "v1.36.0": "c316f6e232c666148076e82e20371ff656ffbb12e59d8953e6d94ec7685bc75c",
}
"""sha256 of ``api/openapi-spec/swagger.json`` at each release tag, verified against the
release files (tests/test_upstream.py checks them against ``../shared/specs/SHA256SUMS``)."""

_RELEASE = re.compile(r"^v?(\d{1,3})\.(\d{1,3})(?:\.(\d{1,3}))?$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class UpstreamRelease:
    """A release tag: ``upstream:1.32`` → ``v1.32.0``; ``upstream:1.32.3`` → ``v1.32.3``."""

    minor: str
    """``1.32``"""
    patch: int

    @classmethod
    def parse(cls, spec: str) -> UpstreamRelease:
        text = spec[len(PREFIX):] if spec.startswith(PREFIX) else spec
        match = _RELEASE.match(text)
        if not match:
            raise UsageError(f"{one_line(spec)}: expected upstream:MAJOR.MINOR or "
                             "upstream:MAJOR.MINOR.PATCH, e.g. upstream:1.32")
        return cls(f"{int(match[1])}.{int(match[2])}", int(match[3] or 0))

    @property
    def tag(self) -> str:
        return f"v{self.minor}.{self.patch}"

    @property
    def url(self) -> str:
        return URL_TEMPLATE.format(tag=self.tag)

    @property
    def mirror_name(self) -> str:
        """File name in a spec mirror: ``swagger-1.32.json`` (``swagger-1.32.3.json`` for a patch)."""
        return f"swagger-{self.minor}.json" if self.patch == 0 else f"swagger-{self.minor}.{self.patch}.json"

    @property
    def known_sha256(self) -> str:
        return KNOWN_SHA256.get(self.tag, "")


def known_releases() -> list[str]:
    """Releases (``1.28`` …) whose ``.0`` tag has a shipped digest, oldest first."""
    out = [tag[1:].rsplit(".", 1)[0] for tag in KNOWN_SHA256 if tag.endswith(".0")]
    return sorted(out, key=lambda v: tuple(int(n) for n in v.split(".")))


def spec_mirror(value: str | Path | None) -> Path | None:
    """The mirror directory: ``value`` if given, else ``$K8S_API_DOCS_SPEC_MIRROR``, else none."""
    chosen = value if value not in (None, "") else os.environ.get(MIRROR_ENV, "")
    return Path(chosen) if chosen else None


# -- lock file ------------------------------------------------------------------------------

LOCK_HEADER = ("# k8s-api-docs.lock: sha256 of upstream specs without a digest shipped by "
               "k8s-api-docs,\n# recorded on first use. Commit this file; a later download that "
               "differs is refused.\n")


def read_lock(path: Path) -> dict[str, str]:
    """Tag → sha256 from a lock file (empty when it does not exist)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the lock file: {getattr(exc, 'strerror', None) or exc}",
                         Location(str(path))) from None
    entries: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 2 or not _HEX64.match(parts[0]) or not _RELEASE.match(parts[1]):
            raise UsageError(f"line {number}: expected '<sha256>  v1.NN.P'", Location(str(path)))
        entries[parts[1]] = parts[0]
    return entries


def record_lock(path: Path, tag: str, sha256: str) -> None:
    """Add ``tag``'s digest to the lock file (written atomically, entries sorted)."""
    entries = read_lock(path)
    entries[tag] = sha256
    lines = "".join(f"{digest}  {t}\n" for t, digest in sorted(entries.items(), key=_tag_key))
    try:
        atomic_write(path, (LOCK_HEADER + lines).encode())
    except OSError as exc:
        raise UsageError(f"cannot write the lock file: {exc.strerror or exc}",
                         Location(str(path))) from None


def _tag_key(item: tuple[str, str]) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", item[0]))


# -- resolving ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Resolved:
    """Where the bytes of an upstream release are, and how their digest was checked."""

    release: UpstreamRelease
    path: Path
    sha256: str
    origin: str
    """What messages name: the mirror file, else the URL."""
    mirror_file: str = ""
    checked: str = ""
    """``shipped`` (a digest this tool ships), ``lock`` (the lock file), ``recorded`` (first use,
    now in the lock file) or empty (no lock file to record in)."""


def resolve(spec: str, *, cache_dir: Path, offline: bool, mirror: Path | None,
            lock_file: Path | None, max_bytes: int) -> Resolved:
    """Find (mirror, cache) or download the release's ``swagger.json`` and check its digest."""
    release = UpstreamRelease.parse(spec)
    expected, checked = release.known_sha256, "shipped"
    if not expected and lock_file is not None:
        expected, checked = read_lock(lock_file).get(release.tag, ""), "lock"
    if mirror is not None:
        path = mirror / release.mirror_name
        if path.is_file():
            digest = hashlib.sha256(read_bytes(path, max_bytes)).hexdigest()
            if expected and digest != expected:
                where = "the digest k8s-api-docs ships" if checked == "shipped" else f"locked in {lock_file}"
                raise SpecError(f"sha256 mismatch for Kubernetes {release.tag}: expected {expected} "
                                f"({where}), got {digest}", Location(str(path)))
            checked = _record(release, digest, lock_file, checked if expected else "")
            return Resolved(release, path, digest, str(path), str(path), checked)
    downloads = cache_dir / "downloads"
    if offline and cached_body(downloads, release.url, expected or None) is None:
        where = f"{mirror / release.mirror_name} or " if mirror is not None else ""
        raise SpecError(
            f"Kubernetes {release.tag} swagger.json is not in {where}the download cache and "
            f"--offline forbids downloading: save {release.url} as "
            f"<DIR>/{release.mirror_name} and pass --spec-mirror <DIR>, or run once online",
            Location(spec))
    path = fetch(release.url, downloads, offline=offline, sha256=expected or None,
                 max_bytes=max_bytes)
    digest = path.name
    checked = _record(release, digest, lock_file, checked if expected else "")
    return Resolved(release, path, digest, release.url, "", checked)


def _record(release: UpstreamRelease, digest: str, lock_file: Path | None, checked: str) -> str:
    """``checked`` when the digest was checked, else record it in the lock file (if any)."""
    if checked:
        return checked
    if lock_file is None:
        return ""
    record_lock(lock_file, release.tag, digest)
    return "recorded"
