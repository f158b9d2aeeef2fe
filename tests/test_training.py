"""TD(λ) self-play training: learning, determinism, resume, divergence, a plain per-game check."""

from __future__ import annotations

import copy
import json
import os
import signal
from dataclasses import replace
from pathlib import Path

import gymnasium
import numpy as np
import pytest
import torch

from agents import load_player, play_games
from agents.bots.equity import equity, one_hot_outcomes, swap_sides
from agents.errors import ConfigError
from agents.evaluation.stats import summarize
from agents.td.checkpoint import evaluator_of, read
from agents.td.config import LearnerConfig, TDConfig, check_config
from agents.td.network import NetworkShape, TDNetwork
from agents.td.player import TDPlayer
from agents.td.training import TrainingDiverged, train
from tapa_env import Position, legal_afterstates, outcome
from tapa_env.encoding import get_encoding
from tapa_env.selfplay import random_self_play


def tiny(**overrides) -> TDConfig:
    """A run of a few hundred games that takes seconds."""
    settings = dict(
        total_games=300,
        parallel_games=32,
        eval_every=0,
        eval_games=20,
        eval_opponents=["defensive"],
        checkpoint_every=0,
        log_every=100,
        progress=False,
        learner=LearnerConfig(lr=0.003, batch_size=64, round_samples=512),
    )
    settings.update(overrides)
    return TDConfig(**settings)


def sizes(default, slow) -> list:
    """A size for the default run and a larger one for ``python -m pytest -m slow``."""
    return [default, pytest.param(slow, marks=pytest.mark.slow)]


class Recorder:
    """A logger that keeps what it is given."""

    def __init__(self) -> None:
        self.logged: list[tuple[int, dict]] = []
        self.texts: dict[str, str] = {}
        self.resumed_at: int | None = None

    def resume(self, step: int) -> None:
        self.resumed_at = step

    def scalars(self, step: int, values: dict) -> None:
        self.logged.append((step, dict(values)))

    def text(self, tag: str, text: str) -> None:
        self.texts[tag] = text


def shape_of(config: TDConfig) -> NetworkShape:
    agent = config.agent
    return NetworkShape(agent.encoding, agent.hidden, agent.activation)


def weights(path: Path) -> dict:
    return read(path)["weights"]


