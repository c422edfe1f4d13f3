"""``scan``: manifests against a release, object by object and field by field (docs/terminal.md)."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path

import pytest

from generator.analysis.findings import Finding, trips
from generator.analysis.resources import Resources
from generator.analysis.scan import Scanner
from generator.cli import main
from generator.config import Release
from generator.pipeline.history import release_timeline
from generator.pipeline.load import load_api
from generator.pipeline.terminal import scan
from generator.sources.manifests import read_objects

pytestmark = pytest.mark.integration

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "scan"
UPGRADE = FIXTURES / "upgrade-1.32.yaml"

DEPRECATION_GUIDE = [
    # (release that stopped serving it, apiVersion, kind, API group of the replacement or None)
    # https://kubernetes.io/docs/reference/using-api/deprecation-guide/ (sections v1.16 to
    # v1.32; the guide lists no removal after v1.32). Facts only: names and release numbers.
    ("1.16", "extensions/v1beta1", "NetworkPolicy", "networking.k8s.io"),
    ("1.16", "extensions/v1beta1", "PodSecurityPolicy", None),  # → policy/v1beta1, gone in 1.25
    ("1.16", "extensions/v1beta1", "DaemonSet", "apps"),
    ("1.16", "apps/v1beta2", "DaemonSet", "apps"),
    ("1.16", "extensions/v1beta1", "Deployment", "apps"),
    ("1.16", "apps/v1beta1", "Deployment", "apps"),
    ("1.16", "apps/v1beta2", "Deployment", "apps"),
    ("1.16", "apps/v1beta1", "StatefulSet", "apps"),
    ("1.16", "apps/v1beta2", "StatefulSet", "apps"),
    ("1.16", "extensions/v1beta1", "ReplicaSet", "apps"),
    ("1.16", "apps/v1beta1", "ReplicaSet", "apps"),
    ("1.16", "apps/v1beta2", "ReplicaSet", "apps"),
    ("1.22", "admissionregistration.k8s.io/v1beta1", "MutatingWebhookConfiguration",
     "admissionregistration.k8s.io"),
    ("1.22", "admissionregistration.k8s.io/v1beta1", "ValidatingWebhookConfiguration",
     "admissionregistration.k8s.io"),
    ("1.22", "apiextensions.k8s.io/v1beta1", "CustomResourceDefinition", "apiextensions.k8s.io"),
    ("1.22", "apiregistration.k8s.io/v1beta1", "APIService", "apiregistration.k8s.io"),
    ("1.22", "authentication.k8s.io/v1beta1", "TokenReview", "authentication.k8s.io"),
    ("1.22", "authorization.k8s.io/v1beta1", "LocalSubjectAccessReview", "authorization.k8s.io"),
    ("1.22", "authorization.k8s.io/v1beta1", "SelfSubjectAccessReview", "authorization.k8s.io"),
    ("1.22", "authorization.k8s.io/v1beta1", "SubjectAccessReview", "authorization.k8s.io"),
    ("1.22", "certificates.k8s.io/v1beta1", "CertificateSigningRequest", "certificates.k8s.io"),
    ("1.22", "coordination.k8s.io/v1beta1", "Lease", "coordination.k8s.io"),
    ("1.22", "extensions/v1beta1", "Ingress", "networking.k8s.io"),
    ("1.22", "networking.k8s.io/v1beta1", "Ingress", "networking.k8s.io"),
    ("1.22", "networking.k8s.io/v1beta1", "IngressClass", "networking.k8s.io"),
    ("1.22", "rbac.authorization.k8s.io/v1beta1", "ClusterRole", "rbac.authorization.k8s.io"),
    ("1.22", "rbac.authorization.k8s.io/v1beta1", "ClusterRoleBinding",
     "rbac.authorization.k8s.io"),
    ("1.22", "rbac.authorization.k8s.io/v1beta1", "Role", "rbac.authorization.k8s.io"),
    ("1.22", "rbac.authorization.k8s.io/v1beta1", "RoleBinding", "rbac.authorization.k8s.io"),
    ("1.22", "scheduling.k8s.io/v1beta1", "PriorityClass", "scheduling.k8s.io"),
    ("1.22", "storage.k8s.io/v1beta1", "CSIDriver", "storage.k8s.io"),
    ("1.22", "storage.k8s.io/v1beta1", "CSINode", "storage.k8s.io"),
    ("1.22", "storage.k8s.io/v1beta1", "StorageClass", "storage.k8s.io"),
    ("1.22", "storage.k8s.io/v1beta1", "VolumeAttachment", "storage.k8s.io"),
    ("1.25", "batch/v1beta1", "CronJob", "batch"),
    ("1.25", "discovery.k8s.io/v1beta1", "EndpointSlice", "discovery.k8s.io"),
    ("1.25", "events.k8s.io/v1beta1", "Event", "events.k8s.io"),
    ("1.25", "autoscaling/v2beta1", "HorizontalPodAutoscaler", "autoscaling"),
    ("1.25", "policy/v1beta1", "PodDisruptionBudget", "policy"),
    ("1.25", "policy/v1beta1", "PodSecurityPolicy", None),
    ("1.25", "node.k8s.io/v1beta1", "RuntimeClass", "node.k8s.io"),
    ("1.26", "flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema", "flowcontrol.apiserver.k8s.io"),
    ("1.26", "flowcontrol.apiserver.k8s.io/v1beta1", "PriorityLevelConfiguration",
     "flowcontrol.apiserver.k8s.io"),
    ("1.26", "autoscaling/v2beta2", "HorizontalPodAutoscaler", "autoscaling"),
    ("1.27", "storage.k8s.io/v1beta1", "CSIStorageCapacity", "storage.k8s.io"),
    ("1.29", "flowcontrol.apiserver.k8s.io/v1beta2", "FlowSchema", "flowcontrol.apiserver.k8s.io"),
    ("1.29", "flowcontrol.apiserver.k8s.io/v1beta2", "PriorityLevelConfiguration",
     "flowcontrol.apiserver.k8s.io"),
    ("1.32", "flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema", "flowcontrol.apiserver.k8s.io"),
    ("1.32", "flowcontrol.apiserver.k8s.io/v1beta3", "PriorityLevelConfiguration",
     "flowcontrol.apiserver.k8s.io"),
]


@cache
def scanner(version: str, before: str | None = None) -> Scanner:
    api, _ = load_api(Release(version))
    old = load_api(Release(before))[0] if before else None
    return Scanner(api, release_timeline([api] + ([old] if old else [])), old)


def scan_text(text: str, version: str, before: str | None = None) -> list[Finding]:
    objects = read_objects("m.yaml", text.encode())
    return [f for obj in objects for f in scanner(version, before).scan(obj)]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# -- the multi-document upgrade file ------------------------------------------------------------
def test_upgrade_file_at_1_32(capsys: pytest.CaptureFixture[str]) -> None:
    text = UPGRADE.read_text()
    code, out, _ = run(capsys, "scan", str(UPGRADE), "--target", "1.32", "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["objects"] == 5 and report["target"] == "1.32"
    found = {(f["kind"], f["path"], f["class"]): f for f in report["findings"]}
    flow = found[("FlowSchema", None, "breaking")]
    assert flow["line"] == line_of(text, "flowcontrol.apiserver.k8s.io/v1beta3")
    assert flow["replacement"] == "flowcontrol.apiserver.k8s.io/v1"
    assert "removed in 1.32" in flow["message"] and flow["name"] == "health"
    typo = found[("Deployment", "spec.replics", "error")]
    assert typo["line"] == line_of(text, "replics:")
    assert typo["message"].startswith('unknown field "spec.replics"')
    assert "did you mean replicas?" in typo["message"]
    nodes = found[("DeviceClass", "spec.suitableNodes", "breaking")]
    assert nodes["line"] == line_of(text, "suitableNodes:")
    assert "removed in 1.32" in nodes["message"]
    # the served objects have no finding; the other findings are the ones above plus the
    # DeviceClass's API version going away later (a warning at its apiVersion line)
    assert {f["kind"] for f in report["findings"]} == {"FlowSchema", "Deployment", "DeviceClass"}
    assert len(report["findings"]) == 4
    rest = [f for f in report["findings"] if f not in (flow, typo, nodes)]
    assert rest[0]["class"] == "warning" and rest[0]["path"] is None
    assert set(rest[0]) == {"file", "line", "apiVersion", "kind", "name", "path", "class",
                            "message", "replacement"}


def test_fail_on_and_github_annotations(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "scan", str(UPGRADE), "--target", "1.32", "--fail-on", "breaking",
                       "--format", "github")
    assert code == 1
    lines = out.splitlines()
    text = UPGRADE.read_text()
    flow = next(line for line in lines if "FlowSchema" in line)
    assert flow.startswith(f"::error file={UPGRADE},line={line_of(text, 'v1beta3')},")
    typo = next(line for line in lines if "replics" in line)
    assert f"line={line_of(text, 'replics:')}," in typo and typo.startswith("::error file=")
    assert lines[-1].startswith("::notice title=k8s-api-docs scan::5 object(s)")
    assert run(capsys, "scan", str(UPGRADE), "--target", "1.32", "--fail-on", "info")[0] == 1
    clean = FIXTURES / "served.yaml"
    assert run(capsys, "scan", str(clean), "--target", "1.32", "--fail-on", "warning")[0] == 0


def test_github_step_summary(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, out, _ = run(capsys, "scan", str(UPGRADE), "--target", "1.32", "--format", "github")
    assert code == 0 and out.startswith("::error file=")
    assert summary.read_text().startswith("## Manifests against Kubernetes 1.32")


def test_from_makes_failures_the_old_release_accepts_breaking() -> None:
    text = UPGRADE.read_text()
    findings = scan_text(text, "1.32", "1.31")
    typo = next(f for f in findings if f.path == "spec.replics")
    assert typo.cls == "error"  # 1.31 refuses it too
    flow = next(f for f in findings if f.kind == "FlowSchema")
    assert flow.cls == "breaking"
    # from a release that refuses it already, the upgrade breaks nothing: an error
    (hpa,) = scan_text("apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\n"
                       "metadata: {name: h}\n", "1.32", "1.30")
    assert hpa.cls == "error" and hpa.message.endswith("(refused by 1.30 too)")
    # a field only the target has: an error on --from, accepted by the target, no finding
    newer = scan_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
                      "  - name: a\n    image: b\n  hostUsers: false\n", "1.32", "1.25")
    assert not [f for f in newer if f.cls in ("error", "breaking")]


# -- the deprecation guide ----------------------------------------------------------------------
FIRST_TARGET = "1.25"
"""The oldest release ``scan`` can target (kubernetes-validate's oldest); older ones are dated
from the shipped history table."""


@pytest.mark.parametrize(("release", "api_version", "kind", "group"), DEPRECATION_GUIDE)
def test_deprecation_guide_removals(release: str, api_version: str, kind: str,
                                    group: str | None) -> None:
    """Every removal of the guide (1.16 to 1.32), scanned against the release that removed it
    (or 1.25, the oldest target, for earlier ones): the release it was removed in, a
    replacement the target serves, or none, said so."""
    manifest = f"apiVersion: {api_version}\nkind: {kind}\nmetadata:\n  name: x\n"
    target = max(release, FIRST_TARGET, key=lambda r: int(r.split(".")[1]))
    (found,) = scan_text(manifest, target)
    assert found.cls == "breaking" and found.path is None and found.line == 1
    assert f"removed in {release} " in found.message, found.message
    if release == "1.16":  # served no longer by default; the definitions stayed until 1.18
        assert "per the deprecation guide" in found.message
        assert ("its definitions stayed until 1.17" in found.message) != (
            (api_version, kind) == ("apps/v1beta1", "ReplicaSet")), found.message  # never had one
    else:
        assert "or earlier" not in found.message and "definitions stayed" not in found.message
    if group is None:
        assert found.replacement is None
        assert f"{target} serves no {kind}" in found.message
        assert "Pod Security Admission" in found.message  # PodSecurityPolicy: nothing replaces it
    else:
        assert found.replacement is not None
        replacement_group, _, version = found.replacement.rpartition("/")
        assert replacement_group == group
        served = Resources(scanner(target).target).by_group_kind[(group, kind)]
        assert version in served.versions  # the target serves the replacement
        assert f"use {found.replacement}" in found.message
    if int(release.split(".")[1]) <= int(FIRST_TARGET.split(".")[1]):
        return
    previous = f"1.{int(release.split('.')[1]) - 1}"  # it still serves it and says when it goes
    (earlier,) = [f for f in scan_text(manifest, previous) if f.path is None]
    assert earlier.cls == "warning" and f"removed in {release}" in earlier.message


@pytest.mark.parametrize(("api_version", "kind", "reader"), [
    ("audit.k8s.io/v1", "Policy", "kube-apiserver (--audit-policy-file)"),
    ("kubeadm.k8s.io/v1beta3", "ClusterConfiguration", "kubeadm"),
    ("kubelet.config.k8s.io/v1beta1", "KubeletConfiguration", "the kubelet"),
    ("kubescheduler.config.k8s.io/v1", "KubeSchedulerConfiguration", "kube-scheduler"),
    ("apiserver.config.k8s.io/v1", "EncryptionConfiguration", "kube-apiserver"),
    ("example.config.k8s.io/v1", "ExampleConfiguration", "a Kubernetes component"),
])
def test_configuration_files_are_not_custom_resources(api_version: str, kind: str,
                                                      reader: str) -> None:
    (found,) = scan_text(f"apiVersion: {api_version}\nkind: {kind}\nmetadata:\n  name: x\n",
                         "1.32")
    assert (found.cls, found.code, found.replacement) == ("info", "config-file", None)
    assert f"{api_version} {kind} is a Kubernetes configuration file read by {reader}" \
        in found.message
    assert "only apiVersion and kind were read" in found.message
    assert "custom resource" not in found.message and "CRD" not in found.message
    # a group that is not a configuration API is still a custom resource
    (custom,) = scan_text("apiVersion: widgets.example.io/v1\nkind: Widget\nmetadata:\n"
                          "  name: x\n", "1.32")
    assert custom.code == "unchecked" and "custom resource" in custom.message


def test_hpa_v2beta2_at_1_26(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    hpa = tmp_path / "hpa.yaml"
    hpa.write_text("apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\n"
                   "metadata:\n  name: web\nspec:\n  scaleTargetRef:\n    kind: Deployment\n"
                   "    name: web\n  maxReplicas: 3\n")
    code, out, _ = run(capsys, "scan", str(hpa), "--target", "1.26", "--format", "json",
                       "--fail-on", "breaking")
    assert code == 1
    (f,) = json.loads(out)["findings"]
    assert f["class"] == "breaking" and f["replacement"] == "autoscaling/v2" and f["line"] == 1


# -- field checks ---------------------------------------------------------------------------------
def test_types_required_formats() -> None:
    manifest = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: three
  paused: "yes"
  template:
    spec:
      restartPolicy: Always
      containers:
        - image: nginx
          resources:
            limits:
              cpu: lots
          ports:
            - containerPort: 99999999999
"""
    found = {(f.path, f.code): f for f in scan_text(manifest, "1.32")}
    assert found[("spec.replicas", "type")].line == 6
    assert "must be of type integer" in found[("spec.replicas", "type")].message
    assert "must be of type boolean" in found[("spec.paused", "type")].message
    assert found[("spec.paused", "type")].line == 7
    assert found[("spec.selector", "required")].line == 5  # the line of spec
    assert found[("spec.template.spec.containers[0].name", "required")].line == 12
    assert found[("spec.template.spec.containers[0].resources.limits.cpu", "format")].line == 15
    assert found[("spec.template.spec.containers[0].ports[0].containerPort", "format")].line == 17
    assert all(f.cls == "error" for f in found.values())


@pytest.mark.parametrize("version", ["1.25", "1.29", "1.32", "1.37"])
def test_served_objects_have_no_finding(version: str) -> None:
    served = FIXTURES / "served.yaml"
    assert scan_text(served.read_text(), version) == []


def test_alpha_field_warning_only_for_a_field_said_to_be_alpha() -> None:
    manifest = ("apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceClass\nmetadata:\n  name: x\n"
                "spec:\n  suitableNodes:\n    nodeSelectorTerms: []\n")
    found = {f.path: f for f in scan_text(manifest, "1.31")}
    stage = found["spec.suitableNodes"]
    assert stage.cls == "warning" and stage.line == 6
    assert stage.message == ("an alpha field (feature gate DRAControlPlaneController): dropped "
                             "unless its feature is enabled")
    # HPA minReplicas names an alpha gate for the value 0 only: no warning
    hpa = ("apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: h\n"
           "spec:\n  scaleTargetRef: {kind: Deployment, name: d}\n  minReplicas: 1\n"
           "  maxReplicas: 2\n")
    assert scan_text(hpa, "1.32") == []


def test_secret_data_is_base64() -> None:
    manifest = ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  ok: cGFzcw==\n"
                "  text: my password\nstringData:\n  plain: my password\n")
    (found,) = scan_text(manifest, "1.32")
    assert (found.path, found.line, found.code) == ("data.text", 7, "format")
    assert "illegal base64 data" in found.message


