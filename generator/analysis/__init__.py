"""Analyses of one or more releases, as plain data: classed changes between two releases (``diff``),
the release timeline of every model and field (``timeline``), feature-gate detection (``gates``).
Never imports ``views``, ``render``, ``mkdocs``, ``sitebuild`` or ``build``."""
