"""The table's examples on the settings screen: how many, forget them, export and import them;
and each confirmed roll kept as examples (companion/examples.py).

A mixin of the controller. The kiosk exports to and imports from one file in the state directory
(EXPORT_NAME), the place a player can reach over the network or with a USB stick; the CLI takes
any path (`tabletop examples`).
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from companion.examples import ExamplesError, ExampleStore
from display.model import Target

log = logging.getLogger(__name__)
EXPORT_NAME = "table-examples.npz"


def examples_store(store: Any) -> ExampleStore | None:
    """The examples kept beside the game store (None for a store with no state directory)."""
    state_dir = getattr(store, "state_dir", None)
    return None if state_dir is None else ExampleStore(state_dir)


class ExamplesSettings:
    """Examples kept at every confirmed roll, and their settings (mixed into the Controller)."""

    store: Any
    examples: ExampleStore | None
    examples_open: bool  # the settings screen shows the examples' buttons

    _t: Any  # the Controller's
    _say: Any

    def keep_examples(self, proposal: Any, kind: str) -> None:
        """Each die of a confirmed roll read on the picture, with the face confirmed for it
        (corrected where a player changed it); dice entered by hand have no picture."""
        if self.examples is None or proposal.image is None:
            return
        try:
            from vision.adapt import example_crop

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
                self.examples.add_roll(kind, crops, faces, corrected)
        except Exception as error:  # examples must never cost the table its roll
            log.warning("the roll's examples were not kept: %s", error)

    def _examples_line(self) -> str:
        if self.examples is None:
            return ""
        counts = self.examples.counts()
        totals = {kind: sum(n for n, _ in faces.values()) for kind, faces in counts.items()}
        corrected = sum(c for faces in counts.values() for _, c in faces.values())
        return self._t("examples", d6=totals["d6"], poker=totals["poker"], corrected=corrected)

    def _examples_options(self) -> list[Target]:
        """The settings screen's button to the examples, or theirs while they are open."""
        if self.examples is None:
            return []
        if not self.examples_open:
            return [Target("examples:open", self._t("examples_open"), "quiet")]
        return [
            Target("examples:export", self._t("examples_export"), "normal"),
            Target("examples:import", self._t("examples_import"), "normal"),
            Target("examples:reset", self._t("examples_reset"), "danger"),
        ]

    def _tap_examples(self, step: str) -> None:
        if self.examples is None or step not in ("open", "close", "export", "import", "reset"):
            self._say(self._t("not_here", what=f"examples:{step}"), True)
            return
        if step in ("open", "close"):
            self.examples_open = step == "open"
            self._say("")
            return
        path = self.examples.root.parent / EXPORT_NAME
        try:
            if step == "reset":
                self._say(self._t("examples_forgotten", n=self.examples.reset()))
            elif step == "export":
                self._say(self._t("examples_exported", n=self.examples.export(path), path=path))
            else:
                added = self.examples.import_file(path)
                self._say(self._t("examples_imported", n=added, path=path))
        except (ExamplesError, OSError) as error:
            self._say(self._t("examples_bad", reason=error), True)
