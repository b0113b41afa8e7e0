"""The jobs that worker processes run: analyses, no-guess boards and the solver's moves.

Each is a module-level function of plain, picklable arguments, so a
:class:`~mscsp.web.workers.WorkerPool` can send it to another process. Positions
travel as text in the position format: the worker parses what the server already
checked, and the answer is what ``mscsp solve --json`` prints, with what the pages
add (the ``guesses`` marks). Exact fractions travel as ``"p/q"`` strings beside
their floats, as ``mscsp solve --fractions`` writes them.
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np

from ..analysis.full import analyse_surveyed
from ..analysis.survey import Survey
from ..board import Spec
from ..errors import BudgetExceeded, InconsistentError, MscspError
from ..play.noguess import NoGuessBoard, generate_no_guess
from ..position import parse_position
from ..report import solve_record
from ..rules import FirstClickRule

__all__ = ["analyse_text", "hint_text", "no_guess_board", "solver_move", "proven_safe", "play_games", "game_seed",
           "MARKS_SHARE"]

#: Share of the analysis time limit the dead-cell checks of ``guesses`` may use.
MARKS_SHARE = 0.05


def analyse_text(text: str, solver: str, use_total: bool, time_limit: float, state_limit: int) -> dict:
    """The ``mscsp solve --json`` record of a position given as text.

    Parameters
    ----------
    text : str
        A position in the text format.
    solver : {'single-point', 'subset', 'sat'}
        Which solver's deductions are reported as ``safe`` and ``mine``.
    use_total : bool
        Whether the mine total (when the text gives one) is used.
    time_limit : float
        Seconds for the complete solver's search and explanations.
    state_limit : int
        DP states per component before its probabilities are estimated.

    Returns
    -------
    dict
        The ``mscsp solve --json`` record, and ``guesses``: the cells a strong player
        treats apart when guessing (:func:`~mscsp.play.marks.guess_marks`), as
        ``{"dead": cells, "unavoidable": [cells, ...], "pseudo": cells, "complete":
        bool}``, the three lists null while a cell is proven safe (they are sought
        when a guess is due); null unless the counts are exact with the mine total.

    Examples
    --------
    >>> record = analyse_text("mines: 1\\n.1...\\n", "sat", True, 5.0, 200_000)
    >>> record["safe"], record["best"], record["probability"][0][:2]
    ([[3, 0], [4, 0]], [3, 0], [0.5, None])
    >>> analyse_text("mines: 1\\n11\\n..\\n", "sat", True, 5.0, 200_000)["guesses"]
    {'dead': [[0, 1], [1, 1]], 'unavoidable': [[[0, 1], [1, 1]]], 'pseudo': [[0, 1], [1, 1]], 'complete': True}
    """
    position = parse_position(text)
    return _record(solver, use_total, time_limit, state_limit, Survey(position))[1]


def hint_text(text: str, policy: str, rule: str, time_limit: float, state_limit: int, timeout: float) -> dict:
    """The hint of a game's page: the analysis of the position the player sees and the
    click the player ``policy`` would make there, from one reading of the text, one
    set of equations and one count of each component.

    Returns the record of :func:`analyse_text` (solver ``sat``, with the total) and
    the suggestion's fields: ``best_by``, the player that chose ``best`` (``policy``,
    ``least-p`` when that player was not asked or could not decide, None without a
    suggestion), ``best_note``, its words for a guess (its ``text`` in
    :func:`solver_move`) or why it was not asked, and ``candidates`` and
    ``candidates_rung`` as :func:`solver_move` gives them with ``rank``. A cell proven
    safe is the player's own click (the record's ``best``), so only a position where a
    guess is due asks it; it is asked while ``timeout`` seconds from the start are not
    spent, its searches within ``time_limit``.

    Examples
    --------
    >>> hint = hint_text("mines: 1\\n.1..\\n", "+endgame", "safe", 5.0, 200_000, 10.0)
    >>> hint["best"], hint["best_by"], hint["best_note"]
    ([3, 0], '+endgame', None)
    >>> text = "mines: 1\\n1.\\n..\\n"  # a guess is due: the solver's own move
    >>> hint = hint_text(text, "+endgame", "safe", 5.0, 200_000, 10.0)
    >>> hint["best"] == solver_move(text, "+endgame", "safe", 5.0)["open"][0], hint["candidates_rung"]
    (True, '+endgame')
    """
    started = time.perf_counter()
    position = parse_position(text)
    survey = Survey(position)
    analysis, record = _record("sat", True, time_limit, state_limit, survey)
    unranked = {"candidates": [], "candidates_rung": None}
    if not record["consistent"] or record["best"] is None:
        return {**record, "best_by": None, "best_note": None, **unranked}
    if record["safe"]:  # the player opens every proven cell; the record's is the first of them
        return {**record, "best_by": policy, "best_note": None, **unranked}
    if record["exact"] is False:
        return {**record, "best_by": "least-p",
                "best_note": f"the mine chances are estimates, and the {policy} player needs exact ones", **unranked}
    limit = min(time_limit, timeout - (time.perf_counter() - started))
    if limit <= 0:
        return {**record, "best_by": "least-p",
                "best_note": f"the {policy} player was not asked: it did not decide within the hint's {timeout:g} s",
                **unranked}
    index = position.geometry.index
    # counted exactly, the analysis proved every forced cell: the mines are the player's proofs
    known = {index(x, y): True for x, y in analysis.mines}
    try:
        move = _start(position, rule, True) or _move(position, survey, known, policy, limit, True)
    except MscspError as exc:
        return {**record, "best_by": "least-p", "best_note": f"the {policy} player could not decide: {exc}",
                **unranked}
    return {**record, "best": move["open"][0], "best_by": policy, "best_note": move["text"],
            "candidates": move["candidates"], "candidates_rung": move["candidates_rung"]}


def _record(solver: str, use_total: bool, time_limit: float, state_limit: int, survey: Survey):
    """The analysis of the survey's position and its record (see :func:`analyse_text`),
    the equations and tallies the survey's."""
    analysis = analyse_surveyed(survey, solver, use_total=use_total, time_limit=time_limit, state_limit=state_limit)
    record = solve_record(analysis)
    record["guesses"] = _guesses(analysis.position, record, MARKS_SHARE * time_limit, survey)
    return analysis, record


