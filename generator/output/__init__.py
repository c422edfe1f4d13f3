"""Disk: the only modules that write the generated trees (``writer``: per-release swaps for
``generate``, write-if-changed sync for the plugin, through ``generator.atomic``) and the comparison
of a generated tree with a committed one (``check``)."""
