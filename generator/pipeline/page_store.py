"""Pages kept as UTF-8 while a build runs (``EncodedPages``), for a caller that only writes
them out (``generate``): a page with one character outside Latin-1 (an en dash) takes two bytes
a character as a Python ``str``, about one as UTF-8, so the rendered pages of a release take
half the memory until they are written."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, MutableMapping


class EncodedPages(MutableMapping[str, str]):
    """Path → page text, stored encoded: a page is decoded when read (each read makes a new
    ``str``)."""

    def __init__(self, pages: Iterable[tuple[str, str]] | Mapping[str, str] = ()) -> None:
        self._data: dict[str, bytes] = {}
        self.update(pages)

    def __getitem__(self, path: str) -> str:
        return self._data[path].decode("utf-8")

    def __setitem__(self, path: str, text: str) -> None:
        self._data[path] = text.encode("utf-8")

    def __delitem__(self, path: str) -> None:
        del self._data[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, path: object) -> bool:
        return path in self._data

    def absorb(self, other: EncodedPages) -> None:
        """Add ``other``'s pages as they are stored (no decoding)."""
        self._data.update(other._data)

    def add_encoded(self, pages: Mapping[str, bytes]) -> None:
        """Add pages already encoded as UTF-8 (from ``encoded``)."""
        self._data.update(pages)

    @staticmethod
    def encoded(pages: Mapping[str, str]) -> dict[str, bytes]:
        """``pages`` encoded as they are stored."""
        return {path: text.encode("utf-8") for path, text in pages.items()}

    def sorted(self) -> EncodedPages:
        """A copy in path order."""
        copy = EncodedPages()
        copy._data = dict(sorted(self._data.items()))
        return copy