def _guesses(position, record: dict, time_limit: float, survey: Survey) -> dict | None:
    """The ``guesses`` field of an analysis record (see :func:`analyse_text`); ``survey``
    is the position's, unless the analysis dropped the total."""
    from ..play.marks import guess_marks

    if not record["consistent"] or record["exact"] is not True or position.mines is None:
        return None
    xy = lambda cells: [list(c) for c in cells]  # noqa: E731  (JSON pairs)
    found = guess_marks(survey if survey.position is position else Survey(position), time_limit=time_limit)
    return {"dead": None if found.dead is None else xy(found.dead),
            "unavoidable": None if found.unavoidable is None else [xy(cells) for cells in found.unavoidable],
            "pseudo": None if found.pseudo is None else xy(found.pseudo),
            "complete": found.complete}


def _exact(p: Fraction | None) -> str | None:
    """An exact fraction as ``"p/q"`` (None stays None)."""
    return None if p is None else f"{p.numerator}/{p.denominator}"


def _candidate(rank: int, c) -> dict:
    """One weighed cell as JSON: floats to show, and the same values exact."""
    values = {"probability": c.probability, "lookahead": c.lookahead, "progress": c.progress, "win": c.win,
              "credit": c.credit}
    return {"cell": list(c.cell), "rank": rank,
            **{k: None if v is None else float(v) for k, v in values.items()},
            "dead": c.dead, "exact": {k: _exact(v) for k, v in values.items()}}


def no_guess_board(
    width: int, height: int, mines: int, rule: str, click: tuple[int, int], seed: int, time_limit: float,
    method: str = "perturb",
) -> NoGuessBoard:
    """A board that the complete solver, with the mine total, finishes from ``click``.

    By Tatham-style perturbation by default, which finds boards quickly even where few
    random boards are no-guess; ``uniform`` draws them uniformly (retry, then a Markov
    chain; slower on dense boards); see :mod:`mscsp.play.noguess`.

    Raises
    ------
    GenerationError
        When no board is found within ``time_limit`` seconds.
    """
    return generate_no_guess(
        Spec(width, height, mines), rule, click, seed, method=method, time_limit=time_limit
    )


def _percent(p) -> str:
    pct = 100 * float(p)
    return "<1%" if 0 < pct < 1 else f"{pct:.0f}%"


def _impossible(position, err: InconsistentError, time_limit: float) -> str:
    """Why a position has no layout, in the words the analysis gives (its clues named)."""
    from ..analysis import consistency

    try:
        verdict = consistency.decide(position, time_limit=time_limit)
    except BudgetExceeded:
        return str(err)
    return verdict.contradiction.text if verdict.contradiction is not None else str(err)


