"""The stage a kind uses a model at: a type reached only through an alpha (or beta) field is
alpha (or beta) itself, whatever its API version says.

``PodResourceClaim`` lives in ``core/v1`` (GA) but is used only by ``PodSpec.resourceClaims``,
"an alpha field" behind the ``DynamicResourceAllocation`` gate in 1.26 to 1.31: its fields are
alpha fields, and removing one (``PodResourceClaim.source``, 1.31) breaks no GA promise. Kubernetes
API changes, "Adding Unstable Features to Stable Versions": a new field in an existing API version
is added as an alpha field behind a feature gate, and "if the feature is abandoned … the field
should be removed".
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from generator.analysis.severity import STABILITIES
from generator.analysis.structure import field_maturity
from generator.model.gvk import stability
from generator.model.types import ApiSpec

_RANK = {s: i for i, s in enumerate(STABILITIES)}


def model_stages(api: ApiSpec, young: Callable[[str, str], str] | None = None
                 ) -> dict[str, tuple[str, str]]:
    """Definition name → (the most stable stage at which some kind reaches it, the field that
    made it less stable than the kind: ``PodSpec.resourceClaims``, else ``""``). Each kind is
    reached at its API version's stage; a field whose description calls it alpha or beta
    (``structure.field_maturity``), or that ``young(definition, field)`` says is new in this
    release, lowers the stage of what it references. Models no kind reaches are absent (their
    API version decides)."""
    best: dict[str, tuple[int, str]] = {}
    heap: list[tuple[int, str, str]] = [
        (_RANK[stability(m.api_version)], name, "")
        for name, m in api.models.items() if m.is_kind and m.api_version]
    heapq.heapify(heap)
    while heap:
        rank, name, via = heapq.heappop(heap)
        if name in best:
            continue
        best[name] = (rank, via)
        model = api.models[name]
        for f in model.fields:
            target = f.type.referenced()
            if not target or target in best or target not in api.models:
                continue
            own = _RANK.get(field_maturity(f.description), 0) if f.description else 0
            if own < _RANK["alpha"] and young is not None and young(name, f.name):
                own = _RANK["alpha"]
            heapq.heappush(heap, (max(rank, own), target,
                                  f"{model.kind}.{f.name}" if own > rank else via))
    return {name: (STABILITIES[rank], via) for name, (rank, via) in best.items()}
