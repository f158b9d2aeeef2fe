"""OpenSpiel's backgammon as a second opinion on Tabla (backgammon without the cube).

OpenSpiel (``pyspiel``, game "backgammon") is an independent C++ implementation of the same
checker play. This module plays random games in it and keeps positions at the start of a
turn (right after the dice are rolled), each with every position the mover can reach by a
complete legal play of the roll, converted to Tabla's interchange dict in the mover's
frame. The tests compare the Tabla engine's afterstates with these; the benchmark times
OpenSpiel's enumeration beside the engine's on the same states.

OpenSpiel's board, as read through ``state.board(player, index)``:

* index 0..23 is a fixed point of the board, the same index for both players; index 100
  is that player's bar. Checkers borne off are read from the observation tensor.
* player 0 ("x") moves from index 0 up to 23 and bears off above 23 (home 18..23), so its
  checker on index i is on its own point 24 - i; player 1 ("o") moves from 23 down to 0 and
  bears off below 0 (home 0..5), so its checker on index i is on its own point i + 1.
* in the mover's numbering both colours on index i are on point 24 - i when player 0 moves
  and on point i + 1 when player 1 moves (an opponent checker on its own point q is on the
  mover's point 25 - q).

One OpenSpiel action plays two dice (two checker moves, or a pass for a die that cannot be
played); a double is two consecutive actions of the same player, so a complete play of a
double is an action followed, when OpenSpiel gives the same player the turn again, by a
second one.

OpenSpiel reads "play as many dice as possible" literally, even when one die alone bears
off the mover's last checker: with the mover's last checker on its 2-point, an opponent blot
on the mover's 1-point and 6-1 to play, its only play is 2/1*/off (the game ends either way,
but the opponent's checker ends on the bar); bearing off at once with the 6 is not listed.
Samples where that can happen carry the tag "finish".

Run as a script (``python tests/openspiel_backgammon.py``) it collects a pool and prints
what kinds of positions the pool holds and OpenSpiel's enumeration speed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

try:
    import pyspiel
except ImportError:  # the comparison tests skip themselves
    pyspiel = None

GAME_NAME = "backgammon"
NUM_POINTS = 24
CHECKERS = 15
BAR_INDEX = 100  # OpenSpiel's board index of a player's bar
PASS_INDEX = -1  # OpenSpiel's checker-move position of an unplayed die
# Observation tensor of a player: 4 numbers per point for each side, then
# (bar, off, on turn) for that player, the same for the opponent, then the two dice.
_OBS_OWN_OFF = 4 * NUM_POINTS * 2 + 1
_OBS_OPP_OFF = _OBS_OWN_OFF + 3
_OBS_DICE = slice(-2, None)

# The 21 distinct rolls, higher die first.
ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))


def available() -> bool:
    """True when OpenSpiel's Python module can be imported."""
    return pyspiel is not None


@dataclass
class Sample:
    """A position at the start of a turn and every afterstate OpenSpiel allows.

    position: Tabla interchange dict from the mover's side ("game": "tabla").
    dice: the roll, higher die first.
    afterstates: the distinct positions, same frame as ``position``, the mover can reach by a
        complete legal play of the roll; a pass gives ``[position]``.
    state: OpenSpiel's state at that point (a player node, never in the middle of a double);
        clone it before applying actions.
    player: OpenSpiel's id of the mover (0 or 1).
    dice_used: for each afterstate, how many dice the play reaching it used (the most if
        several plays reach it).
    tags: what the position holds, see ``TAGS``.
    """

    position: dict
    dice: tuple[int, int]
    afterstates: list[dict]
    state: object = field(repr=False)
    player: int = 0
    dice_used: list[int] = field(default_factory=list)
    tags: frozenset[str] = frozenset()


TAGS = {
    "bar": "the mover has checkers on the bar",
    "blocked": "the mover is on the bar and at least one die's entry point is closed",
    "blocked_both": "the mover is on the bar and the entry points of both dice are closed",
    "hit": "some play hits",
    "bearoff": "some play bears a checker off",
    "bearoff_high": "some play bears off with a die larger than the checker's point",
    "pass": "the mover cannot play at all",
    "partial": "no play uses all the dice (and the mover does not finish the game)",
    "one_die": "a non-double of which only one die can be played",
    "finish": "some play bears off the mover's last checker",
    "double": "the roll is a double",
}