def assert_same_weights(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        assert torch.equal(a[key], b[key]), key


def test_a_short_run_learns_to_beat_random(tmp_path):
    config = tiny(total_games=600, parallel_games=64)
    result = train(config, tmp_path / "run")
    assert result.status == "finished" and result.games >= 600
    trained = TDPlayer(evaluator_of(read(result.checkpoint)))
    torch.manual_seed(config.seed)
    untrained = TDPlayer(TDNetwork(shape_of(config)).evaluator())
    rates = {}
    for name, player in (("trained", trained), ("untrained", untrained)):
        games = play_games((player, load_player("random")), 400, seed=11)
        rates[name] = summarize((name, "random"), games)
    assert rates["trained"]["win_rate"] >= 0.80
    # Learning, not luck: the same network before training does clearly worse.
    assert rates["trained"]["win_rate"] >= rates["untrained"]["win_rate"] + 0.08
    assert rates["trained"]["ppg"] > rates["untrained"]["ppg"] + 0.3


def test_the_run_logs_what_tensorboard_shows_and_evaluates(tmp_path):
    recorder = Recorder()
    config = tiny(total_games=400, eval_every=200, eval_opponents=["random", "offensive"])
    result = train(config, tmp_path / "run", recorder)
    tags = set().union(*(values for _, values in recorder.logged))
    for tag in (
        "train/td_error",
        "train/loss",
        "train/learning_rate",
        "games/length",
        "games/single",
        "games/gammon",
        "games/mother",
        "games/draw",
        "perf/games_per_second",
        "perf/turns_per_second",
        "eval/random/win_rate",
        "eval/offensive/ppg",
        "eval/previous/win_rate",
    ):
        assert tag in tags, tag
    mixes = [v for _, v in recorder.logged if "games/single" in v]
    for mix in mixes:
        kinds = ("single", "gammon", "mother", "draw", "unfinished")
        assert sum(mix[f"games/{k}"] for k in kinds) == pytest.approx(1.0)
    assert "config" in recorder.texts
    evaluations = (tmp_path / "run" / "evaluations.jsonl").read_text().splitlines()
    assert len(evaluations) == 3  # untrained, at 200 games and at the end
    assert json.loads(evaluations[0])["games_trained"] == 0
    assert "previous" in result.evaluation and result.evaluation["random"]["games"] == 20
    assert (tmp_path / "run" / "checkpoints" / "bot.pt").exists()


@pytest.mark.parametrize("games", sizes(100, 300))
def test_the_same_seed_gives_the_same_weights_and_another_seed_does_not(tmp_path, games):
    first = train(tiny(total_games=games), tmp_path / "a")
    second = train(tiny(total_games=games), tmp_path / "b")
    third = train(tiny(total_games=games, seed=1), tmp_path / "c")
    assert_same_weights(weights(first.checkpoint), weights(second.checkpoint))
    a, c = weights(first.checkpoint), weights(third.checkpoint)
    assert not torch.equal(a["layers.0.weight"], c["layers.0.weight"])


class StopAtFirstLog(Recorder):
    """Sends this process SIGINT when the first training scalars arrive, as Ctrl-C would."""

    def scalars(self, step: int, values: dict) -> None:
        super().scalars(step, values)
        if sum("train/learning_rate" in v for _, v in self.logged) == 1 and "train/loss" in values:
            os.kill(os.getpid(), signal.SIGINT)


@pytest.mark.parametrize("games", sizes(250, 500))
def test_a_run_stopped_by_a_signal_resumes_to_the_same_weights(tmp_path, games):
    # Evaluated twice on the way, stopped at the first log, some way before the end.
    config = tiny(total_games=games, eval_every=games * 2 // 5, log_every=games * 3 // 10)
    straight = train(config, tmp_path / "straight")
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    stopped = train(config, tmp_path / "stopped", StopAtFirstLog())
    assert stopped.status == "interrupted"
    assert config.log_every <= stopped.games < config.total_games
    # the handlers this process had before (SIGINT is ignored in a background job) are back
    assert {number: signal.getsignal(number) for number in handlers} == handlers
    recorder = Recorder()
    resumed = train(config, tmp_path / "stopped", recorder)
    assert resumed.status == "finished"
    assert recorder.resumed_at == stopped.games
    assert resumed.games == straight.games and resumed.turns == straight.turns
    assert_same_weights(weights(straight.checkpoint), weights(resumed.checkpoint))
    assert resumed.evaluation == straight.evaluation
    history = (tmp_path / "stopped" / "evaluations.jsonl").read_text()
    assert history == (tmp_path / "straight" / "evaluations.jsonl").read_text()


def test_a_finished_run_reports_itself_complete_and_trains_further_when_asked(tmp_path):
    train(tiny(), tmp_path / "run")
    again = train(tiny(), tmp_path / "run")
    assert again.status == "complete"
    further = train(tiny(total_games=400), tmp_path / "run")
    assert further.status == "finished" and further.games >= 400


def test_resuming_with_settings_that_change_the_learning_is_refused(tmp_path):
    train(tiny(), tmp_path / "run")
    with pytest.raises(ConfigError, match="agent.hidden: 80 in the checkpoint, 40 now"):
        train(tiny(agent=replace(tiny().agent, hidden=40)), tmp_path / "run")
    with pytest.raises(ConfigError, match="rules.both_mothers_draw"):
        rules = dict(tiny().rules, both_mothers_draw=False)
        train(tiny(rules=rules), tmp_path / "run")


def test_a_corrupt_checkpoint_in_the_run_directory_is_a_clear_error(tmp_path):
    last = tmp_path / "run" / "checkpoints" / "last.pt"
    last.parent.mkdir(parents=True)
    last.write_bytes(b"PK\x03\x04 and then nothing useful")
    with pytest.raises(ValueError, match="last.pt"):
        train(tiny(), tmp_path / "run")
    assert last.read_bytes() == b"PK\x03\x04 and then nothing useful"  # left for the user


def test_a_diverging_run_stops_and_keeps_the_last_good_checkpoint(tmp_path, monkeypatch):
    import agents.td.training as training

    run = tmp_path / "run"
    train(tiny(total_games=200, checkpoint_every=100), run)
    good = (run / "checkpoints" / "last.pt").read_bytes()
    real_step = training.td_step
    steps = []

    def poisoned_step(network, optimizer, features, targets):
        steps.append(1)
        if len(steps) > 3:
            with torch.no_grad():
                network.layers[0].weight[0, 0] = float("nan")
            return float("nan"), float("nan")
        return real_step(network, optimizer, features, targets)

    monkeypatch.setattr(training, "td_step", poisoned_step)
    with pytest.raises(TrainingDiverged, match="diverged after .* games .*kept at"):
        train(tiny(total_games=600, checkpoint_every=100), run)
    assert (run / "checkpoints" / "last.pt").read_bytes() == good


@pytest.mark.parametrize(
    ("change", "names"),
    [
        (dict(total_games=0), "total_games"),
        (dict(parallel_games=-3), "parallel_games"),
        (dict(eval_games=7), "eval_games"),
        (dict(seed=-1), "seed"),
        (dict(threads=0), "threads"),
        (dict(eval_opponents=["nobody"]), "eval_opponents: unknown player 'nobody'"),
        (dict(rules={"both_mothers_draw": "maybe"}), "rules: rule flag"),
        (dict(device="cuda:7"), "device"),
        (dict(learner=LearnerConfig(td_lambda=1.5)), "learner.td_lambda"),
        (dict(learner=LearnerConfig(lr=0.0)), "learner.lr"),
        (dict(learner=LearnerConfig(lr_schedule="warp")), "learner.lr_schedule"),
        (dict(learner=LearnerConfig(batch_size=512, round_samples=100)), "round_samples"),
        (dict(learner=LearnerConfig(optimizer="rmsprop")), "learner.optimizer"),
        (dict(learner=LearnerConfig(exploration=2.0)), "learner.exploration"),
    ],
)
def test_every_bad_setting_is_named(change, names):
    with pytest.raises(ConfigError, match=names):
        check_config(tiny(**change))


@pytest.mark.parametrize(
    ("agent", "names"),
    [
        (dict(hidden=0), "hidden"),
        (dict(hidden=[80, 0]), "agent: hidden must be a positive width"),
        (dict(hidden=[80, "x"]), "hidden"),
        (dict(encoding="morse"), "encoding"),
        (dict(activation="gelu"), "activation"),
        (dict(init="zeros"), "agent.init"),
    ],
)
def test_every_bad_network_setting_is_named(agent, names):
    with pytest.raises(ConfigError, match=names):
        check_config(tiny(agent=replace(tiny().agent, **agent)))


class RecordingVectorEnv(gymnasium.vector.VectorWrapper):
    """Keeps every game's rolls and the turns on which games ended."""

    def __init__(self, env) -> None:
        super().__init__(env)
        self.dice: list[np.ndarray] = []
        self.ended: list[np.ndarray] = []

    def reset(self, **kwargs):
        observations, infos = self.env.reset(**kwargs)
        self.dice.append(observations["dice"].copy())
        return observations, infos

    def step(self, actions):
        observations, rewards, terminated, truncated, infos = self.env.step(actions)
        self.ended.append(terminated | truncated)
        self.dice.append(observations["dice"].copy())
        return observations, rewards, terminated, truncated, infos


def plain_game(evaluator, rolls, lam: float):
    """One game played and turned into targets the slow, obvious way: a Python loop over
    turns through the per-position API, the frame swap written out by hand."""
    position = Position.initial()
    played, values = [], []
    points = None
    for roll in rolls:
        options = legal_afterstates(position, (int(roll[0]), int(roll[1])))
        rows = np.stack([option.row for option in options])
        predictions = evaluator.probabilities(rows, position.row[None, :], [0, len(rows)])
        best = int(np.argmax(equity(predictions)))
        played.append(options[best])
        values.append(predictions[best])
        result = outcome(options[best])
        if result is not None:
            points = result.winner * result.points
            break
        position = options[best].flip()
    assert points is not None, "the recorded rolls ended the game"
    targets = [None] * len(played)
    targets[-1] = one_hot_outcomes(np.array([points]))[0]
    for t in range(len(played) - 2, -1, -1):
        mixed = (1 - lam) * values[t + 1] + lam * targets[t + 1]  # in the next mover's frame
        win, win_double, draw, lose, lose_double = mixed
        targets[t] = np.array([lose, lose_double, draw, win, win_double])  # ours
    return played, targets


def test_the_batched_learner_matches_a_plain_per_game_version(tmp_path, monkeypatch):
    """With updates held back (one round only, after every game), the batched run's targets
    are those a plain per-game learner computes for the same games and rolls."""
    import agents.td.training as training

    recorders = []
    real_make_vec = gymnasium.make_vec

    def recording_make_vec(*args, **kwargs):
        recorders.append(RecordingVectorEnv(real_make_vec(*args, **kwargs)))
        return recorders[-1]

    monkeypatch.setattr(training.gym, "make_vec", recording_make_vec)
    config = tiny(
        total_games=24,
        parallel_games=8,
        learner=LearnerConfig(td_lambda=0.6, batch_size=16, round_samples=10**6),
    )
    result = train(config, tmp_path / "run")
    content = read(result.checkpoint)
    pool = content["training"]["pool"]
    batched = {}
    for row, target in zip(pool["rows"].numpy(), pool["targets"].numpy()):
        batched.setdefault(row.tobytes(), []).append(target)
    assert sum(len(v) for v in batched.values()) > 24 * 20

    torch.manual_seed(config.seed)  # the weights the run started with, never updated
    evaluator = TDNetwork(shape_of(config)).evaluator()
    recorder = recorders[0]
    dice, ended = np.stack(recorder.dice), np.stack(recorder.ended)
    plain = {}
    games = 0
    for slot in range(config.parallel_games):
        start = 0
        for step in np.flatnonzero(ended[:, slot]):
            played, targets = plain_game(evaluator, dice[start : step + 1, slot], 0.6)
            assert len(played) == step + 1 - start
            for afterstate, target in zip(played, targets):
                plain.setdefault(afterstate.row.tobytes(), []).append(target)
            start = step + 2  # the next step restarts the game, its roll comes after it
            games += 1
    assert games == result.games
    assert plain.keys() == batched.keys()
    for key in plain:
        mine = sorted(plain[key], key=lambda t: tuple(t))
        theirs = sorted(batched[key], key=lambda t: tuple(t))
        np.testing.assert_allclose(np.array(mine), np.array(theirs), atol=2e-5)


def test_swapping_twice_in_the_plain_check_is_the_identity():
    p = np.array([0.1, 0.2, 0.3, 0.15, 0.25])
    np.testing.assert_array_equal(swap_sides(swap_sides(p)), p)


def starting_network(monkeypatch) -> list[TDNetwork]:
    """A list that the next run's network fills with a copy of itself as it starts: the
    first evaluator a run makes plays its first turn, with the starting weights."""
    started = []
    original = TDNetwork.evaluator

    def spy(network, *args, **kwargs):
        if not started:
            started.append(copy.deepcopy(network))
        return original(network, *args, **kwargs)

    monkeypatch.setattr(TDNetwork, "evaluator", spy)
    return started


def test_a_run_started_from_a_checkpoint_begins_with_its_weights(tmp_path, monkeypatch):
    first = train(tiny(), tmp_path / "a")
    started = starting_network(monkeypatch)
    config = tiny(seed=5)
    config.agent.start_from = str(first.checkpoint)
    second = train(config, tmp_path / "b")
    assert_same_weights(started[0].state_dict(), weights(first.checkpoint))
    assert not torch.equal(
        weights(second.checkpoint)["layers.0.weight"], weights(first.checkpoint)["layers.0.weight"]
    )


def test_start_from_a_network_of_another_shape_is_one_line(tmp_path):
    first = train(tiny(), tmp_path / "a")
    config = tiny()
    config.agent.hidden = 40
    config.agent.start_from = str(first.checkpoint)
    with pytest.raises(ConfigError, match="agent.start_from=.*80 sigmoid.*40 sigmoid") as refused:
        train(config, tmp_path / "b")
    assert "\n" not in str(refused.value)
    config.agent.hidden = [120, 20]  # wider, but two layers: not a widening
    with pytest.raises(ConfigError, match="80 sigmoid.*120x20 sigmoid"):
        train(config, tmp_path / "d")
    config.agent.start_from = str(tmp_path / "missing.pt")
    with pytest.raises(ValueError, match="missing.pt"):
        train(config, tmp_path / "c")


SHIPPED = Path(__file__).resolve().parents[1] / "checkpoints"


def test_start_from_another_games_network_names_both_games_and_encodings(tmp_path):
    """A Tabla checkpoint of the shape of a Gulbara run (one layer of 160 units on the
    expert inputs): what differs is the game."""
    config = tiny(game="gulbara", eval_opponents=["runner"])
    config.agent.encoding, config.agent.hidden = "expert", 160
    first = SHIPPED / "archive" / "tabla-td-expert.pt"
    config.agent.start_from = str(first)
    with pytest.raises(ConfigError) as refused:
        train(config, tmp_path / "a")
    assert str(refused.value) == (
        f"agent.start_from={first}: its network plays tabla (encoding "
        "tabla-expert-v1), this run gulbara (encoding gulbara-expert-v1); start from a gulbara "
        "checkpoint, or train tabla with game=tabla"
    )


def test_start_from_a_bot_file_asks_for_its_checkpoint(tmp_path):
    config = tiny(game="gulbara", eval_opponents=["runner"])
    config.agent.encoding, config.agent.hidden = "expert", 160
    config.agent.start_from = str(SHIPPED / "gulbara-td.npz")
    with pytest.raises(ConfigError) as refused:
        train(config, tmp_path / "a")
    assert str(refused.value) == (
        f"agent.start_from={SHIPPED / 'gulbara-td.npz'}: is a bot file, which holds no training "
        "checkpoint; give the .pt checkpoint it was exported from, such as "
        f"{SHIPPED / 'gulbara-td.pt'} beside it"
    )
    assert not (tmp_path / "a" / "checkpoints").exists()


def test_keep_games_goes_on_from_the_checkpoints_games(tmp_path):
    """agent.keep_games: a run started from a checkpoint counts its games as played, so
    that total_games and the schedule go on from there (a recipe finished from a shipped
    checkpoint)."""
    first = train(tiny(total_games=200), tmp_path / "a")
    assert read(first.checkpoint)["games_trained"] == first.games
    config = tiny(seed=5, total_games=first.games + 100, eval_every=50)
    config.agent.start_from = str(first.checkpoint)
    config.agent.keep_games = True
    second = train(config, tmp_path / "b")
    content = read(second.checkpoint)
    assert first.games + 100 <= content["games_trained"] < first.games + 200
    assert content["turns_trained"] > read(first.checkpoint)["turns_trained"]
    history = [json.loads(line) for line in (tmp_path / "b" / "evaluations.jsonl").open()]
    assert history[0]["games_trained"] == first.games  # the curve starts where it left off
    without = tiny(seed=5, total_games=100)
    without.agent.keep_games = True
    with pytest.raises(ConfigError, match="agent.keep_games=true .*agent.start_from"):
        train(without, tmp_path / "c")


def test_a_lower_checkpoint_every_on_resume_takes_effect_at_once(tmp_path, monkeypatch):
    """A run resumed with a lower checkpoint_every checkpoints by the new schedule, not at
    the old schedule's next checkpoint."""
    import agents.td.training as training

    run = tmp_path / "run"
    train(tiny(total_games=200, checkpoint_every=10_000), run)
    written = []
    real = training.SelfPlayRun.checkpoint

    def counting(self, evaluations):
        written.append(self.counters.games)
        return real(self, evaluations)

    monkeypatch.setattr(training.SelfPlayRun, "checkpoint", counting)
    train(tiny(total_games=600, checkpoint_every=100), run)
    assert len(written) >= 3, written  # every 100 games, not only at the end
    assert written[0] < 400


def test_a_wider_network_starts_computing_what_the_narrower_one_computed(tmp_path, monkeypatch):
    first = train(tiny(), tmp_path / "a")
    started = starting_network(monkeypatch)
    config = tiny(seed=5)
    config.agent.hidden = 120
    config.agent.start_from = str(first.checkpoint)
    train(config, tmp_path / "b")
    wide = started[0]
    narrow = TDNetwork(NetworkShape(wide.shape.encoding, (80,), wide.shape.activation))
    narrow.load_state_dict(weights(first.checkpoint))
    rows = random_self_play(4, seed=2).positions
    features = torch.from_numpy(get_encoding(wide.shape.encoding).encode(rows))
    with torch.no_grad():
        np.testing.assert_allclose(
            wide.probabilities(features).numpy(), narrow.probabilities(features).numpy(), atol=1e-6
        )
    assert wide.layers[0].weight.shape == (120, wide.shape.input_size)
    assert wide.layers[0].weight[80:].abs().sum() > 0  # the new units can learn
    assert wide.layers[1].weight[:, 80:].abs().sum() == 0


def test_a_network_on_a_longer_encoding_starts_computing_what_the_shorter_one_computed(
    tmp_path, monkeypatch
):
    config = tiny()
    config.agent.encoding = "expert"
    first = train(config, tmp_path / "a")
    started = starting_network(monkeypatch)
    config = tiny(seed=5)
    config.agent.encoding = "contact"
    config.agent.start_from = str(first.checkpoint)
    result = train(config, tmp_path / "b")
    grafted = started[0]
    short = TDNetwork(NetworkShape("expert", (80,), grafted.shape.activation))
    short.load_state_dict(weights(first.checkpoint))
    rows = random_self_play(4, seed=2).positions
    expert = torch.from_numpy(get_encoding("expert").encode(rows))
    contact = torch.from_numpy(get_encoding("contact").encode(rows))
    with torch.no_grad():
        np.testing.assert_allclose(
            grafted.probabilities(contact).numpy(), short.probabilities(expert).numpy(), atol=1e-6
        )
    width = expert.shape[1]
    assert grafted.layers[0].weight[:, width:].abs().sum() == 0
    assert weights(result.checkpoint)["layers.0.weight"][:, width:].abs().sum() > 0  # learnt


def test_a_network_on_an_encoding_that_does_not_extend_its_own_is_refused(tmp_path):
    config = tiny(total_games=40)
    config.agent.encoding = "contact"
    first = train(config, tmp_path / "a")
    config = tiny(total_games=40)
    config.agent.encoding = "raw"
    config.agent.start_from = str(first.checkpoint)
    with pytest.raises(ConfigError, match="the encoding one that extends its own"):
        train(config, tmp_path / "b")


def test_bearoff_training_plays_races_by_the_database(tmp_path, monkeypatch):
    import agents.td.training as training

    calls = []
    original = training.exact_races

    def spy(rows, values, *where):
        calls.append(len(rows))
        return original(rows, values, *where)

    monkeypatch.setattr(training, "exact_races", spy)
    train(tiny(total_games=60), tmp_path / "plain")
    assert calls == []
    config = tiny(total_games=60)
    config.learner.bearoff = True
    result = train(config, tmp_path / "exact")
    assert calls and result.games >= 60
