"""The MkDocs plugin (``plugin``): a thin adapter from MkDocs' events to ``pipeline.build`` and
``views``, lifting the raw HTML blocks past Markdown; its speed code behind one switch
(``accelerators``: ``headings_page``, ``nav_cache``, ``search_entries``)."""
