"""Stratégix's legal steps in play: pass and pétard, and in full mode every formula's groups and
`star X` steps that can still go on into a whole formula, each with what it says."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from engines._strategix_deck import PETARDS, hand_counts
from engines._strategix_formulas import (
    LETTERS,
    PAIRS,
    PETARD,
    RUNS,
    SINGLE,
    Group,
    Play,
    can_extend,
    canonical,
    declared,
    give_back,
    group_candidates,
    has_z,
    locked_candidates,
    missing_after,
    missing_letters,
    play_text,
    shape_of,
    strength,
    take,
)
from engines.core import Action, Game
from engines.messages import Message, msg


@runtime_checkable
class StepsView(Protocol):
    """What listing the steps of the player to act reads of the state (StrategixState has it)."""

    game: Game
    phase: str
    current: int
    hands: list[str] | None
    counts: list[int]
    played: str
    top: tuple[int, Play] | None
    after_petard: bool
    building: tuple[Group, ...]
    locks: tuple[int, ...]

    @property
    def players(self) -> tuple[str, ...]: ...

    def top_play(self) -> Play | None: ...


def legal_steps(state: StepsView) -> list[Action]:
    """Every step of the player to act; table mode lists only pass and pétard."""
    if state.game.mode == "table":
        return pass_and_petard(state)
    steps = _building_steps(state) if state.building else _first_steps(state)
    steps += _star_steps(state)
    if state.building or state.locks:
        return steps
    return steps + pass_and_petard(state)


def table_notes(state: StepsView) -> list[Message]:
    """Table mode lists only pass and pétard: say that the actor may also lead any formula,
    or follow the trick with its shape from its lowest letter up."""
    if state.game.mode != "table" or state.phase != "play":
        return []
    top = state.top_play()
    if top is None:
        notes = [msg("strategix.may.lead")]
    else:
        shape, low = shape_of(top).message(), LETTERS[strength(top)]
        notes = [msg("strategix.may.follow", shape=shape, low=low, top=play_text(top))]
    return notes + [msg(f"strategix.may.{a.notation}") for a in pass_and_petard(state)]


# ----- pass and pétard ------------------------------------------------------------------------


def pass_and_petard(state: StepsView) -> list[Action]:
    actions = []
    if _may_pass(state):
        actions.append(_simple_action(state, "pass"))
    if petard_problem(state) is None:
        actions.append(_simple_action(state, "petard"))
    return actions


def _simple_action(state: StepsView, word: str) -> Action:
    name = state.players[state.current]
    if word == "pass":
        if state.top is None:
            return Action("pass", msg("strategix.said.pass_no_lead", name=name))
        return Action("pass", msg("strategix.said.pass", name=name))
    return Action("petard", msg("strategix.said.petard", name=name))


def _may_pass(state: StepsView) -> bool:
    if state.top is not None:
        return True
    # A leader may only pass when holding nothing but pétards (a pétard never leads).
    if state.game.mode == "full":
        hand = state.hands[state.current]
        return hand.count(PETARD) == len(hand)
    return state.counts[state.current] <= PETARDS - state.played.count(PETARD)


def petard_problem(state: StepsView) -> Message | None:
    """Why the player to act may not lay a pétard now, or None when they may."""
    if state.top is None:
        return msg("strategix.petard_lead")
    if state.after_petard:
        return msg("strategix.petard_twice")
    if state.game.mode == "full" and PETARD not in state.hands[state.current]:
        return msg("strategix.no_petard")
    if state.game.mode == "table" and state.played.count(PETARD) >= PETARDS:
        return msg("strategix.petards_gone")
    return None


# ----- a formula's groups ---------------------------------------------------------------------


def available(state: StepsView) -> tuple[list[int], int]:
    """Letter counts and stars the next group may use: the hand less the formula being built,
    and no letter the formula already laid a star for while holding it (see `respelled`)."""
    counts, stars, _ = hand_counts(state.hands[state.current])
    frozen = []
    for group in state.building:
        for position, letter in enumerate(group.letters):
            index = LETTERS.index(letter)
            if not group.mask >> position & 1:
                counts[index] -= 1
            elif counts[index]:
                frozen.append(index)
        stars -= group.nstars
    for index in frozen:
        counts[index] = 0
    return counts, stars


def _first_steps(state: StepsView) -> list[Action]:
    """Full mode: each formula's first group, complete (`play g`) or to go on (`play g +`)."""
    counts, stars = available(state)
    missing = missing_letters(counts)
    top, locks = state.top_play(), state.locks
    if top is not None:
        shape = shape_of(top)
        candidates = _candidates(shape.kind, shape.length, counts, stars, strength(top), locks)
        return _opening_steps(state, candidates, counts, stars, missing, shape.groups)
    actions = []
    for kind, length in ((SINGLE, 1), (PAIRS, 2)):
        candidates = _candidates(kind, length, counts, stars, 0, locks, missing)
        actions += _opening_steps(state, candidates, counts, stars, missing)
    for length in range(2, len(LETTERS) + 1):
        candidates = _candidates(RUNS, length, counts, stars, 0, locks, missing)
        if not candidates and length >= _locked_span(locks):
            break  # a longer run needs even more cards
        actions += _opening_steps(state, candidates, counts, stars, missing)
    return actions


