"""The largest number of distinct legal afterstates one turn (position, roll) can have.

A Gymnasium action space ``Discrete(K)`` needs ``K`` at least this large. Three parts:

1. **Self-play sample.** Every distinct position of ``--games`` random self-play games
   (:func:`tapa_env.selfplay.random_self_play`), each with all 21 rolls.
2. **Local search.** Simulated annealing over valid positions, one chain per double (the
   doubles hold the maxima by far): a step moves one to three checkers of either side to
   another point, re-derives the pins (a checker shares a point with the other side only as
   a lone pinned checker under it) and keeps the candidate only if it is a valid, unfinished
   position (:class:`tapa_env.Position`'s checks, :func:`tapa_env.outcomes`) that could arise
   in a game (a side with checkers borne off has the rest in its home). Every step scores all
   chains with one batched :func:`tapa_env.generate_afterstates` call. The chains start from
   the best self-play positions, from hand-made spread positions and from random ones.
3. **Bound.** A play of a double ``d`` is a multiset of at most four source points (one per
   checker move), with ``m[q] <= c[q] + m[q + d]`` (a checker must be on ``q`` when it
   leaves; ``c`` the mover's counts), and its afterstate depends on that multiset only (the
   opponent's checkers do not move; a pin lies exactly where a lone opponent checker ends up
   under mover checkers). So a turn has at most as many afterstates as such multisets.
   Maximised exactly over every ``c`` of at most 15 checkers (a dynamic program along the
   chains ``q, q + d, ...`` that keeps the Pareto-optimal count vectors), this bounds every
   turn of ``d-d``, whatever the blocks, pins, bear-offs or early game ends. Plays of fewer
   dice survive only where the game ends part-way (R6); where neither that nor a bear-off can
   happen, the sources lie on points ``d+1..24`` and all plays have the same length, a
   tighter bound for those turns. A non-double's play is a pair (the source of each die, or
   none): at most 25 * 25 afterstates.
4. **Exhaustive check** (``--exhaustive``): every single-checker layout of the mover in the two
   families where a 1-1 play can end the game by the opponent's mother (R9).

Prints the search, then the best position key, its roll and count; the last line is
``max_afterstates N``.

    python bench/max_afterstates.py [--games 500] [--seconds 60] [--chains 48] [--seed 0]
                                    [--exhaustive] [--verify] [--no-bound]
"""

from __future__ import annotations

import argparse
import time
from math import comb

import numpy as np

from tapa_env import Position, generate_afterstates, outcomes
from tapa_env.layout import CHECKERS, OPP, OWN, PIN, POINTS, ROW_WIDTH
from tapa_env.selfplay import random_self_play

ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)
DOUBLES = np.array([(d, d) for d in range(1, 7)], dtype=np.int64)
HOME = 6


# ---------------------------------------------------------------------------------------------
# counting


