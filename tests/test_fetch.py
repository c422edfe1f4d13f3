"""Network source against a local server on 127.0.0.1 (loopback only): timeout, size cap,
http(s)-only redirects, sha256 pin, atomic cache writes.

No test measures wall-clock time: the stalled server answers only after the client gave up (or
after a long cap, so a broken timeout fails instead of hanging), and the whole-download deadline
is checked against a fake clock that the dripping server steps in lockstep with each read."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import threading
import time
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from generator.atomic import atomic_write
from generator.cli import main
from generator.errors import SpecError, UsageError
from generator.sources.fetch import fetch

SPEC = json.dumps({"swagger": "2.0", "definitions": {
    "com.example.gadgets.v1.Gadget": {"type": "object", "description": "A gadget served over HTTP.",
                                      "properties": {"size": {"type": "integer"}}}}}).encode()
SPEC_SHA = hashlib.sha256(SPEC).hexdigest()
atomic_module = importlib.import_module("generator.atomic")  # the one atomic write
fetch_module = importlib.import_module("generator.sources.fetch")


STALL_CAP = 30.0
"""Seconds a stalled response waits at most for the client to give up: a fetch whose timeout did
not work gets the body after this and fails its ``pytest.raises``, instead of hanging."""


class Handler(BaseHTTPRequestHandler):
    hits: Counter[str] = Counter()
    body = SPEC
    released = threading.Event()
    """Set once the client gave up on ``/slow``: only then does the server answer it."""
    ticks = threading.Semaphore(0)
    """Released by the fake clock (``FakeClock``) each time the client reads it: ``/drip``
    sends one byte per tick, so the client reads in many steps whatever the machine's load."""

    def log_message(self, *args: object) -> None:
        pass

    def _send(self, body: bytes, length: bool = True) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _redirect(self, where: str) -> None:
        self.send_response(302)
        self.send_header("Location", where)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        Handler.hits[self.path] += 1
        if self.path == "/spec.json":
            self._send(Handler.body)
        elif self.path == "/big":
            self._send(b" " * 5000)
        elif self.path == "/big-unsized":
            self.close_connection = True
            self._send(b" " * 5000, length=False)
        elif self.path == "/slow":
            Handler.released.wait(STALL_CAP)
            self._send(SPEC)
        elif self.path == "/drip":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            for _ in range(100):
                if not Handler.ticks.acquire(timeout=STALL_CAP):
                    return
                self.wfile.write(b" ")
                self.wfile.flush()
        elif self.path == "/to-file":
            self._redirect("file:///etc/passwd")
        elif self.path == "/to-ftp":
            self._redirect("ftp://127.0.0.1/spec.json")
        elif self.path == "/to-spec":
            self._redirect("/spec.json")
        elif self.path == "/loop":
            self._redirect("/loop")
        else:
            self.send_error(404)


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # clients that give up early (timeouts, size caps) break the pipe: expected


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = QuietServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(autouse=True)
def fresh_body() -> None:
    Handler.body = SPEC


def test_download_is_cached_and_offline_reads_the_cache(server: str, tmp_path: Path) -> None:
    url = f"{server}/spec.json"
    before = Handler.hits[url.removeprefix(server)]
    path = fetch(url, tmp_path)
    assert path.read_bytes() == SPEC and path.name == SPEC_SHA
    assert fetch(url, tmp_path) == path
    assert fetch(url, tmp_path, offline=True) == path
    assert Handler.hits["/spec.json"] == before + 1
    with pytest.raises(SpecError) as err:
        fetch(f"{server}/other.json", tmp_path, offline=True)
    assert str(err.value) == (f"{server}/other.json: not in the download cache and --offline "
                              "forbids downloading")


def test_cli_generates_from_a_url(server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["generate", "--version", "x", "--source", f"{server}/spec.json#sha256={SPEC_SHA}",
                 "--cache-dir", str(tmp_path / "cache"), "--out", str(out), "-q"]) == 0
    assert "A gadget served over HTTP." in (out / "x/gadgets/v1/gadget.md").read_text(encoding="utf-8")
    assert main(["generate", "--version", "x", "--source", f"{server}/missing.json",
                 "--cache-dir", str(tmp_path / "cache"), "--out", str(out), "-q"]) == 2
    assert capsys.readouterr().err == f"error: {server}/missing.json: download failed: HTTP 404\n"


@pytest.fixture
def stall() -> Iterator[None]:
    """``/slow`` answers only once the test is over (or after ``STALL_CAP``)."""
    Handler.released.clear()
    yield
    Handler.released.set()


def test_no_response_times_out(server: str, tmp_path: Path, stall: None) -> None:
    with pytest.raises(SpecError) as err:
        fetch(f"{server}/slow", tmp_path, timeout=0.5)
    assert str(err.value) == f"{server}/slow: download failed: no response within 0.5 s"
    assert not list(tmp_path.rglob("*"))


