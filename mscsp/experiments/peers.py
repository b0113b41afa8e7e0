"""The peers an experiment measures mscsp against, found where they are installed.

The peers (Simon Tatham's Mines, ms_toollib, David Hill's JSMinesweeper) are not
dependencies of the toolkit: their drivers live in ``benchmarks/`` and the programs
on the machine, and an experiment that measures them runs without them, saying which
ran and why the others did not. :func:`benchmark` loads a driver from the checkout;
:func:`find_generators` looks for the no-guess generators of
:mod:`mscsp.experiments.noguess_bias`.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

__all__ = ["benchmark", "find_generators", "BENCHMARKS", "TATHAM"]

#: The checkout's benchmarks folder (absent from an installed package).
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
#: Where Debian's sgt-puzzles installs the Mines program.
TATHAM = Path("/usr/games/sgt-mines")


def benchmark(name: str):
    """``benchmarks/NAME.py`` of the checkout as a module (loaded once), or None
    where the checkout does not hold it.

    Examples
    --------
    >>> benchmark("no such benchmark") is None
    True
    """
    path = BENCHMARKS / f"{name}.py"
    if not path.is_file():
        return None
    key = f"_mscsp_benchmark_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


def find_generators(wanted: list[str], tatham: str | None, jsminesweeper: str | None) -> tuple[dict, dict]:
    """Which of the ``wanted`` no-guess generators can run here: ``(ran, skipped)``,
    a generator's name to what describes its program (version, commit), and to the
    reason it cannot run. ``tatham`` is the Mines program ("auto": ``sgt-mines`` on
    the PATH or in /usr/games; "none": skip it); ``jsminesweeper`` a checkout of
    JSMinesweeper, or None.

    Examples
    --------
    >>> find_generators(["mscsp perturb"], "none", None)
    ({'mscsp perturb': {}}, {})
    >>> find_generators(["JSMinesweeper"], "none", None)[1]["JSMinesweeper"].startswith("no JSMinesweeper checkout")
    True
    """
    ran, skipped = {}, {}
    bench = benchmark("noguess") if set(wanted) - {"mscsp perturb"} else None
    for name in wanted:
        if name == "mscsp perturb":
            ran[name] = {}
        elif bench is None:
            skipped[name] = f"{BENCHMARKS / 'noguess.py'} is missing (it drives the peers)"
        elif name == "Tatham mines":
            path = tatham
            if tatham == "auto":
                path = shutil.which("sgt-mines") or (str(TATHAM) if TATHAM.is_file() else None)
            if not path or path == "none":
                skipped[name] = "no Mines program (apt-get install sgt-puzzles, or --tatham PATH)"
                continue
            try:
                ran[name] = bench.tatham_mines(path)
            except ValueError as exc:
                skipped[name] = str(exc)
        elif name.startswith("ms "):
            try:
                from importlib import metadata

                import ms_toollib  # noqa: F401
                ran[name] = {"package": "ms-toollib", "version": metadata.version("ms-toollib")}
            except ImportError:
                skipped[name] = "ms_toollib is not installed (pip install ms-toollib)"
        elif name == "JSMinesweeper":
            if jsminesweeper is None:
                skipped[name] = "no JSMinesweeper checkout given (--jsminesweeper PATH or $MSCSP_JSMINESWEEPER)"
                continue
            try:
                ran[name] = bench.jsminesweeper(jsminesweeper)
            except ValueError as exc:
                skipped[name] = str(exc)
        else:
            raise ValueError(f"unknown generator {name!r}")
    return ran, skipped
