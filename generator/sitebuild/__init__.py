"""``build-site``: every release as its own site side by side (``build.build_site``), built by
MkDocs with the plugin or by Zensical (``zensical``), link-checked (``linkcheck``).

Kept import-free so the CLI can offer the command without loading MkDocs."""