def _locked_span(locks: tuple[int, ...]) -> int:
    return locks[-1] - locks[0] + 1 if locks else 0


def _candidates(
    kind: str,
    size: int,
    counts: list[int],
    stars: int,
    min_start: int,
    locks: tuple[int, ...],
    missing: int | None = None,
) -> list[Group]:
    """The next group's candidates, holding a star for each locked letter if any."""
    if locks:
        return locked_candidates(kind, size, counts, stars, min_start, locks)
    return group_candidates(kind, size, counts, stars, min_start, missing)


def _opening_steps(
    state: StepsView,
    candidates: list[Group],
    counts: list[int],
    stars: int,
    missing: int,
    groups: int | None = None,
) -> list[Action]:
    """`groups` is the follow's group count, None for a lead (any count)."""
    actions = []
    fewest_stars_from = _fewest_stars_from(candidates)
    for group in candidates:
        if groups in (None, 1):
            actions.append(play_action(state, (group,)))
        if group.kind == SINGLE or groups == 1:
            continue
        # Fast path for a lead: a later group on other letters needs no search.
        beyond = group.start + (group.size if group.kind == RUNS else 1)
        fast = groups is None and not state.locks
        if fast and fewest_stars_from[beyond] <= stars - group.nstars:
            actions.append(_step_action(state, "play", group))
        elif _completable(group, counts, stars, missing, (groups or 2) - 1, state.locks):
            actions.append(_step_action(state, "play", group))
    return actions


def _fewest_stars_from(candidates: list[Group]) -> list[float]:
    """For each letter index, the fewest stars a candidate starting there or later needs."""
    fewest = [float("inf")] * (len(LETTERS) + 2)
    for group in candidates:
        fewest[group.start] = min(fewest[group.start], group.nstars)
    for start in range(len(LETTERS) - 1, -1, -1):
        fewest[start] = min(fewest[start], fewest[start + 1])
    return fewest


def _completable(
    group: Group, counts: list[int], stars: int, missing: int, more: int, locks: tuple[int, ...]
) -> bool:
    """Whether `more` groups can follow `group` (`counts` etc. before taking it)."""
    if locks:  # the locked letters are out of the rest of the formula
        left = list(counts)
        take(left, group)
        for letter in locks:
            left[letter] = 0
        return can_extend(group, left, stars - group.nstars, more, missing_letters(left))
    take(counts, group)
    after = missing_after(missing, counts, group)
    found = can_extend(group, counts, stars - group.nstars, more, after)
    give_back(counts, group)
    return found


