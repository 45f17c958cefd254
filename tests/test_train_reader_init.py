"""train_reader's warm start (--face-init from an exported .onnx), teacher and set weights.

Training needs torch and onnx, which the product does not: these tests skip without them.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from vision.read import _nets  # noqa: E402
from vision.train.draws import weighted_sets  # noqa: E402
from vision.train.fitting import face_targets  # noqa: E402
from vision.train.nets import face_net, to_tensor  # noqa: E402
from vision.train.photos import SYMBOL, Photo, bare_views  # noqa: E402
from vision.train.teacher import Teacher, with_teacher  # noqa: E402
from vision.train.warm_start import onnx_weights, unfold_batch_norms  # noqa: E402

SHIPPED_48 = _nets.MODEL_DIR / "faces48.onnx"


def crops(count: int, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    image = cv2_blobs(rng)
    return [
        _nets.crop_face(image, (rng.uniform(40, 280), rng.uniform(40, 200)), 30.0, size=48)
        for _ in range(count)
    ]


def cv2_blobs(rng: np.random.Generator) -> np.ndarray:
    import cv2

    image = np.full((240, 320, 3), 200, np.uint8)
    for _ in range(40):
        centre = (int(rng.integers(0, 320)), int(rng.integers(0, 240)))
        cv2.circle(image, centre, int(rng.integers(2, 6)), (20, 20, 20), -1)
    return image


@pytest.mark.skipif(not SHIPPED_48.is_file(), reason="the shipped 48 px face net is missing")
def test_a_net_started_from_the_export_reads_as_the_export_does() -> None:
    net = face_net(48)
    unfold_batch_norms(net, onnx_weights(SHIPPED_48), to_tensor(crops(64, seed=1)))
    net.eval()
    sample = crops(16, seed=2)
    with torch.no_grad():
        chances = torch.softmax(net(to_tensor(sample)), 1).numpy()
    assert np.abs(chances - _nets.classify_crops(sample, 48)).max() < 1e-4


@pytest.mark.skipif(not SHIPPED_48.is_file(), reason="the shipped 48 px face net is missing")
def test_an_export_of_another_net_is_refused() -> None:
    with pytest.raises(ValueError):
        unfold_batch_norms(face_net(32), onnx_weights(SHIPPED_48), to_tensor(crops(4)))


def test_targets_are_chances_and_a_symbol_is_spread_over_the_values() -> None:
    targets = face_targets(torch.tensor([0, 3, SYMBOL]), 7)
    assert torch.allclose(targets.sum(1), torch.ones(3))
    assert targets[1].argmax() == 3
    assert targets[2, 0] == 0 and torch.allclose(targets[2, 1:], torch.full((6,), 1 / 6))


def test_the_teacher_shares_only_the_taught_rows_targets() -> None:
    class Sure(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            logits = torch.full((len(x), 7), -20.0)
            logits[:, 5] = 20.0
            return logits

    targets = face_targets(torch.tensor([2, 2]), 7)
    inputs = torch.zeros(2, 3, 48, 48)
    blended = with_teacher(
        targets, inputs, torch.tensor([True, False]), Teacher(Sure(), frozenset(), 0.5)
    )
    assert torch.allclose(blended[1], targets[1])
    assert blended[0, 5] == pytest.approx(0.5 + 0.5 * targets[0, 5].item(), abs=1e-6)
    assert blended[0, 2] == pytest.approx(0.5 * targets[0, 2].item(), abs=1e-6)


def test_a_set_weighed_three_times_is_drawn_three_times_as_often() -> None:
    def photo(source: str) -> Photo:
        return Photo(np.zeros((8, 8, 3), np.uint8), np.zeros((0, 4), np.float32), source=source)

    chances = weighted_sets([photo("a"), photo("b"), photo("b")], {"a": 3.0})
    assert chances == pytest.approx([0.6, 0.2, 0.2])


def test_bare_views_keep_away_from_the_dice() -> None:
    image = np.zeros((600, 800, 3), np.uint8)
    image[40:80, 40:80] = 255  # the one die, 40 px, at (60, 60)
    photo = Photo(image, np.array([[60, 60, 40, 3]], np.float32), source="s")
    views = bare_views([photo])
    assert views and all(not view.image.any() for view in views)
    assert all(view.source == "s" and not len(view.faces) for view in views)


def test_an_upright_crop_keeps_the_photos_top_up():
    from vision.train.face_samples import random_face_crop

    image = np.zeros((200, 200, 3), np.uint8)
    image[:100] = 255  # a bright top half: turned a quarter, the crop's halves differ side to side
    photo = Photo(image, np.zeros((0, 4), np.float32), source="side-views")
    rng = np.random.default_rng(1)

    def split_across(upright: bool) -> bool:  # colours may come out inverted: compare contrasts
        gray = random_face_crop(photo, (100.0, 100.0), 60.0, rng, 48, upright=upright).mean(axis=2)
        top_to_bottom = abs(gray[:16].mean() - gray[-16:].mean())
        left_to_right = abs(gray[:, :16].mean() - gray[:, -16:].mean())
        return top_to_bottom > left_to_right

    assert all(split_across(upright=True) for _ in range(40))
    assert not all(split_across(upright=False) for _ in range(40))


def test_a_misspelt_set_name_stops_training_with_one_line_naming_it(tmp_path, monkeypatch, capsys):
    from vision.train import train_reader

    (tmp_path / "dice-photos" / "varied-tables-train").mkdir(parents=True)
    (tmp_path / "dice-photos" / "varied-tables-train" / "labels.jsonl").write_text("")
    argv = ["train_reader", "--shared", str(tmp_path), "--upright-sets", "varied-table-train"]
    monkeypatch.setattr("sys.argv", argv)
    with pytest.raises(SystemExit) as stop:
        train_reader.main()
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.endswith(f"no photo set named varied-table-train in {tmp_path / 'dice-photos'}")
