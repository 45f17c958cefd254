"""`tabletop bench review --fit`: the win-chance model of review/chances.json, fitted on bot games.

Per game, N bot games (seeds ≥ FIT_SEED_BASE, which the bench never plays) give, at every
position where a player acts, each seat's features (from its own view) and its share of the
win. The first half of the games fits a logistic model (Newton's method, a light ridge); the
second half fits the step map from its raw chance to the share of wins (isotonic, each step at
least MIN_STEP positions), so the map corrects what the logistic form gets wrong on games it
did not see.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np

from bench.calibration import pooled
from bench.review_games import FIT_SEED_BASE, Unended, bot_game
from review.chances import MODEL_PATH, raw_chance

RIDGE = 1e-3
MIN_STEP = 200


def logistic_fit(rows: np.ndarray, targets: np.ndarray, steps: int = 30) -> list[float]:
    """Weights maximising the likelihood of `targets` (0..1, shares allowed), ridge-penalised."""
    weights = np.zeros(rows.shape[1])
    ridge = RIDGE * len(rows) * np.eye(rows.shape[1])
    ridge[0, 0] = 0.0  # the constant is not shrunk
    for _ in range(steps):
        chances = 1.0 / (1.0 + np.exp(-np.clip(rows @ weights, -30, 30)))
        gradient = rows.T @ (targets - chances) - ridge @ weights
        curvature = (rows * (chances * (1 - chances))[:, None]).T @ rows + ridge
        step = np.linalg.solve(curvature + 1e-9 * np.eye(len(weights)), gradient)
        weights += step
        if np.max(np.abs(step)) < 1e-7:
            break
    return [round(float(w), 6) for w in weights]


def step_map(raws: list[float], shares: list[float]) -> dict[str, list[float]]:
    """The non-decreasing map from raw chance to share of wins, steps of MIN_STEP or more."""
    order = sorted(zip(raws, shares, strict=True))
    chunks = [order[i : i + MIN_STEP] for i in range(0, len(order), MIN_STEP)]
    if len(chunks) > 1 and len(chunks[-1]) < MIN_STEP:
        chunks[-2] += chunks.pop()
    starts = [chunk[0][0] for chunk in chunks]
    rates = [sum(s for _, s in chunk) / len(chunk) for chunk in chunks]
    blocks = pooled(starts, rates, [float(len(chunk)) for chunk in chunks])
    return {
        "raws": [0.0] + [round(start, 6) for start, _, _ in blocks[1:]],
        "chances": [round(rate, 4) for _, rate, _ in blocks],
    }


def fit_game(name: str, games: int, seed: int) -> dict:
    rng = random.Random(seed)
    halves: list[list[tuple[list[float], float]]] = [[], []]
    for index in range(games):
        game_seed = FIT_SEED_BASE + rng.randrange(10**9)
        try:
            positions = bot_game(name, game_seed)[1]
        except Unended:  # no result to fit on
            continue
        for _, seat_rows, shares in positions:
            halves[index % 2] += [(row, shares[seat]) for seat, row in enumerate(seat_rows)]
    rows = np.array([row for row, _ in halves[0]])
    weights = logistic_fit(rows, np.array([share for _, share in halves[0]]))
    raws = [raw_chance(weights, row) for row, _ in halves[1]]
    return {
        "weights": weights,
        "map": step_map(raws, [share for _, share in halves[1]]),
        "fitted_on": {"games": games, "seed": seed, "positions": len(halves[0]) + len(halves[1])},
    }


def fit(names: list[str], games: int, seed: int, path: Path = MODEL_PATH) -> None:
    models = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for name in names:
        models[name] = fit_game(name, games, seed)
        path.write_text(json.dumps(models, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{name}: fitted on {games} bot games ({models[name]['fitted_on']['positions']} "
              f"seat positions) -> {path}", flush=True)  # fmt: skip