def test_duplicate_keys_and_missing_name() -> None:
    manifest = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {app: a}\n"
                "data:\n  mode: one\n  mode: two\n")
    found = {f.code: f for f in scan_text(manifest, "1.32")}
    assert found["duplicate"].path == "data.mode" and found["duplicate"].line == 7
    assert found["duplicate"].cls == "error"
    assert found["required"].path == "metadata.name" and found["required"].line == 3
    assert found["required"].message.endswith("name or generateName is required")
    (obj,) = read_objects("m.yaml", manifest.encode())
    assert obj.data["data"] == {"mode": "two"}  # the last value, as kubectl keeps it


def test_alpha_and_deprecated_fields_are_warnings() -> None:
    manifest = """apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  serviceAccount: old
  containers:
    - name: a
      image: b
"""
    (found,) = scan_text(manifest, "1.32")
    assert found.cls == "warning" and found.path == "spec.serviceAccount" and found.line == 6
    assert "deprecated" in found.message


@pytest.mark.shared
def test_custom_resources(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                          shared: Path) -> None:
    cert_manager = shared / "crds" / "cert-manager"
    cert = tmp_path / "cert.yaml"
    cert.write_text("""apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: web
spec:
  secretName: web-tls
  issuerRef:
    name: letsencrypt
  privateKey:
    algorithm: DSA
  dnsName: example.org
""")
    code, out, _ = run(capsys, "scan", str(cert), "--target", "1.32", "--crds", str(cert_manager),
                       "--format", "json")
    assert code == 0
    found = {f["path"]: f for f in json.loads(out)["findings"]}
    assert set(found) == {"spec.privateKey.algorithm", "spec.dnsName"}
    algorithm = found["spec.privateKey.algorithm"]
    assert algorithm["class"] == "error" and algorithm["line"] == 10
    assert 'Unsupported value: "DSA": supported values: "RSA", "ECDSA", "Ed25519"' in \
        algorithm["message"]
    unknown = found["spec.dnsName"]
    assert unknown["class"] == "error" and unknown["line"] == 11
    assert unknown["message"] == 'unknown field "spec.dnsName" (did you mean dnsNames?)'
    # without the CRDs the object is not checked, and says so
    code, out, _ = run(capsys, "scan", str(cert), "--target", "1.32", "--format", "json")
    (info,) = json.loads(out)["findings"]
    assert info["class"] == "info" and "--crds" in info["message"]
    # a version the CRD does not serve
    cert.write_text("apiVersion: cert-manager.io/v1alpha2\nkind: Certificate\nmetadata:\n"
                    "  name: web\n")
    code, out, _ = run(capsys, "scan", str(cert), "--target", "1.32", "--crds", str(cert_manager),
                       "--format", "json")
    (old,) = json.loads(out)["findings"]
    assert old["class"] == "error" and old["replacement"] == "cert-manager.io/v1"


