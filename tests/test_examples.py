"""Example snippets are proven: YAML validates, Jsonnet evaluates (Python runs under every release's
client in tests/test_python_clients.py; the server rules in tests/test_server_rules.py)."""

from __future__ import annotations

import functools
import json
import re
from datetime import datetime
from typing import Any

import jsonschema
import kubernetes_validate
import kubernetes_validate.utils
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from kubernetes_validate.utils import schema_contents
from pagetext import cells, example_blocks, example_status, html_rows
from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.token import Error, Keyword, Number, String
from referencing import Registry, Resource

from generator.config import Release
from generator.examples import yaml_text
from generator.examples.samples import Sample, SampleBuilder, dns_label
from generator.examples.snippets import Example, ExampleBuilder
from generator.model.types import ApiSpec
from generator.pipeline.build import generate
from generator.render.highlight import format_tokens, highlight, lexer_for
from generator.render.markup import fence

CLAIM_STATUS = {"1.31": "io.k8s.api.resource.v1alpha3.ResourceClaimStatus",
                "1.32": "io.k8s.api.resource.v1beta1.ResourceClaimStatus"}
_DNS_LABEL = r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?"
_DNS_SUBDOMAIN = re.compile(rf"^{_DNS_LABEL}(\.{_DNS_LABEL})*$")


def _validator(release: str, name: str) -> jsonschema.Draft202012Validator:
    doc = _definitions(release)
    return jsonschema.Draft202012Validator({**doc, "$ref": f"#/$defs/{name}"})


_DEFINITIONS: dict[str, Any] = {}


def _definitions(release: str) -> Any:
    """kubernetes-validate's strict definitions (no unknown properties) of ``release``."""
    if release not in _DEFINITIONS:
        _DEFINITIONS[release] = schema_contents(
            f"kubernetes-json-schema/v{release}.0-local-strict/_definitions.json", release)
    return _DEFINITIONS[release]


def test_yaml_samples_validate_against_their_schema(examples: dict[str, dict[str, Example]]) -> None:
    claim = examples["1.31"][CLAIM_STATUS["1.31"]].data
    assert list(_validator("1.31", CLAIM_STATUS["1.31"]).iter_errors({**claim, "devices": []}))
    for release, by_name in examples.items():
        for name, example in by_name.items():
            errors = [e.message for e in _validator(release, name).iter_errors(example.data)]
            assert not errors, f"{release} {name}: {errors[:3]}"


def _validate_with_file(data: Any, release: str, filename: str) -> None:
    """What ``kubernetes_validate.validate`` does, for a schema file it cannot find by apiVersion."""
    directory = f"kubernetes-json-schema/v{release}.0-local-strict"
    schema = schema_contents(f"{directory}/{filename}", release)
    registry = Resource.from_contents(schema) @ Registry()
    registry = Resource.from_contents(_definitions(release)) @ registry
    jsonschema.Draft202012Validator(schema, registry=registry).validate(data)


