"""Write ``generator/sources/operations.json``: the REST routes of every bundled release.

kubernetes-validate (the offline default source) has no ``paths``, so the routes of each release
1.25-1.37 come from official artifacts:

- the release's upstream ``swagger.json`` where the spec mirror has it (``../shared/specs``:
  1.28-1.36): its ``paths`` exactly;
- otherwise the official Python client of the release (``kubernetes==N``, the venvs
  ``.cache/clients/<N>/`` that ``tests/setup_extras.py`` installs): each generated API method
  names its HTTP method and path. A client keeps API modules of earlier releases, so a method
  counts only when the release's own definitions (kubernetes-validate) serve its resource: the
  class the method returns for the resource is a kind of that group/version in the release. The
  client has no methods for the deprecated ``/watch/`` paths, so those releases list none (the
  watch of each list path is derived for every release by ``model.operations``). A method that
  returns ``str`` (pod log, connect) ships its response as ``string`` with the first media type
  of its ``Accept`` header, as the swagger's ``produces`` gives it.

Only facts are shipped (methods, paths, names, types): no spec text.

    python scripts/operations_data.py            # rewrite the data file
    python scripts/operations_data.py --check    # exit 1 when the file differs
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.examples.python_names import camelize, class_names  # noqa: E402
from generator.output.writer import refresh_data_file  # noqa: E402
from generator.sources.jsonschema_pkg import available_versions, load_kubernetes_validate  # noqa: E402
from generator.sources.routes import (  # noqa: E402
    DATA_FILE,
    Route,
    RouteParam,
    document_routes,
    encode_routes,
    pack,
)

SPECS = ROOT.parent / "shared" / "specs"
CLIENTS = ROOT / ".cache" / "clients"
_PY_TYPES = {"str": "string", "int": "integer", "bool": "boolean", "float": "number"}
_ACTIONS = (("list_", "list"), ("read_", "get"), ("create_", "post"), ("replace_", "put"),
            ("patch_", "patch"), ("delete_collection_", "deletecollection"), ("delete_", "delete"),
            ("connect_", "connect"))


@dataclass(frozen=True)
class ClientMethod:
    """What a generated client method sends, read from its source."""

    class_name: str
    name: str
    http_method: str
    path: str
    required: tuple[str, ...]
    """The positional arguments, in order."""
    query: tuple[tuple[str, str], ...]
    """(API name, Python type) of each query parameter."""
    body: str
    """The body's class (``V1Pod``), ``object``, or empty without a body."""
    response: str
    accept: str = ""
    """The first media type of the request's ``Accept`` header (``text/plain`` for pod log)."""


def site_packages(major: str) -> Path:
    found = sorted((CLIENTS / major).glob("lib/python*/site-packages/kubernetes"))
    if not found:
        raise SystemExit(f"no client {major} in {CLIENTS} (run tests/setup_extras.py)")
    return found[0]


def client_version(major: str) -> str:
    for dist in site_packages(major).parent.glob("kubernetes-*.dist-info"):
        return dist.name.removeprefix("kubernetes-").removesuffix(".dist-info")
    return major


_CLASS = re.compile(r"^class (\w+)(?:\(object\))?:", re.M)
_DEF = re.compile(r"^    def (\w+)\(\s*self,?(.*?)\)(?: -> [^:]+)?:", re.M | re.S)
_LEGACY_CALL = re.compile(r"call_api\(\s*'([^']+)', '([A-Z]+)'")
_NEW_CALL = re.compile(r"method='([A-Z]+)',\s*resource_path='([^']+)'")
_QUERY = re.compile(r"query_params\.append\(\('(\w+)'")
_PARAM_TYPE_LEGACY = re.compile(r":param (\S+) (\w+):")
_PARAM_TYPE_NEW = re.compile(r":type (\w+): ([\w\[\]]+)")
_RESPONSE_LEGACY = re.compile(r"response_type='(\w+)'")
_RESPONSE_NEW = re.compile(r"'?20[01]'?: \"(\w+)\"")
_ACCEPT = re.compile(r"select_header_accept\(\s*\[\s*'([^']+)'")


def _blocks(text: str) -> dict[str, str]:
    starts = [(m.start(), m.group(1)) for m in _DEF.finditer(text)]
    return {name: text[start:(starts[i + 1][0] if i + 1 < len(starts) else len(text))]
            for i, (start, name) in enumerate(starts)}


def _required(signature: str) -> tuple[str, ...]:
    if "**kwargs" in signature:  # clients 25-36: def m(self, name, namespace, **kwargs)
        return tuple(a.strip() for a in signature.split(",") if a.strip() and "*" not in a)
    out = []
    for line in signature.splitlines():  # client 37: one annotated argument per line
        match = re.match(r"^        (\w+): (.*),$", line)
        if match and not re.search(r"= [\w.]+$", match.group(2)):
            out.append(match.group(1))
    return tuple(out)


