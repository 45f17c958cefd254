"""What the Pi runs never loads vision's training or rendering rooms: the kiosk, its camera
factory, reading a d6 and a poker tray from image files and teaching a set leave no
`vision.train` or `vision.synth` module in sys.modules (pyproject's import contracts say the
same statically; this holds it where lazy imports hide from them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import cv2

from vision.synth.render import render_scene

REPO = Path(__file__).resolve().parents[1]

PI_PATH = """
    import json, sys
    import companion.app, companion.teach, hardware.factory
    from vision.profiles.profile_learning import learn_from_dir
    from vision.read.tracking import RollTracker
    from vision.reader import DiceReader, load_image

    d6 = DiceReader(kind="d6").read(load_image(sys.argv[1]))
    poker = DiceReader(kind="poker").read(load_image(sys.argv[2]))
    RollTracker().update(load_image(sys.argv[1]), d6)
    loaded = sorted(m for m in sys.modules if m.startswith(("vision.train", "vision.synth")))
    print(json.dumps({"d6": len(d6.dice), "poker": len(poker.dice), "loaded": loaded}))
"""


def test_reading_and_teaching_load_no_training_nor_rendering(tmp_path: Path) -> None:
    d6_tray, poker_tray = tmp_path / "d6.png", tmp_path / "poker.png"
    cv2.imwrite(str(d6_tray), render_scene([2, 5, 6], kind="d6", seed=7).frame)
    cv2.imwrite(str(poker_tray), render_scene(["9", "K", "A"], kind="poker", seed=7).frame)
    environment = {**os.environ, "PYTHONPATH": str(REPO), "SDL_VIDEODRIVER": "dummy"}
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(PI_PATH), str(d6_tray), str(poker_tray)],
        capture_output=True,
        text=True,
        env=environment,
        cwd=tmp_path,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    seen = json.loads(result.stdout.splitlines()[-1])
    assert seen["d6"] == 3 and seen["poker"] == 3
    assert seen["loaded"] == []
