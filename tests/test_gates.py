"""Stage badges: every phrasing Kubernetes 1.28 to 1.36 uses to say a field is alpha or beta behind
a feature gate (``PHRASINGS``, gate names replaced by ``FooBar``/``BazQux``), and over the real
specs, every field of a GA API version whose description says alpha or beta gets the badge."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.paths import SPECS

from generator.analysis.gates import FeatureGate, feature_gates
from generator.model.gvk import stability
from generator.model.normalize import build_api
from generator.render.env import macro, make_env
from generator.sources import load_source
from generator.views import notes
from generator.views.properties import PropertyRow, property_rows
from generator.views.site import plan_site

ENV = make_env()


def gate_badge(gate: FeatureGate) -> str:
    """A gate's badge as the pages show it (the partial partials/badge.html.j2)."""
    b = notes.gate_badge(gate)
    return str(macro(ENV, "partials/badge.html.j2", "badge")(b.kind, b.text, b.name, b.title))


def notes_cell(row: PropertyRow) -> str:
    return str(macro(ENV, "partials/notes.html.j2", "notes")(row.note_items))


A, B = "alpha", "beta"
PHRASINGS: list[tuple[str, tuple[tuple[str, str], ...]]] = [
    # stage and gate in one sentence
    ("This is an alpha field and requires enabling the FooBar feature gate.", (("FooBar", A),)),
    ("This is a beta field and requires enabling FooBar feature gate.", (("FooBar", B),)),
    ("This is an alpha field and requires enabling FooBar feature.", (("FooBar", A),)),
    ("This is a beta field and requires enabling FooBar feature (off by default).", (("FooBar", B),)),
    ("This is a beta field and requires the FooBar feature gate to be enabled (enabled by default).",
     (("FooBar", B),)),
    ("This is a beta field and requires the FooBar feature to be enabled (enabled by default).",
     (("FooBar", B),)),
    ("This is an alpha field and requires enabling the FooBar and BazQux feature gates.",
     (("BazQux", A), ("FooBar", A))),
    ("This is a beta field and requires enabling the FooBar and BazQux feature gate.",
     (("BazQux", B), ("FooBar", B))),
    ("This is an beta field and requires the FooBar feature gate to be enabled.", (("FooBar", B),)),
    ("This is a beta feature and managed by the FooBar feature gate.", (("FooBar", B),)),
    ("This is a beta feature enabled by the FooBar feature gate.", (("FooBar", B),)),
    ("This is an alpha feature and can be enabled by the FooBar feature flag.", (("FooBar", A),)),
    ("This is a beta-level feature default enabled by the FooBar feature flag.", (("FooBar", B),)),
    ("This is a beta field which is enabled default by FooBar feature gate.", (("FooBar", B),)),
    ("This is an Alpha feature and is only used when the FooBar feature gate is enabled.",
     (("FooBar", A),)),
    ("This is an alpha feature and requires the FooBar feature gate to be enabled.", (("FooBar", A),)),
    ("This is an optional, alpha field that requires the FooBar feature gate being enabled to be set.",
     (("FooBar", A),)),
    ("This is an alpha-level field and requires that the FooBar feature gate is enabled.",
     (("FooBar", A),)),
    ("This field is alpha-level and is only honored by servers that enable the FooBar feature.",
     (("FooBar", A),)),
    ("This field is beta-level and is only honored by servers that enabled the FooBar feature.",
     (("FooBar", B),)),
    ("Using the x field requires the FooBar feature gate to be enabled, which is beta.",
     (("FooBar", B),)),
    ("This requires the FooBar feature gate to be enabled, which is alpha.", (("FooBar", A),)),
    ("x is allowed to be 0 if the alpha feature gate FooBar is enabled.", (("FooBar", A),)),
    ("(Beta) Using this field requires the FooBar feature gate to be enabled.", (("FooBar", B),)),
    ("(Alpha) This field requires the FooBar feature gate to be enabled.", (("FooBar", A),)),
    ("More info: https://example.org/x (Alpha) Using this field requires the FooBar feature gate to "
     "be enabled.", (("FooBar", A),)),
    ("Alpha, gated by the FooBar feature gate.", (("FooBar", A),)),
    ("Defaulting is a beta feature under the FooBar feature gate.", (("FooBar", B),)),
    ("During Alpha stage of the FooBar feature gate, the key size is limited.", (("FooBar", A),)),
    ("(Beta) Using this field requires the FooBar feature gate to be enabled. (Alpha) Using its "
     "namespace requires the BazQux feature gate to be enabled.", (("BazQux", A), ("FooBar", B))),
    # stage in one sentence, gate in another
    ("This field is alpha-level. It can be used when the `FooBar` feature gate is enabled "
     "(disabled by default).", (("FooBar", A),)),
    ("This field is beta-level. The job controller populates the field when the feature gate "
     "FooBar is enabled (enabled by default).", (("FooBar", B),)),
    ("This is an alpha field. To use this, enable the FooBar feature toggle.", (("FooBar", A),)),
    ("This field  is alpha-level. To use this field, you must enable the FooBar feature gate "
     "(disabled by default).", (("FooBar", A),)),
    ("This field is an alpha-level. Using this field requires the feature gate FooBar to be enabled.",
     (("FooBar", A),)),
    ("This is an alpha feature and may change. The field is populated only if the FooBar feature "
     "gate is enabled.", (("FooBar", A),)),
    ("This is an alpha field. The FooBar feature gate must be enabled to use this field.",
     (("FooBar", A),)),
    # stage only: the badge says the stage, with no gate name
    ("This is an alpha field.", (("", A),)),
    ("This is a beta field.", (("", B),)),
    ("This field is beta-level.", (("", B),)),
    ("This field is beta.", (("", B),)),
    ("This field is beta-level and is enabled by default.", (("", B),)),
    ("x represents storage handled by an external driver (Beta feature).", (("", B),)),
    # gate only: the badge names the gate, with no stage
    ("This field depends on the FooBar feature gate.", (("FooBar", ""),)),
    ("Requires the FooBar feature gate to be enabled.", (("FooBar", ""),)),
    ('Note: "X" type is available on when the feature-gate FooBar is enabled', (("FooBar", ""),)),
    ("Lt and Gt perform numeric comparisons (requires feature gate FooBar).", (("FooBar", ""),)),
    ("This is a stable field but requires that the FooBar feature gate is enabled.",
     (("FooBar", ""),)),
    ("When the FooBar feature is enabled, x resolves to y.", (("FooBar", ""),)),
    ("(v1.34+ with the FooBar feature enabled).", (("FooBar", ""),)),
    # not a statement about this field's stage or gate
    ('versions may end in the string "alpha" or "beta" and another number.', ()),
    ("sorted first by GA > beta > alpha (where GA is a version with no suffix such as beta or alpha)",
     ()),
    ("This field is beta in 1.10.", ()),
    ("This field is beta-level in 1.8", ()),
    ("Previously used to configure the FooBar feature. This feature is removed.", ()),
    ("This feature depends on whether the cloud provider supports it.", ()),
    ("The feature is great.", ()),
]


