"""Write ``generator/sources/package_fields.json.gz``: the property names of every definition of
each release the installed (pinned) ``kubernetes-validate`` ships, with each release file's size
(``sources.package_fields``; the release timeline reads it instead of decoding the package).

    python scripts/package_fields_data.py            # rewrite the data file
    python scripts/package_fields_data.py --check    # exit 1 when the file differs (no network)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.output.writer import refresh_data_file  # noqa: E402
from generator.sources.jsonschema_pkg import available_versions, package_bytes, package_version  # noqa: E402
from generator.sources.package_fields import DATA_FILE, decoded_field_names, pack, table_document  # noqa: E402


def document() -> dict:
    """The table of the installed package."""
    releases = {}
    for release in available_versions():
        data = package_bytes(release)
        releases[release] = (len(data), decoded_field_names(data))
    return table_document(package_version(), releases)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    status, message = refresh_data_file(DATA_FILE, pack(document()), check=args.check)
    print(message)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