def test_kind_samples_pass_kubernetes_validate(api_131: ApiSpec, api_132: ApiSpec,
                                               examples: dict[str, dict[str, Example]],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # kubernetes_validate.validate re-reads its ~1 MB definitions file on every call: read each once
    monkeypatch.setattr(kubernetes_validate.utils, "schema_contents",
                        functools.lru_cache(maxsize=None)(kubernetes_validate.utils.schema_contents))
    by_file = []
    for api in (api_131, api_132):
        for name, model in api.models.items():
            if not model.is_kind:
                continue
            data = examples[api.version][name].data
            try:
                kubernetes_validate.validate(data, api.version, strict=True)
            except (kubernetes_validate.SchemaNotFoundError, KeyError):
                # its file is named by package path (apiserverinternal, meta), not by apiVersion
                filename = f"{model.kind.lower()}-{model.group}-{model.api_version}.json"
                _validate_with_file(data, api.version, filename)
                by_file.append(model.kind)
    assert len(by_file) < 20, by_file
    wrong = {**examples["1.32"]["io.k8s.api.core.v1.Pod"].data, "spec": {"containers": [{"nam": "x"}]}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(wrong, "1.32", strict=True)


def test_resource_claim_status_examples_differ_between_releases(
        examples: dict[str, dict[str, Example]]) -> None:
    old, new = (examples[r][CLAIM_STATUS[r]] for r in ("1.31", "1.32"))
    assert "client.V1alpha3ResourceClaimStatus(" in old.python
    assert "deallocation_requested=True" in old.python and "devices=" not in old.python
    assert "client.V1beta1ResourceClaimStatus(" in new.python
    assert "devices=[" in new.python and "deallocation_requested" not in new.python
    assert "reserved_for=[" in old.python and "reserved_for=[" in new.python
    assert "deallocationRequested: true" in old.yaml and "devices:" in new.yaml


def test_samples_are_deterministic(api_132: ApiSpec, examples: dict[str, dict[str, Example]]) -> None:
    again = ExampleBuilder(api_132)
    for name in api_132.models:
        assert again.example(name) == examples["1.32"][name]


def _walk(sample: Sample, depth: int = 0):
    yield sample, depth
    for _, value in sample.entries:
        yield from _walk(value, depth + 1)
    for item in sample.items:
        yield from _walk(item, depth + 1)


def test_samples_follow_the_schema_rules(api_132: ApiSpec) -> None:
    builder = SampleBuilder(api_132)
    chosen = 0
    for name, model in api_132.models.items():
        sample = builder.sample(name)
        # hand-chosen manifests (tests/test_server_rules.py checks them) vs schema-derived samples
        hand_chosen = builder.manifest(name) is not None
        chosen += hand_chosen
        if model.shape == "object" and not hand_chosen:
            manifest = model.is_kind and not model.is_list  # a kind's manifest leaves status out
            fields = [f.name for f in model.fields
                      if not (manifest and f.name == "status" and not f.required)]
            assert fields == sorted(k for k, _ in sample.entries), name
        if model.is_kind and model.field("kind"):
            data = sample.data()
            assert data["kind"] in {g.kind for g in model.gvks} and data["apiVersion"], name
            meta = model.field("metadata")
            if meta and meta.type.ref.endswith(".ObjectMeta"):
                assert _DNS_SUBDOMAIN.match(data["metadata"]["name"]), name
        for node, depth in _walk(sample):
            assert depth < 40, name
            if node.kind == "time":
                assert datetime.fromisoformat(node.value.replace("Z", "+00:00")).tzinfo, node.value
            if (node.kind == "array" or node.kind == "map") and not hand_chosen:
                assert len(node.items) + len(node.entries) == 1
            if node.kind == "model":
                target = api_132.models[node.model]
                present = {k for k, _ in node.entries}
                assert {f.name for f in target.fields if f.required} <= present, node.model
                for f in target.fields:
                    # hand-chosen manifests leave out keys the server defaults (ports' protocol: TCP)
                    if f.list_map_keys and f.name in present and not hand_chosen:
                        value = dict(node.entries)[f.name]
                        for item in (i for i in value.items if i.kind == "model"):
                            # (1.32 StorageVersionMigrationList.items names a key its items lack)
                            keys = {g.name for g in api_132.models[item.model].fields} & set(f.list_map_keys)
                            assert keys <= {k for k, _ in item.entries}, f.name
                named = dict(node.entries).get("name")
                if named is not None and named.kind == "value" and node.model.endswith(
                        ("ObjectMeta", "Container", "ResourceClaimConsumerReference")):
                    assert _DNS_SUBDOMAIN.match(named.value)
    assert chosen == 37  # the 32 kinds of issue 12, five in two API versions


def test_sample_values_are_plausible(api_131: ApiSpec, examples: dict[str, dict[str, Example]]) -> None:
    pod = examples["1.31"]["io.k8s.api.core.v1.Pod"].data
    assert pod["apiVersion"] == "v1" and pod["kind"] == "Pod"
    assert pod["metadata"] == {"name": "nginx", "labels": {"name": "nginx"}}
    container = pod["spec"]["containers"][0]
    assert container == {"name": "nginx", "image": "nginx:1.27",
                         "ports": [{"containerPort": 80, "name": "http"}]}
    assert "status" not in pod
    requirements = examples["1.31"]["io.k8s.api.core.v1.ResourceRequirements"].data
    assert requirements["limits"] == {"cpu": "500m"}
    event = examples["1.31"]["io.k8s.api.events.v1.Event"].data
    assert event["eventTime"] == "2024-01-15T10:00:00.123456Z"
    assert event["deprecatedFirstTimestamp"] == "2024-01-15T10:00:00Z"
    strategy = examples["1.31"]["io.k8s.api.apps.v1.RollingUpdateDeployment"].data
    assert strategy["maxSurge"] == "25%"
    # (no placeholder "string" values; a CRD's schema rightly says ``type: string``)
    assert "string" not in {v for v in _strings({n: e for n, e in examples["1.31"].items()
                                                 if not n.endswith(".CustomResourceDefinition")})}
    schema_props = examples["1.31"][
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps"]
    assert "_not=client.V1JSONSchemaProps(" in schema_props.python
    assert "ref=" in schema_props.python and "$ref" in schema_props.data
    assert dns_label("ResourceClaimStatus") == "resource-claim-status"


def _strings(by_name: dict[str, Example]):
    def walk(value: Any):
        if isinstance(value, dict):
            for v in value.values():
                yield from walk(v)
        elif isinstance(value, list):
            for v in value:
                yield from walk(v)
        elif isinstance(value, str):
            yield value
    for example in by_name.values():
        yield from walk(example.data)


@pytest.mark.parametrize("content", ["plain", "a ``` run", "````` five", "`` two", "x\n```\ny"])
def test_fence_is_longer_than_any_backtick_run(content: str) -> None:
    fenced = fence(content, "yaml")
    opener = fenced.split("\n", 1)[0]
    longest = max((len(r) for r in re.findall(r"`+", content)), default=0)
    assert opener == "`" * max(3, longest + 1) + "yaml"
    assert fenced.endswith("\n" + opener[: len(opener) - 4] + "\n")


TRICKY = ["yes", "no", "on", "off", "null", "~", "", "1e3", "0x1F", "0o17", "1_000", ".inf", "-.nan",
          "2024-01-15", "2024-01-15T10:00:00Z", "12:30", "- item", "a: b", "key:", "#note", "a #b",
          "*alias", "&anchor", "!tag", "%directive", "@at", "`tick", "{a}", "[a]", "'q'", '"q"',
          "multi\nline", " lead", "trail ", "tab\there", "ünïcode", "\u2028", "=", "<<", "?", "|", ">",
          "L" * 1000, "L" * 1001, "x: " * 400, "\u00e9" * 1100]


@pytest.mark.parametrize("text", TRICKY)
def test_yaml_text_reads_back_every_string(text: str) -> None:
    data = {text: [text, {text: text}], "n": [1, 0.5, True, None, {}, []]}
    assert yaml.safe_load(yaml_text.dump(data)) == data
    assert yaml.safe_load(yaml_text.dump(text)) == text


@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12))
@settings(max_examples=150, deadline=None)
def test_yaml_text_round_trips_any_json(data: Any) -> None:
    assert yaml.safe_load(yaml_text.dump(data)) == data


def test_model_pages_show_python_and_example_sections(default_pages: Any,
                                                       examples: dict[str, dict[str, Example]]) -> None:
    pages = default_pages.pages
    for release, page in (("1.31", "1.31/resource/v1alpha3/resourceClaimStatus.md"),
                          ("1.32", "1.32/resource/v1beta1/resourceClaimStatus.md")):
        text = pages[page]
        example = examples[release][CLAIM_STATUS[release]]
        assert "\n## Python\n" in text
        assert "\n## Example { #example data-search-exclude }\n" in text  # snippets stay out of search
        assert text.index("## Properties") < text.index("## Python") < text.index("## Example")
        assert '<label for="__tabbed_k8s_example_1">YAML</label>' in text
        assert '<label for="__tabbed_k8s_example_2">Python</label>' in text
        shown = example_blocks(text)
        assert yaml.safe_load(shown["yaml"]) == example.data
        assert shown["python"] == example.python
        assert f"kubernetes=={release.split('.')[1]}.*" in text
    # identifiers carry <wbr> (line-break opportunities between words); compared without them
    status_131 = pages["1.31/resource/v1alpha3/resourceClaimStatus.md"].replace("<wbr>", "")
    assert ('<tr><td><a href="#field-deallocationrequested"><code>deallocation&#95;requested</code></a></td>'
            "<td>bool</td>") in status_131
    assert ('list&#91;<a href="../resourceClaimConsumerReference/">V1alpha3ResourceClaimConsumerReference</a>'
            "&#93;") in status_131
    status_132 = pages["1.32/resource/v1beta1/resourceClaimStatus.md"].replace("<wbr>", "")
    assert ('<tr><td><a href="#field-devices"><code>devices</code></a></td><td>list&#91;'
            '<a href="../allocatedDeviceStatus/">V1beta1AllocatedDeviceStatus</a>') in status_132
    quantity = pages["1.31/common/quantity.md"]
    assert "has no class for Quantity: it uses a plain <code>str</code>" in quantity
    pod_status = pages["1.32/core/v1/podStatus.md"].replace("<wbr>", "")
    assert ('<tr><td><a href="#field-podips"><code>pod&#95;i&#95;ps</code></a></td><td>list&#91;'
            '<a href="../podIP/">V1PodIP</a>&#93;') in pod_status


def test_spec_text_cannot_break_out_of_a_snippet_fence(tmp_path: Any) -> None:
    """Enum values and property names are spec text: whatever they hold stays inside the fences."""
    hostile = "x ```` y\n## heading <script>alert(1)</script>"
    spec = {"swagger": "2.0", "info": {"title": "t", "version": "v"}, "definitions": {
        "io.example.api.zoo.v1.Cage": {
            "type": "object",
            "properties": {
                "door": {"type": "string", "enum": [hostile]},
                "size": {"type": "integer"},
                "odd`name$": {"type": "boolean"},
                "notes": {"type": "object", "additionalProperties": {"type": "string"}},
            },
        },
    }}
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(spec))
    site = generate([Release("hostile", str(path))])
    page = next(text for name, text in site.pages.items() if name.endswith("/cage.md"))
    blocks = example_blocks(page)
    assert sorted(blocks) == ["python", "yaml"]
    assert "<script>" not in page and "\n## heading" not in page
    shown = yaml.safe_load(blocks["yaml"])
    assert shown == {"door": hostile, "notes": {"example-key": "example-notes"}, "odd`name$": True,
                     "size": 1}
    scope: dict[str, Any] = {}
    python = blocks["python"]
    exec(compile(python.replace("from kubernetes import client", ""), "cage", "exec"),
         {"client": _Recorder()}, scope)
    assert scope["cage"] == {"door": hostile, "notes": {"example-key": "example-notes"}, "oddname": True,
                             "size": 1}


