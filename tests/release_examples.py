"""The examples of every bundled release (kubernetes-validate 1.25-1.37), built once per session."""

from __future__ import annotations

from functools import cache

from setup_extras import KUBERNETES_CLIENTS

from generator.examples.snippets import Example, ExampleBuilder
from generator.model.normalize import build_api
from generator.model.types import ApiSpec, Model
from generator.sources import load_source

RELEASES = tuple(KUBERNETES_CLIENTS)
"""Every release kubernetes-validate bundles (a test checks); each has an official client."""


@cache
def release_api(release: str) -> ApiSpec:
    api, _ = build_api(load_source(f"kubernetes-validate:{release}"), release)
    return api


@cache
def release_examples(release: str) -> dict[str, Example]:
    """Definition name → example, for every model of ``release``."""
    api = release_api(release)
    builder = ExampleBuilder(api)
    return {name: builder.example(name) for name in api.models}


def is_manifest_kind(model: Model) -> bool:
    """A kind a user creates: not a list, with ``kind`` and an ``ObjectMeta`` ``metadata``."""
    meta = model.field("metadata")
    return model.is_kind and not model.is_list and model.field("kind") is not None \
        and meta is not None and meta.type.ref.endswith(".ObjectMeta")
