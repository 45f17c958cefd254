"""Reading Stratégix text that is not a listed step: a play, pass or pétard checked against the
trick and the hand (in table mode, against the cards seen), or the reason it cannot be played."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from engines._strategix_deck import STARS, cards_of, hand_counts, parse_deal, sorted_cards
from engines._strategix_formulas import (
    LETTERS,
    STAR,
    Play,
    canonical,
    make_group,
    parse_play,
    play_text,
    real_letters,
    respelled,
    shape_of,
    star_count,
    strength,
)
from engines._strategix_moves import (
    StepsView,
    available,
    pass_and_petard,
    petard_problem,
    play_action,
)
from engines.core import Action, EngineError, IllegalActionError, NotationError
from engines.messages import Message, msg


@runtime_checkable
class ReadingView(StepsView, Protocol):
    """What reading text reads of the state beyond the steps (StrategixState has it)."""

    def chance_prompt(self) -> Message | None: ...

    def legal_actions(self) -> list[Action]: ...


_PASS_WORDS = ("pass", "passe", "passer")
_PETARD_WORDS = ("petard", "pétard")
_PLAY_WORDS = ("play", "jouer", "joue")
_STAR_WORDS = ("star", "étoile", "etoile")


def parse(state: ReadingView, text: str) -> Action:
    """The action `text` names, or the error saying why it is not one now."""
    word, _, rest = text.partition(" ")
    word = word.lower()
    if state.phase == "first":
        raise _not_now(state, text, word, "first")
    if state.phase == "deal":
        if word != "deal":
            raise _not_now(state, text, word, "deal")
        return parse_deal(rest, state.players)
    if state.building and word not in ("+", "done", *_STAR_WORDS):
        raise IllegalActionError("strategix.finish", formula=play_text(canonical(state.building)))
    if state.locks and word not in _STAR_WORDS:
        raise IllegalActionError("strategix.locked", letters=_locks_text(state.locks))
    if word in _STAR_WORDS:
        raise _bad_star(state, rest)
    if word in ("+", "done"):
        raise _bad_step(state, text)
    if word in _PLAY_WORDS and rest.endswith("+"):
        if state.game.mode == "table":
            raise IllegalActionError("strategix.table_whole")
        _explain_group(state, rest[:-1])
        raise _bad_step(state, text)
    if word in _PLAY_WORDS:
        return _parse_play(state, rest)
    if word in _PASS_WORDS and not rest:
        return _checked_simple(state, "pass", msg("strategix.leader_plays"))
    if word in _PETARD_WORDS and not rest:
        return _checked_simple(state, "petard", petard_problem(state))
    if word in ("first", "deal"):
        raise IllegalActionError("strategix.round_on", text=text, name=state.players[state.current])
    raise NotationError("strategix.not_an_action", text=text)


def _not_now(state: ReadingView, text: str, word: str, expected: str) -> EngineError:
    if word not in ("first", "deal", *_PLAY_WORDS, *_PASS_WORDS, *_PETARD_WORDS):
        return NotationError("strategix.not_an_action", text=text)
    if word == expected == "first":
        return IllegalActionError("strategix.youngest", text=text, last=len(state.players) - 1)
    return IllegalActionError("strategix.waiting", text=text, hint=state.chance_prompt())


def _locks_text(locks: tuple[int, ...]) -> list[Message]:
    return [msg("strategix.letter", letter=LETTERS[letter]) for letter in locks]


# ----- steps of a formula laid group by group (full mode) -------------------------------------


def _bad_star(state: ReadingView, rest: str) -> EngineError:
    """Why `star X` is not a step now."""
    if state.game.mode == "table":
        return IllegalActionError("strategix.table_star")
    letter = rest.strip().upper().removeprefix("*=")
    if len(letter) != 1 or letter not in LETTERS:
        return NotationError("strategix.star_letter")
    index, locks = LETTERS.index(letter), state.locks
    counts, stars = available(state)
    if stars <= len(locks):
        return IllegalActionError("strategix.no_star_left")
    if counts[index] <= locks.count(index):
        return IllegalActionError("strategix.none_to_keep", letter=letter)
    if locks and index < locks[-1]:
        return IllegalActionError("strategix.letter_order", letter=letter, other=LETTERS[locks[-1]])
    return IllegalActionError("strategix.no_group_star", letter=letter)


def _explain_group(state: ReadingView, body: str) -> None:
    """Raise the reason a formula's first group cannot be laid, if there is one."""
    group = parse_play(body)
    top = state.top_play()
    if len(group) > 1:
        raise IllegalActionError("strategix.one_group")
    if top is not None and (group[0].kind, group[0].size) != (top[0].kind, top[0].size):
        raise IllegalActionError(
            "strategix.group_shape", shape=shape_of(top).message(), group=top[0].text
        )
    if top is not None and strength(group) < strength(top):
        low, top_low = LETTERS[strength(group)], LETTERS[strength(top)]
        raise IllegalActionError("strategix.group_weak", low=low, top_low=top_low)
    _check_holding(state, group)
    if not state.locks:
        _check_no_kept_letter(state, group)