class _Recorder:
    """Stands in for ``kubernetes.client``: every class records its keyword arguments."""

    def __getattr__(self, name: str) -> Any:
        return lambda **kwargs: kwargs


def test_status_is_shown_apart_labelled_as_the_clusters(default_pages: Any) -> None:
    deployment = default_pages.pages["1.32/apps/v1/deployment.md"]
    tabs, status = example_blocks(deployment), example_status(deployment)
    assert "status" not in yaml.safe_load(tabs["yaml"]) and "status" not in tabs["python"]
    assert yaml.safe_load(status) == {"status": {"observedGeneration": 1, "replicas": 3, "updatedReplicas": 3,
                                                 "readyReplicas": 3, "availableReplicas": 3}}
    section = deployment.split("\n## Example", 1)[1]
    assert section.index("</label></div>") < section.index("<strong>Status, written by the cluster</strong>")
    assert example_status(default_pages.pages["1.32/core/v1/configMap.md"]) == ""


def test_python_table_has_the_property_tables_notes(default_pages: Any) -> None:
    for page in ("1.31/resource/v1alpha3/resourceClaimStatus.md", "1.32/core/v1/podSpec.md",
                 "1.32/apps/v1/deployment.md", "1.31/core/v1/container.md"):
        text = default_pages.pages[page]
        properties, python = html_rows(text, "Properties"), html_rows(text, "Python")
        assert len(properties) == len(python) > 0
        for prop, py in zip(properties, python, strict=True):
            assert cells(py)[-1] == cells(prop)[-1], page
            anchor = re.match(r'<tr id="([^"]+)">', prop).group(1)
            assert cells(py)[0].startswith(f'<a href="#{anchor}">'), page


