"""Runs INSIDE a Kubernetes Python client venv (``tests/setup_extras.py``); imports nothing of ours.

``python client_probe.py types``: JSON of every model class → ``openapi_types``/``attribute_map``.
``python client_probe.py run``: reads ``{name: python snippet}`` JSON on stdin, executes each snippet
(it must bind ``obj``) and prints ``{name: {"ok": data} | {"error": text}}``, where ``data`` is
``ApiClient().sanitize_for_serialization(obj)``.
"""

import inspect
import json
import sys
import traceback


def types() -> dict:
    from kubernetes import client

    out = {}
    # clients from 37 load their models lazily (module __getattr__): list them by __all__
    names = getattr(client.models, "__all__", None) or list(vars(client.models))
    for name in sorted(names):
        cls = getattr(client.models, name)
        if inspect.isclass(cls) and hasattr(cls, "openapi_types"):
            out[name] = {"types": dict(cls.openapi_types), "map": dict(cls.attribute_map)}
    return out


def run(snippets: dict) -> dict:
    from kubernetes import client

    api_client = client.ApiClient()
    out = {}
    for name, code in snippets.items():
        scope = {}
        try:
            exec(compile(code, name, "exec"), scope)
            out[name] = {"ok": api_client.sanitize_for_serialization(scope["obj"])}
        except Exception:
            out[name] = {"error": traceback.format_exc(limit=2)}
    return out


if __name__ == "__main__":
    command = sys.argv[1]
    result = types() if command == "types" else run(json.load(sys.stdin))
    json.dump(result, sys.stdout, sort_keys=True)
