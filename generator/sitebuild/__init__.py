"""``build-site``: every release as its own MkDocs site side by side (``build.build_site``).

Kept import-free so the CLI can offer the command without loading MkDocs."""
