"""The example notebook runs in a real Jupyter kernel and shows pictures.

``docs/examples/tour.ipynb`` is stored without outputs; this test executes it with
:mod:`nbclient` (an IPython kernel started by ``ipykernel``) and checks that no cell
fails and that the drawings came back as SVG. It also checks the display hook a
notebook uses for the model objects, without a kernel: IPython's
``DisplayFormatter`` must find an ``image/svg+xml`` picture for a Position, an
Analysis, a Layout and a Game.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pytest

import mscsp
from conftest import REPO

NOTEBOOK = REPO / "docs" / "examples" / "tour.ipynb"


def test_the_tour_notebook_runs_and_draws(monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    stored = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert stored == [], "the notebook is stored without outputs"
    # the kernel is another process: it must import this checkout, as the tests do
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    notebook.cells.append(nbformat.v4.new_code_cell("import mscsp; print(mscsp.__file__)"))
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(REPO)}})
    client.execute()  # raises CellExecutionError, with the traceback, when a cell fails
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert notebook.cells[-1].outputs[0].text.strip() == str(REPO / "mscsp" / "__init__.py")
    pictures = [o.data["image/svg+xml"] for o in outputs
                if o.output_type in ("execute_result", "display_data") and "image/svg+xml" in o.data]
    assert len(pictures) >= 3
    for svg in pictures:
        assert ET.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"
    # the win-rate row printed its count and interval, and the interval holds the share won
    (row,) = [o.text for o in outputs if o.output_type == "stream" and "won =" in o.text]
    won, games = map(int, row.split(": ")[1].split(" won")[0].split("/"))
    low, high = mscsp.wilson(won, games)
    assert games == 500 and f"[{low:.1%}, {high:.1%}]" in row


def test_the_model_objects_are_pictures_in_a_notebook():
    formatters = pytest.importorskip("IPython.core.formatters")
    formatter = formatters.DisplayFormatter()
    position = mscsp.parse_position("mines: 2\n.....\n.121.\n")
    board = mscsp.generate(mscsp.Spec(9, 9, 10), "opening", (4, 4), seed=14)
    game = mscsp.Game.from_board(board)
    game.reveal(board.click)
    for obj in (position, mscsp.analyse(position), board.layout, game):
        data, _ = formatter.format(obj)
        assert "image/svg+xml" in data, type(obj).__name__
        assert ET.fromstring(data["image/svg+xml"]).tag == "{http://www.w3.org/2000/svg}svg"
        if type(obj).__repr__ is not object.__repr__:  # IPython words a default repr its own way
            assert data["text/plain"] == repr(obj)  # the text repr is unchanged
    # a generated board, and a no-guess one, show their click and what they are
    no_guess = mscsp.generate_no_guess(mscsp.Spec(9, 9, 10), "opening", (4, 4), seed=2)
    for obj, caption in ((board, "first click [4,4] (opening, seed 14)"), (no_guess, no_guess.guarantee)):
        data, _ = formatter.format(obj)
        root = ET.fromstring(data["image/svg+xml"])
        texts = [e.text for e in root.iter("{http://www.w3.org/2000/svg}text") if e.get("class") == "caption"]
        rings = [(e.get("data-x"), e.get("data-y")) for e in root.iter("{http://www.w3.org/2000/svg}circle")
                 if e.get("class") == "best"]
        assert texts == [caption] and rings == [("4", "4")]
