"""The MkDocs plugin (``plugin``): a thin adapter from MkDocs' events to ``build.pipeline``, lifting
the raw HTML blocks past Markdown, model pages rendered without Python-Markdown
(``headings_page``), and the search plugin's sections split without ``html.parser``
(``search_sections``)."""
