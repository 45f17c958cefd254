"""The table's examples on the settings screen: how many, forget them, export and import them;
and each confirmed roll kept as examples (companion/examples.py).

The kiosk exports to and imports from one file in the state directory
(EXPORT_NAME), the place a player can reach over the network or with a USB stick; the CLI takes
any path (`tabletop examples`).
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from companion.dice_proposal import DiceProposal
from companion.examples import ExamplesError, ExampleStore
from companion.screen_base import KioskView
from display.model import Target

log = logging.getLogger(__name__)
EXPORT_NAME = "table-examples.npz"


def examples_store(store: Any) -> ExampleStore | None:
    """The examples kept beside the game store (None for a store with no state directory)."""
    state_dir = getattr(store, "state_dir", None)
    return None if state_dir is None else ExampleStore(state_dir)


def keep_examples(examples: ExampleStore | None, proposal: DiceProposal, kind: str) -> None:
    """Each die of a confirmed roll read on the picture, with the face confirmed for it
    (corrected where a player changed it); dice entered by hand have no picture."""
    if examples is None or proposal.image is None:
        return
    try:
        from vision.profiles.adapt import example_crop

        kept = [
            (example_crop(proposal.image, center, np.asarray(quad), kind == "poker"),
             face, index in proposal.corrected)
            for index, (face, center, quad) in enumerate(
                zip(proposal.faces, proposal.centers, proposal.quads, strict=True)
            )
            if center is not None and quad is not None and face is not None
        ]  # fmt: skip
        if kept:
            crops, faces, corrected = zip(*kept, strict=True)
            examples.add_roll(kind, crops, faces, corrected)
    except Exception as error:  # examples must never cost the table its roll
        log.warning("the roll's examples were not kept: %s", error)


class ExamplesPanel:
    """The settings screen's part on the examples: counted, forgotten, exported, imported."""

    def __init__(self, view: KioskView) -> None:
        self.view = view
        self.open = False  # the settings screen shows the examples' buttons

    def line(self) -> str:
        examples = self.view.examples
        if examples is None:
            return ""
        counts = examples.counts()
        totals = {kind: sum(n for n, _ in faces.values()) for kind, faces in counts.items()}
        corrected = sum(c for faces in counts.values() for _, c in faces.values())
        return self.view.t("examples", d6=totals["d6"], poker=totals["poker"], corrected=corrected)

    def options(self) -> list[Target]:
        """The settings screen's button to the examples, or theirs while they are open."""
        t = self.view.t
        if self.view.examples is None:
            return []
        if not self.open:
            return [Target("examples:open", t("examples_open"))]
        return [
            Target("examples:export", t("examples_export"), "normal"),
            Target("examples:import", t("examples_import"), "normal"),
            Target("examples:reset", t("examples_reset"), "danger"),
        ]

    def tap(self, step: str) -> None:
        examples, view = self.view.examples, self.view
        if examples is None or step not in ("open", "close", "export", "import", "reset"):
            view.not_here(f"examples:{step}")
            return
        if step in ("open", "close"):
            self.open = step == "open"
            view.say("")
            return
        path = examples.root.parent / EXPORT_NAME
        try:
            if step == "reset":
                view.say(view.t("examples_forgotten", n=examples.reset()))
            elif step == "export":
                view.say(view.t("examples_exported", n=examples.export(path), path=path))
            else:
                added = examples.import_file(path)
                view.say(view.t("examples_imported", n=added, path=path))
        except (ExamplesError, OSError) as error:
            view.say(view.t("examples_bad", reason=error), True)
