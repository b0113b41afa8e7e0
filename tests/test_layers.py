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
import importlib
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "mscsp"

#: Top-level modules by wing; a new module must be given a place here.
MODEL = {"__init__", "board", "budget", "draw", "errors", "game", "metrics", "odds", "position", "rules", "sampling",
         "stats"}
FACES = {"__main__", "cli", "report", "terminal"}
WINGS = {"formats": 0, "analysis": 1, "reduction": 2, "play": 3, "experiments": 4, "web": 4}
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


def arrows(name: str, typing: bool = False) -> set[str]:
    """The modules of mscsp that module ``name`` imports anywhere in its source;
    imports for type checkers only (which never run) count only with ``typing``."""
    tree = ast.parse(MODULES[name].read_text())
    package = name if _is_package(name) else name.rsplit(".", 1)[0]
    typing_only = set() if typing else {
        id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and _is_type_checking(block.test)
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


def test_the_top_level_stays_small():
    """A reader finds the model at a glance: at most 16 modules beside the wings."""
    modules = sorted(p.stem for p in PACKAGE.glob("*.py"))
    assert len(modules) <= 16, modules


#: Lines past which a module (a Python source or a C extension's) must say why it is one.
LONG = 600
#: How a long module's docstring (or a C source's first comment) starts its reason.
WHY_ONE = "One module, not several:"


def test_a_long_module_says_why_it_is_one():
    sources = sorted(PACKAGE.rglob("*.py")) + sorted(PACKAGE.rglob("*.c"))
    silent = []
    for path in sources:
        text = path.read_text()
        if text.count("\n") <= LONG:
            continue
        if path.suffix == ".py":
            head = ast.get_docstring(ast.parse(text)) or ""
        else:
            head = text[:text.find("*/")]
        if WHY_ONE not in " ".join(line.strip(" *") for line in head.splitlines()):
            silent.append(f"{path.relative_to(PACKAGE.parent)} ({text.count(chr(10))} lines)")
    assert not silent, f"modules over {LONG} lines whose docstring does not say {WHY_ONE!r}: {silent}"


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
    # a circle made of imports for type checkers only is still two modules that each
    # need the other to be read: none is allowed
    graph = {name: arrows(name, typing=True) for name in MODULES}
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
    assert "mscsp.errors" in arrows("mscsp.analysis.counting.exact.cpsat")
    assert "mscsp.play.fastplay" in arrows("mscsp.play.verify")
    assert "mscsp.analysis.counting.exact.cpsat" in arrows("mscsp.analysis.counting.pipeline")
    assert "mscsp.analysis.constraints" not in arrows("mscsp.analysis.explain")
    assert "mscsp.analysis.constraints" in arrows("mscsp.analysis.explain", typing=True)
    assert rank("mscsp.analysis.counting.exact.sweep") == 1 and rank("mscsp.web.app") == 4


#: Module paths from before the wings (the analysis, play and reduction packages):
#: not importable, so that each module has one name.
OLD = ["mscsp.counting", "mscsp.solvers", "mscsp.constraints", "mscsp.consistency", "mscsp.wording",
       "mscsp.noguess", "mscsp.fastplay", "mscsp.cnf", "mscsp.dimacs", "mscsp.gadgets"]


@pytest.mark.parametrize("old", OLD)
def test_a_module_has_one_path(old):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)


def test_the_readme_design_names_every_module():
    readme = (PACKAGE.parent / "README.md").read_text()
    design = readme[readme.index("## Design"):readme.index("## Tests")]
    quoted = " ".join(re.findall(r"`([^`]*)`", design)) + " " + design[design.index("```"):design.rindex("```")]
    missing = [name for name in MODULES if name != "mscsp"
               and not re.search(rf"(?<![\w.]){re.escape(name.rsplit('.', 1)[1])}\b", quoted)]
    assert not missing, f"README's Design section does not name {missing}"
