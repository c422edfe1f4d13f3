"""Every runtime dependency is capped (``pyproject.toml``), and the data package is pinned to the
release the tests ran against (``constraints.txt``): a new upstream release changes no page
until someone updates it on purpose."""

from __future__ import annotations

import sys

from helpers.paths import REPO
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
DATA_PACKAGES = ("kubernetes-validate",)
"""The packages pages and verdicts are built from: one exact release."""


def upper_bound(specifier: SpecifierSet) -> bool:
    """Whether ``specifier`` excludes every release from some version on: ``<``, ``<=``, ``~=``,
    ``==`` (``==1.2.*`` stops at 1.3) or ``===``; ``>=`` and ``!=`` alone do not."""
    return any(spec.operator in ("<", "<=", "~=", "==", "===") for spec in specifier)


def exact(specifier: SpecifierSet) -> str | None:
    """The one release ``specifier`` allows (``==X``), else None."""
    pins = [s.version for s in specifier if s.operator in ("==", "===") and not s.version.endswith(".*")]
    return pins[0] if len(pins) == 1 else None


def constraint_of(name: str) -> str:
    for line in (REPO / "constraints.txt").read_text().splitlines():
        if line.split("==")[0].strip().lower() == name:
            return line.split("==", 1)[1].strip()
    raise AssertionError(f"{name} not in constraints.txt")


def test_every_runtime_dependency_has_an_upper_bound() -> None:
    uncapped = [r for r in PROJECT["dependencies"] if not upper_bound(Requirement(r).specifier)]
    assert not uncapped, f"runtime dependencies without an upper bound: {uncapped}"
    extras = PROJECT["optional-dependencies"]
    for name, requirements in extras.items():
        if name != "test":  # what users install (the test extras are pinned by constraints.txt)
            assert all(upper_bound(Requirement(r).specifier) for r in requirements), name


def test_data_package_is_pinned_to_the_tested_release() -> None:
    for requirement in map(Requirement, PROJECT["dependencies"]):
        if requirement.name in DATA_PACKAGES:
            pinned = exact(requirement.specifier)
            assert pinned is not None, f"{requirement} is not pinned to one release"
            assert Version(pinned) == Version(constraint_of(requirement.name))


def test_the_cap_check_can_fail() -> None:
    assert not upper_bound(SpecifierSet(">=1.37"))
    assert not upper_bound(SpecifierSet(">=4.66,!=4.67"))
    assert not upper_bound(SpecifierSet(""))
    assert upper_bound(SpecifierSet(">=4.66,<5"))
    assert upper_bound(SpecifierSet("==1.37.0"))
    assert upper_bound(SpecifierSet("==1.37.*"))
    assert upper_bound(SpecifierSet("~=1.37"))
    assert exact(SpecifierSet(">=1.37")) is None
    assert exact(SpecifierSet("==1.37.0")) == "1.37.0"