def _literals(tokens: Any) -> list[tuple[Any, str]]:
    """String, number and keyword tokens, adjacent string pieces joined (Pygments' Jsonnet lexer
    yields strings one character at a time)."""
    out: list[tuple[Any, str]] = []
    for kind, text in tokens:
        family = next((f for f in (String, Number, Keyword) if kind in f), None)
        if family is None:
            continue
        if out and family is String and out[-1][0] is String:
            out[-1] = (String, out[-1][1] + text)
        else:
            out.append((family, text))
    return out


@pytest.mark.parametrize("language", ["python", "jsonnet"])
def test_snippet_lexers_agree_with_pygments(examples: dict[str, dict[str, Example]], language: str) -> None:
    """The lexers for the snippets' subset of Python and Jsonnet find exactly the strings,
    numbers and keywords Pygments' full lexers find, with no error token, on every snippet."""
    ours = lexer_for(language)
    full = get_lexer_by_name(language)
    for release in examples.values():
        for example in release.values():
            code = getattr(example, language)
            if not code:
                continue
            tokens = list(ours.get_tokens(code))
            assert "".join(text for _, text in tokens) == code
            assert not any(kind in Error for kind, _ in tokens), code
            assert _literals(tokens) == _literals(full.get_tokens(code)), code


@pytest.mark.parametrize("language", ["yaml", "python", "jsonnet"])
def test_snippet_html_is_pygments_html_on_any_pygments(examples: dict[str, dict[str, Example]],
                                                       language: str) -> None:
    """Our token formatting writes what Pygments' HTML formatter writes, except that quotes stay
    quotes whatever the installed Pygments does with them (2.20 writes ``&quot;``, 2.21 does not),
    so generated pages do not change with the Pygments version."""
    lexer, formatter = lexer_for(language), HtmlFormatter(nowrap=True)
    for release in examples.values():
        for example in release.values():
            code = getattr(example, language)
            if not code:
                continue
            theirs = pygments_highlight(code, lexer, formatter)
            assert format_tokens(lexer.get_tokens(code)) == \
                theirs.replace("&quot;", '"').replace("&#39;", "'"), code
    quoted = highlight('kind: "Pod"\n', "yaml")
    assert '<span class="s">"Pod"</span>' in quoted and "&quot;" not in quoted
