"""The bot in the browser (web/js/bot.js on onnxruntime-web) plays exactly as Python's players.

Every level the page offers names the Python player that plays the same
(``agents.load_player(level.player)``). On 1,000 positions with a roll each, from seeded games
of the project's players (heuristic bots, the shipped network, the novice network; openings,
middle games with pins, bear-offs), the page's ``window.tapa.choose``, run in headless
Chromium, must return the afterstate the Python player chooses, at every level. The default
run checks every level on 333 such positions, ``-m slow`` on 1,000.

The network runs in float32 in both, but in another order of sums (onnxruntime's WebAssembly
kernels against the numba evaluator, whose ``exp`` is a fast approximation): equities differ
by up to a few 1e-6. Where two plays are that close the two may choose differently. Such a
difference is accepted only as a *near tie*: Python's own values of the two plays are within
:data:`NEAR_TIE` points (at 2-ply, also when the page's choice was left out of Python's
candidates only because its 1-ply equity is within :data:`NEAR_TIE` of the last candidate's);
near ties must stay under 1% of the positions.

The committed models (web/models) are checked against the shipped checkpoints, so that they
cannot drift apart: same weights, same graph, same metadata, and a description (NAME.json)
whose size and SHA-256 are the file's.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from agents import load_player
from agents.td.checkpoint import read as read_checkpoint
from agents.td.exporting import bot_file_contents
from agents.td.search import top_candidates, two_ply_equities
from tapa_env import DEFAULT_RULES, Position, generate_afterstates
from tapa_env.layout import OPP, OWN, PIN, POINTS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "scripts"))
from export_web_models import SHIPPED as MODELS  # noqa: E402
from export_web_models import WEB_MODELS, describe  # noqa: E402
from export_web_vectors import heuristic_games  # noqa: E402
from web_browser import WEB, chromium, open_page, require_browser, static_server  # noqa: E402

POSITIONS = 1000
NEAR_TIE = 1e-5
"""Points: two plays whose values differ by no more than this may be chosen either way."""
NEAR_TIE_SHARE = 0.01
"""Near ties must be rarer than this, at every level."""
EQUITY_TOLERANCE = 1e-5
"""The largest difference allowed between the page's 1-ply equities and Python's."""
GAMES = (
    ("offensive", "defensive"),
    ("adaptive", "checkpoints/tapa-novice.pt"),
    ("checkpoints/tapa-td.pt", "defensive"),
    ("checkpoints/tapa-td.pt", "checkpoints/tapa-novice.pt"),
)
CHUNK = 100
"""Positions a ``page.evaluate`` call handles (a long call blocks the page)."""


@dataclass
class Turns:
    """Positions to play (mover's frame) and their rolls, with every legal afterstate."""

    rows: np.ndarray
    dice: np.ndarray
    afterstates: np.ndarray
    offsets: np.ndarray

    def __len__(self) -> int:
        return len(self.rows)

    def plays(self, turn: int) -> np.ndarray:
        return self.afterstates[self.offsets[turn] : self.offsets[turn + 1]]

    def payload(self) -> list[dict]:
        return [
            {"position": Position(row).to_dict(), "dice": [int(d) for d in dice]}
            for row, dice in zip(self.rows, self.dice)
        ]


def bearing_off(rows: np.ndarray) -> np.ndarray:
    """Whether the mover has every checker left in its home (points 1-6)."""
    return rows[:, OWN + 6 : OWN + POINTS].sum(axis=1) == 0


def pinned(rows: np.ndarray) -> np.ndarray:
    """Whether some checker lies pinned."""
    return (rows[:, PIN : PIN + POINTS] != 0).any(axis=1)


def openings(rows: np.ndarray) -> np.ndarray:
    """Whether both sides still have most checkers on their starting points."""
    return (rows[:, OWN + POINTS - 1] >= 10) & (rows[:, OPP] >= 10)


def sample_turns(count: int, seed: int = 0) -> Turns:
    """``count`` distinct positions of seeded games of :data:`GAMES`, each with a roll that
    leaves a choice (two legal plays or more): a quarter bear-offs, a quarter with pins, a
    tenth openings, the rest drawn from everything."""
    rng = np.random.default_rng(seed)
    rows = np.concatenate(
        [heuristic_games(pair, 24, seed + k) for k, pair in enumerate(GAMES)], axis=0
    )
    rows = np.unique(rows, axis=0)
    rows = rows[rng.permutation(len(rows))]
    dice = rng.integers(1, 7, size=(len(rows), 2), dtype=np.int64)
    _, offsets = generate_afterstates(rows, dice, rules=DEFAULT_RULES)
    choice = np.diff(offsets) >= 2
    picked: list[int] = []
    for group, share in ((bearing_off, 4), (pinned, 4), (openings, 10)):
        found = np.flatnonzero(group(rows) & choice & ~np.isin(np.arange(len(rows)), picked))
        picked += found[: count // share].tolist()
    rest = np.flatnonzero(choice & ~np.isin(np.arange(len(rows)), picked))
    picked += rest[: count - len(picked)].tolist()
    assert len(picked) == count, f"only {len(picked)} positions with a choice"
    picked = np.array(sorted(picked))
    afterstates, offsets = generate_afterstates(rows[picked], dice[picked], rules=DEFAULT_RULES)
    return Turns(rows[picked], dice[picked], afterstates, offsets)


def keys(rows: np.ndarray) -> list[str]:
    return [Position(row).key for row in rows]


@dataclass
class Comparison:
    """How the page's choices compare with Python's at one level."""

    positions: int
    equal: int
    near_ties: list[int]
    differences: list[str]


def python_choices(player, turns: Turns) -> np.ndarray:
    """The index (within its turn) of the afterstate ``player`` chooses for every turn."""
    rng = np.random.default_rng(0)  # unused: the trained players are deterministic
    return player.choose_batch(turns.rows, turns.dice, turns.afterstates, turns.offsets, rng)


def near_tie(player, row: np.ndarray, plays: np.ndarray, ours: int, theirs: int) -> bool:
    """Whether Python's own values of plays ``ours`` and ``theirs`` of the turn of position
    ``row`` are within :data:`NEAR_TIE` (see the module docstring)."""
    offsets = np.array([0, len(plays)])
    equities = player.equities(plays, row[None, :], offsets).astype(np.float64)
    if player.ply == 1:
        return abs(equities[ours] - equities[theirs]) <= NEAR_TIE
    values = two_ply_equities(player.evaluator, plays, np.array([ours, theirs]), player.rules)
    if abs(values[0] - values[1]) <= NEAR_TIE:
        return True
    candidates = top_candidates(equities, offsets, player.candidates)
    return theirs not in candidates and equities[candidates[-1]] - equities[theirs] <= NEAR_TIE


def compare(player, turns: Turns, page_keys: list[str]) -> Comparison:
    chosen = python_choices(player, turns)
    equal, ties, differences = 0, [], []
    for turn, (index, page_key) in enumerate(zip(chosen, page_keys)):
        plays = turns.plays(turn)
        play_keys = keys(plays)
        if play_keys[index] == page_key:
            equal += 1
        elif page_key in play_keys and near_tie(
            player, turns.rows[turn], plays, index, play_keys.index(page_key)
        ):
            ties.append(turn)
        else:
            differences.append(
                f"{Position(turns.rows[turn]).key} {turns.dice[turn].tolist()}: Python plays "
                f"{play_keys[index]}, the page {page_key}"
            )
    return Comparison(len(turns), equal, ties, differences)


@pytest.fixture(
    scope="module",
    params=[
        pytest.param(POSITIONS // 3, id="333"),
        pytest.param(POSITIONS, id="1000", marks=pytest.mark.slow),
    ],
)
def turns(request) -> Turns:
    """Random turns of self-play: a third of :data:`POSITIONS` in the default run, all of
    them under ``-m slow``."""
    return sample_turns(request.param)


@pytest.fixture(scope="module")
def served():
    """The static server of web/ and a headless Chromium."""
    require_browser()
    with static_server() as server, chromium() as browser:
        yield server, browser


@pytest.fixture(scope="module")
def page(served):
    """web/test/bot.html with the bot loaded; ``page.console_errors`` lists its errors."""
    server, browser = served
    page, errors = open_page(browser, server.url + "test/bot.html")
    page.wait_for_function("window.tapa && window.tapa.ready", timeout=60_000)
    page.console_errors = errors
    return page


def page_choices(page, turns: Turns, level: str) -> list[str]:
    """The keys of the afterstates ``window.tapa.choose`` plays, in chunks of :data:`CHUNK`."""
    found = []
    payload = turns.payload()
    for start in range(0, len(payload), CHUNK):
        found += page.evaluate(
            """async ([turns, level]) => {
                const keys = [];
                for (const {position, dice} of turns) {
                    keys.push(window.tapa.positionKey(
                        await window.tapa.choose(position, dice, level)));
                }
                return keys;
            }""",
            [payload[start : start + CHUNK], level],
        )
    return found


def levels(page) -> list[dict]:
    return page.evaluate("window.tapa.levels")


def test_the_positions_cover_every_phase(turns):
    count = len(turns)
    assert count in (POSITIONS, POSITIONS // 3)
    assert bearing_off(turns.rows).sum() >= count // 4
    assert pinned(turns.rows).sum() >= count // 4
    assert openings(turns.rows).sum() >= count // 10
    assert len({Position(row).key for row in turns.rows}) == count
    assert (np.diff(turns.offsets) >= 2).all()


def test_the_levels_are_python_players(page):
    found = levels(page)
    assert len(found) >= 3
    assert len({level["id"] for level in found}) == len(found)
    assert page.evaluate("window.tapa.defaultLevel") in [level["id"] for level in found]
    for level in found:
        player = load_player(level["player"])
        assert player.ply == level["ply"], level
        assert MODELS[level["model"]] == level["player"].split("@")[0], level
        if level["ply"] == 2:
            assert player.candidates == level["candidates"], level


def test_the_page_chooses_as_python_at_every_level(page, turns):
    report = []
    failures = []
    chosen = {}
    for level in levels(page):
        player = load_player(level["player"])
        chosen[level["id"]] = page_choices(page, turns, level["id"])
        result = compare(player, turns, chosen[level["id"]])
        report.append(
            f"{level['id']}: {result.equal} equal, {len(result.near_ties)} near ties, "
            f"{len(result.differences)} different of {result.positions}"
        )
        failures += [f"{level['id']}: {text}" for text in result.differences[:5]]
        assert len(result.near_ties) < NEAR_TIE_SHARE * result.positions, report[-1]
    print("\n".join(report))
    assert not failures, "\n".join(report + failures)
    # The levels are different players: each plays otherwise than the next on many positions.
    ids = list(chosen)
    for weaker, stronger in zip(ids, ids[1:]):
        differ = sum(a != b for a, b in zip(chosen[weaker], chosen[stronger]))
        assert differ >= len(turns) // 20, (weaker, stronger, differ)


def test_the_page_values_plays_as_python(page, turns):
    """At the 1-ply levels every play's equity (``rank``) is Python's within
    :data:`EQUITY_TOLERANCE`, and ``rank``'s first play is ``choose``'s."""
    sample = slice(0, len(turns) // 5)  # 66 in the default run, 200 under -m slow
    payload = turns.payload()[sample]
    for level in levels(page):
        player = load_player(level["player"])
        ranks = page.evaluate(
            """async ([turns, level]) => {
                const found = [];
                for (const {position, dice} of turns) {
                    const ranked = await window.tapa.rank(position, dice, level, 1000);
                    const chosen = await window.tapa.choose(position, dice, level);
                    found.push({
                        keys: ranked.map((play) => window.tapa.positionKey(play.afterstate)),
                        equities: ranked.map((play) => play.equity),
                        first: window.tapa.positionKey(chosen),
                    });
                }
                return found;
            }""",
            [payload, level["id"]],
        )
        for turn, ranked in enumerate(ranks):
            assert ranked["keys"][0] == ranked["first"]
            if level["ply"] != 1:
                continue
            plays = turns.plays(turn)
            python = dict(
                zip(keys(plays), player.values(Position(turns.rows[turn]), None, plays)[0])
            )
            assert sorted(ranked["keys"]) == sorted(python)
            worst = max(abs(python[k] - e) for k, e in zip(ranked["keys"], ranked["equities"]))
            assert worst <= EQUITY_TOLERANCE, (level["id"], turn, worst)


def test_the_models_are_the_shipped_checkpoints_exported():
    """Each model is its checkpoint exported, weight for weight: Tapa's, Tabla's and
    Gulbara's shipped bots (tests/test_web_bot_games.py plays the last two against Python)."""
    import onnx
    from onnx import numpy_helper

    for name, checkpoint in MODELS.items():
        path = WEB_MODELS / f"{name}.onnx"
        description = json.loads((WEB_MODELS / f"{name}.json").read_text())
        assert description == describe(path, checkpoint), f"{name}.json is stale"
        model = onnx.load(str(path))
        weights = {tensor.name: numpy_helper.to_array(tensor) for tensor in model.graph.initializer}
        metadata = description["metadata"]
        content = read_checkpoint(ROOT / checkpoint)
        metadata, layers = bot_file_contents(content)
        assert description["metadata"] == metadata
        assert len(weights) == 2 * len(layers)
        for index, (weight, bias) in enumerate(layers):
            assert np.array_equal(weights[f"network.layers.{index}.weight"], weight), name
            assert np.array_equal(weights[f"network.layers.{index}.bias"], bias), name
        activation = metadata["network"]["activation"].capitalize()
        expected = ["Gemm", activation] * (len(layers) - 1) + ["Gemm", "Softmax"]
        assert [node.op_type for node in model.graph.node] == expected
        assert [i.name for i in model.graph.input] == [description["input"]]
        assert [o.name for o in model.graph.output] == [description["output"]]


def test_the_page_loads_what_the_levels_need(page):
    names = {path.stem for path in WEB_MODELS.glob("*.onnx")}
    assert names == set(MODELS)
    # The levels of every game use exactly the shipped models; a game whose model is pending
    # (export_web_models.PENDING, Fevga's) has the one random level.
    levels = page.evaluate("window.tapa.gameLevels")
    used = {level["model"] for each in levels.values() for level in each if level["model"]}
    assert used == set(MODELS)
    for each in levels.values():
        if not any(level["model"] for level in each):
            assert [(level["id"], level["player"]) for level in each] == [("random", "random")]
    assert (WEB / "package-lock.json").is_file()
    package = json.loads((WEB / "package.json").read_text())
    version = package["dependencies"]["onnxruntime-web"]
    assert version[0].isdigit(), f"onnxruntime-web {version!r} is not pinned to one version"
    lock = json.loads((WEB / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/onnxruntime-web"]["version"] == version


def test_the_api_refuses_mistakes_in_one_line(page):
    found = page.evaluate(
        """async () => {
            const tapa = window.tapa;
            const message = async (run) => {
                try { await run(); return null; } catch (error) { return error.message; }
            };
            const start = tapa.initialPosition();
            const { installApi } = await import(new URL("../js/api.js", location.href));
            const loading = installApi(null);
            window.tapa = tapa;
            return {
                level: await message(() => tapa.choose(start, [6, 5], "grandmaster")),
                dice: await message(() => tapa.choose(start, [7, 1])),
                position: await message(() => tapa.rank({ ...start, own_off: 3 }, [6, 5])),
                loading: await message(() => loading.choose(start, [6, 5])),
                rulesWhileLoading: loading.legalPlays(start, [6, 5]).length,
                ready: [loading.ready, tapa.ready],
            };
        }"""
    )
    assert found["level"] == 'unknown level "grandmaster"; choose one of novice, 1ply, 2ply'
    assert "dice must be a pair of integers 1-6" in found["dice"]
    assert found["position"] and "\n" not in found["position"]
    assert "still loading" in found["loading"]
    assert found["rulesWhileLoading"] == 2
    assert found["ready"] == [False, True]


def test_a_page_without_onnxruntime_says_how_to_install_it(served):
    server, browser = served
    page, errors = open_page(browser, server.url + "test/bot.html")
    message = page.evaluate(
        """async () => {
            const { loadBot } = await import(new URL("../js/bot.js", location.href));
            try { await loadBot(new URL("../test/", location.href)); return null; }
            catch (error) { return `${error.name}: ${error.message}`; }
        }"""
    )
    assert message.startswith("BotError: onnxruntime-web could not be loaded from ")
    assert "run `npm ci` in web/" in message
    page.context.close()


def test_the_page_logs_no_error(page):
    """Runs after the others: nothing they did logged an error in the page."""
    assert page.evaluate("window.tapa.ready")
    assert not page.console_errors, "\n".join(page.console_errors)
