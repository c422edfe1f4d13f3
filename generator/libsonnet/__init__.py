"""The k8s-libsonnet rule engine: which builder functions the Jsonnet library has for a model and
release, their names, anchors and arguments (``builders``). Model in, plain data out; never imports
``views``, ``render``, ``mkdocs``, ``sitebuild`` or ``build``."""