def test_crd_versions_and_schema_keywords(capsys: pytest.CaptureFixture[str]) -> None:
    """A CRD set read on its own as the target (no Kubernetes release loaded)."""
    widgets = FIXTURES / "widgets.yaml"
    code, out, _ = run(capsys, "scan", str(widgets), "--target", str(FIXTURES / "widgets-crd.yaml"),
                       "--format", "json", "--fail-on", "breaking")
    assert code == 1
    found = [(f["name"], f["line"], f["class"], f["path"],
              f["message"].split(": ", 1)[1] if f["path"] else f["message"], f["replacement"])
             for f in json.loads(out)["findings"]]
    assert found == [
        ("a", 6, "error", "spec.size", "Invalid value: 11: spec.size in body should be less "
                                       "than or equal to 10", None),
        ("a", 7, "error", "spec.color", 'Unsupported value: "blue": supported values: "red", '
                                        '"green"', None),
        ("a", 8, "error", "spec.name", 'Invalid value: "TooLong": spec.name in body may not be '
                                       "more than 5 bytes long", None),
        ("a", 8, "error", "spec.name", 'Invalid value: "TooLong": spec.name in body should match '
                                       "'^[a-z]+$'", None),
        ("a", 9, "error", "spec.tags", 'Invalid value: ["a", "b", "c"]: spec.tags in body should '
                                       "have at most 2 items", None),
        ("a", 11, "error", "spec.extra.known", 'Invalid value: "integer": spec.extra.known in '
                                               'body must be of type string: 1', None),
        # spec.extra keeps unknown fields (x-kubernetes-preserve-unknown-fields): no finding
        ("b", 14, "warning", None, "example.org/v1beta1 Widget is deprecated; use "
                                   "example.org/v1", "example.org/v1"),
        ("c", 20, "breaking", None, "example.org/v1alpha1 Widget is not served: the CRD lists "
                                    "version v1alpha1 as not served; use example.org/v1",
         "example.org/v1"),
        ("d", 24, "error", None, 'no matches for kind "Widget" in version "example.org/v2": the '
                                 "CRD serves v1, v1beta1; use example.org/v1", "example.org/v1"),
        ("e", 31, "error", "spec.size", "Required value", None),
    ]


