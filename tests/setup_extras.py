"""Install what some tests need beyond the Python extras (idempotent, quiet when done).

Each part is added by the feature that needs it; see the functions below.
"""

from __future__ import annotations


def main() -> None:
    """Nothing extra yet."""


if __name__ == "__main__":
    main()
