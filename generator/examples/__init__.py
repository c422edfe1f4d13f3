"""Example snippets: the sample object of a model (``samples``), the official Python client's names
(``python_names``) and the YAML, Python and Jsonnet texts of a sample (``yaml_text``, ``snippets``,
``jsonnet``). Never imports ``views``, ``render``, ``mkdocs``, ``sitebuild`` or ``build``."""