# -- input ---------------------------------------------------------------------------------------
def test_json_list_stdin_and_directories(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    listing = {"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"k": "v"}},
        {"apiVersion": "batch/v1beta1", "kind": "CronJob", "metadata": {"name": "b"}}]}
    (tmp_path / "sub").mkdir()
    listed = json.dumps(listing, indent=2)
    (tmp_path / "sub" / "list.json").write_text(listed)
    code, out, _ = run(capsys, "scan", str(tmp_path), "--target", "1.30", "--format", "json")
    (f,) = json.loads(out)["findings"]
    assert f["kind"] == "CronJob" and f["name"] == "b" and f["replacement"] == "batch/v1"
    assert f["file"] == str(tmp_path / "sub" / "list.json") and f["line"] == line_of(listed, "batch/v1beta1")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(
        b"kind: ConfigMap\nmetadata:\n  name: x\n---\napiVersion: v1\nkind: Secret\n"
        b"metadata:\n  name: s\nstringData:\n  a: b\n")))
    code, out, _ = run(capsys, "scan", "-", "--target", "1.32", "--format", "json")
    assert code == 0
    (missing,) = json.loads(out)["findings"]
    assert missing["file"] == "-" and missing["class"] == "error" and missing["line"] == 1
    assert missing["message"] == "apiVersion not set"