def _building_steps(state: StepsView) -> list[Action]:
    """Full mode, a formula under way: its next group (`+ g`), or `done` for a lead."""
    counts, stars = available(state)
    missing = missing_letters(counts)
    building, locks = state.building, state.locks
    last, top = building[-1], state.top_play()
    more = shape_of(top).groups - len(building) - 1 if top is not None else 0
    actions = []
    for group in _candidates(last.kind, last.size, counts, stars, last.start, locks, missing):
        if _completable(group, counts, stars, missing, more, locks):
            actions.append(_step_action(state, "+", group))
    if top is None and len(building) >= 2 and not locks:
        play = canonical(building)
        name = state.players[state.current]
        said = msg("strategix.said.done", name=name, play=play_text(play))
        actions.append(Action("done", said, play))
    return actions


# ----- stars kept for a letter held (R2) ------------------------------------------------------


def _star_steps(state: StepsView) -> list[Action]:
    """Full mode, R2: `star X` before a group lays a star for a letter X the player holds."""
    counts, stars = available(state)
    locks = state.locks
    if stars < len(locks) + 1:
        return []
    lowest = locks[-1] if locks else 0
    actions = []
    for letter in range(lowest, len(LETTERS)):
        if counts[letter] > locks.count(letter) and _lock_fits(state, letter, counts, stars):
            actions.append(_star_action(state, letter))
    return actions


def _lock_fits(state: StepsView, letter: int, counts: list[int], stars: int) -> bool:
    """Whether a group holding a star for `letter` (and the earlier locks) can be laid."""
    locks = (*state.locks, letter)
    top, last = state.top_play(), state.building[-1] if state.building else None
    if last is None and top is None:  # a lead's first group: any one-group formula will do
        if len(locks) == 1:
            return True
        kind, size = (PAIRS, 2) if locks[0] == locks[-1] else (RUNS, locks[-1] - locks[0] + 1)
        return bool(locked_candidates(kind, size, counts, stars, 0, locks))
    model = last or top[0]
    low = last.start if last else strength(top)
    more = (shape_of(top).groups if top else len(state.building) + 1) - len(state.building) - 1
    missing = missing_letters(counts)
    candidates = locked_candidates(model.kind, model.size, counts, stars, low, locks)
    return any(_completable(group, counts, stars, missing, more, locks) for group in candidates)


def _star_action(state: StepsView, letter: int) -> Action:
    name, shown = state.players[state.current], LETTERS[letter]
    return Action(f"star {shown}", msg("strategix.said.star", name=name, letter=shown), letter)


# ----- the actions ----------------------------------------------------------------------------


def _step_action(state: StepsView, word: str, group: Group) -> Action:
    name = state.players[state.current]
    so_far = play_text(canonical((*state.building, group)))
    if word == "play":
        said = msg("strategix.said.start", name=name, play=so_far)
        return Action(f"play {group.text} +", said, group)
    top = state.top_play()
    if top is not None and len(state.building) + 1 == shape_of(top).groups:
        action = play_action(state, canonical((*state.building, group)))
        return Action(f"+ {group.text}", action.message, group)
    said = msg("strategix.said.add", name=name, group=group.text, play=so_far)
    return Action(f"+ {group.text}", said, group)


def play_action(state: StepsView, play: Play) -> Action:
    """The action laying a whole formula, noting a Z or an exact copy of the formula to beat."""
    name, body = state.players[state.current], play_text(play)
    note = _play_note(state, play)
    if note is None:
        return Action("play " + body, msg("strategix.said.play", name=name, play=body), play)
    said = msg("strategix.said.play_noted", name=name, play=body, note=note)
    return Action("play " + body, said, play)


def _play_note(state: StepsView, play: Play) -> Message | None:
    if has_z(play):
        return msg("strategix.said.note_z")
    if state.top is not None and declared(play) == declared(state.top_play()):
        return msg("strategix.said.note_same")
    return None
