"""Download a spec over http(s) once into a cache keyed by sha256; atomic cache writes."""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path
from typing import Any

from generator.atomic import atomic_write
from generator.errors import Location, SpecError, UsageError, one_line
from generator.sources.reader import MAX_SPEC_BYTES

TIMEOUT_SECONDS = 30.0
MAX_REDIRECTS = 5


def _http_only_redirects() -> Any:
    """A redirect handler that follows at most ``MAX_REDIRECTS`` redirects, and only to http(s).
    (Built on first download: ``urllib.request`` takes a while to import, and reading a cached or
    bundled source needs none of it.)"""
    import urllib.parse
    import urllib.request

    class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
        max_redirections = MAX_REDIRECTS

        def http_error_302(self, req, fp, code, msg, headers):  # type: ignore[no-untyped-def]
            target = headers.get("location") or headers.get("uri") or ""
            newurl = urllib.parse.urljoin(req.full_url, target)
            if not newurl.lower().startswith(("http://", "https://")):
                raise SpecError(f"redirect to non-http(s) URL {one_line(newurl)!r} refused",
                                Location(req.full_url))
            return super().http_error_302(req, fp, code, msg, headers)

        http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302

    return _HttpOnlyRedirects()


def cache_path(cache_dir: Path, url: str) -> Path:
    """Where the body of ``url`` is cached; the index file maps URL → content digest."""
    return cache_dir / "urls" / hashlib.sha256(url.encode()).hexdigest()


_HEX64 = re.compile(r"^[0-9a-f]{64}$")
CHUNK = 256 * 1024


def fetch(
    url: str,
    cache_dir: Path,
    *,
    offline: bool = False,
    sha256: str | None = None,
    max_bytes: int = MAX_SPEC_BYTES,
    timeout: float = TIMEOUT_SECONDS,
) -> Path:
    """Local path of ``url``'s body: from the cache, or downloaded once (not when ``offline``).

    ``timeout`` bounds the whole download, not just each socket read; a body over ``max_bytes``,
    a redirect to a non-http(s) URL and a body whose digest differs from ``sha256`` are refused.
    """
    if not url.lower().startswith(("http://", "https://")):
        raise UsageError(f"only http(s) URLs can be fetched: {url!r}")
    if sha256 is not None:
        sha256 = sha256.lower()
        if not _HEX64.match(sha256):
            raise UsageError("a #sha256= pin must be 64 hex digits", Location(url))
    cached = cached_body(cache_dir, url, sha256)
    if cached is not None:
        return cached
    if offline:
        raise SpecError("not in the download cache and --offline forbids downloading",
                        Location(url))
    body = _download(url, max_bytes, timeout)
    digest = hashlib.sha256(body).hexdigest()
    if sha256 is not None and digest != sha256:
        raise SpecError(f"sha256 mismatch: expected {sha256}, got {digest}", Location(url))
    blob = cache_dir / "blobs" / digest
    try:
        atomic_write(blob, body)
        atomic_write(cache_path(cache_dir, url), digest.encode())
    except OSError as exc:
        raise UsageError(f"cannot write the download cache: {exc.strerror or exc}",
                         Location(str(cache_dir))) from None
    return blob


def cached_body(cache_dir: Path, url: str, sha256: str | None = None) -> Path | None:
    """The cached body of ``url`` if present, intact and matching the pin."""
    try:
        digest = cache_path(cache_dir, url).read_text(encoding="ascii").strip()
        if not _HEX64.match(digest) or (sha256 is not None and digest != sha256):
            return None
        blob = cache_dir / "blobs" / digest
        if hashlib.sha256(blob.read_bytes()).hexdigest() != digest:
            return None
        return blob
    except (OSError, UnicodeDecodeError):
        return None


def _download(url: str, max_bytes: int, timeout: float) -> bytes:
    import http.client
    import urllib.error
    import urllib.request

    opener = urllib.request.build_opener(_http_only_redirects())
    request = urllib.request.Request(url, headers={"User-Agent": "k8s-api-docs"})
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    size = 0
    try:
        with opener.open(request, timeout=timeout) as response:
            length = response.headers.get("Content-Length", "")
            if length.isdigit() and int(length) > max_bytes:
                raise SpecError(f"download larger than the {max_bytes:,} byte limit "
                                f"(Content-Length {int(length):,})", Location(url))
            while size <= max_bytes:
                if time.monotonic() > deadline:
                    raise SpecError(f"download took longer than {timeout:g} s", Location(url))
                chunk = response.read1(CHUNK) if hasattr(response, "read1") else response.read(CHUNK)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
    except urllib.error.HTTPError as exc:
        if 300 <= exc.code < 400:
            raise SpecError(f"download failed: too many redirects (over {MAX_REDIRECTS})",
                            Location(url)) from None
        raise SpecError(f"download failed: HTTP {exc.code}", Location(url)) from None
    except TimeoutError:
        raise SpecError(f"download failed: no response within {timeout:g} s", Location(url)) from None
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, TimeoutError):
            raise SpecError(f"download failed: no response within {timeout:g} s",
                            Location(url)) from None
        raise SpecError(f"download failed: {reason}", Location(url)) from None
    if size > max_bytes:
        raise SpecError(f"download larger than the {max_bytes:,} byte limit", Location(url))
    return b"".join(chunks)
