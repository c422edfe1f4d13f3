"""The MkDocs plugin (``plugin``): a thin adapter from MkDocs' events to ``build.pipeline``, lifting
the raw HTML blocks past Markdown, and model pages rendered without Python-Markdown
(``headings_page``)."""
