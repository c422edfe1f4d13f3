"""Rendering: view-models → page text (``{path: text}``), no disk I/O. The Jinja environment and
filters (``env``; the HTML of badges, notes, word diffs and builder indexes is in template
partials), escaping of untrusted text (``markup``), syntax highlighting (``highlight``; the
snippets' tokens in ``snippet_tokens``), the raw-HTML block protocol (``raw_html``), pages
(``pages``) and the diff reports (``reports``: text, JSON with its schema, GitHub annotations)."""
