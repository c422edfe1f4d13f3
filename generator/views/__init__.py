"""Typed view-models of pages: what a template shows, computed from the model and the analyses
(``site`` paths and links, ``pages`` and the typed sections hooks add, ``properties``, ``notes``
(a row's notes and badges, for both page formats), ``nav``, ``versions``, ``changes``,
``builder_section``, ``example_sections``, ``library`` (helper-only k8s-libsonnet objects)). Never
imports ``render``: templates read views, and the HTML is in templates (partials), not here."""
