"""Gadgets for compiling CNF formulas into Minesweeper positions (Kaye's reduction).

R. Kaye ("Minesweeper is NP-complete", The Mathematical Intelligencer 22(2), 9–15,
2000) showed that deciding whether a partial board has a consistent layout is
NP-complete by drawing logic circuits in mines: wires, splitters, NOT, AND/OR,
crossovers, terminals. These gadgets follow his plan on *generalised* boards, whose
``-`` cells (no cell at all) let a wire be a single chain of covered cells joined by
revealed ``1``s — each ``1`` touches exactly two covered cells, so they hold exactly
one mine between them and the signal alternates along the chain:

- **wire** (``H``, ``V``): a chain of ``1`` links; an even number of links copies the
  signal, an odd number negates it (Kaye's wire and NOT);
- **splitter** (``TAP_*``): a covered cell touched by three links (Kaye's splitter,
  T-junction); the ``_NOT`` variants negate the branch;
- **XOR**: a ``2`` touching the inputs ``a``, ``b``, the output ``c`` and two cells
  ``t1``, ``t2`` forced equal (each linked to the ends of a chain with an even number
  of links), so ``a + b + c + 2t = 2``: ``c = a XOR b``;
- **crossover** (``CROSS``): three XORs, ``c = a⊕b``, ``a' = c⊕b``, ``b' = c⊕a`` — the
  classic planar crossover of Garey, Johnson and Stockmeyer ("Some simplified
  NP-complete graph problems", TCS 1, 1976) that Kaye builds from his XOR gadget;
- **clause** (``CLAUSE_*``): a number ``k`` touching the ``k`` literal cells and
  ``k - 1`` free cells: ``sum(literals) = k - sum(free) >= 1``, an OR;
- **terminal** (``SRC``): one free covered cell, the variable's value (mine = true).

Every gadget is a tile of 21x21 cells (clauses over three literals span two tile
rows) with ports in the middle of its sides: a west or north port is a ``1`` on the
tile's edge that links the neighbour's port cell, an east or south port is a covered
cell on the edge. The signal of a horizontal track is the value of the tiles' east
port cells, that of a vertical bus the value of their south port cells.

The drawings were laid out once by a small router (wires found by breadth-first
search so that every ``1`` touches exactly its two cells) and are data: one text
file a tile in ``mscsp/reduction/tiles/``, in the position format (``-`` no cell,
``.`` covered, digits open), so ``mscsp solve`` reads any of them. The tests
enumerate every layout of every tile alone and check it has exactly the intended
relation between its ports.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from importlib import resources

__all__ = ["TILE", "PORT", "Gadget", "GADGETS"]

#: Side of a tile in cells, and the offset of the ports along each side.
TILE = 21
PORT = 10


@dataclass(frozen=True)
class Gadget:
    """One tile: its drawing and its ports (the relation it enforces is described
    above and in the tile's own file, and checked by the tests)."""

    name: str
    rows: tuple[str, ...]

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    @cached_property
    def ports(self) -> dict[str, tuple[int, int]]:
        """Port name -> (x, y) in the tile: W/W1/W2 and N are ``1`` links on the west
        and north edges, E/E1/E2 and S covered cells on the east and south edges."""
        out: dict[str, tuple[int, int]] = {}
        two = self.height == 2 * TILE
        for i, y in enumerate((PORT, TILE + PORT) if two else (PORT,)):
            suffix = str(i + 1) if two else ""
            if self.rows[y][0] == "1":
                out["W" + suffix] = (0, y)
            if self.rows[y][self.width - 1] == ".":
                out["E" + suffix] = (self.width - 1, y)
        if self.rows[0][PORT] == "1":
            out["N"] = (PORT, 0)
        if self.rows[self.height - 1][PORT] == ".":
            out["S"] = (PORT, self.height - 1)
        return out


def _load() -> dict[str, Gadget]:
    """The tiles of ``tiles/`` (one text file each, named for the gadget)."""
    out = {}
    for entry in sorted(resources.files(__package__).joinpath("tiles").iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".txt"):
            rows = tuple(line for line in entry.read_text().splitlines() if line and not line.startswith("#"))
            out[entry.name[:-4]] = Gadget(entry.name[:-4], rows)
    return out


#: Every gadget by name, read from the package's ``tiles/`` folder.
GADGETS: dict[str, Gadget] = _load()