def _bad_step(state: ReadingView, text: str) -> EngineError:
    if state.game.mode == "table":
        return IllegalActionError("strategix.table_whole")
    if not state.building and not text.lower().startswith("play"):
        return IllegalActionError("strategix.no_formula", text=text)
    steps = ", ".join(a.notation for a in state.legal_actions()[:6]) or "-"
    top = state.top_play()
    if top is None:
        return IllegalActionError("strategix.dead_end", text=text, steps=steps)
    return IllegalActionError(
        "strategix.dead_end_follow", text=text, n=shape_of(top).groups, steps=steps
    )


# ----- pass, pétard and whole formulas --------------------------------------------------------


def _checked_simple(state: ReadingView, word: str, problem: Message | None) -> Action:
    legal = {action.notation: action for action in pass_and_petard(state)}
    if word in legal:
        return legal[word]
    problem = problem or msg("strategix.not_allowed", word=word)
    raise IllegalActionError(problem.code, **problem.params)


def _parse_play(state: ReadingView, body: str) -> Action:
    play = parse_play(body)
    _check_against_trick(state.top_play(), play)
    if state.game.mode == "table":
        return play_action(state, _checked_table_play(state, play))
    return _checked_full_play(state, play)


def _check_against_trick(top: Play | None, play: Play) -> None:
    if top is None:
        return
    wanted, given = shape_of(top), shape_of(play)
    if wanted != given:
        raise IllegalActionError(
            "strategix.shape",
            want=wanted.message(),
            top=play_text(top),
            given=given.message(),
        )
    if strength(play) < strength(top):
        raise IllegalActionError(
            "strategix.weak",
            low=LETTERS[strength(play)],
            top_low=LETTERS[strength(top)],
            top=play_text(top),
        )


def _check_holding(state: ReadingView, play: Play) -> None:
    counts, stars, _ = hand_counts(state.hands[state.current])
    for letter in real_letters(play):
        counts[letter] -= 1
        if counts[letter] < 0:
            shown = LETTERS[letter]
            raise IllegalActionError("strategix.not_enough", letter=shown)
    if star_count(play) > stars:
        raise IllegalActionError("strategix.stars", n=star_count(play), have=stars)


def _checked_full_play(state: ReadingView, play: Play) -> Action:
    """Cards the hand holds, recorded in the one spelling the listing uses."""
    _check_holding(state, play)
    _check_no_kept_letter(state, play)
    return play_action(state, respelled(play))


def _check_no_kept_letter(state: ReadingView, play: Play) -> None:
    """A star for a letter the player holds goes through `star X` steps, so that full mode
    accepts exactly what it lists."""
    counts = hand_counts(state.hands[state.current])[0]
    declared_count, real_count = [0] * len(LETTERS), [0] * len(LETTERS)
    for group in play:
        for letter in group.letters:
            declared_count[LETTERS.index(letter)] += 1
    for letter in real_letters(play):
        real_count[letter] += 1
    kept = [LETTERS[i] for i in range(len(LETTERS))
            if real_count[i] < min(declared_count[i], counts[i])]  # fmt: skip
    if kept:
        steps = ", ".join(f"'star {letter}'" for letter in kept)
        letters = [msg("strategix.letter", letter=letter) for letter in kept]
        raise IllegalActionError("strategix.keep", letters=letters, steps=steps)


def _checked_table_play(state: ReadingView, play: Play) -> Play:
    """Card counting: a third copy of a letter must be a star (R1: two of each letter)."""
    seen = hand_counts(state.played)[0]
    groups = []
    for group in play:
        mask = group.mask
        for position, letter in enumerate(group.letters):
            index = LETTERS.index(letter)
            if mask >> position & 1:
                continue
            if seen[index] >= 2:
                mask |= 1 << position  # both copies are down: this card is a star
            else:
                seen[index] += 1
        groups.append(make_group(group.kind, group.start, group.size, mask))
    counted = tuple(sorted(groups, key=lambda g: (g.start, g.mask)))
    stars_left = STARS - state.played.count(STAR)
    if star_count(counted) > stars_left:
        raise IllegalActionError(
            "strategix.impossible",
            n=star_count(counted),
            left=stars_left,
            seen=sorted_cards(state.played) or "-",
        )
    if len(cards_of(counted)) > state.counts[state.current]:
        raise IllegalActionError(
            "strategix.holds_only", name=state.players[state.current], n=state.counts[state.current]
        )
    return counted
