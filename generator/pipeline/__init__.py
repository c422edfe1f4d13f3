"""The only wiring of the layers: sources → model → analyses → views → pages (``pipeline``), what a
``generate`` call leaves for the next (``state``), what an edited source re-renders
(``incremental``), and what builds remember between runs (``cache``, ``release_cache``: what is kept
and under which key). Writes nothing to disk itself: the caches' entries go through ``output/``."""
