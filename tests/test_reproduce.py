"""mscsp reproduce --check, and the progress bar's rate and ETA."""

import io
import json
import tempfile

import pytest

from mscsp.cli import main as cli_main
from mscsp.experiments.runner import Unit, progress_bar, run_chunks, sample_seeds

SMALL = ["--only", "first_click", "completion"]  # tables, a figure and timings, about a second each


def _snapshot(folder):
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def reference(tmp_path, monkeypatch):
    """A quick reference run, and temporary folders made under tmp_path/scratch."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    out = tmp_path / "ref"
    assert cli_main(["reproduce", "--quick", "--jobs", "1", "--out", str(out), *SMALL]) == 0
    return out, scratch


def test_check_passes_on_a_rerun_and_writes_nothing(reference, capsys):
    out, scratch = reference
    capsys.readouterr()
    before = _snapshot(out)
    assert cli_main(["reproduce", "--check", "--quick", "--jobs", "1", "--out", str(out), *SMALL]) == 0
    report = capsys.readouterr().out
    assert "match" in report and "differences" not in report
    assert _snapshot(out) == before  # not even the timing files were touched
    assert list(scratch.iterdir()) == []  # the regenerated copy is gone


def test_check_lists_every_edit_of_a_deterministic_file_and_ignores_timing_files(reference, capsys):
    out, scratch = reference
    fc, comp = out / "first_click", out / "completion"
    # a CSV cell, a line of Markdown, a JSON value, a figure, a missing table
    lines = (fc / "summary.csv").read_text().splitlines()
    header, row = lines[0].split(","), lines[2].split(",")
    k = header.index("k")
    row[k] = str(int(row[k]) + 1)
    lines[2] = ",".join(row)
    (fc / "summary.csv").write_text("\n".join(lines) + "\n")
    readme = (comp / "README.md").read_text().splitlines()
    readme[0] = "# edited title"
    (comp / "README.md").write_text("\n".join(readme) + "\n")
    config = json.loads((fc / "config.json").read_text())
    config["samples"] += 1
    (fc / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    (comp / "completion.png").write_bytes(b"not a picture")
    (fc / "maps.csv").unlink()
    # timing files may say anything
    (fc / "run.json").write_text('{"wall_seconds": 1e9}\n')
    (comp / "timings.csv").write_text("board,ms_per_verification\nbeginner,1\n")
    (comp / "timings.md").unlink()
    capsys.readouterr()
    assert cli_main(["reproduce", "--check", "--quick", "--jobs", "1", "--out", str(out), *SMALL]) == 1
    report = capsys.readouterr().out
    listed = [line.strip() for line in report.splitlines() if line.startswith("  ")]
    ref = f"{out}/"
    assert sorted(listed) == sorted([
        f"{ref}first_click/summary.csv: row 2 (board={row[0]}, rule={row[header.index('rule')]}, "
        f"click_x={row[header.index('click_x')]}, click_y={row[header.index('click_y')]}, solver=none), "
        f"column k: {row[k]} in {ref}, {int(row[k]) - 1} regenerated",
        f'{ref}completion/README.md: line 1: "# edited title" in {ref}, "# How often each solver finishes a '
        f'board" regenerated',
        f"{ref}first_click/config.json: samples: {config['samples']} in {ref}, {config['samples'] - 1} regenerated",
        next(line for line in listed if line.startswith(f"{ref}completion/completion.png: 13 bytes in {ref}, ")),
        f"{ref}first_click/maps.csv: only regenerated",
    ])
    assert f"{len(listed)} differences" in report
    kept = [p for p in scratch.iterdir()]
    assert len(kept) == 1 and str(kept[0]) in report  # kept for a look, and named


def test_check_refuses_what_it_cannot_do(tmp_path, capsys):
    missing = tmp_path / "nothing"
    assert cli_main(["reproduce", "--check", "--quick", "--out", str(missing), "--only", "first_click"]) == 2
    err = capsys.readouterr().err
    assert "nothing to compare with" in err and "mscsp reproduce --quick" in err and len(err.splitlines()) == 1
    assert not missing.exists()
    assert cli_main(["reproduce", "--check", "--resume", "--out", str(tmp_path), "--only", "first_click"]) == 2
    assert cli_main(["reproduce", "--check", "--out", str(tmp_path), "--only", "nothing"]) == 2


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


def test_progress_lines_in_a_log_stay_30_seconds_apart_even_after_a_forced_refresh(monkeypatch):
    # tqdm's monitor thread refreshes a quiet bar without restarting tqdm's interval,
    # so tqdm alone would print again at the next update, seconds later
    clock = _Clock()
    monkeypatch.setattr("tqdm.std.time", clock)
    log = io.StringIO()
    with progress_bar("demo", 100, "board", stream=log) as bar:
        clock.now += 40
        bar.update(40)  # printed
        clock.now += 32
        bar.miniters = 1  # what the monitor does: printed, 32 s after the last line
        bar.refresh()
        clock.now += 2
        bar.update(10)  # 34 s after tqdm's last printed update, 2 s after the last line: held back
        clock.now += 6
        bar.update(10)  # held back, then shown as the bar closes
    assert log.getvalue().splitlines() == [
        "demo:   0% 0/100 boards [00:00<?, ? boards/s]",
        "demo:  40% 40/100 boards [00:40<01:00, 1.0 boards/s]",
        "demo:  40% 40/100 boards [01:12<01:48, 1.8 s/board]",
        "demo:  60% 60/100 boards [01:20<00:53, 1.3 s/board]",
    ]


def test_resume_computes_only_the_units_that_are_new_or_changed(tmp_path):
    def run(units):
        seen = []
        out = run_chunks("demo", units, lambda ch: seen.append((ch.unit, ch.index)) or
                         {"param": ch.params["p"], "seed": int(sample_seeds(ch)[0].generate_state(1)[0])},
                         seed=1, chunk_size=5, progress=False, cache=tmp_path, resume=True)
        return out, sorted(seen)

    first, seen = run([Unit("a", {"p": 1}, 10), Unit("b", {"p": 2}, 10)])
    assert seen == [(0, 0), (0, 1), (1, 0), (1, 1)]
    # a unit added at the end: only its chunks run, and the others' results are the same
    grown, seen = run([Unit("a", {"p": 1}, 10), Unit("b", {"p": 2}, 10), Unit("c", {"p": 3}, 5)])
    assert seen == [(2, 0)] and grown[:2] == first
    # a unit whose parameters changed runs again; one that moved (its seeds depend on its place) too
    _, seen = run([Unit("a", {"p": 1}, 10), Unit("b", {"p": 4}, 10), Unit("c", {"p": 3}, 5)])
    assert seen == [(1, 0), (1, 1)]
    moved, seen = run([Unit("c", {"p": 3}, 5), Unit("a", {"p": 1}, 10)])
    assert seen == [(0, 0), (1, 0), (1, 1)]
    assert moved[1] != first[0]  # unit a at place 1 draws other seeds than at place 0
