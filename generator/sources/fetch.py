"""Download a spec over http(s) once into a cache keyed by sha256; atomic cache writes."""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from generator.errors import Location, SpecError, UsageError
from generator.sources.reader import MAX_SPEC_BYTES

TIMEOUT_SECONDS = 30.0
MAX_REDIRECTS = 5


class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
    """Follow at most ``MAX_REDIRECTS`` redirects, and only to http(s)."""

    max_redirections = MAX_REDIRECTS

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        if not newurl.lower().startswith(("http://", "https://")):
            raise SpecError(f"redirect to non-http(s) URL {newurl!r} refused", Location(req.full_url))
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def cache_path(cache_dir: Path, url: str) -> Path:
    """Where the body of ``url`` is cached; the index file maps URL → content digest."""
    return cache_dir / "urls" / hashlib.sha256(url.encode()).hexdigest()


def fetch(
    url: str,
    cache_dir: Path,
    *,
    offline: bool = False,
    sha256: str | None = None,
    max_bytes: int = MAX_SPEC_BYTES,
    timeout: float = TIMEOUT_SECONDS,
) -> Path:
    """Local path of ``url``'s body: from the cache, or downloaded once (not when ``offline``)."""
    if not url.lower().startswith(("http://", "https://")):
        raise UsageError(f"only http(s) URLs can be fetched: {url!r}")
    pointer_file = cache_path(cache_dir, url)
    if pointer_file.is_file():
        blob = cache_dir / "blobs" / pointer_file.read_text().strip()
        if blob.is_file() and (sha256 is None or blob.name == sha256):
            return blob
    if offline:
        raise SpecError("not in the download cache and --offline forbids downloading",
                        Location(url))
    body = _download(url, max_bytes, timeout)
    digest = hashlib.sha256(body).hexdigest()
    if sha256 is not None and digest != sha256.lower():
        raise SpecError(f"sha256 mismatch: expected {sha256}, got {digest}", Location(url))
    blob = cache_dir / "blobs" / digest
    atomic_write(blob, body)
    atomic_write(pointer_file, digest.encode())
    return blob


def _download(url: str, max_bytes: int, timeout: float) -> bytes:
    opener = urllib.request.build_opener(_HttpOnlyRedirects())
    request = urllib.request.Request(url, headers={"User-Agent": "k8s-api-docs"})
    try:
        with opener.open(request, timeout=timeout) as response:
            body = response.read(max_bytes + 1)
    except urllib.error.HTTPError as exc:
        raise SpecError(f"download failed: HTTP {exc.code}", Location(url)) from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise SpecError(f"download failed: {reason}", Location(url)) from None
    if len(body) > max_bytes:
        raise SpecError(f"download larger than the {max_bytes:,} byte limit", Location(url))
    return body


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