def solver_move(text: str, policy: str, rule: str, time_limit: float, rank: bool = False) -> dict:
    """The next move of the strongest player in a position given as text.

    The player sees the position only (numbers, flags, the mine total), as in the
    win-rate experiments: every cell complete deduction proves is played at once (its
    mines flagged, its safe cells opened); when none is proven, the guessing policy
    ``policy`` of :mod:`mscsp.play.policies` picks one cell. The first click is the
    first-click rule ``rule``'s own (:meth:`~mscsp.rules.FirstClickRule.first_click`).

    Returns ``{"kind": "start"|"proven"|"guess", "open": [[x, y], ...],
    "flag": [[x, y], ...], "probability": float or None, "text": str}``: the text
    says what is played and why, with the guess's mine chance. With ``rank``, a
    guess also lists ``candidates``, the cells the deciding rung weighed, best first
    (:func:`~mscsp.play.policies.rank`), each ``{"cell", "rank", "probability",
    "lookahead", "progress", "win", "credit", "dead", "exact"}``: the values as
    floats (null where the rung did not compute one; ``credit`` is the long-term
    50/50 factor ``lookahead`` was multiplied by) and in ``exact`` as ``"p/q"`` strings; and
    ``candidates_rung``, the rung that weighed them (``candidates`` is empty for the
    other kinds). The weighing is the move's own, done once.

    Raises
    ------
    InconsistentError
        When no layout fits the position (in a game, a flag on a safe cell), with the
        clues that cannot all hold named in its message.

    Examples
    --------
    >>> move = solver_move("mines: 1\\n.1..\\n", "+endgame", "safe", 5.0)
    >>> move["kind"], move["open"]
    ('proven', [[3, 0]])
    >>> [solver_move("mines: 10\\n" + "." * 9 + "\\n", "+endgame", r, 5.0)["open"] for r in ("opening", "safe")]
    [[[3, 0]], [[0, 0]]]
    """
    from ..analysis import deduce
    from ..play.loop import STALL_STATES

    position = parse_position(text)
    start = _start(position, rule, rank)
    if start is not None:
        return start
    survey = Survey(position)
    try:
        # the survey's equations, and the tallies counting proves with kept for the guess
        known = deduce(position, "sat", use_total=True, time_limit=time_limit, state_limit=STALL_STATES,
                       system=survey.system, cache=survey.cache).by_index
    except InconsistentError as err:
        raise InconsistentError(_impossible(position, err, time_limit), err.clues, err.uses_total) from None
    return _move(position, survey, known, policy, time_limit, rank)


def _start(position, rule: str, rank: bool) -> dict | None:
    """The first click of :func:`solver_move` on a board with nothing open, else None."""
    if position.revealed.any():
        return None
    first = FirstClickRule.parse(rule)
    x, y = first.first_click(position.geometry)
    where = ("away from the edges but near a corner, where the opening rule makes sure of an opening"
             if first is FirstClickRule.OPENING else "in the corner, whose few neighbours make an opening likeliest")
    return {"kind": "start", "open": [[x, y]], "flag": [], "probability": None,
            "text": f"First click at [{x},{y}], {where}.", **_unranked(rank)}


def _move(position, survey: Survey, known: dict[int, bool], policy: str, time_limit: float, rank: bool) -> dict:
    """:func:`solver_move` from the cells complete deduction proves (``known``, flat
    index -> mine), the guess weighed with ``survey``, the position's."""
    from ..play.policies import Policy, move
    from ..position import Mark

    g = position.geometry
    xy = lambda c: list(g.coords(c))  # noqa: E731
    covered = {c for c in known if position.grid[c] == Mark.COVERED}
    safe = sorted(c for c in covered if not known[c])
    mines = sorted(c for c in covered if known[c])
    if safe:
        return {"kind": "proven", "open": [xy(c) for c in safe], "flag": [xy(c) for c in mines],
                "probability": None,
                "text": f"Proven: {len(safe)} safe cell{'s' if len(safe) != 1 else ''} opened"
                        + (f", {len(mines)} mine{'s' if len(mines) != 1 else ''} flagged." if mines else "."),
                **_unranked(rank)}
    # the proven mines flagged: their equations made from the position's, the
    # components they leave alone looked up in its cache
    survey = survey.flagged([g.coords(c) for c in mines]) if mines else survey
    seen = survey.position
    probs = survey.probabilities
    # the per-click endgame searches get half the time: the move's own search has run by then
    chosen = move(seen, policy, survey=survey, rank=rank, time_limit=time_limit / 2)
    x, y = chosen.cell
    p = probs.by_index[g.index(x, y)]
    least = min(q for q in probs.by_index.values() if q is not None)
    why = f"the safest cell{'s are' if least == p else ' is'} {_percent(least)}"
    if chosen.endgame is not None and chosen.walled:
        why = (f"exact play inside the {len(chosen.walled)} cells walled off, over their {chosen.endgame.layouts} "
               f"layouts: this click wins {_percent(chosen.endgame.probability)} of them")
    elif chosen.endgame is not None:
        why = (f"exact play over the {chosen.endgame.layouts} layouts left: this click wins "
               f"{_percent(chosen.endgame.probability)} of them")
    elif chosen.rung is Policy.FIFTY and chosen.walled:
        why += (f"; this cell is one of {len(chosen.walled)} walled off, which no click elsewhere can tell apart, "
                "so the guess is due anyway and taken now")
    elif chosen.rung is Policy.FIFTY:
        why += ("; a pseudo-50/50: wherever it is a mine, a twin layout with that mine moved shows the same "
                "numbers, so its risk is one the board already holds, and it is taken now")
    elif p != least:
        why += "; this one gives the best chance of surviving it and the next click"
    answer = {"kind": "guess", "open": [[x, y]], "flag": [xy(c) for c in mines], "probability": float(p),
              "text": f"Guess [{x},{y}], a mine with chance {_percent(p)} ({policy}: {why})."}
    if rank:
        answer["candidates"] = [_candidate(i, c) for i, c in enumerate(chosen.candidates, 1)]
        answer["candidates_rung"] = chosen.rung.value
    return answer


