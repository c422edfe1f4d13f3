"""Typed view-models of pages: what a template shows, computed from the model and the analyses
(``site`` paths and links, ``pages``, ``properties``, ``nav``, ``versions``, ``changes``,
``builder_section``, ``example_sections``). Never imports ``render``: templates read views."""
