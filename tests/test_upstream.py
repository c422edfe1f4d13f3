"""``upstream:1.NN`` sources: the official swagger.json of a release tag from a spec mirror, the
download cache or a download (a local server on 127.0.0.1 stands in for GitHub), every read checked
against the shipped digests or the lock file."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from helpers.paths import REPO, SPECS

from generator.cli import main
from generator.config import pair_releases
from generator.errors import SpecError, UsageError
from generator.render.raw_html import CLOSE, OPEN
from generator.sitebuild.presets import preset_versions
from generator.sources import SourceOptions, load_source, source_digest, upstream
from generator.sources.upstream import (
    KNOWN_SHA256,
    MIRROR_ENV,
    UpstreamRelease,
    known_releases,
    read_lock,
    spec_mirror,
)

SMALL = json.dumps({"swagger": "2.0", "definitions": {
    "io.k8s.api.gadgets.v1.Gadget": {"type": "object", "description": "Gadget of a future release.",
                                      "properties": {"size": {"type": "integer"}}}}}).encode()
SHARED_RELEASES = [f"1.{n}" for n in range(28, 37)]


class Handler(BaseHTTPRequestHandler):
    """``/kubernetes/kubernetes/<tag>/api/openapi-spec/swagger.json`` like raw.githubusercontent.com:
    ``bodies`` maps a tag to what is served."""

    hits: Counter[str] = Counter()
    bodies: dict[str, bytes] = {}

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        parts = self.path.strip("/").split("/")
        tag = parts[2] if len(parts) == 6 and parts[3:] == ["api", "openapi-spec", "swagger.json"] else ""
        Handler.hits[tag] += 1
        body = Handler.bodies.get(tag)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = QuietServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def github(server: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """Upstream URLs point at the local server; nothing is served until a test says so."""
    monkeypatch.setattr(upstream, "URL_TEMPLATE",
                        server + "/kubernetes/kubernetes/{tag}/api/openapi-spec/swagger.json")
    monkeypatch.delenv(MIRROR_ENV, raising=False)
    Handler.bodies = {}
    Handler.hits.clear()
    return server


def test_release_tags_urls_and_mirror_names() -> None:
    r = UpstreamRelease.parse("upstream:1.32")
    assert (r.tag, r.mirror_name, r.known_sha256) == ("v1.32.0", "swagger-1.32.json",
                                                      KNOWN_SHA256["v1.32.0"])
    assert r.url == ("https://raw.githubusercontent.com/kubernetes/kubernetes/v1.32.0/api/"
                     "openapi-spec/swagger.json")
    patch = UpstreamRelease.parse("upstream:1.32.3")
    assert (patch.tag, patch.mirror_name, patch.known_sha256) == ("v1.32.3", "swagger-1.32.3.json", "")
    for bad in ("upstream:latest", "upstream:1", "upstream:../1.32", "upstream:1.32/../x"):
        with pytest.raises(UsageError, match=r"expected upstream:MAJOR\.MINOR"):
            UpstreamRelease.parse(bad)


@pytest.mark.shared
def test_shipped_digests_are_those_of_the_release_files(shared: Path) -> None:
    sums = dict(reversed(line.split()) for line in (SPECS / "SHA256SUMS").read_text().splitlines())
    for release in SHARED_RELEASES:
        data = (SPECS / f"swagger-{release}.json").read_bytes()
        assert hashlib.sha256(data).hexdigest() == sums[f"swagger-{release}.json"]
        assert KNOWN_SHA256[f"v{release}.0"] == sums[f"swagger-{release}.json"]
    assert known_releases() == SHARED_RELEASES


@pytest.mark.shared
def test_generate_from_the_mirror_writes_the_official_text(shared: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["generate", "--version", "1.32", "--source", "upstream:1.32", "--spec-mirror",
                 str(SPECS), "--cache-dir", str(tmp_path / "cache"), "--no-versions",
                 "--lock", str(tmp_path / "k8s-api-docs.lock"), "--out", str(out), "-q"]) == 0
    page = (out / "1.32/resource/v1beta1/resourceClaimStatus.md").read_text(encoding="utf-8")
    assert "at most 256 such reservations" in page and "at most 32 " not in page
    sha = KNOWN_SHA256["v1.32.0"]
    url = "https://raw.githubusercontent.com/kubernetes/kubernetes/v1.32.0/api/openapi-spec/swagger.json"
    footer = page[page.index('<p class="k8s-source">'):]
    assert footer.startswith('<p class="k8s-source"><small><a href="../../../#source">Source</a>: the '
                             "official api/openapi-spec/swagger.json of Kubernetes v1.32.0, read from "
                             f'the spec mirror file swagger-1.32.json (<a href="{url}">{url}</a>) · '
                             f"sha256 <code>{sha}</code></small></p>")
    home = (out / "1.32/index.md").read_text(encoding="utf-8")
    assert (f"## Source\n\n{OPEN}\n<p>Built from the official api/openapi-spec/swagger.json of Kubernetes "
            f"v1.32.0, read from the spec mirror file swagger-1.32.json: <a href=\"{url}\">{url}</a>.\n"
            f"sha256 <code>{sha}</code> (matches the digest k8s-api-docs ships for v1.32.0).</p>\n"
            f"{CLOSE}\n") in home
    assert "a snapshot" not in home and "a snapshot" not in page
    bundled = load_source("kubernetes-validate:1.32").definitions[
        "io.k8s.api.resource.v1beta1.ResourceClaimStatus"]["properties"]["reservedFor"]["description"]
    assert "at most 32 such reservations" in bundled  # why upstream: is there
    assert not (tmp_path / "cache").exists()  # the mirror was read, nothing downloaded or cached
    assert not (tmp_path / "k8s-api-docs.lock").exists()  # a shipped digest needs no lock entry


@pytest.mark.shared
def test_a_mirror_file_with_a_wrong_digest_is_refused(shared: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "swagger-1.32.json").write_bytes((SPECS / "swagger-1.31.json").read_bytes())
    out = tmp_path / "out"
    assert main(["generate", "--version", "1.32", "--source", "upstream:1.32", "--spec-mirror",
                 str(mirror), "--cache-dir", str(tmp_path / "cache"), "--out", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    expected = KNOWN_SHA256["v1.32.0"]
    got = KNOWN_SHA256["v1.31.0"]
    assert err == (f"error: {mirror / 'swagger-1.32.json'}: sha256 mismatch for Kubernetes v1.32.0: "
                   f"expected {expected} (the digest k8s-api-docs ships), got {got}\n")
    assert not out.exists()


def test_offline_without_mirror_or_cache_is_one_line_with_a_hint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MIRROR_ENV, raising=False)
    args = ["generate", "--version", "1.32", "--source", "upstream:1.32", "--offline",
            "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / "out"), "-q"]
    assert main(args) == 2
    err = capsys.readouterr().err
    url = "https://raw.githubusercontent.com/kubernetes/kubernetes/v1.32.0/api/openapi-spec/swagger.json"
    assert err == (f"error: upstream:1.32: Kubernetes v1.32.0 swagger.json is not in the download "
                   f"cache and --offline forbids downloading: save {url} as "
                   f"<DIR>/swagger-1.32.json and pass --spec-mirror <DIR>, or run once online\n")
    empty = tmp_path / "empty-mirror"
    empty.mkdir()
    assert main([*args, "--spec-mirror", str(empty)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"not in {empty / 'swagger-1.32.json'} or the download cache" in err


@pytest.mark.shared
def test_download_once_then_cache_then_offline(github: str, shared: Path, tmp_path: Path) -> None:
    Handler.bodies["v1.32.0"] = (SPECS / "swagger-1.32.json").read_bytes()
    options = SourceOptions(cache_dir=tmp_path / "cache", lock_file=tmp_path / "k8s-api-docs.lock")
    doc = load_source("upstream:1.32", options)
    assert Handler.hits["v1.32.0"] == 1
    assert doc.origin == f"{github}/kubernetes/kubernetes/v1.32.0/api/openapi-spec/swagger.json"
    assert doc.label == "upstream:1.32" and doc.sha256 == KNOWN_SHA256["v1.32.0"]
    assert doc.provenance is not None
    assert (doc.provenance.kind, doc.provenance.release, doc.provenance.checked) == (
        "upstream", "v1.32.0", "shipped")
    assert source_digest("upstream:1.32", options) == KNOWN_SHA256["v1.32.0"]
    offline = SourceOptions(cache_dir=tmp_path / "cache", offline=True)
    assert load_source("upstream:1.32", offline).sha256 == KNOWN_SHA256["v1.32.0"]
    assert Handler.hits["v1.32.0"] == 1  # downloaded once
    assert not (tmp_path / "k8s-api-docs.lock").exists()


@pytest.mark.shared
def test_a_download_that_differs_from_the_shipped_digest_is_refused(github: str, shared: Path,
                                                                    tmp_path: Path) -> None:
    Handler.bodies["v1.31.0"] = (SPECS / "swagger-1.32.json").read_bytes()  # the wrong file
    with pytest.raises(SpecError) as err:
        load_source("upstream:1.31", SourceOptions(cache_dir=tmp_path / "cache"))
    url = f"{github}/kubernetes/kubernetes/v1.31.0/api/openapi-spec/swagger.json"
    assert str(err.value) == (f"{url}: sha256 mismatch: expected {KNOWN_SHA256['v1.31.0']}, "
                              f"got {KNOWN_SHA256['v1.32.0']}")
    assert not (tmp_path / "cache" / "downloads" / "blobs").exists()


def test_a_release_without_a_shipped_digest_is_locked_on_first_download(github: str,
                                                                        tmp_path: Path) -> None:
    lock = tmp_path / "k8s-api-docs.lock"
    Handler.bodies["v1.99.0"] = SMALL
    small_sha = hashlib.sha256(SMALL).hexdigest()
    doc = load_source("upstream:1.99", SourceOptions(cache_dir=tmp_path / "c1", lock_file=lock))
    assert doc.provenance is not None and doc.provenance.checked == "recorded"
    assert read_lock(lock) == {"v1.99.0": small_sha}
    assert f"{small_sha}  v1.99.0\n" in lock.read_text()
    # Later runs check against the lock: same bytes pass, different bytes are refused.
    again = load_source("upstream:1.99", SourceOptions(cache_dir=tmp_path / "c2", lock_file=lock))
    assert again.provenance is not None and again.provenance.checked == "lock"
    Handler.bodies["v1.99.0"] = SMALL + b"\n"
    with pytest.raises(SpecError, match=f"sha256 mismatch: expected {small_sha}, got "):
        load_source("upstream:1.99", SourceOptions(cache_dir=tmp_path / "c3", lock_file=lock))
    assert read_lock(lock) == {"v1.99.0": small_sha}  # a refused download changes nothing
    # A patch release is its own tag, with its own entry.
    Handler.bodies["v1.99.2"] = SMALL + b"\n"
    load_source("upstream:1.99.2", SourceOptions(cache_dir=tmp_path / "c3", lock_file=lock))
    assert set(read_lock(lock)) == {"v1.99.0", "v1.99.2"}


def test_a_mirror_file_is_checked_against_the_lock_too(tmp_path: Path) -> None:
    lock = tmp_path / "k8s-api-docs.lock"
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "swagger-1.99.json").write_bytes(SMALL)
    options = SourceOptions(cache_dir=tmp_path / "cache", spec_mirror=mirror, lock_file=lock)
    assert load_source("upstream:1.99", options).provenance.file == "swagger-1.99.json"  # type: ignore[union-attr]
    (mirror / "swagger-1.99.json").write_bytes(SMALL + b" ")
    with pytest.raises(SpecError) as err:
        load_source("upstream:1.99", options)
    assert str(err.value).startswith(f"{mirror / 'swagger-1.99.json'}: sha256 mismatch for Kubernetes "
                                     f"v1.99.0: expected {hashlib.sha256(SMALL).hexdigest()} "
                                     f"(locked in {lock}), got ")


def test_a_broken_lock_file_is_one_line(tmp_path: Path) -> None:
    lock = tmp_path / "k8s-api-docs.lock"
    lock.write_text("# comment\nnot a digest  v1.99.0\n")
    with pytest.raises(UsageError) as err:
        read_lock(lock)
    assert str(err.value) == f"{lock}: line 2: expected '<sha256>  v1.NN.P'"


def test_mirror_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(MIRROR_ENV, raising=False)
    assert spec_mirror(None) is None
    monkeypatch.setenv(MIRROR_ENV, str(tmp_path))
    assert spec_mirror(None) == tmp_path
    assert spec_mirror(tmp_path / "x") == tmp_path / "x"  # an option wins


def test_upstream_presets_and_source_kind() -> None:
    assert preset_versions("all", "upstream") == SHARED_RELEASES
    assert preset_versions("default", "upstream") == ["1.31", "1.32"]
    releases = pair_releases(["1.31", "1.32"], ["x.json"], "upstream")
    assert [r.spec for r in releases] == ["x.json", "upstream:1.32"]
    assert [r.spec for r in pair_releases(["1.32"], [])] == ["kubernetes-validate:1.32"]


@pytest.mark.slow
@pytest.mark.shared
def test_build_site_from_upstream_through_the_mirror_offline(shared: Path, tmp_path: Path) -> None:
    """The per-release MkDocs builds read the same mirror (and lock file) as the CLI: offline, with
    an empty cache, the release is built from the official file."""
    out = tmp_path / "public"
    assert main(["build-site", "--version", "1.32", "--source-kind", "upstream", "--spec-mirror",
                 str(SPECS), "--offline", "--group", "node", "--cache-dir", str(tmp_path / "cache"),
                 "--config", str(REPO / "mkdocs.yml"), "--lock", str(tmp_path / "k8s-api-docs.lock"),
                 "--out", str(out), "-q"]) == 0
    home = (out / "1.32" / "index.html").read_text(encoding="utf-8")
    assert "the official api/openapi-spec/swagger.json of Kubernetes v1.32.0" in home
    assert KNOWN_SHA256["v1.32.0"] in home
    assert not (tmp_path / "cache" / "downloads").exists()
