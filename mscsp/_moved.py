"""Module paths and names from before the wings, kept working for one release.

The engines moved into three wings (:mod:`mscsp.analysis`, :mod:`mscsp.play`,
:mod:`mscsp.reduction`). A script that still writes ``import mscsp.counting`` or
``from mscsp.noguess import generate_no_guess`` gets the module at its new place,
the very same module object (so classes, caches and ``isinstance`` agree), and a
:class:`DeprecationWarning` naming the new path. The old paths go in the next release.

In a fresh process::

    import mscsp.counting
    # DeprecationWarning: mscsp.counting moved to mscsp.analysis.counting; the old path goes in the next release

Old call forms are kept the same way: :func:`deprecated` marks a function that has a
new name, and :func:`index_of` takes a cell given as a flat index where ``(x, y)`` is
now taken, warning each time.
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.util
import numbers
import sys
import warnings

__all__ = ["MOVED", "install", "deprecated", "is_flat", "index_of"]

#: Old module path -> new one. A moved package takes its submodules along
#: (``mscsp.counting.combine`` is ``mscsp.analysis.counting.combine``), except where a
#: submodule moved on its own (``mscsp.solvers.explain``).
MOVED = {
    "mscsp.constraints": "mscsp.analysis.constraints",
    "mscsp.wording": "mscsp.analysis.explain",
    "mscsp.consistency": "mscsp.analysis.consistency",
    "mscsp.solvers.explain": "mscsp.analysis.explain",
    "mscsp.solvers": "mscsp.analysis.solvers",
    "mscsp.counting": "mscsp.analysis.counting",
    "mscsp.fastplay": "mscsp.play.fastplay",
    "mscsp.noguess": "mscsp.play.noguess",
    "mscsp.cnf": "mscsp.reduction.cnf",
    "mscsp.dimacs": "mscsp.reduction.dimacs",
    "mscsp.gadgets": "mscsp.reduction.gadgets",
}


def new_path(name: str) -> str | None:
    """Where an old module path lives now, or None when it did not move.

    >>> new_path("mscsp.counting.combine"), new_path("mscsp.solvers.explain"), new_path("mscsp.board")
    ('mscsp.analysis.counting.combine', 'mscsp.analysis.explain', None)
    """
    if name in MOVED:
        return MOVED[name]
    head, _, tail = name.rpartition(".")
    while head:
        if head in MOVED:
            return f"{MOVED[head]}.{name[len(head) + 1:]}"
        head, _, tail = head.rpartition(".")
    return None


class _Alias(importlib.abc.Loader):
    """Loads an old path as the module at the new one (imported there, if not yet)."""

    def __init__(self, target: str):
        self.target = target
        self._spec = None

    def create_module(self, spec):
        old = spec.name
        warnings.warn(f"{old} moved to {self.target}; the old path goes in the next release",
                      DeprecationWarning, stacklevel=2)  # the import system's own frames are not counted
        module = importlib.import_module(self.target)
        self._spec = module.__spec__
        return module

    def exec_module(self, module) -> None:
        # the import system stamps the old path's spec on the module; give it its own back
        module.__spec__ = self._spec


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if not name.startswith("mscsp."):
            return None
        new = new_path(name)
        return None if new is None else importlib.util.spec_from_loader(name, _Alias(new))


def install() -> None:
    """Put the finder first on :data:`sys.meta_path` (once)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


def deprecated(instead: str):
    """Mark a function or method as kept for one release: each call warns, naming ``instead``.

    Examples
    --------
    >>> import warnings
    >>> @deprecated("use double(x)")
    ... def twice(x):
    ...     return 2 * x
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     twice(3), str(caught[0].message)
    (6, 'twice() is deprecated: use double(x)')
    """
    def wrap(func):
        @functools.wraps(func)
        def warned(*args, **kwargs):
            warnings.warn(f"{func.__name__}() is deprecated: {instead}", DeprecationWarning, stacklevel=2)
            return func(*args, **kwargs)

        return warned

    return wrap


def is_flat(cell) -> bool:
    """Whether ``cell`` is a flat index (an integer, not a bool): the form kept for one
    release where a cell is now taken as ``(x, y)``.

    Examples
    --------
    >>> is_flat(13), is_flat((4, 1)), is_flat(True)
    (True, False, False)
    """
    return isinstance(cell, numbers.Integral) and not isinstance(cell, bool)


def index_of(geometry, cell, name: str, instead: str):
    """The flat index of ``cell``, a pair ``(x, y)`` (:meth:`~mscsp.board.Geometry.cell`
    checks it); a flat index is passed through as it is, with a DeprecationWarning
    saying that ``name`` takes ``(x, y)`` and what flat-index code reads ``instead``.

    The warning names the caller of ``name``, two frames up.

    Examples
    --------
    >>> import warnings
    >>> from mscsp.board import Geometry
    >>> index_of(Geometry(9, 9), (4, 1), "f", "g")
    13
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     index_of(Geometry(9, 9), 13, "f", "g"), str(caught[0].message)
    (13, 'f takes the cell as (x, y); a flat index is deprecated (g)')
    """
    if is_flat(cell):
        warnings.warn(f"{name} takes the cell as (x, y); a flat index is deprecated ({instead})",
                      DeprecationWarning, stacklevel=3)
        return cell
    return geometry.cell(cell)
