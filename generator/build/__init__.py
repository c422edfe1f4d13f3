"""The only wiring of the layers: sources → model → analyses → views → pages (``pipeline``), what a
``generate`` call leaves for the next (``state``), what an edited source re-renders
(``incremental``), and what builds remember between runs (``cache``). Never touches disk but for the
caches' reads."""
