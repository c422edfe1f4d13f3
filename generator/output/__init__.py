"""Disk: the only modules that write the generated trees (``atomic``: the one atomic write of a
file or a directory; ``writer``: per-release swaps for ``generate``, write-if-changed sync for the
plugin) and the comparison of a generated tree with a committed one (``check``)."""
