"""Disk, the only layer that writes to it: the generated trees (``writer``: per-release swaps for
``generate``, write-if-changed sync for the plugin, through ``generator.atomic``), the caches'
entries (``pickles``: loaded releases for ``build-site``'s builds; ``bytecode``: compiled
templates), and the comparison of a generated tree with a committed one (``check``)."""
