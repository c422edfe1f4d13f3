"""``helpers.shared_build``: a session fixture's build runs once per test run, also across the
worker processes of pytest-xdist (which give every worker its own session fixtures)."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pytest
from helpers.shared_build import build_once
from helpers.xdist_groups import xdist_group


class Factory:
    """What ``build_once`` uses of ``pytest.TempPathFactory``, for one worker of a run."""

    def __init__(self, run: Path, worker: str) -> None:
        self.base = run / f"popen-{worker}"
        self.base.mkdir(parents=True, exist_ok=True)
        self.made = 0

    def getbasetemp(self) -> Path:
        return self.base

    def mktemp(self, name: str) -> Path:
        self.made += 1
        path = self.base / f"{name}{self.made}"
        path.mkdir()
        return path


def count_build(out: Path) -> None:
    time.sleep(0.3)  # long enough for the other worker to ask meanwhile
    (out / "index.html").write_text("built")
    with open(out.parent / "builds.txt", "a") as log:
        log.write(f"{os.getpid()}\n")


def worker(run: str, name: str) -> None:
    os.environ["PYTEST_XDIST_WORKER"] = name
    out = build_once(Factory(Path(run), name), "site", count_build)  # type: ignore[arg-type]
    assert (out / "index.html").read_text() == "built"


def test_without_xdist_each_session_builds_its_own(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    factory = Factory(tmp_path, "none")
    first = build_once(factory, "site", lambda out: (out / "a").write_text("1"))  # type: ignore[arg-type]
    assert first.parent == factory.base and (first / "a").read_text() == "1"


def test_workers_of_one_run_share_one_build(tmp_path: Path) -> None:
    """Two worker processes ask at once: one builds, the other waits and gets the same site."""
    context = multiprocessing.get_context("spawn")
    procs = [context.Process(target=worker, args=(str(tmp_path), f"gw{i}")) for i in range(2)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(60)
    assert [proc.exitcode for proc in procs] == [0, 0]
    assert len((tmp_path / "builds.txt").read_text().split()) == 1
    assert (tmp_path / "site" / "index.html").read_text() == "built"


def test_a_failed_build_is_tried_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")

    def fail(out: Path) -> None:
        (out / "half").write_text("x")
        raise AssertionError("mkdocs failed")

    with pytest.raises(AssertionError):
        build_once(Factory(tmp_path, "gw0"), "site", fail)  # type: ignore[arg-type]
    out = build_once(Factory(tmp_path, "gw1"), "site", lambda o: (o / "ok").write_text("1"))  # type: ignore[arg-type]
    assert sorted(p.name for p in out.iterdir()) == ["ok"]


class Item:
    """What ``xdist_group`` reads of a collected test."""

    def __init__(self, nodeid: str, params: dict[str, str] | None = None) -> None:
        self.nodeid = nodeid
        if params is not None:
            self.callspec = type("CallSpec", (), {"params": params})()


def test_xdist_groups_keep_a_module_together_but_split_the_corpus_sets() -> None:
    assert xdist_group(Item("tests/test_site.py::test_a")) == "tests/test_site.py"  # type: ignore[arg-type]
    assert xdist_group(Item("tests/test_site.py::test_b[x]", {"width": "390"})) == "tests/test_site.py"  # type: ignore[arg-type]
    corpus = "tests/test_crd_corpus_pages.py"
    groups = {xdist_group(Item(f"{corpus}::test_rows[{n}]", {"name": n})) for n in ("keda", "velero")}  # type: ignore[arg-type]
    assert groups == {f"{corpus}::keda", f"{corpus}::velero"}
    # the argo-cd test without the parameter joins the argo-cd set's group (whose build it reads)
    assert xdist_group(Item(f"{corpus}::test_argo_cd")) == xdist_group(  # type: ignore[arg-type]
        Item(f"{corpus}::test_rows[argo-cd]", {"name": "argo-cd"}))  # type: ignore[arg-type]
