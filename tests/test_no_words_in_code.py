"""No words on screen are built in code: an AST scan of display/ and companion/ for string
literals of two words or more (or a word before ` : `) that reach the screen's drawing paths —
a Target's label, a Screen's title, a label or paragraph drawn, a message said, a screen's lines
or turn line. Those words belong in the catalogues (display/locale), asked for by key."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("display", "companion")
# call name -> the positions of its arguments that are shown (None: every argument)
SHOWN_ARGS: dict[str, tuple[int, ...] | None] = {
    "Target": (1,),
    "Screen": (1,),
    "label": (0,),
    "paragraph": (0,),
    "_say": (0,),
    "show_problem": (1,),
}
SHOWN_KEYWORDS = {"label", "title", "message", "turn", "lines", "content"}
SHOWN_ATTRIBUTES = {"message", "title", "turn", "lines", "entry", "detail"}
# two words, or a space before : ; ? ! (typography is the catalogue's: French and English differ)
WORDS = re.compile(r"[^\W\d_]{2,}[ \u00a0]+[^\W\d_]{2,}|[ \u00a0][:;?!](\s|$)")


def sentences(node: ast.AST) -> Iterator[ast.Constant]:
    """String literals with words in `node`, not looking inside catalogue lookups."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
        "text", "_t", "say", "game_title", "option_title", "described",  # the catalogue
        "split", "partition", "startswith", "endswith", "replace", "strip",  # parsing, not words
    ):  # fmt: skip
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and WORDS.search(node.value):
        yield node
    for child in ast.iter_child_nodes(node):
        yield from sentences(child)


def shown_values(tree: ast.AST) -> Iterator[ast.AST]:
    """Expressions shown on screen, and what the names in them were given within the function
    (`line = f"..."; renderer.label(line, box)`; `for content, colour in lines:`)."""
    for scope in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        given = _assigned(scope)
        for value in _shown(scope):
            yield from _with_names(value, given, set())


def _shown(tree: ast.AST) -> Iterator[ast.AST]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in SHOWN_ARGS:
                yield from (a for i, a in enumerate(node.args) if i in SHOWN_ARGS[name])
                yield from (k.value for k in node.keywords if k.arg in SHOWN_KEYWORDS)
        elif isinstance(node, ast.Assign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr in SHOWN_ATTRIBUTES for t in targets):
                yield node.value


def _assigned(scope: ast.AST) -> dict[str, list[ast.AST]]:
    given: dict[str, list[ast.AST]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign) and node.value:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            pairs = [(t, node.value) for t in targets]
        elif isinstance(node, ast.For | ast.comprehension):
            pairs = [(node.target, node.iter)]
        else:
            continue
        for target, value in pairs:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    given.setdefault(name.id, []).append(value)
    return given


def _with_names(
    value: ast.AST, given: dict[str, list[ast.AST]], seen: set[str]
) -> Iterator[ast.AST]:
    yield value
    for node in ast.walk(value):
        if isinstance(node, ast.Name) and node.id in given and node.id not in seen:
            seen.add(node.id)
            for earlier in given[node.id]:
                yield from _with_names(earlier, given, seen)


def words_built_in_code() -> list[str]:
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for value in shown_values(tree):
                for literal in sentences(value):
                    where = f"{path.relative_to(ROOT)}:{literal.lineno}"
                    found.append(f"{where}: {literal.value!r}")
    return sorted(set(found))


def test_no_words_reach_the_screen_without_the_catalogue():
    found = words_built_in_code()
    assert not found, "words built in code, not asked of the catalogue:\n" + "\n".join(found)


def test_the_scan_sees_the_usual_ways_words_reach_the_screen():
    source = """
Target("x", "Nouveau pli")
renderer.label(f"{name} : {n}", box)
self._say("nothing to undo", True)
screen.lines = ["Two words"]
Target("ok", text(language, "key with words"))
renderer.label(str(n), box)
parts = content.split(" ; ")
renderer.label(parts[0], box)
lines = [(f"{'Rouge' if fr else 'Red'} : {n}", colour)]
for line, colour in lines:
    renderer.label(line, box)
"""
    tree = ast.parse("def drawn():\n" + "".join(f"    {line}\n" for line in source.split("\n")))
    found = sorted({(c.lineno, c.value) for v in shown_values(tree) for c in sentences(v)})
    assert [value for _, value in found] == [
        "Nouveau pli", " : ", "nothing to undo", "Two words", " : "
    ]  # fmt: skip