def _key(position: dict) -> tuple:
    return (
        tuple(position["own"]),
        tuple(position["opp"]),
        position["own_bar"],
        position["opp_bar"],
        position["own_off"],
        position["opp_off"],
    )


def _mover_point(player: int, index: int) -> int:
    """The mover's point number (1..24) of OpenSpiel's board index when ``player`` moves."""
    return NUM_POINTS - index if player == 0 else index + 1


def tabla_position(state, player: int) -> dict:
    """OpenSpiel's board as a Tabla interchange dict from ``player``'s side."""
    other = 1 - player
    own = [0] * NUM_POINTS
    opp = [0] * NUM_POINTS
    for index in range(NUM_POINTS):
        point = _mover_point(player, index)
        own[point - 1] = state.board(player, index)
        opp[point - 1] = state.board(other, index)
    obs = state.observation_tensor(player)
    position = {
        "game": "tabla",
        "own": own,
        "opp": opp,
        "own_bar": state.board(player, BAR_INDEX),
        "opp_bar": state.board(other, BAR_INDEX),
        "own_off": int(obs[_OBS_OWN_OFF]),
        "opp_off": int(obs[_OBS_OPP_OFF]),
    }
    for side in ("own", "opp"):
        total = sum(position[side]) + position[side + "_bar"] + position[side + "_off"]
        if total != CHECKERS:
            raise AssertionError(f"{side} has {total} checkers, not {CHECKERS}: {position}")
    if any(a and b for a, b in zip(own, opp, strict=True)):
        raise AssertionError(f"a point holds both colours: {position}")
    return position


def state_dice(state) -> tuple[int, int]:
    """The roll of a player node, higher die first."""
    a, b = (int(x) for x in state.observation_tensor(state.current_player())[_OBS_DICE])
    return (max(a, b), min(a, b))


def _checker_moves(state, player: int, action: int) -> list[tuple[int, int]]:
    """(OpenSpiel index or bar, die) of each die an action plays; unplayed dice are left out."""
    moves = state.spiel_move_to_checker_moves(player, action)
    return [(m.pos, m.num) for m in moves if m.pos != PASS_INDEX]


def _is_high_bearoff(player: int, index: int, die: int) -> bool:
    """Does moving the checker on ``index`` by ``die`` bear it off with pips to spare?"""
    if index == BAR_INDEX:
        return False
    return die > _mover_point(player, index)


def complete_plays(state) -> Iterator[tuple[object, list[tuple[int, int]]]]:
    """Every complete legal play of a player node at the start of a turn.

    Yields (state after the play, the checker moves played as (index, die)); plays that
    OpenSpiel lists under several actions are yielded once per action.
    """
    player = state.current_player()
    for action in state.legal_actions():
        child = state.clone()
        moves = _checker_moves(state, player, action)
        child.apply_action(action)
        if child.current_player() == player:  # the second half of a double
            for second in child.legal_actions():
                grandchild = child.clone()
                more = _checker_moves(child, player, second)
                grandchild.apply_action(second)
                yield grandchild, moves + more
        else:
            yield child, moves