class FakeClock:
    """``time`` for the fetch module: ``monotonic`` advances ``step`` seconds per reading and lets
    the ``/drip`` server send one more byte."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step
        self.readings = 0

    def monotonic(self) -> float:
        self.now += self.step
        self.readings += 1
        Handler.ticks.release()
        return self.now

    def __getattr__(self, name: str) -> object:
        return getattr(time, name)


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    while Handler.ticks.acquire(blocking=False):
        pass
    clock = FakeClock(step=4.0)
    monkeypatch.setattr(fetch_module, "time", clock)
    yield clock
    for _ in range(100):  # a dripping handler still waiting for ticks ends now
        Handler.ticks.release()


def test_timeout_bounds_the_whole_download_not_each_read(server: str, tmp_path: Path,
                                                         fake_clock: FakeClock) -> None:
    # Every read returns a byte at once (no socket read comes near the 10 s timeout), but each
    # check of the clock finds 4 s more gone: the third check is past the 10 s deadline.
    with pytest.raises(SpecError) as err:
        fetch(f"{server}/drip", tmp_path, timeout=10)
    assert str(err.value) == f"{server}/drip: download took longer than 10 s"
    assert fake_clock.readings == 4  # the deadline, then a check before each of three reads
    assert not list(tmp_path.rglob("*"))


def test_size_cap_by_content_length_and_by_bytes_read(server: str, tmp_path: Path) -> None:
    with pytest.raises(SpecError) as err:
        fetch(f"{server}/big", tmp_path, max_bytes=1000)
    assert str(err.value) == (f"{server}/big: download larger than the 1,000 byte limit "
                              "(Content-Length 5,000)")
    with pytest.raises(SpecError) as err:
        fetch(f"{server}/big-unsized", tmp_path, max_bytes=1000)
    assert str(err.value) == f"{server}/big-unsized: download larger than the 1,000 byte limit"
    assert not (tmp_path / "blobs").exists()


def test_redirects_only_to_http(server: str, tmp_path: Path) -> None:
    assert fetch(f"{server}/to-spec", tmp_path).read_bytes() == SPEC
    for path, target in (("/to-file", "file:///etc/passwd"), ("/to-ftp", "ftp://127.0.0.1/spec.json")):
        with pytest.raises(SpecError) as err:
            fetch(f"{server}{path}", tmp_path)
        assert str(err.value) == f"{server}{path}: redirect to non-http(s) URL {target!r} refused"
    with pytest.raises(SpecError) as err:
        fetch(f"{server}/loop", tmp_path)
    assert str(err.value) == f"{server}/loop: download failed: too many redirects (over 5)"


def test_sha256_pin(server: str, tmp_path: Path) -> None:
    url = f"{server}/spec.json"
    assert fetch(url, tmp_path, sha256=SPEC_SHA.upper()).name == SPEC_SHA
    wrong = "0" * 64
    with pytest.raises(SpecError) as err:
        fetch(url, tmp_path / "other", sha256=wrong)
    assert str(err.value) == f"{url}: sha256 mismatch: expected {wrong}, got {SPEC_SHA}"
    assert not (tmp_path / "other" / "blobs").exists()
    with pytest.raises(UsageError) as usage:
        fetch(url, tmp_path, sha256="abc")
    assert str(usage.value) == f"{url}: a #sha256= pin must be 64 hex digits"
    # The server's content changed: a pin to the new digest downloads again.
    Handler.body = SPEC + b"\n"
    new_sha = hashlib.sha256(Handler.body).hexdigest()
    assert fetch(url, tmp_path, sha256=new_sha).name == new_sha
    assert fetch(url, tmp_path).name == new_sha  # the URL now points at the new body


def test_corrupt_cached_blob_is_downloaded_again(server: str, tmp_path: Path) -> None:
    url = f"{server}/spec.json"
    blob = fetch(url, tmp_path)
    blob.write_bytes(SPEC[:10])  # e.g. a disk problem
    before = Handler.hits["/spec.json"]
    assert fetch(url, tmp_path).read_bytes() == SPEC
    assert Handler.hits["/spec.json"] == before + 1


def test_atomic_write_never_leaves_a_partial_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "blobs" / "x"
    atomic_write(target, b"old body")

    def fail_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic_module.os, "replace", fail_replace)
    with pytest.raises(OSError):
        atomic_write(target, b"new body that never lands")
    assert target.read_bytes() == b"old body"
    assert os.listdir(target.parent) == ["x"]  # the temporary file is gone


def test_cache_write_failure_is_one_clear_error(server: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(atomic_module.os, "replace",
                        lambda src, dst: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    with pytest.raises(UsageError) as err:
        fetch(f"{server}/spec.json", tmp_path)
    assert str(err.value) == f"{tmp_path}: cannot write the download cache: No space left on device"
    assert not list(tmp_path.rglob("*.tmp*")) and not list(tmp_path.rglob(".tmp-*"))
