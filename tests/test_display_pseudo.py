"""Adding a language is adding one catalogue: every gallery screen, rendered in the pseudo-locale
qps (every string accented and about 35 % longer), draws only catalogue words and clips nothing.

Every string the renderer draws is collected; each word of two letters or more must carry the
pseudo-locale's padding (`·`), or be a name (players, languages named by their own catalogue,
camera settings) — a word without it was built in code, outside the catalogue."""

from __future__ import annotations

import re

import pytest

import engines.core
from companion.gallery import SIZES, scenes
from companion.persistence.store import Store
from companion.settings_screens import CAMERA_CHOICES
from display.i18n import PSEUDO, languages, text
from display.render import Renderer
from tests.test_display_fit import SCENE_NAMES, target_problems

PLAYERS = {"Alice", "Bruno", "Chloé", "David"}
WORD = re.compile(r"[^\W\d_]{2,}·?")
PATH = re.compile(r"[^\s⟦]*/[^\s⟧]*")


def names() -> set[str]:
    """Words that are names, not sentences: they are the same in every language."""
    language_names = {text(lang, "language_name") for lang in languages()}
    camera = {word for spec in CAMERA_CHOICES for word in WORD.findall(spec)}
    return PLAYERS | {w for name in language_names for w in WORD.findall(name)} | camera


def untranslated(
    drawn: str, allowed: set[str], engine_texts: frozenset[str] = frozenset()
) -> list[str]:
    """The words of `drawn` that did not come through the pseudo-locale's catalogue (an engine's
    own description, whole or a wrapped line of it, is left to the test that expects it)."""
    for said in sorted(engine_texts, key=len, reverse=True):
        drawn = drawn.replace(said, " ")
    if any(drawn.strip() and drawn.strip() in said for said in engine_texts):
        return []
    drawn = PATH.sub(" ", drawn)  # file paths are names too
    return [w for w in WORD.findall(drawn) if not w.endswith("·") and w not in allowed]


class Recorder:
    """Hooks the renderer's one text-drawing path and the engines' own descriptions."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.drawn: list[str] = []
        self.engine_texts: set[str] = set()
        draw_text = Renderer.text_surface
        describe = engines.core.Action.describe

        def text_surface(renderer, content, size, colour):
            self.drawn.append(content)
            return draw_text(renderer, content, size, colour)

        def described(action, language="fr"):
            said = describe(action, language)
            self.engine_texts.add(said)
            return said

        monkeypatch.setattr(Renderer, "text_surface", text_surface)
        monkeypatch.setattr(engines.core.Action, "describe", described)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with Store(tmp_path_factory.mktemp("pseudo")) as opened:
        yield opened


def render_in_pseudo(store: Store, name: str, recorder: Recorder) -> list[str]:
    """Draw the scene at both panel sizes in qps; the problems found (clipping, small targets)."""
    controller = dict(scenes(store, PSEUDO))[name]()
    problems = []
    for size in SIZES.values():
        renderer = Renderer(size)
        controller.use_layout(renderer.layout)
        renderer.draw(controller.screen())
        where = f"{name} {size[0]}x{size[1]}"
        problems += [f"{where}: {p}" for p in renderer.problems + target_problems(renderer)]
    return problems


@pytest.mark.parametrize("name", SCENE_NAMES)
def test_every_screen_renders_in_the_pseudo_locale_from_catalogues_unclipped(
    store, name, monkeypatch
):
    recorder = Recorder(monkeypatch)
    problems = render_in_pseudo(store, name, recorder)
    engine_texts = frozenset(said for said in recorder.engine_texts if said)  # see the next test
    for drawn in sorted(set(recorder.drawn)):
        words = untranslated(drawn, names(), engine_texts)
        if words:
            problems.append(f"{name}: {drawn!r} has words outside the catalogue: {words}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", ["table-moves", "traverse", "roudalon", "strategix", "sequence"])
def test_engine_move_descriptions_reach_the_screen_through_the_catalogue(store, name, monkeypatch):
    recorder = Recorder(monkeypatch)
    render_in_pseudo(store, name, recorder)
    found = sorted({w for drawn in recorder.drawn for w in untranslated(drawn, names())})
    assert not found, f"{name}: engine words drawn untranslated: {found}"


def test_a_word_outside_the_catalogue_is_caught():
    assert untranslated("⟦Hàñd··: {hand}⟧".replace("{hand}", "Nine Ten"), set()) == ["Nine", "Ten"]
    assert untranslated("⟦Šéttîñgš·⟧ Alice: 3 ⟦pôt··· (ÛM·)⟧", {"Alice"}) == []
    assert untranslated("K♠ 10♥ B", set()) == []  # notation: one letter, figures, symbols
    assert untranslated("⟦Dàtà··: /var/lib/tabletop⟧", set()) == []


def test_the_settings_offer_the_pseudo_locale_only_for_debugging(store, monkeypatch):
    def offered_languages() -> list[str]:
        controller = dict(scenes(store))["settings"]()
        return [t.id.removeprefix("lang:") for t in controller.screen().options
                if t.id.startswith("lang:")]  # fmt: skip

    monkeypatch.delenv("TABLETOP_PSEUDO_LOCALE", raising=False)
    assert offered_languages() == ["fr", "en"]
    monkeypatch.setenv("TABLETOP_PSEUDO_LOCALE", "1")
    assert offered_languages() == ["fr", "en", PSEUDO]
