"""The bear-off database's file (agents/bearoff/store.py) and the command that writes it
(python -m agents.bearoff): written atomically, read back identical, refused in one line when
damaged, foreign, of another version or missing, found by argument, environment or default,
and loaded once per process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import agents.bearoff.database as bearoff
import agents.bearoff.store as bearoff_file
from agents.bearoff.store import BearoffDatabase, BearoffError
from agents.bearoff.tables import ARRANGEMENTS, FULL, MAX_TURNS
from tapa_env.layout import OPP, ROW_WIDTH

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tables() -> dict[str, np.ndarray]:
    """Tables of the right shapes, made up (the file does not care what they say): each
    arrangement takes a random number of turns, and mostly zeros compress fast."""
    rng = np.random.default_rng(0)
    made_up = {}
    for name, count in (("turns", ARRANGEMENTS), ("first_off", FULL)):
        table = np.zeros((count, MAX_TURNS + 1))
        table[np.arange(count), rng.integers(1, 30, count)] = 1.0
        made_up[name] = table
        made_up[f"expected_{name}"] = table.argmax(axis=1).astype(np.float64)
    return made_up


@pytest.fixture(scope="module")
def database(tables) -> BearoffDatabase:
    return BearoffDatabase.from_tables(tables)


@pytest.fixture(scope="module")
def written(database, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("bearoff") / "bearoff-v1.npz"
    bearoff_file.write_database(path, database, 1.5)
    return path


def test_the_file_reads_back_identical(written, database):
    again = bearoff_file.read_database(written)
    for name, table in database.tables().items():
        assert (getattr(again, name) == table).all() and getattr(again, name).dtype == np.float64
    assert (again.turns_at_least == database.turns_at_least).all()
    with np.load(written) as archive:
        metadata = json.loads(archive["metadata"].tobytes())
        assert set(archive.files) == {"metadata", *bearoff_file.SHAPES}
    assert metadata["format"] == "tapa-rl/bearoff" and metadata["format_version"] == 1
    assert metadata["checksum"].startswith("sha256:") and metadata["max_turns"] == 45


def refusal(path: Path) -> str:
    with pytest.raises(BearoffError) as caught:
        bearoff_file.read_database(path)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"{path}: ")
    return message


def test_a_flipped_byte_is_refused_in_one_line(written, tmp_path):
    data = bytearray(written.read_bytes())
    with zipfile.ZipFile(written) as archive:
        entry = archive.getinfo("turns.npy")
    data[entry.header_offset + 100 + entry.compress_size // 2] ^= 0x10
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(bytes(data))
    assert "corrupt bear-off database" in refusal(damaged)


def rewritten(written: Path, path: Path, change) -> Path:
    """``written`` with its entries changed by ``change(entries)``, as a fresh archive."""
    with np.load(written) as archive:
        entries = {name: archive[name] for name in archive.files}
    change(entries)
    np.savez_compressed(path, **entries)
    return path


def test_a_changed_table_fails_the_checksum(written, tmp_path):
    def change(entries):
        entries["turns"] = entries["turns"].copy()
        entries["turns"][100, 3] += 1e-9

    message = refusal(rewritten(written, tmp_path / "changed.npz", change))
    assert "checksum does not match" in message and "python -m agents.bearoff --out" in message


def test_foreign_files_and_other_versions_are_refused(written, tmp_path):
    text = tmp_path / "text.npz"
    text.write_text("hello")
    assert "not an .npz archive" in refusal(text)
    other = tmp_path / "other.npz"
    np.savez(other, weights=np.zeros(3))
    assert "is not a tapa-rl bear-off database" in refusal(other)

    def newer(entries):
        metadata = json.loads(entries["metadata"].tobytes())
        metadata["format_version"] = 2
        entries["metadata"] = np.frombuffer(json.dumps(metadata).encode(), dtype=np.uint8)

    message = refusal(rewritten(written, tmp_path / "newer.npz", newer))
    assert "format version 2" in message and "reads version 1" in message
    assert "not a regular file" in refusal(tmp_path)


def test_a_missing_file_names_the_build_command_or_is_built(tmp_path, monkeypatch, tables):
    missing = tmp_path / "cache" / "bearoff.npz"
    with pytest.raises(BearoffError) as caught:
        bearoff_file.load_database(missing, build_missing=False)
    assert str(caught.value) == (
        f"{missing}: no bear-off database there; build it with "
        f"python -m agents.bearoff --out {missing}"
    )
    monkeypatch.setenv(bearoff_file.ENVIRONMENT, str(missing))
    with pytest.raises(BearoffError, match="build it with python -m agents.bearoff$"):
        bearoff_file.load_database(build_missing=False)
    monkeypatch.setattr(bearoff_file, "build_tables", lambda: tables)
    built = bearoff_file.load_database(missing)
    assert missing.is_file() and (built.turns == tables["turns"]).all()
    assert (bearoff_file.read_database(missing).first_off == tables["first_off"]).all()


def test_the_path_comes_from_the_argument_the_environment_or_the_default(monkeypatch, tmp_path):
    monkeypatch.delenv(bearoff_file.ENVIRONMENT, raising=False)
    assert bearoff_file.database_path() == Path.home() / ".cache" / "tapa-rl" / "bearoff-v1.npz"
    monkeypatch.setenv(bearoff_file.ENVIRONMENT, str(tmp_path / "env.npz"))
    assert bearoff_file.database_path() == tmp_path / "env.npz"
    assert bearoff_file.database_path(tmp_path / "arg.npz") == tmp_path / "arg.npz"
    monkeypatch.setenv(bearoff_file.ENVIRONMENT, "")
    assert bearoff_file.database_path().name == "bearoff-v1.npz"


def test_the_shared_database_loads_once_per_process(written, monkeypatch):
    monkeypatch.setattr(bearoff_file, "_SHARED", {})
    monkeypatch.setenv(bearoff_file.ENVIRONMENT, str(written))
    first = bearoff_file.shared_database()
    assert bearoff_file.shared_database() is first
    row = np.zeros(ROW_WIDTH, dtype=np.int8)
    row[1], row[OPP + 18] = 1, 2  # one checker on the 2 against two on the opponent's 6
    assert bearoff.race_equities(row)[0] == bearoff.race_equities(row, database=first)[0]


def test_the_command_builds_the_file_and_says_where(tmp_path, monkeypatch, tables, capsys):
    monkeypatch.setattr(bearoff_file, "build_tables", lambda: tables)
    out = tmp_path / "db.npz"
    bearoff.main(["--out", str(out)])
    said = capsys.readouterr()
    assert f"wrote {out} (" in said.out and " MB)" in said.out and "built in" in said.out
    assert "54,264 arrangements" in said.err
    assert (bearoff_file.read_database(out).expected_turns == tables["expected_turns"]).all()
    blocked = tmp_path / "file"
    blocked.write_text("")
    with pytest.raises(SystemExit) as stopped:
        bearoff.main(["--out", str(blocked / "db.npz")])
    assert stopped.value.code == 1
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith(f"python -m agents.bearoff: error: cannot write {blocked / 'db.npz'}")


def test_the_command_explains_itself():
    done = subprocess.run(
        [sys.executable, "-m", "agents.bearoff", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "--out" in done.stdout and "TAPA_BEAROFF" in done.stdout
    assert "54,264" in done.stdout


# evaluate.py ends in the same line whether its workers or itself read the database: the
# default run has the workers' case, -m slow also the other.
@pytest.mark.parametrize("workers", [pytest.param(1, marks=pytest.mark.slow), 2])
def test_a_damaged_database_ends_evaluate_py_in_one_line_also_from_its_workers(
    written, tmp_path, workers
):
    cut_short = tmp_path / "cut.npz"
    cut_short.write_bytes(written.read_bytes()[:100_000])
    done = subprocess.run(
        [
            sys.executable,
            "evaluate.py",
            "players=[checkpoints/tapa-td.pt,offensive]",
            "games=20",  # enough for a race, where the database is first read
            f"workers={workers}",
            f"hydra.run.dir={tmp_path / 'out'}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, bearoff_file.ENVIRONMENT: str(cut_short)},
    )
    assert done.returncode == 2, done.stderr[-2000:]
    errors = [line for line in done.stderr.splitlines() if line.strip() and "round" not in line]
    assert errors == [
        f"evaluate.py: error: {cut_short}: corrupt bear-off database (File is not a zip file); "
        f"rebuild it with {bearoff_file.BUILD_COMMAND}"
    ], done.stderr[-2000:]
