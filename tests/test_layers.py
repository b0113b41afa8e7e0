"""The house holds: every module sits in a wing, imports point down, and nothing goes round.

The package is read as source (no module is imported): every ``import`` and
``from ... import`` statement, at the top of a module or inside a function, is an
arrow from the importing module to the module it names. The wings, from the bottom:

0. the model (boards, positions, rules, games, the text format and other tools' formats,
   errors, statistics);
1. ``mscsp.analysis``: reads positions, never a layout (the play wing reaches it
   through its face, ``mscsp.analysis`` itself, alone);
2. ``mscsp.reduction``: formulas and positions, built on the analysis;
3. ``mscsp.play``: holds layouts and plays them with the analysis;
4. the faces: the experiments, the web pages, the command line, the terminal game, the
   report and the paper.

An arrow may point within a wing or down, never up, and no chain of arrows may come
back to where it started.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mscsp._moved import MOVED

PACKAGE = Path(__file__).resolve().parent.parent / "mscsp"

#: Top-level modules by wing; a new module must be given a place here.
MODEL = {"__init__", "_moved", "board", "budget", "draw", "errors", "files", "foreign", "game", "metrics", "odds",
         "position", "rules", "sampling", "stats", "textformat"}
FACES = {"__main__", "cli", "paper", "report", "terminal"}
WINGS = {"analysis": 1, "reduction": 2, "play": 3, "experiments": 4, "web": 4}
NAMES = {0: "the model", 1: "analysis", 2: "reduction", 3: "play", 4: "the faces"}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()
#: Compiled extensions (built from C beside their Python twin): they import nothing of mscsp.
EXTENSIONS = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts) for p in PACKAGE.rglob("*.c")}


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _target(name: str) -> str:
    """The module an import names: itself, or the package holding a name it imports."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def arrows(name: str) -> set[str]:
    """The modules of mscsp that module ``name`` imports anywhere in its source."""
    tree = ast.parse(MODULES[name].read_text())
    package = name if _is_package(name) else name.rsplit(".", 1)[0]
    # imports for type checkers only never run: they make no arrow
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and _is_type_checking(block.test)
                   for stmt in block.body for n in ast.walk(stmt)}
    out = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out.update(_target(a.name) for a in node.names if a.name.split(".")[0] == "mscsp")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = ".".join(base[: len(base) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            elif (node.module or "").split(".")[0] == "mscsp":
                base = node.module
            else:
                continue
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full not in EXTENSIONS:
                    out.add(full if full in MODULES else _target(base))
    out.discard(name)
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def rank(name: str) -> int:
    """The wing a module belongs to, bottom (0) to top (4)."""
    parts = name.split(".")
    if len(parts) == 1:
        return 0  # the package's own __init__, the flat API: lazy by name, so no arrows up
    if len(parts) == 2 and parts[1] in MODEL:
        return 0
    if len(parts) == 2 and parts[1] in FACES:
        return 4
    if parts[1] in WINGS:
        return WINGS[parts[1]]
    raise AssertionError(f"{name} belongs to no wing: give it a place in tests/test_layers.py")


def test_every_module_belongs_to_a_wing():
    for name in MODULES:
        rank(name)


def test_the_top_level_holds_the_model_the_wings_and_the_faces_only():
    top = {p.stem for p in PACKAGE.glob("*.py")} | {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert top == MODEL | FACES | set(WINGS)


def test_no_arrow_points_up():
    up = [f"{name} ({NAMES[rank(name)]}) imports {other} ({NAMES[rank(other)]})"
          for name in MODULES for other in sorted(arrows(name)) if rank(other) > rank(name)]
    assert not up, "\n".join(up)


def test_the_analysis_never_reaches_a_layout_holder():
    for name in MODULES:
        if rank(name) == 1:
            assert not any(o.startswith(("mscsp.play", "mscsp.reduction")) for o in arrows(name)), name


def test_the_play_wing_reaches_the_analysis_through_its_face_alone():
    # mscsp.analysis (its __init__) is what the play wing may use: deduce, the
    # result types, and the Survey its policies ask their questions through
    inner = [f"{name} imports {other}" for name in MODULES if name.startswith("mscsp.play")
             for other in sorted(arrows(name)) if other.startswith("mscsp.analysis.")]
    assert not inner, "\n".join(inner)


def test_no_import_circle():
    graph = {name: arrows(name) for name in MODULES}
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circle = path[path.index(nxt):] + [nxt]
                pytest.fail("import circle: " + " -> ".join(circle))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


def test_the_reader_sees_what_it_should():
    # the reader itself, on modules whose imports are known: a relative import two
    # levels up, a module imported by name from its package, a function-level import,
    # and an import for type checkers only (no arrow)
    assert "mscsp.errors" in arrows("mscsp.analysis.counting.cpsat")
    assert "mscsp.play.fastplay" in arrows("mscsp.play.verify")
    assert "mscsp.analysis.counting.cpsat" in arrows("mscsp.analysis.counting")
    assert "mscsp.analysis.constraints" not in arrows("mscsp.analysis.explain")
    assert rank("mscsp.analysis.counting.sweep") == 1 and rank("mscsp.web.app") == 4


OLD = [
    ("mscsp.counting", "count_layouts", "mscsp.analysis.counting"),
    ("mscsp.counting.combine", "poly_mul", "mscsp.analysis.counting.combine"),
    ("mscsp.solvers", "deduce", "mscsp.analysis.solvers"),
    ("mscsp.solvers.explain", "describe_contradiction", "mscsp.analysis.explain"),
    ("mscsp.constraints", "build_constraints", "mscsp.analysis.constraints"),
    ("mscsp.consistency", "decide", "mscsp.analysis.consistency"),
    ("mscsp.noguess", "generate_no_guess", "mscsp.play.noguess"),
    ("mscsp.fastplay", "available", "mscsp.play.fastplay"),
    ("mscsp.cnf", "parse_dimacs", "mscsp.reduction.cnf"),
    ("mscsp.dimacs", "position_to_cnf", "mscsp.reduction.dimacs"),
    ("mscsp.gadgets", "GADGETS", "mscsp.reduction.gadgets"),
    ("mscsp.analysis", "analyse", "mscsp.analysis.full"),
    ("mscsp.reduction", "compile_cnf", "mscsp.reduction.compile"),
]


@pytest.mark.parametrize("old, name, new", OLD)
def test_old_module_paths_keep_working_for_a_release(old, name, new):
    # a fresh process: the same object as at the new path, and a warning that names it
    # (mscsp.analysis and mscsp.reduction were modules and are now the wings' faces,
    # which export what the modules did, so they work without a warning)
    code = (f"import warnings, sys; warnings.simplefilter('error', DeprecationWarning)\n"
            f"try:\n    from {old} import {name}\nexcept DeprecationWarning as w:\n    print('warned', w)\n"
            f"warnings.simplefilter('ignore')\n"
            f"from {old} import {name} as a\nfrom {new} import {name} as b\nprint(a is b)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    warned = [line for line in out.splitlines() if line.startswith("warned")]
    if old in ("mscsp.analysis", "mscsp.reduction"):
        assert not warned
    else:  # the first old path on the way warns: a package before its submodules
        first = next(p for p in (old.rsplit(".", 1)[0], old) if p in MOVED)
        assert warned == [f"warned {first} moved to {MOVED[first]}; the old path goes in the next release"]
    assert out.splitlines()[-1] == "True"


def test_the_readme_design_names_every_module():
    readme = (PACKAGE.parent / "README.md").read_text()
    design = readme[readme.index("## Design"):readme.index("## Tests")]
    quoted = " ".join(re.findall(r"`([^`]*)`", design)) + " " + design[design.index("```"):design.rindex("```")]
    missing = [name for name in MODULES if name != "mscsp" and not name.endswith("._moved")
               and not re.search(rf"(?<![\w.]){re.escape(name.rsplit('.', 1)[1])}\b", quoted)]
    assert not missing, f"README's Design section does not name {missing}"
