"""What a bot did, said in the past on the message line ("Bot 4 joined the alliance"): the
moves' own words are the players' choices to come ("join the alliance", "Ana plays C")."""

from __future__ import annotations

import re

import engines
from companion.advice import STEP, traverse_pawn
from companion.tables.sequence import PLAY, card_words
from companion.tables.strategix import skipped_seat
from display.i18n import text


def did_words(state: engines.State, notation: str, fallback: str, language: str) -> str:
    """What the acting seat did by playing `notation` in `state`, in the past, with its name."""
    seat = state.actor if isinstance(state.actor, int) else 0
    name, game = state.players[seat], state.game.name
    word, _, rest = notation.partition(" ")
    if notation == "pass":
        return text(language, "did.pass", name=name)
    if word == "rethrow":
        kept = list(state.view(None).get("hand") or [])
        for face in rest.split():
            if face in kept:
                kept.remove(face)
        if not kept:
            return text(language, "did.rethrow_all", name=name)
        return text(language, "did.rethrow", name=name, kept=" ".join(kept))
    words = GAME_WORDS.get(game)
    said = words(state, notation, language, name) if words else ""
    if said:
        return said
    if without_name(name, fallback) != fallback:  # the move's words name the bot already
        return fallback
    return text(language, "did.move", name=name, move=fallback)


def without_name(name: str, move: str) -> str:
    """A move's words without the player's name they begin with ("Robot 2 passe" -> "passe")."""
    return move.removeprefix(f"{name} ")


def _roudalon(state: engines.State, notation: str, language: str, name: str) -> str:
    word, _, rest = notation.partition(" ")
    if word == "throw":
        return text(language, "did.throw_1" if rest == "1" else "did.throw_2", name=name)
    if word == "stake":
        return text(language, "did.stake", name=name, n=rest)
    return {
        "offer": text(language, "did.offer", name=name),
        "yes": text(language, "did.yes", name=name),
        "no": text(language, "did.no", name=name),
        "close": text(language, "did.close", name=name),
    }.get(word, "")


def _traverse(state: engines.State, notation: str, language: str, name: str) -> str:
    seat = state.actor if isinstance(state.actor, int) else 0
    steps = ", ".join(
        text(language, "did.forward" if sign == "+" else "did.back",
             pawn=traverse_pawn(seat, int(pawn), language), n=int(n))
        for pawn, sign, n in STEP.findall(notation)
    )  # fmt: skip
    return text(language, "did.steps", name=name, steps=steps) if steps else ""


def _strategix(state: engines.State, notation: str, language: str, name: str) -> str:
    """A robot's turn said once, whole, and why the next player is skipped: "Bot 2 played
    H I + ★(O) P", "Bot 2 played a pétard: Ann is skipped"; a step of a formula under way
    (a group, a star kept for a letter) is not said: its formula is, at its end."""
    building = str((state.view(None).get("trick") or {}).get("building") or "")
    word, _, rest = notation.partition(" ")
    seat = skipped_seat(state, notation)
    skipped = None if seat is None else state.players[seat]
    if word == "petard":
        if skipped is None:
            return text(language, "did.petard", name=name)
        return text(language, "did.petard_skips", name=name, skipped=skipped)
    if word == "star":
        return text(language, "did.star", name=name, letter=rest)
    formula = {"play": rest, "done": building, "+": f"{building} + {rest}"}.get(word, "")
    formula = re.sub(r"\s*\+\s*$", "", formula)
    if not formula:
        return ""
    cards = formula_cards(formula)
    if skipped is not None:
        return text(language, "did.formula_skips", name=name, play=cards, skipped=skipped)
    return text(language, "did.formula", name=name, play=cards)


def formula_cards(play: str) -> str:
    """A formula as the board shows it, a star declared X as ★(X): "H I + ★(O) P"."""
    return re.sub(r"\*=([A-Z])", r"★(\1)", " ".join(play.split()))


def _sequence(state: engines.State, notation: str, language: str, name: str) -> str:
    found = PLAY.fullmatch(notation.replace(" ", ""))
    if found is None:
        return ""
    card, square = card_words(found.group("card"), language), found.group("square")
    if notation.startswith("dead"):
        return text(language, "did.dead", name=name, card=card)
    removes = "x" in notation.partition("@")[0][2:]
    return text(language, "did.remove" if removes else "did.place", name=name, card=card,
                square=square)  # fmt: skip


GAME_WORDS = {"roudalon": _roudalon, "traverse": _traverse, "strategix": _strategix,
              "sequence": _sequence}  # fmt: skip
