"""The MkDocs plugin (``plugin``): a thin adapter from MkDocs' events to ``build.pipeline`` and
``views``, lifting the raw HTML blocks past Markdown; its speed code behind one switch
(``accelerators``: ``headings_page``, ``nav_cache``)."""