def proven_safe(text: str, time_limit: float) -> list[list[int]]:
    """The covered cells of a position, given as text, that complete deduction proves
    safe from its numbers and mine total alone, as ``[x, y]``: its flags are read as
    covered cells, so a flag the player is not sure of opens nothing on its word.

    Raises
    ------
    InconsistentError
        When no layout fits the numbers and the total.

    Examples
    --------
    >>> proven_safe("mines: 1\\n.1..\\n", 5.0)
    [[3, 0]]
    >>> proven_safe("mines: 2\\nF1..\\n", 5.0)  # [2,0] is safe only if the flag is right
    []
    """
    from ..analysis import deduce
    from ..position import Mark

    position = parse_position(text)
    unflagged = position.from_rows([row.replace("F", ".") for row in position.rows()], position.mines)
    known = deduce(unflagged, "sat", use_total=True, time_limit=time_limit).by_index
    g = position.geometry
    return [list(g.coords(c)) for c in sorted(known) if not known[c] and position.grid[c] == Mark.COVERED]


def game_seed(seed: int, i: int) -> np.random.SeedSequence:
    """The seed of game ``i`` of a bulk run: ``SeedSequence(seed).spawn(n)[i]``, made
    without spawning the ``i`` before it.

    Examples
    --------
    >>> spawned = np.random.SeedSequence(7).spawn(3)[2]
    >>> bool((game_seed(7, 2).generate_state(2) == spawned.generate_state(2)).all())
    True
    """
    return np.random.SeedSequence(seed, spawn_key=(i,))


def play_games(width: int, height: int, mines: int, rule: str, policy: str, seed: int, start: int, stop: int,
               time_limit: float) -> list[bool]:
    """Games ``start`` to ``stop - 1`` of a bulk run, each won or lost.

    Game ``i`` is dealt from :func:`game_seed` ``(seed, i)`` for the first click of
    ``rule`` (:meth:`~mscsp.rules.FirstClickRule.first_click`) and played to its end
    by the rung ``policy`` of the player ladder (:func:`mscsp.play.loop.play_game`,
    proofs first, ``time_limit`` seconds a game), as in the win-rate experiment.

    Examples
    --------
    >>> three = play_games(9, 9, 10, "opening", "least-p", 1, 0, 3, 30.0)
    >>> three[1:] == play_games(9, 9, 10, "opening", "least-p", 1, 1, 3, 30.0)  # game by game
    True
    """
    from ..game import Game
    from ..play.loop import play_game
    from ..rules import generate

    spec = Spec(width, height, mines)
    first = FirstClickRule.parse(rule)
    click = first.first_click(spec.geometry)
    won = []
    for i in range(start, stop):
        board = generate(spec, first, click, np.random.Generator(np.random.PCG64(game_seed(seed, i))))
        won.append(play_game(Game.from_board(board, record=False), board.click, policy=policy,
                             time_limit=time_limit).won)
    return won


def _unranked(rank: bool) -> dict:
    """The ranking fields of a move that is not a guess."""
    return {"candidates": [], "candidates_rung": None} if rank else {}