def make_sample(state) -> Sample:
    """A Sample of a player node at the start of a turn (OpenSpiel's state is cloned)."""
    player = state.current_player()
    if player not in (0, 1):
        raise ValueError("not a player node")
    if "Extra turn: 1" in str(state):
        raise ValueError("in the middle of a double")
    position = tabla_position(state, player)
    dice = state_dice(state)
    found: dict[tuple, int] = {}
    afterstates: list[dict] = []
    dice_used: list[int] = []
    tags: set[str] = set()
    high_bearoff = False
    for after, moves in complete_plays(state):
        afterstate = tabla_position(after, player)
        key = _key(afterstate)
        if key in found:
            i = found[key]
            dice_used[i] = max(dice_used[i], len(moves))
        else:
            found[key] = len(afterstates)
            afterstates.append(afterstate)
            dice_used.append(len(moves))
        high_bearoff = high_bearoff or any(_is_high_bearoff(player, i, d) for i, d in moves)
    if position["own_bar"]:
        tags.add("bar")
        closed = [position["opp"][25 - d - 1] >= 2 for d in set(dice)]
        if any(closed):
            tags.add("blocked")
        if all(closed):
            tags.add("blocked_both")
    if any(a["opp_bar"] > position["opp_bar"] for a in afterstates):
        tags.add("hit")
    if any(a["own_off"] > position["own_off"] for a in afterstates):
        tags.add("bearoff")
    if high_bearoff:
        tags.add("bearoff_high")
    if max(dice_used) == 0:
        tags.add("pass")
    full = 4 if dice[0] == dice[1] else 2
    if all(used < full and a["own_off"] < CHECKERS for used, a in zip(dice_used, afterstates)):
        tags.add("partial")
    if dice[0] != dice[1] and max(dice_used) == 1:
        tags.add("one_die")
    if any(a["own_off"] == CHECKERS for a in afterstates):
        tags.add("finish")
    if dice[0] == dice[1]:
        tags.add("double")
    return Sample(
        position=position,
        dice=dice,
        afterstates=afterstates,
        state=state.clone(),
        player=player,
        dice_used=dice_used,
        tags=frozenset(tags),
    )


class _Dice:
    """Chance outcomes of OpenSpiel's backgammon by the roll they give, read off the game."""

    def __init__(self, game) -> None:
        state = game.new_initial_state()
        # The first chance node picks the starter and a non-double roll together.
        self.opening: dict[tuple[int, int], list[int]] = {}
        for outcome, _ in state.chance_outcomes():
            child = state.child(outcome)
            self.opening.setdefault(state_dice(child), []).append(outcome)
        # Later chance nodes: roll for the side to move.
        child = state.child(self.opening[(2, 1)][0])
        child.apply_action(child.legal_actions()[0])
        if not child.is_chance_node():
            raise AssertionError("expected a chance node after the first play")
        self.roll: dict[tuple[int, int], list[int]] = {}
        for outcome, _ in child.chance_outcomes():
            self.roll.setdefault(state_dice(child.child(outcome)), []).append(outcome)
        if sorted(self.roll) != sorted(ROLLS):
            raise AssertionError(f"unexpected rolls {sorted(self.roll)}")

    def outcome(self, state, rng: random.Random) -> int:
        """A chance outcome of ``state`` for a roll drawn uniformly from the 21 rolls."""
        if state.is_initial_state():
            return rng.choice(self.opening[rng.choice(sorted(self.opening))])
        return rng.choice(self.roll[rng.choice(ROLLS)])


def _hits(state, action: int) -> bool:
    player = state.current_player()
    child = state.clone()
    child.apply_action(action)
    return child.board(1 - player, BAR_INDEX) > state.board(1 - player, BAR_INDEX)


def _choose(state, rng: random.Random, hit_bias: float) -> int:
    """A random legal action, preferring one that hits with probability ``hit_bias``."""
    actions = state.legal_actions()
    if len(actions) > 1 and rng.random() < hit_bias:
        hitting = [a for a in actions if _hits(state, a)]
        if hitting:
            return rng.choice(hitting)
    return rng.choice(actions)


def _all_home(state, player: int) -> bool:
    """Are all of ``player``'s checkers still in play in its home (so it may bear off)?"""
    outside = range(0, 18) if player == 0 else range(6, NUM_POINTS)
    if state.board(player, BAR_INDEX):
        return False
    return not any(state.board(player, index) for index in outside)