@pytest.mark.parametrize(("text", "message"), [
    (b"a: b: c\n", "invalid YAML at line 1, column 5"),
    (b"\xff\xfe", "not UTF-8"),
    (b"# Title\n\nSome prose, not a manifest.\n", "not a manifest: the document at line 3 is a str"),
])
def test_bad_input_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      text: bytes, message: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(text)
    code, out, err = run(capsys, "scan", str(bad), "--target", "1.32")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and str(bad) in err


@pytest.mark.parametrize(("text", "line"), [
    (b"apiVersion: v1\nkind: ConfigMap\n{{- if .Values.x }}\ndata: {}\n{{- end }}\n", 3),
    (b"apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: {{ .Values.replicas }}\n", 4),
    (b"apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - image: \"r/{{ .Values.tag }}\"\n", 5),
])
def test_a_helm_template_is_one_info_finding(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             text: bytes, line: int) -> None:
    """Outside a chart too: a file with template syntax is not scanned, and says how to scan it;
    alone, no object is found (exit 2, naming the template)."""
    (tmp_path / "tpl.yaml").write_bytes(text)
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
    code, out, _ = run(capsys, "scan", str(tmp_path), "--target", "1.32", "--format", "json",
                       "--fail-on", "warning")
    assert code == 0
    (f,) = json.loads(out)["findings"]
    assert (f["file"], f["line"], f["class"]) == (str(tmp_path / "tpl.yaml"), line, "info")
    assert "helm template CHART | k8s-api-docs scan --target 1.32 -" in f["message"]
    code, out, err = run(capsys, "scan", str(tmp_path / "tpl.yaml"), "--target", "1.32")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "no Kubernetes object found in" in err and "1 Helm template(s) not scanned" in err


