"""Budgets: how long a computation may run and how much memory it may hold.

Every search in mscsp is bounded. A :class:`Budget` carries a deadline (on the
monotonic ``time.perf_counter`` clock) and a memory allowance in bytes; the code
that spends them checks before it spends (a table that would outgrow the memory
allowance is not built) and raises :class:`~mscsp.errors.BudgetExceeded` naming the
resource that ran out. Callers split a budget between stages — exact counting, then
proofs, then estimation — so a stage that gives up leaves time for the next.
"""

from __future__ import annotations

import ctypes
import functools
import os
import time
from dataclasses import dataclass

from .errors import BudgetExceeded, InputError, Resource

__all__ = ["Budget", "CHECK_EVERY", "DEFAULT_MEMORY", "DEFAULT_STATE_LIMIT", "UNLIMITED", "resident_bytes",
           "give_back"]

#: Default memory allowance of one computation: what a laptop can spare.
DEFAULT_MEMORY = 1 << 30

#: Items (cells, equations, variables, clues) a pass over a board handles between two
#: looks at the clock: a board of a million cells takes seconds in any of them.
CHECK_EVERY = 4096

#: Default bound on the entries of one counting table (the ``state_limit`` of every
#: function that counts) before a component is declared too large to count exactly.
DEFAULT_STATE_LIMIT = 200_000


@dataclass(frozen=True)
class Budget:
    """A deadline and a memory allowance.

    Parameters
    ----------
    deadline : float or None
        ``time.perf_counter()`` value past which work must stop; None for no limit.
    memory : int or None
        Bytes the computation's own tables may hold at once (the counting tables,
        estimated before they are built); None for no limit.
    resident : int or None
        Bytes the whole process may hold, measured (Linux ``/proc/self/statm``)
        wherever :meth:`check` is called; None for no limit.

    Examples
    --------
    >>> b = Budget.of(seconds=10, memory=1 << 20)
    >>> 9 < b.seconds_left() <= 10, b.memory
    (True, 1048576)
    >>> half = b.share(0.5)
    >>> half.seconds_left() <= 5.0
    True
    >>> Budget.of(seconds=0).check_time("counting")
    Traceback (most recent call last):
    ...
    mscsp.errors.BudgetExceeded: counting ran out of time
    """

    deadline: float | None = None
    memory: int | None = DEFAULT_MEMORY
    resident: int | None = None

    @classmethod
    def of(cls, seconds: float | None = None, memory: int | None = DEFAULT_MEMORY) -> "Budget":
        """A budget of ``seconds`` from now and ``memory`` bytes."""
        if seconds is not None and not seconds >= 0:
            raise InputError(f"a time limit must be a non-negative number of seconds, not {seconds!r}")
        if memory is not None and memory <= 0:
            raise InputError(f"a memory limit must be a positive number of bytes, not {memory!r}")
        return cls(None if seconds is None else time.perf_counter() + seconds, memory)

    def seconds_left(self) -> float:
        """Seconds until the deadline (infinite without one; never negative)."""
        if self.deadline is None:
            return float("inf")
        return max(0.0, self.deadline - time.perf_counter())

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def check_time(self, what: str) -> None:
        """Raise BudgetExceeded (time) once the deadline has passed."""
        if self.expired():
            raise BudgetExceeded(f"{what} ran out of time", Resource.TIME)

    def check_memory(self, needed: int, what: str) -> None:
        """Raise BudgetExceeded (memory) when ``needed`` bytes exceed the allowance."""
        if self.memory is not None and needed > self.memory:
            raise BudgetExceeded(
                f"{what} needs about {needed / 2**20:.0f} MB, more than its {self.memory / 2**20:.0f} MB", Resource.MEMORY)

    def check(self, what: str) -> None:
        """Raise BudgetExceeded once the deadline has passed or the process holds more
        than its resident allowance."""
        self.check_time(what)
        held = self._over_resident()
        if held is not None:
            raise BudgetExceeded(f"{what} ran out of memory: the process holds {held >> 20} MB, more than "
                                 f"its {self.resident >> 20} MB", Resource.MEMORY)

    def exceeded(self) -> bool:
        """Whether :meth:`check` would raise: for work that stops with what it has
        rather than giving up."""
        return self.expired() or self._over_resident() is not None

    def _over_resident(self) -> int | None:
        """The bytes the process holds when they are over its resident allowance."""
        if self.resident is None:
            return None
        held = resident_bytes()
        return held if held is not None and held > self.resident else None

    def share(self, fraction: float) -> "Budget":
        """The same memory, and ``fraction`` of the time left."""
        if self.deadline is None:
            return self
        return Budget(time.perf_counter() + fraction * self.seconds_left(), self.memory, self.resident)


def resident_bytes() -> int | None:
    """This process's resident memory in bytes, or None where the system does not say."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


@functools.cache
def _malloc_trim():
    """glibc's ``malloc_trim``, or None elsewhere: looked up when first wanted, not
    when mscsp is imported."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


def give_back() -> None:
    """Return freed heap memory to the system (glibc's ``malloc_trim``; nothing
    elsewhere). After a counting table of a gigabyte is dropped, the C allocator keeps
    the pages, so the resident size stays at the peak and the stages after it (the
    solver, the estimate) start over their allowance: on a sparse 100x100 lattice the
    process then grew to 1.47 GB under a 0.9 GB bound.

    Examples
    --------
    >>> give_back()  # nothing to give back: harmless
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


#: No deadline and no memory allowance: for tests and callers that bound work otherwise.
UNLIMITED = Budget(None, None)
