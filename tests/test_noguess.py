import json

import pytest

from mscsp.board import Spec
from mscsp.cli import main
from mscsp.errors import GenerationError, InputError
from mscsp.play.noguess import generate_no_guess
from mscsp.play.verify import verify


@pytest.mark.parametrize("method", ["retry", "perturb"])
@pytest.mark.parametrize("spec,rule,click", [
    (Spec(9, 9, 10), "opening", (4, 4)),
    (Spec(16, 16, 40), "safe", (0, 0)),
    (Spec(30, 16, 99), "opening", (15, 8)),
    (Spec(12, 10, 36), "opening", (6, 5)),
])
def test_accepted_boards_are_verified_afresh_and_reproducible(method, spec, rule, click):
    for seed in range(3):
        b = generate_no_guess(spec, rule, click, seed, method=method, time_limit=60)
        layout = b.layout
        assert layout.mine_count == spec.mines
        assert verify(layout, b.click, "sat", use_total=True).solved  # from scratch
        again = generate_no_guess(spec, rule, click, seed, method=method, time_limit=60)
        assert again.layout == layout
        assert b.guarantee.startswith("solvable by complete deduction with the mine total")


@pytest.mark.parametrize("solver,total", [("single-point", False), ("subset", True), ("sat", False)])
def test_guarantee_holds_for_the_named_solver(solver, total):
    b = generate_no_guess(Spec(16, 16, 40), "opening", (8, 8), 11, method="perturb", solver=solver, use_total=total)
    assert verify(b.layout, b.click, solver, use_total=total).solved
    assert ("without the mine total" in b.guarantee) == (not total)


def test_high_density_perturbation_succeeds():
    b = generate_no_guess(Spec(30, 16, 170), "opening", (15, 8), 5, method="perturb", time_limit=60)
    assert verify(b.layout, b.click, "sat").solved and b.perturbations > 0


def test_impossible_requests_fail_fast():
    with pytest.raises(InputError, match="too many mines"):
        generate_no_guess(Spec(9, 9, 73), "opening", (4, 4), 1)
    with pytest.raises(InputError, match="not a cell"):
        generate_no_guess(Spec(9, 9, 10), "opening", (9, 4), 1)


@pytest.mark.parametrize("method", ["retry", "perturb"])
def test_no_layout_exists_fails_within_its_bound(method):
    # 2x2, one mine, safe click in a corner: the other three cells all touch the click
    # and each other, so the click's 1 never tells them apart
    with pytest.raises(GenerationError) as err:
        generate_no_guess(Spec(2, 2, 1), "safe", (0, 0), 3, method=method, max_attempts=200, time_limit=20)
    assert err.value.attempts == 200


def test_cli_no_guess(capsys):
    code = main(["generate", "--preset", "expert", "--seed", "4", "--rule", "opening", "--no-guess",
                 "--method", "perturb", "--json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 0 and record["no_guess"] is True and record["method"] == "perturb"
    assert {"attempts", "perturbations", "seconds", "generator", "guarantee", "solver"} <= set(record)
    code = main(["generate", "--width", "2", "--height", "2", "--mines", "1", "--rule", "safe", "--click", "0,0",
                 "--seed", "1", "--no-guess", "--max-attempts", "50"])
    out, err = capsys.readouterr()
    assert code == 1 and "after 50 attempts" in err and out == ""


@pytest.mark.parametrize("mines", [99, 150])
def test_perturbed_boards_do_not_depend_on_the_compiled_loop(monkeypatch, mines):
    """Same seed, same board, whether a machine built the C loop or not: its passes end
    where the Python loop's end, and the perturber reads nothing else."""
    from mscsp.play import fastplay

    spec, click = Spec(30, 16, mines), (15, 8)
    compiled = [generate_no_guess(spec, "opening", click, seed, method="perturb") for seed in range(4)]
    monkeypatch.setattr(fastplay, "play", lambda *args, **kwargs: None)
    python = [generate_no_guess(spec, "opening", click, seed, method="perturb") for seed in range(4)]
    for a, b in zip(compiled, python):
        assert (a.layout.mines == b.layout.mines).all()
        assert (a.attempts, a.perturbations) == (b.attempts, b.perturbations)
        assert verify(a.layout, a.click, "sat").solved


@pytest.mark.parametrize("method", ["retry", "perturb"])
def test_generation_keeps_to_its_time_limit_when_the_python_loop_plays(method):
    # subset reasoning has no compiled loop: every verification is played in Python,
    # each given only the time left
    import time

    started = time.perf_counter()
    try:
        board = generate_no_guess(Spec(30, 16, 200), "opening", (15, 8), seed=3, method=method, solver="subset",
                                  time_limit=0.3)
    except GenerationError:
        board = None
    assert time.perf_counter() - started < 1.3
    if board is not None:
        assert verify(board, solver="subset").solved