def client_methods(major: str) -> dict[str, ClientMethod]:
    """``Class.method`` → what it sends, for every generated API method of client ``major``."""
    out: dict[str, ClientMethod] = {}
    for module in sorted((site_packages(major) / "client" / "api").glob("*_api.py")):
        text = module.read_text(encoding="utf-8")
        found = _CLASS.search(text)
        if not found:
            continue
        class_name = found.group(1)
        blocks = _blocks(text)
        for name, block in blocks.items():
            if name.startswith("_") or name.endswith(("_with_http_info", "_without_preload_content")) \
                    or name == "__init__":
                continue
            serialize = blocks.get(f"_{name}_serialize", "")
            legacy = "" if serialize else blocks.get(f"{name}_with_http_info", "")
            source = serialize or legacy
            call = _LEGACY_CALL.search(source)
            if call:
                path, http_method = call.group(1), call.group(2)
            elif (new := _NEW_CALL.search(source)):
                http_method, path = new.group(1), new.group(2)
            else:
                continue
            signature = _DEF.match(block)
            types = {n: t for t, n in _PARAM_TYPE_LEGACY.findall(block)}
            types.update(_PARAM_TYPE_NEW.findall(block))
            query = tuple((api, _python_query_type(api, block, types)) for api in _QUERY.findall(source))
            response = _RESPONSE_LEGACY.search(source) or _RESPONSE_NEW.search(source) \
                or _RESPONSE_NEW.search(block)
            body = types.get("body", "") if ("body" in (signature.group(2) if signature else "")) else ""
            accept = _ACCEPT.search(source)
            out[f"{class_name}.{name}"] = ClientMethod(
                class_name, name, http_method, path,
                _required(signature.group(2) if signature else ""), query,
                body, response.group(1) if response else "", accept.group(1) if accept else "")
    return out


def _snake(name: str) -> str:
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"([a-z\d])([A-Z])", r"\1_\2", name).lower()


def _python_query_type(api_name: str, block: str, types: dict[str, str]) -> str:
    for candidate in (_snake(api_name), "_" + _snake(api_name), api_name):
        if candidate in types:
            return types[candidate]
    return "str"


def _action(method: str) -> str:
    for prefix, action in _ACTIONS:
        if method.startswith(prefix):
            return action
    return ""


def _group_version(path: str) -> tuple[str, str]:
    parts = [*path.strip("/").split("/"), "", ""]
    if parts[0] == "api":
        return "", parts[1]
    return parts[1], parts[2]


def _resource(path: str) -> tuple[str, str]:
    """(resource, subresource) of a path (the parts after the group/version and namespace)."""
    parts = path.strip("/").split("/")[2 if path.startswith("/api/") else 3:]
    if parts[:1] == ["namespaces"] and len(parts) > 2 and parts[2] not in ("status", "finalize"):
        parts = parts[2:]
    if not parts:
        return "", ""
    return parts[0], parts[2] if len(parts) > 2 else ""


def client_routes(major: str, release: str) -> tuple[Route, ...]:
    """Routes of release ``release`` from client ``major``, kept when the release serves them."""
    definitions = load_kubernetes_validate(release).definitions
    short = class_names(sorted(definitions))
    classes: dict[str, tuple[str, str, str]] = {}
    for name, schema in definitions.items():
        for gvk in schema.get("x-kubernetes-group-version-kind") or ():
            if name.startswith(("io.k8s.api.", "io.k8s.kube-aggregator.", "io.k8s.apiextensions")) \
                    and gvk.get("kind") == name.rsplit(".", 1)[-1]:
                classes[camelize(short[name])] = (gvk["group"], gvk["version"], gvk["kind"])
    known = {camelize(short[n]) for n in definitions if n in short}
    methods = client_methods(major)
    served: set[tuple[str, str, str]] = set()
    main_kind: dict[tuple[str, str, str], tuple[str, str, str]] = {}
    for method in methods.values():
        resource, sub = _resource(method.path)
        gv = _group_version(method.path)
        gvk = classes.get(method.response.removesuffix("List"))
        if not sub and gvk is not None and (gvk[0], gvk[1]) == gv:
            served.add((*gv, resource))
            main_kind[(*gv, resource)] = gvk
    out = []
    for key, method in sorted(methods.items()):
        resource, sub = _resource(method.path)
        gv = _group_version(method.path)
        if (*gv, resource) not in served:
            continue  # a stale module, or a resource the release no longer serves
        if method.response and method.response not in known and method.response not in ("str", "object"):
            continue
        gvk = classes.get(method.response.removesuffix("List")) or (
            main_kind[(*gv, resource)] if not sub else ("", "", ""))
        params = [RouteParam(p, "path", "string", True) for p in re.findall(r"{(\w+)}", method.path)]
        params += [RouteParam(api, "query", _PY_TYPES.get(t, "string"), api in method.required)
                   for api, t in method.query]
        body = method.body if method.body not in ("", "object") else ""
        body_def = next((n for n in definitions if n in short and camelize(short[n]) == body), "")
        response_def = next((n for n in definitions
                             if n in short and camelize(short[n]) == method.response), "")
        plain = _PY_TYPES.get(method.response, "") if not response_def else ""
        out.append(Route(method.http_method, method.path, _action(method.name), key, gvk, body_def,
                         "body" in method.required, response_def, tuple(params),
                         plain, method.accept if plain else ""))
    return tuple(sorted(out, key=lambda r: (r.path, r.method)))


def swagger_file(release: str) -> Path | None:
    path = SPECS / f"swagger-{release}.json"
    return path if path.is_file() else None


def release_routes(release: str) -> tuple[tuple[Route, ...], str]:
    """The routes of a release and where they came from."""
    swagger = swagger_file(release)
    if swagger is not None:
        data = swagger.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        return (document_routes(json.loads(data)),
                f"the paths of the upstream swagger.json of v{release}.0 (sha256 {digest[:12]}…)")
    major = release.split(".")[1]
    return (client_routes(major, release),
            f"the official Python client kubernetes=={client_version(major)} (its generated API "
            f"methods, kept where kubernetes-validate's {release} definitions serve the resource; "
            f"the client has no methods for the deprecated /watch/ paths)")


def data_text() -> str:
    return encode_routes({v: release_routes(v) for v in available_versions()})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    data = pack(data_text())
    status, message = refresh_data_file(DATA_FILE, data, check=args.check)
    print(message)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
