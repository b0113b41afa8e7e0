"""The progress bar's rate and ETA, and the order chunks run in."""

import io

from mscsp.experiments.runner import Unit, progress_bar, run_chunks


class _Clock:
    """A stand-in for tqdm's clock that only moves when told."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_progress_rate_and_eta_are_the_average_so_far(monkeypatch):
    clock = _Clock()
    monkeypatch.setattr("tqdm.std.time", clock)
    log = io.StringIO()  # not a terminal: plain lines, at most one every 30 s
    with progress_bar("demo", 100, "board", stream=log) as bar:
        clock.now += 10
        bar.update(20)  # 10 s after the first line: too soon for another
        clock.now += 30
        bar.update(20)  # 40 boards in 40 s: 1 board/s, 60 left, ETA one minute
        clock.now += 20
        bar.update(60)
    lines = log.getvalue().splitlines()
    assert lines == [
        "demo:   0% 0/100 boards [00:00<?, ? boards/s]",
        "demo:  40% 40/100 boards [00:40<01:00, 1.0 boards/s]",
        "demo: 100% 100/100 boards [01:00<00:00, 1.7 boards/s]",
    ]
    log = io.StringIO()
    with progress_bar("slow", 3, "formula", stream=log) as bar:
        clock.now += 45
        bar.update(1)  # 45 s a formula, two left: 90 s
    assert log.getvalue().splitlines()[1] == "slow:  33% 1/3 formulas [00:45<01:30, 45.0 s/formula]"


def test_eta_is_honest_when_rows_cost_very_different_amounts(monkeypatch, capsys):
    # rows whose samples cost 1, 2, 10 and 50 s, like Beginner boards against 50-variable formulas;
    # in table order the first quarter would promise a tenth of the true time
    clock = _Clock()
    monkeypatch.setattr("tqdm.std.time", clock)
    costs = [1, 2, 10, 50]
    units = [Unit(f"u{i}", {"cost": c}, 50) for i, c in enumerate(costs)]

    def work(chunk):
        clock.now += chunk.params["cost"] * (chunk.stop - chunk.start)
        return {}

    run_chunks("demo", units, work, seed=1, chunk_size=5)
    true_total = 50 * sum(costs)
    forecasts = []
    for line in capsys.readouterr().err.splitlines():
        done = int(line.split("% ")[1].split("/")[0].replace(",", ""))
        elapsed, remaining = line.split("[")[1].split(",")[0].split("<")
        if done >= 50 and remaining != "?":  # a quarter of the boards
            seconds = [sum(int(x) * 60 ** i for i, x in enumerate(reversed(t.split(":")))) for t in (elapsed, remaining)]
            forecasts.append(sum(seconds) / true_total)
    assert forecasts and all(0.5 < f < 1.5 for f in forecasts), forecasts


def test_chunks_run_in_a_fixed_order_that_mixes_the_rows_and_come_back_in_table_order():
    units = [Unit(f"u{i}", {}, 20) for i in range(4)]
    orders, results = [], []
    for _ in range(2):
        seen = []
        results.append(run_chunks("demo", units, lambda ch: seen.append((ch.unit, ch.index)) or
                                  {"unit": ch.unit, "chunk": ch.index}, seed=1, chunk_size=5, progress=False))
        orders.append(seen)
    assert orders[0] == orders[1]
    assert sorted(orders[0]) == [(u, c) for u in range(4) for c in range(4)]
    assert {u for u, _ in orders[0][:8]} == {0, 1, 2, 3}  # every row in the first half
    assert results[0] == [[{"unit": u, "chunk": c} for c in range(4)] for u in range(4)]
