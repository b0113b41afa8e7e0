"""Everything that holds a layout and plays it.

The solvers never see a layout; the play loop here is the only code that does. It
opens what :func:`mscsp.analysis.solvers.deduce` proves (:mod:`mscsp.play.loop`), and the
verifier (:mod:`mscsp.play.verify`) plays a whole board with it to decide whether a
solver finishes it without a guess.
"""

from .dead import (
           Structure,
           dead_pair,
           dead_square,
           dead_structure,
           find_structure,
           walled_off_safe,
)
from .loop import Deducer, GameRecord, play_game
from .verify import VerifyResult, verify

__all__ = ["Deducer", "GameRecord", "play_game", "VerifyResult", "verify", "Structure", "find_structure",
           "dead_structure", "dead_pair", "dead_square", "walled_off_safe"]
