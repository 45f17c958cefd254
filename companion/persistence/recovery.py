"""Starting the table whatever the state directory holds: the store opened (or one in memory
that keeps nothing, saying why), and games whose log no longer replays set aside as damaged."""

from __future__ import annotations

import logging
from pathlib import Path

import engines
from companion.persistence.store import GameRecord, Store, StoreUnavailable

log = logging.getLogger(__name__)


def open_store(state_dir: str | Path) -> Store:
    """The state directory's store; when it cannot be used, one in memory with the reason in
    its notes (the table is playable, nothing is kept) - never raises."""
    try:
        store = Store(state_dir)
    except StoreUnavailable as error:
        reason = f"{error} - NOTHING IS SAVED until this is fixed"
        log.error("store: %s", reason)
        store = Store.in_memory(state_dir, reason)
    try:
        store.notes += set_aside_unreplayable(store)
    except Exception as error:  # the games cannot even be listed: the controller will say more
        log.error("store: checking the games in progress failed", exc_info=True)
        store.notes.append(f"the games in progress could not be checked: {error}")
    return store


def set_aside_unreplayable(store: Store) -> list[str]:
    """Mark each game in progress whose log does not replay as damaged; what was done."""
    notes = []
    for record in store.playing_games():
        problem = replay_problem(record, store)
        if problem:
            note = f"game {record.id} ({record.game}) set aside as damaged: {problem}"
            try:
                store.mark_damaged(record.id, problem)
            except Exception as error:  # a full disk: said, and the controller will not resume
                note = f"game {record.id} ({record.game}) is damaged ({problem}) but cannot be "
                note += f"marked so: {error}"
            log.warning("store: %s", note)
            notes.append(note)
    return notes


def replay_problem(record: GameRecord, store: Store) -> str:
    """Why the stored game cannot be rebuilt by its engine ('' when it can)."""
    if record.problem:
        return record.problem
    try:
        state = engines.make_game(
            record.game, list(record.players), record.options, record.seed, record.mode
        ).new_state()
    except Exception as error:  # any refusal of a stored set-up, typed or not
        return f"its set-up is refused ({one_line(error)})"
    for logged in store.actions(record.id):
        try:
            state.apply(logged.notation)
        except Exception as error:
            return f"stored action {logged.seq} {logged.notation!r} is refused ({one_line(error)})"
    return ""


def one_line(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else ""
    return text or type(error).__name__
