"""Independent reference implementations for tests: plain, slow, obviously right."""

from __future__ import annotations

from collections import deque


def brute_neighbours(width: int, height: int, holes: frozenset[int], cell: int) -> set[int]:
    """Every grid position at king-move distance one that is not a hole."""
    if cell in holes:
        return set()
    x, y = cell % width, cell // width
    out = set()
    for yy in range(height):
        for xx in range(width):
            j = yy * width + xx
            if max(abs(xx - x), abs(yy - y)) == 1 and j not in holes:
                out.add(j)
    return out


def brute_numbers(width, height, holes, mines: set[int]) -> list[int]:
    return [len(brute_neighbours(width, height, holes, c) & mines) for c in range(width * height)]


def flood_region(width, height, holes, mines: set[int], flags: set[int], start: int) -> set[int]:
    """Cells a reveal at a safe, unflagged ``start`` opens: breadth-first over zeros.

    The region is the cells reachable from ``start`` through zero cells without
    crossing a flag, zero cells included and their (unflagged) boundary.
    """
    numbers = brute_numbers(width, height, holes, mines)
    seen = {start}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        if numbers[c] != 0:
            continue
        for n in brute_neighbours(width, height, holes, c):
            if n not in seen and n not in flags:
                seen.add(n)
                queue.append(n)
    return seen
