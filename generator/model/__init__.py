"""The normalized model: release → group → API version → ``Model`` → ``Field``, frozen plain data
with a documented JSON export (``types``), names and GVKs (``gvk``), the one release and API-version
ordering (``ordering``), and ``normalize`` (canonical document → model). Imports only ``sources.base``
and ``errors``."""
