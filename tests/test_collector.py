"""Builds run with fewer garbage collections and give the caller its collector back. Only the
youngest generation's threshold is assumed: the others, and how many there are, are the running
Python's (3.14's incremental collector changed them)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from generator.mkdocs.plugin import K8sApiDocsPlugin
from generator.pipeline.collector import BUILD_THRESHOLD, fewer_collections


@pytest.fixture
def threshold() -> Iterator[tuple[int, ...]]:
    """The collector's thresholds with the youngest generation's at 700, as the test starts."""
    saved = gc.get_threshold()
    gc.set_threshold(700, *saved[1:])
    yield gc.get_threshold()
    gc.set_threshold(*saved)


def test_the_threshold_is_raised_inside_and_restored_after_even_on_error(
        threshold: tuple[int, ...]) -> None:
    with fewer_collections():
        assert gc.get_threshold() == (BUILD_THRESHOLD, *threshold[1:])
    assert gc.get_threshold() == threshold
    with pytest.raises(RuntimeError), fewer_collections():
        raise RuntimeError
    assert gc.get_threshold() == threshold
    gc.set_threshold(50_000, *threshold[1:])
    with fewer_collections():
        assert gc.get_threshold()[0] == 50_000  # never lowered


def test_mkdocs_build_runs_with_fewer_collections_until_shutdown_serve_does_not(
        threshold: tuple[int, ...]) -> None:
    plugin = K8sApiDocsPlugin()
    plugin.on_startup(command="build", dirty=False)
    assert gc.get_threshold()[0] == BUILD_THRESHOLD
    plugin.on_shutdown()
    assert gc.get_threshold() == threshold
    serving = K8sApiDocsPlugin()
    serving.on_startup(command="serve", dirty=False)
    assert gc.get_threshold() == threshold
    serving.on_shutdown()


def test_frozen_heap_freezes_what_is_alive_and_unfreezes_even_on_error() -> None:
    from generator.pipeline.collector import frozen_heap

    assert gc.get_freeze_count() == 0
    with frozen_heap():
        frozen = gc.get_freeze_count()
        assert frozen > 0
        with frozen_heap():  # nested: freezes what came since, the outer one unfreezes
            assert gc.get_freeze_count() >= frozen
        assert gc.get_freeze_count() >= frozen
    assert gc.get_freeze_count() == 0
    with pytest.raises(RuntimeError), frozen_heap():
        raise RuntimeError
    assert gc.get_freeze_count() == 0


def test_frozen_heap_inside_a_freeze_of_another_owner_leaves_it_frozen() -> None:
    """A build forked by ``build-site`` starts with its parent's objects frozen: the loaded
    releases are frozen too, and nothing is unfrozen (the process ends with the build)."""
    from generator.pipeline.collector import frozen_heap

    gc.freeze()
    try:
        before = gc.get_freeze_count()
        alive = [[i] for i in range(1000)]
        with frozen_heap():
            assert gc.get_freeze_count() >= before + len(alive)
        assert gc.get_freeze_count() >= before + len(alive)
    finally:
        gc.unfreeze()