def collect(
    count: int, seed: int, keep: float = 0.1, keep_home: float = 0.5, max_turns: int = 300
) -> list[Sample]:
    """``count`` Samples from random games of OpenSpiel's backgammon.

    Every roll is drawn uniformly from the 21 distinct rolls (doubles are over-represented
    compared with real dice, on purpose). Each game is played by random legal actions; in
    a third of the games the players prefer a hitting action most of the time, which fills
    the bars and gives many blocked entries and passes. The start of a turn is kept with
    probability ``keep``, or ``keep_home`` when the mover has all its checkers home (the
    bear-off), so the pool spreads over many games and all stages of a game. A game is
    left after ``max_turns`` turns (hitting games can go on for long).
    """
    if pyspiel is None:
        raise RuntimeError("pyspiel is not installed")
    rng = random.Random(seed)
    game = pyspiel.load_game(GAME_NAME)
    dice = _Dice(game)
    samples: list[Sample] = []
    while len(samples) < count:
        state = game.new_initial_state()
        hit_bias = rng.choice((0.0, 0.0, 0.8))
        turns = 0
        while not state.is_terminal() and turns < max_turns and len(samples) < count:
            if state.is_chance_node():
                state.apply_action(dice.outcome(state, rng))
                turns += 1
                if state.is_terminal():
                    break
                # The start of a turn: the dice are rolled, no checker has moved.
                home = _all_home(state, state.current_player())
                if rng.random() < (keep_home if home else keep):
                    samples.append(make_sample(state))
            else:
                state.apply_action(_choose(state, rng, hit_bias))
    return samples


def initial_sample(roll: tuple[int, int], player: int = 0) -> Sample:
    """The Sample of the opening position with a non-double ``roll`` for ``player``."""
    if pyspiel is None:
        raise RuntimeError("pyspiel is not installed")
    game = pyspiel.load_game(GAME_NAME)
    dice = _Dice(game)
    state = game.new_initial_state()
    for outcome in dice.opening[tuple(sorted(roll, reverse=True))]:
        child = state.child(outcome)
        if child.current_player() == player:
            return make_sample(child)
    raise ValueError(f"no opening outcome gives {roll} to player {player}")


def _enumerate(state) -> int:
    """OpenSpiel's work to list every complete play of ``state``; returns the play count."""
    player = state.current_player()
    plays = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.current_player() == player:
            for second in child.legal_actions():
                grandchild = child.clone()
                grandchild.apply_action(second)
                plays += 1
        else:
            plays += 1
    return plays


def plays_per_second(samples: Sequence[Sample], repeats: int = 3) -> float:
    """Positions per second at which OpenSpiel lists every complete play (one thread, best run).

    For each sample: legal_actions, a clone and an apply for each action, and for a double
    the second action's legal_actions and a clone and apply for each of those (the states
    after every complete play, as OpenSpiel gives them; no conversion to Tabla dicts).
    """
    states = [s.state for s in samples]
    if not states:
        raise ValueError("no samples")
    best = float("inf")
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        for state in states:
            _enumerate(state)
        best = min(best, time.perf_counter() - start)
    return len(states) / best


START_OWN = {24: 2, 13: 5, 8: 3, 6: 5}
START_OPP = {1: 2, 12: 5, 17: 3, 19: 5}


def check_start() -> None:
    """The opening position reads as Tabla's start from either player's side."""
    for player in (0, 1):
        position = initial_sample((2, 1), player).position
        own = {i + 1: n for i, n in enumerate(position["own"]) if n}
        opp = {i + 1: n for i, n in enumerate(position["opp"]) if n}
        if (own, opp) != (START_OWN, START_OPP):
            raise AssertionError(f"player {player} reads the start as {own}, {opp}")


def _main() -> None:
    if not available():
        print("pyspiel is not installed")
        return
    check_start()
    start = time.perf_counter()
    samples = collect(2000, seed=0)
    took = time.perf_counter() - start
    print(f"{len(samples)} positions collected in {took:.1f} s")
    counts = {tag: sum(tag in s.tags for s in samples) for tag in TAGS}
    for tag, text in TAGS.items():
        print(f"  {counts[tag]:5d}  {tag:13s} {text}")
    plays = [len(s.afterstates) for s in samples]
    mean = sum(plays) / len(plays)
    print(f"  distinct afterstates per position: mean {mean:.1f}, max {max(plays)}")
    rolls = {roll: 0 for roll in ROLLS}
    for s in samples:
        rolls[s.dice] += 1
    print(f"  positions per roll: min {min(rolls.values())}, max {max(rolls.values())}")
    print(f"OpenSpiel: {plays_per_second(samples):.0f} positions/s (all complete plays listed)")


if __name__ == "__main__":
    _main()