def test_unknown_target_and_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "scan", str(UPGRADE), "--target", "1.99")
    assert code == 2 and err.count("\n") == 1 and "1.99" in err
    code, _, err = run(capsys, "scan", "no/such.yaml", "--target", "1.32")
    assert code == 2 and "no/such.yaml" in err


def test_templates_in_data_and_prose_are_not_helm() -> None:
    objects = read_objects("x.yaml", b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: t\n"
                                     b"  annotations:\n    a: '{{ .Labels.x }}'\ndata:\n"
                                     b"  tmpl: '{{ .CommonLabels.alertname }}'\n")
    assert objects[0].data["data"]["tmpl"] == "{{ .CommonLabels.alertname }}"
    [aliased] = read_objects("x.yaml", b"a: &x {b: 1}\nc: *x\n")  # as kubectl reads it
    assert aliased.data == {"a": {"b": 1}, "c": {"b": 1}}


def test_report_formats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "scan", str(UPGRADE), "--target", "1.32")
    assert f"{UPGRADE}:{line_of(UPGRADE.read_text(), 'replics:')}: error: Deployment/web " \
           f"spec.replics: unknown field" in out
    assert out.splitlines()[-1] == ("5 object(s) scanned against 1.32: 1 error, 2 breaking, "
                                    "1 warning, 0 info")
    code, out, _ = run(capsys, "scan", str(UPGRADE), "--target", "1.32", "--format", "markdown")
    assert code == 0 and "### Breaking (2)" in out and "<" not in out
    assert "| Where | Object | Field | Problem | Replacement |" in out


def test_trips_order() -> None:
    warning = Finding("f", 1, "v1", "Pod", "p", None, "warning", "m")
    error = Finding("f", 1, "v1", "Pod", "p", None, "error", "m")
    assert trips([error], "breaking") and not trips([warning], "breaking")
    assert trips([warning], "info") and not trips([], "info")


def test_scan_result_counts() -> None:
    result = scan([str(UPGRADE)], Release("1.32"))
    assert result.objects == 5 and result.target == "1.32"
