"""Disk: the only modules that write the generated trees (``writer``: atomic swaps, write-if-changed
sync) and the comparison of a generated tree with a committed one (``check``)."""