def counts(rows: np.ndarray, dice: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """Distinct afterstates of each (row, roll) pair, in chunks to bound memory."""
    out = np.empty(len(rows), dtype=np.int64)
    for start in range(0, len(rows), chunk):
        _, offsets = generate_afterstates(rows[start : start + chunk], dice[start : start + chunk])
        out[start : start + chunk] = np.diff(offsets)
    return out


def all_rolls(rows: np.ndarray, chunk_positions: int = 2000) -> np.ndarray:
    """``(B, 21)`` afterstate counts of every row under every roll (order of ``ROLLS``)."""
    result = np.empty((len(rows), len(ROLLS)), dtype=np.int64)
    for start in range(0, len(rows), chunk_positions):
        part = rows[start : start + chunk_positions]
        tiled = np.repeat(part, len(ROLLS), axis=0)
        dice = np.tile(ROLLS, (len(part), 1))
        result[start : start + len(part)] = counts(tiled, dice).reshape(len(part), len(ROLLS))
    return result


# ---------------------------------------------------------------------------------------------
# positions


def fix_pins(row: np.ndarray, rng: np.random.Generator) -> bool:
    """Re-derive the pin marks of ``row`` in place from the counts; False if impossible."""
    own, opp, pin = row[OWN : OWN + POINTS], row[OPP : OPP + POINTS], row[PIN : PIN + POINTS]
    for i in range(POINTS):
        o, p = own[i], opp[i]
        if o and p:
            if o >= 2 and p >= 2:
                return False
            if p == 1 and o >= 2:
                pin[i] = 1
            elif o == 1 and p >= 2:
                pin[i] = -1
            elif pin[i] == 0:  # one of each: either may be the pinned one
                pin[i] = 1 if rng.random() < 0.8 else -1
        else:
            pin[i] = 0
    return True


def plausible(rows: np.ndarray) -> np.ndarray:
    """Rows that are unfinished positions a game could reach (beyond ``Position``'s checks):
    a side that has borne off checkers has all the others in its home."""
    own = rows[:, OWN : OWN + POINTS].astype(np.int64)
    opp = rows[:, OPP : OPP + POINTS].astype(np.int64)
    ok = (own.sum(1) == CHECKERS) | (own[:, HOME:].sum(1) == 0)
    ok &= (opp.sum(1) == CHECKERS) | (opp[:, : POINTS - HOME].sum(1) == 0)
    finished, _ = outcomes(rows)
    return ok & ~finished


def mutate(row: np.ndarray, rng: np.random.Generator, tries: int = 20) -> np.ndarray:
    """A random valid neighbour of ``row``: one to three checker moves (``row`` if none)."""
    for _ in range(tries):
        new = row.copy()
        steps = 1 + min(2, int(rng.geometric(0.55)) - 1)
        for _ in range(steps):
            side = OWN if rng.random() < 0.75 else OPP
            block = new[side : side + POINTS]
            occupied = np.flatnonzero(block)
            kind = rng.random()
            if kind < 0.1 and block.sum() < CHECKERS:  # a borne-off checker comes back
                block[rng.integers(POINTS)] += 1
                continue
            if occupied.size == 0:
                break
            source = rng.choice(occupied)
            block[source] -= 1
            if kind < 0.2:  # bear it off (kept only if plausible)
                continue
            if kind < 0.6:  # a short shift
                target = int(np.clip(source + rng.choice((-2, -1, 1, 2)), 0, POINTS - 1))
            else:
                target = int(rng.integers(POINTS))
            block[target] += 1
        if fix_pins(new, rng):
            return new
    return row.copy()


def row_from(own: dict, opp: dict, rng: np.random.Generator) -> np.ndarray | None:
    """A row from ``{point: count}`` dicts of each side, pins derived, or None."""
    row = np.zeros(ROW_WIDTH, dtype=np.int8)
    for p, n in own.items():
        row[OWN + p - 1] += n
    for p, n in opp.items():
        row[OPP + p - 1] += n
    return row if fix_pins(row, rng) else None


def hand_seeds(rng: np.random.Generator) -> list[np.ndarray]:
    """Spread positions: the mover's checkers one a point, the opponent never blocking.

    The opponent's checkers lie pinned under single mover checkers (no point is held), or,
    for the mother-pin plays, its mother alone on point 1 too.
    """
    seeds = []
    for low in range(2, 11):
        points = list(range(low, low + 15))
        own = {p: 1 for p in points}
        seeds.append(row_from(own, {p: 1 for p in points}, rng))
        # the opponent's mother alone on 1: a play landing there ends the game (R9)
        own2 = {p: 1 for p in range(low, min(24, low + 15))}
        own2[2] = own2.get(2, 0) + 15 - sum(own2.values())
        opp2 = {1: 1} | {p: 1 for p in list(own2)[:14]}
        seeds.append(row_from(own2, opp2, rng))
    return [s for s in seeds if s is not None]


def random_spread(rng: np.random.Generator) -> np.ndarray | None:
    """The mover's 15 checkers on random points, the opponent's lone under them or stacked."""
    own = {}
    for p in rng.integers(1, 25, CHECKERS):
        own[int(p)] = own.get(int(p), 0) + 1
    opp = {}
    singles = [p for p, n in own.items() if n >= 1]
    for p in rng.permutation(singles)[: rng.integers(0, min(15, len(singles)) + 1)]:
        opp[int(p)] = 1
    rest = CHECKERS - sum(opp.values())
    if rest:
        free = [p for p in range(1, 25) if p not in own and p not in opp]
        if free:
            opp[int(rng.choice(free))] = rest
    return row_from(own, opp, rng)


# ---------------------------------------------------------------------------------------------
# search


def self_play_phase(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Unique self-play positions and their ``(B, 21)`` counts."""
    record = random_self_play(games, seed=seed)
    rows = np.unique(record.positions, axis=0)
    return rows, all_rolls(rows)


def anneal(
    seeds: list[np.ndarray],
    chains: int,
    seconds: float,
    rng: np.random.Generator,
    t_start: float,
    t_end: float,
) -> dict[int, tuple[int, np.ndarray]]:
    """Simulated annealing, chain ``i`` scored by double ``i % 6 + 1``. Best per double."""
    die = np.arange(chains) % 6 + 1
    dice = np.stack([die, die], axis=1).astype(np.int64)
    current = np.stack([seeds[rng.integers(len(seeds))] for _ in range(chains)])
    score = counts(current, dice)
    best = {}
    for d in range(1, 7):
        mine = np.flatnonzero(die == d)
        top = mine[np.argmax(score[mine])]
        best[d] = (int(score[top]), current[top].copy())
    start = time.perf_counter()
    steps = 0
    while (elapsed := time.perf_counter() - start) < seconds:
        temperature = t_start * (t_end / t_start) ** (elapsed / seconds)
        proposal = np.stack([mutate(r, rng) for r in current])
        valid = plausible(proposal)
        proposal[~valid] = current[~valid]
        new = counts(proposal, dice)
        delta = (new - score).astype(np.float64)
        accept = (delta >= 0) | (rng.random(chains) < np.exp(np.minimum(delta, 0) / temperature))
        current[accept] = proposal[accept]
        score[accept] = new[accept]
        for i in np.flatnonzero(accept):
            if score[i] > best[die[i]][0]:
                best[die[i]] = (int(score[i]), current[i].copy())
        steps += 1
        if steps % 200 == 0:
            # the weakest chain of each double restarts from that double's best
            for d in range(1, 7):
                mine = np.flatnonzero(die == d)
                worst = mine[np.argmin(score[mine])]
                current[worst], score[worst] = best[d][1], best[d][0]
    print(f"annealing: {steps} steps x {chains} chains in {time.perf_counter() - start:.0f} s")
    return best


def singleton_family(family: str, d: int = 1, chunk: int = 4096) -> tuple[int, np.ndarray, int]:
    """Every mover layout of single checkers, with the opponent's mother alone on point 1.

    ``A``: the mother unpinned, 15 mover checkers on 15 of points 2..24 (a play landing on 1
    pins the mother and, with point 24 empty, ends the game). ``B``: the mother already pinned
    by a mover checker on 1, one on 24 (leaving it ends the game), 13 on points 2..23. The
    opponent's other 14 checkers lie pinned under mover checkers: nothing is blocked.
    Returns ``(best count, best row, layouts tried)``.
    """
    import itertools

    base, pool, k = ([], range(2, 25), 15) if family == "A" else ([1, 24], range(2, 24), 13)
    layouts = itertools.combinations(pool, k)
    best, best_row, tried = 0, None, 0
    while batch := list(itertools.islice(layouts, chunk)):
        points = np.array([list(c) + base for c in batch]) - 1
        size = len(points)
        rows = np.zeros((size, ROW_WIDTH), dtype=np.int8)
        index = np.arange(size)[:, None]
        rows[index, OWN + points] = 1
        rows[:, OPP] = 1
        others = np.sort(points, axis=1)
        others = others[others != 0].reshape(size, -1)[:, :14]
        rows[index, OPP + others] = 1
        rows[index, PIN + others] = 1
        if family == "B":
            rows[:, PIN] = 1
        found = counts(rows, np.full((size, 2), d, dtype=np.int64))
        tried += size
        if found.max() > best:
            best, best_row = int(found.max()), rows[int(np.argmax(found))].copy()
    return best, best_row, tried


# ---------------------------------------------------------------------------------------------
# bound


def _prune(vectors: np.ndarray) -> np.ndarray:
    """The Pareto-maximal rows of ``vectors`` (2-D)."""
    vectors = np.unique(vectors, axis=0)
    vectors = vectors[np.argsort(-vectors.sum(1), kind="stable")]
    keep: list[np.ndarray] = []
    for v in vectors:
        if not keep or not (np.array(keep) >= v).all(1).any():
            keep.append(v)
    return np.array(keep)


def _by_budget(states: dict[int, list[np.ndarray]]) -> dict[int, np.ndarray]:
    """Prune each budget's states, and states dominated by ones that use fewer checkers."""
    out, seen = {}, None
    for b in sorted(states):
        kept = _prune(np.concatenate(states[b]))
        if seen is not None:
            kept = kept[~np.array([(seen >= v).all(1).any() for v in kept])]
        if len(kept):
            out[b] = kept
            seen = kept if seen is None else np.concatenate([seen, kept])
    return out


def _chain(length: int, moves: int = 4) -> dict[int, np.ndarray]:
    """Per checkers used, the Pareto set of vectors ``f[k]``: source multisets of size ``k``
    on a chain of ``length`` points ``q, q + d, ...`` (top first), ``m[q] <= c[q] + m[q + d]``.

    The state while walking down is ``g[j, t]``: partial multisets with ``j`` moves from the
    last point and ``t`` in all, flattened; every later step is a non-negative linear map, so
    keeping only Pareto-maximal states per budget is exact.
    """
    size = moves + 1
    start = np.zeros((size, size), dtype=np.int64)
    start[0, 0] = 1
    states = {0: start.reshape(1, -1)}
    for _ in range(length):
        grown: dict[int, list[np.ndarray]] = {}
        for used, flat in states.items():
            g = flat.reshape(-1, size, size)
            for c in range(min(moves, CHECKERS - used) + 1):
                h = np.zeros_like(g)
                for j in range(size):
                    for t in range(size):
                        for jn in range(min(c + j, moves - t) + 1):
                            h[:, jn, t + jn] += g[:, j, t]
                grown.setdefault(used + c, []).append(h.reshape(len(g), -1))
        states = _by_budget(grown)
    return _by_budget({b: [flat.reshape(-1, size, size).sum(axis=1)] for b, flat in states.items()})


def _combine(a: dict[int, np.ndarray], b: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Pareto sets of two independent chains together: polynomial product, truncated."""
    size = next(iter(a.values())).shape[1]
    out: dict[int, list[np.ndarray]] = {}
    for ua, fa in a.items():
        for ub, fb in b.items():
            if ua + ub > CHECKERS:
                continue
            product = np.zeros((len(fa), len(fb), size), dtype=np.int64)
            for i in range(size):
                for j in range(size - i):
                    product[:, :, i + j] += fa[:, None, i] * fb[None, :, j]
            out.setdefault(ua + ub, []).append(product.reshape(-1, size))
    return _by_budget(out)


def double_bound(d: int, lowest: int = 1) -> tuple[int, int]:
    """Max over all counts ``c`` (<= 15 checkers) of the source multisets of a double ``d``
    on points ``lowest..24``: ``(of exactly 4 moves, of at most 4 moves)``. With ``lowest=1``
    the second bounds every turn of ``d-d``; with ``lowest=d+1`` (no bear-off) the first
    bounds every turn in which neither a bear-off nor an early game end can happen."""
    lengths = [len(range(r, POINTS + 1, d)) for r in range(lowest, lowest + d)]
    frontiers = {n: _chain(n) for n in set(lengths)}
    total = frontiers[lengths[0]]
    for n in lengths[1:]:
        total = _combine(total, frontiers[n])
    exact = max(int(f[:, -1].max()) for f in total.values())
    at_most = max(int(f.sum(1).max()) for f in total.values())
    return exact, at_most


# ---------------------------------------------------------------------------------------------


def describe(row: np.ndarray) -> str:
    return Position(row).key


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="random self-play games")
    parser.add_argument("--seconds", type=float, default=60.0, help="annealing time")
    parser.add_argument("--chains", type=int, default=48, help="annealing chains (8 a double)")
    parser.add_argument("--t-start", type=float, default=40.0, help="initial temperature")
    parser.add_argument("--t-end", type=float, default=0.5, help="final temperature")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-bound", action="store_true", help="skip the bound computation")
    parser.add_argument(
        "--exhaustive",
        action="store_true",
        help="also try every single-checker layout of the two mother-pin families for 1-1 "
        "(about 1 M positions, several minutes)",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="recount the best with the slow reference generator (tests/reference.py)",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    clock = time.perf_counter()

    # 1. self-play sample
    rows, table = self_play_phase(args.games, args.seed)
    flat = int(np.argmax(table))
    i, r = divmod(flat, len(ROLLS))
    print(
        f"self-play: {args.games} games, {len(rows)} distinct positions x 21 rolls "
        f"in {time.perf_counter() - clock:.0f} s"
    )
    print("  max per roll: " + " ".join(f"{a}{b}:{m}" for (a, b), m in zip(ROLLS, table.max(0))))
    print(f"  best {table[i, r]} afterstates: {describe(rows[i])} roll {ROLLS[r][0]}-{ROLLS[r][1]}")
    results = [(int(table[i, r]), rows[i], tuple(ROLLS[r]), "self-play")]

    # 2. annealing from the best self-play positions, hand-made and random spread positions
    doubles_max = table[:, [k for k, (a, b) in enumerate(ROLLS) if a == b]].max(1)
    seeds = list(rows[np.argsort(-doubles_max)[:16]])
    seeds += hand_seeds(rng)
    seeds += [s for s in (random_spread(rng) for _ in range(64)) if s is not None]
    seeds = [s for s in seeds if plausible(s[None])[0]]
    best = anneal(seeds, args.chains, args.seconds, rng, args.t_start, args.t_end)
    for d in range(1, 7):
        n, row = best[d]
        print(f"  {d}-{d}: {n:5d}  {describe(row)}")
        results.append((n, row, (d, d), "annealing"))

    # every roll of the annealing winners, in case a non-double beats its double
    winners = np.stack([row for _, row, _, _ in results[1:]])
    full = all_rolls(winners)
    j, r = divmod(int(np.argmax(full)), len(ROLLS))
    results.append((int(full[j, r]), winners[j], tuple(ROLLS[r]), "annealing, all rolls"))
    if args.exhaustive:
        for family in ("A", "B"):
            tick = time.perf_counter()
            n, best_row, tried = singleton_family(family)
            assert plausible(best_row[None])[0]
            print(
                f"exhaustive family {family}, 1-1: {tried} layouts in "
                f"{time.perf_counter() - tick:.0f} s, best {n}: {describe(best_row)}"
            )
            results.append((n, best_row, (1, 1), f"exhaustive family {family}"))
    count, row, roll, how = max(results, key=lambda x: x[0])

    # 3. bound
    if not args.no_bound:
        print("bound: distinct source multisets of a double, max over all mover counts c:")
        for d in range(1, 7):
            exact, at_most = double_bound(d)
            plain, _ = double_bound(d, lowest=d + 1)
            print(
                f"  {d}-{d}: {exact} of 4 moves, {at_most} of <= 4 moves (every turn); "
                f"{plain} with no bear-off and no early game end"
            )
        print(
            f"  non-doubles: <= 25 * 25 = 625; "
            f"crude double bound: C(24 + 4, 4) = {comb(POINTS + 4, 4)}"
        )

    if args.verify:
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.reference import reference_afterstates

        slow = reference_afterstates(Position(row).to_dict(), roll)
        print(f"reference generator: {len(slow)} afterstates (engine {count})")

    print(f"total time {time.perf_counter() - clock:.0f} s")
    print(f"best found by {how}")
    print(f"position {describe(row)}")
    print(f"roll {roll[0]}-{roll[1]}")
    print(f"max_afterstates {count}")


if __name__ == "__main__":
    main()