@pytest.mark.parametrize(("text", "expected"), PHRASINGS, ids=[p[0][:50] for p in PHRASINGS])
def test_phrasing(text: str, expected: tuple[tuple[str, str], ...]) -> None:
    assert tuple((g.name, g.stage) for g in feature_gates(text)) == expected


def test_a_stage_said_of_a_value() -> None:
    text = ("Possible values are:\n- Fail: fails.\n- FailIndex: marks the index failed.\n  This value "
            "is alpha-level. It can be used when the\n  `FooBar` feature gate is enabled.")
    assert feature_gates(text) == (FeatureGate("FooBar", "alpha", of_value=True),)
    assert ">alpha value · feature gate Foo<wbr>Bar<" in gate_badge(feature_gates(text)[0])


def test_badges() -> None:
    assert gate_badge(FeatureGate("FooBar", "beta")) == (
        '<span class="k8s-badge k8s-beta" title="feature gate">beta · feature gate Foo<wbr>Bar</span>')
    assert ">alpha field<" in gate_badge(FeatureGate("", "alpha"))
    assert gate_badge(FeatureGate("FooBar", "")).endswith(">feature gate Foo<wbr>Bar</span>")
    assert "<b>" not in gate_badge(FeatureGate("Foo<b>Bar", "alpha"))  # untrusted text stays text


NOT_ABOUT_THIS_FIELD = re.compile(
    r'"(?:alpha|beta)"|GA > beta > alpha|such as beta or alpha'  # how version names are spelt
    r"|\b(?:alpha|beta)(?:-level)? in 1\.\d+",  # "This field is beta in 1.10": a past release's stage
    re.IGNORECASE)
STAGE_WORD = re.compile(r"\b(alpha|beta)\b", re.IGNORECASE)
NAMED = re.compile(r"`?\b([A-Z]\w+)`? feature[ -]gates?\b|\bfeature[ -]gates? `?([A-Z]\w+)"
                   r"|\b([A-Z]\w+) and [A-Z]\w+ feature gates?\b")


def says_alpha_or_beta(description: str) -> bool:
    """The test's own reading: the word alpha or beta, beyond version naming and history."""
    return bool(STAGE_WORD.search(NOT_ABOUT_THIS_FIELD.sub("", description)))


@pytest.mark.shared
def test_every_alpha_or_beta_field_of_a_ga_api_version_has_the_badge(shared: Path) -> None:
    counted = named = 0
    missing = []
    for minor in range(28, 37):
        release = f"1.{minor}"
        api, _ = build_api(load_source(str(SPECS / f"swagger-{release}.json")), release)
        plan = plan_site(api)
        for model in api.models.values():
            if not model.api_version or stability(model.api_version) != "ga":
                continue
            if not any(says_alpha_or_beta(f.description) for f in model.fields):
                continue
            page = plan.model_pages[model.name]
            for row in property_rows(model, api, plan, page):
                description = row.field.description
                if not says_alpha_or_beta(description):
                    continue
                counted += 1
                where = f"{release} {model.name}.{row.field.name}"
                stages = [g.stage for g in row.gates if g.stage]
                cell = notes_cell(row)
                if not stages or not any(f"k8s-badge k8s-{s}" in cell for s in stages):
                    missing.append(where)
                    continue
                wanted = {n for m in NAMED.finditer(description) for n in m.groups() if n}
                badged = {g.name for g in row.gates}
                assert wanted <= badged, f"{where}: gate {wanted - badged} not named"
                named += bool(badged - {""})
    print(f"\n{counted} fields of GA API versions say alpha/beta in 1.28-1.36: all badged, "
          f"{named} with the gate named")
    assert not missing, missing
    assert counted > 300 and named > 250  # 1.28-1.36: 370 and 330 when this test was written
