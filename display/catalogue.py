"""Building the message catalogues with Babel: extract the keys, update each language, compile.

    python -m display.catalogue extract   # display/locale/tabletop.pot from the code
    python -m display.catalogue update    # new keys into every .po (English filled in for en)
    python -m display.catalogue pseudo    # the pseudo-locale qps from the English catalogue
    python -m display.catalogue compile   # every .po to its .mo (run after editing a .po)
    python -m display.catalogue check     # keys missing or untranslated, per language

The keys are the engines' message codes (engines.messages.ENGLISH) and the screen keys the code
asks for (`text(language, "key")`, `_t("key")`); Babel reads, merges, writes and compiles the
catalogues and knows each language's plural rule.
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from display.i18n import DOMAIN, LOCALE_DIR, PSEUDO, compile_po, languages

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
KEYWORDS = {"text": 2, "_t": 1, "msg": 1}  # function name -> position of the key argument
PLURAL_FORMS = {"fr": "nplurals=2; plural=(n > 1);", "en": "nplurals=2; plural=(n != 1);"}


def engine_messages() -> dict[str, str | tuple[str, str]]:
    """Every engine code and its English default (each game's module defines its own)."""
    import engines.registry
    import engines.saves  # noqa: F401 - defines the save codes
    from engines.messages import ENGLISH

    for target in engines.registry.GAME_CLASSES.values():
        importlib.import_module(target.split(":")[0])
    return dict(ENGLISH)


def screen_keys() -> set[str]:
    """Keys the display and companion code ask for: every literal a key argument can take
    (`text(lang, "won" if won else "lost")` asks for both)."""
    found = set()
    for folder in ("display", "companion"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                found.update(_keys_asked(node))
    return found


def _keys_asked(node: ast.AST) -> Iterator[str]:
    if not isinstance(node, ast.Call):
        return
    name = getattr(node.func, "id", getattr(node.func, "attr", ""))
    if name not in KEYWORDS or len(node.args) < KEYWORDS[name]:
        return
    yield from _literals(node.args[KEYWORDS[name] - 1])


def _literals(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if re.fullmatch(r"[a-z_][a-z0-9_.]*", node.value):
            yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)


def page_phrases() -> list[str | tuple[str, str]]:
    """The English phrases the web pages ask for (pages/ and club/: `_("...")`, `ngettext` in
    Python and in the Jinja2 templates), found with Babel's extractors."""
    jinja = {"extensions": "jinja2.ext.i18n"}
    sources = [
        (ROOT / "pages", [("**.py", "python"), ("templates/**.html", "jinja2")]),
        (ROOT / "club", [("**.py", "python")]),
    ]
    found: dict[str, str | tuple[str, str]] = {}
    for folder, methods in sources:
        options = {pattern: jinja for pattern, method in methods if method == "jinja2"}
        for _, _, message, _, _ in extract_from_dir(folder, methods, options):
            phrase = message if isinstance(message, str) else (message[0], message[1])
            found.setdefault(phrase if isinstance(phrase, str) else phrase[0], phrase)
    return list(found.values())


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def load(language: str) -> Catalog:
    with po_path(language).open("rb") as source:
        return read_po(source, locale=language if language != PSEUDO else "en")


def save(catalog: Catalog, path: Path) -> None:
    catalog.fuzzy = False  # a fuzzy header is left out of the .mo, and its plural rule with it
    path.parent.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    write_po(out, catalog, width=0, sort_output=True, omit_header=False)
    path.write_bytes(out.getvalue())


def extract() -> Catalog:
    template = Catalog(domain=DOMAIN, project="tabletop-companion")
    for code, english in engine_messages().items():
        template.add(code if isinstance(english, str) else (code, code))
    english = load("en")
    plain = {message.id for message in english if isinstance(message.id, str) and message.id}
    for key in sorted(screen_keys() | plain):
        if key not in template:
            template.add(key)
    for phrase in page_phrases():
        if (phrase if isinstance(phrase, str) else phrase[0]) not in template:
            template.add(phrase, flags=["python-format"] if "%(" in str(phrase) else [])
    for message in english:
        if isinstance(message.id, tuple) and message.id[0] not in template:
            template.add(message.id)
    save(template, TEMPLATE)
    return template


def update() -> None:
    template = extract()
    defaults: dict[str, str | tuple[str, str]] = dict(engine_messages())
    for phrase in page_phrases():  # the pages' English is the phrase itself
        defaults.setdefault(phrase if isinstance(phrase, str) else phrase[0], phrase)
    for language in languages(with_pseudo=False):
        catalog = load(language)
        for message in template:
            key = message.id[0] if isinstance(message.id, tuple) else message.id
            if not key or key in catalog:
                continue
            default = defaults.get(key, "") if language == "en" else ""
            catalog.add(message.id, default if isinstance(message.id, str) else list(default))
        save(catalog, po_path(language))


_ACCENTED = str.maketrans("aceinousyACEINOUSY", "àçéîñôûšýÀÇÉÎÑÔÛŠÝ")
_FIELD = re.compile(r"(\{[^{}]*\}|<[^<>]*>|%\([a-z_]+\)[sd]|\\n)")


def pseudo_text(text: str) -> str:
    """Accented and about 35 % longer, fields and notation placeholders kept as they are.

    Each word grows by its share of the extra length, so a long text still wraps where the
    English one does (one long run of padding at the end would be a word no line can hold)."""
    if not text:
        return text
    parts = _FIELD.split(text)
    words = "".join(part for part in parts if not _FIELD.fullmatch(part))
    letters = sum(ch.isalpha() for ch in words)
    if not letters:
        return text
    rate = max(1, round(len(text) * 0.35) - 2) / letters  # the brackets count in the 35 %
    done = [0, 0]  # letters seen, padding given: each word's share, rounded without drift

    def longer(word: re.Match[str]) -> str:
        done[0] += len(word.group(0))
        padding = max(1, round(done[0] * rate) - done[1])
        done[1] += padding
        return word.group(0).translate(_ACCENTED) + "·" * padding

    changed = "".join(part if _FIELD.fullmatch(part) else _WORD.sub(longer, part) for part in parts)
    return f"⟦{changed}⟧"


_WORD = re.compile(r"[^\W\d_]+")


def make_pseudo() -> None:
    english = load("en")
    catalog = Catalog(locale="en", domain=DOMAIN, project="tabletop-companion")
    for message in english:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            catalog.add(message.id, [pseudo_text(s) for s in message.string])
        else:
            catalog.add(message.id, pseudo_text(message.string))
    save(catalog, po_path(PSEUDO))


def compile_all() -> None:
    for language in languages(with_pseudo=True):
        po = po_path(language)
        po.with_suffix(".mo").write_bytes(compile_po(po))


def problems(language: str) -> Iterator[str]:
    """Keys of the engines or of the English catalogue missing in the catalogue, and entries
    with no translation."""
    catalog = load(language)
    for code in engine_messages():
        if code not in catalog:
            yield f"{language}: no entry for engine code {code}"
    for message in load("en") if language != "en" else ():
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        if key and key not in engine_messages() and key not in catalog:
            yield f"{language}: no entry for {key!r} (English has one)"
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings) or message.fuzzy:
            yield f"{language}: {message.id!r} is not translated"


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "extract":
        extract()
    elif command == "update":
        update()
    elif command == "pseudo":
        make_pseudo()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = [line for lang in languages(with_pseudo=True) for line in problems(lang)]
        print("\n".join(found) or "every catalogue is complete")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
