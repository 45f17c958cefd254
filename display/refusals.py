"""The engines' refusals (English, from `engines/`) said in the player's language.

The engines explain every refused action in English. This table turns the recurring shapes of
those sentences — collected from the `raise ...Error(` and `_illegal` sites of `engines/*.py`
and from games played with wrong entries — into French. A message may be `HEAD: REASON`
(Sequence prefixes the play, `'pass': ...`); the reason is then translated on its own. A
message no pattern knows gets a general French sentence, and the original is kept to be shown
in small type beside it, so nothing the engine said is lost.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Convert = Callable[[str], str]

COMMON = "*"  # patterns every game may raise (engines/core.py, engines/dice.py, options)


def _and(text: str) -> str:
    return text.replace(" and ", " et ")


def _counts(text: str) -> str:
    return (text.replace(" to ", " à ").replace(" or ", " ou ")
            .replace("equal teams", "équipes égales"))  # fmt: skip


def _pawn(text: str) -> str:
    return text.replace("Red", "Rouge").replace("White", "Blanc")


_SHAPES = (
    (r"a single card", "une carte seule"),
    (r"(\d+) pair\(s\)", r"\1 paire(s)"),
    (r"(\d+) run\(s\) of (\d+)", r"\1 suite(s) de \2"),
)


_FIGURES = {"Nine": "Neuf", "Ten": "Dix", "Jack": "Valet", "Queen": "Dame", "King": "Roi",
            "Ace": "As"}  # fmt: skip


def _figures(text: str) -> str:
    """'2 Jacks and 1 Queen' -> '2 Valets et 1 Dame' (the engines' poker face names)."""

    def french(match: re.Match[str]) -> str:
        name = _FIGURES[match.group(1)]
        plural = match.group(2) and name[-1] not in "sxf"
        return name + ("s" if plural else "")

    return re.sub(r"\b(Nine|Ten|Jack|Queen|King|Ace)(s?)\b", french, _and(text))


def _shape(text: str) -> str:
    for pattern, french in _SHAPES:
        text = re.sub(pattern, french, text)
    return text


_HINTS = (
    (
        r"roll <(\d+) faces? 1-6> \(roll-off: (.+?)(?:'s dice)?\)",
        r"lancez \1 dé(s) (départage : \2)",
    ),
    (r"roll <(\d+) faces? 1-6> \((.+)'s throw\)", r"lancez \1 dé(s) (lancer de \2)"),
    (r"roll <(\d+) faces? 1-6>", r"lancez \1 dé(s)"),
    (r"roll <(\d+) faces among 9 10 J Q K A>", r"lancez \1 dé(s) poker"),
    (r"cut <.*>", "la coupe (une carte chacun, la plus basse donne)"),
    (r"deal <.*|deal .*", "la donne"),
    (r"first <.*>", "qui commence"),
    (r"shuffle <.*>", "le mélange de la défausse"),
)


def _hint(text: str) -> str:
    for pattern, french in _HINTS:
        if re.fullmatch(pattern, text):
            return re.sub(pattern, french, text)
    return text


_WAIT = (
    r"throw the \d+ dice|\d+ dic?e (?:was|were) re-thrown: give (?:its|their)(?: \d+)? new faces?"
)


def _wait(text: str) -> str:
    """Struggle's 'throw the 5 dice' / '2 dice were re-thrown: give their 2 new faces'."""
    match = re.match(r"throw the (\d+) dice", text) or re.match(r"(\d+) dic?e", text)
    count = match.group(1) if match else "?"
    if text.startswith("throw"):
        return f"lancez les {count} dés"
    return f"{count} dé(s) relancé(s) : donnez leurs nouvelles faces"


CONVERTERS: dict[str, Convert] = {
    "dice": _and, "where": _and, "letters": _and, "counts": _counts, "pawn": _pawn, "other": _pawn,
    "want": _shape, "given": _shape, "shape": _shape, "hint": _hint,
    "example": lambda text: text.replace("<square>", "CASE"),
    "figure": _figures, "figures": _figures, "wait": _wait,
}  # fmt: skip

# (regex over the whole English message, French with {group} fields)
PATTERNS: dict[str, list[tuple[str, str]]] = {
    COMMON: [
        (r"'(?P<text>.*)' is not a legal action now", "« {text} » n'est pas permis maintenant"),
        (r"the game is over", "la partie est terminée"),
        (r"nothing to undo: the game is at its start", "rien à annuler : la partie commence"),
        (r"empty action", "action vide"),
        (r"action text is too long \((?P<n>\d+) characters\)", "texte trop long ({n} caractères)"),
        (
            r"'(?P<text>.*)' is not a roll \(expected 'roll' and the faces\)",
            "« {text} » n'est pas un lancer (attendu : roll et les faces)",
        ),
        (
            r"'(?P<face>[^']*)' is not a face of these dice \((?P<faces>[^)]*)\)",
            "« {face} » n'est pas une face de ces dés ({faces})",
        ),
        (r"a roll needs at least one face", "un lancer a au moins une face"),
        (
            r"expected (?P<want>\d+) dice in the roll, got (?P<got>\d+)",
            "{want} dé(s) attendu(s) dans le lancer, {got} donné(s)",
        ),
        (r"waiting for the dice: (?P<hint>.*)", "on attend les dés : {hint}"),
        (
            r"'(?P<text>.*)' is not legal now: waiting for (?P<hint>.*)",
            "« {text} » n'est pas permis maintenant : on attend {hint}",
        ),
        (r"'(?P<text>.*)' is not legal now", "« {text} » n'est pas permis maintenant"),
        (r"player names must be different", "les noms des joueurs doivent être différents"),
        (r"player names must not be empty", "un joueur doit avoir un nom"),
        (
            r"(?P<game>.+) takes (?P<counts>.+) players, got (?P<n>\d+)",
            "{game} se joue à {counts} joueurs, pas {n}",
        ),
        (
            r"(?P<n>\d+) players cannot make (?P<teams>\d+) equal teams",
            "{n} joueurs ne font pas {teams} équipes égales",
        ),
        (r"it is not chance's turn", "ce n'est pas le moment d'un tirage"),
    ],
    "struggle": [
        (rf"(?P<wait>{_WAIT}), got (?P<got>\d+) faces?", "{wait}, {got} donnée(s)"),
        (rf"(?P<wait>{_WAIT}) first: (?P<hint>.*)", "{wait} d'abord"),
        (rf"(?P<wait>{_WAIT})", "{wait}"),
        (
            r"'(?P<face>.*)' is not a face of the dice \(9 10 J Q K A\)",
            "« {face} » n'est pas une face des dés (9 10 J Q K A)",
        ),
        (
            r"'(?P<text>.*)' is not a move: a play lists each pawn with its squares, e\.g\. "
            r"(?P<example>.+) \(or rethrow and the dice to throw again\)",
            "« {text} » n'est pas un coup : un coup donne chaque pion et ses cases, par ex. "
            "{example} (ou rethrow et les dés à relancer)",
        ),
        (
            r"first draw who starts: first 0 to first (?P<n>\d+) \((?P<players>.*)\)",
            "tirez qui commence : first 0 à first {n} ({players})",
        ),
        (
            r"there is no player (?P<n>\S+): the players are (?P<players>.*)",
            "pas de joueur {n} : les joueurs sont {players}",
        ),
        (
            r"not now: (?P<name>.+) plays the hand (?P<hand>.+?) or re-throws some dice "
            r"\(rethrow …\)",
            "pas maintenant : {name} joue la main {hand} ou relance des dés (rethrow …)",
        ),
        (
            r"not now: (?P<name>.+) plays the hand (?P<hand>.+)",
            "pas maintenant : {name} joue la main {hand}",
        ),
        (
            r"the dice are already thrown: (?P<name>.+) plays the hand (?P<hand>.+?) or re-throws "
            r"some dice \(rethrow …\)",
            "les dés sont déjà lancés : {name} joue la main {hand} ou relance des dés (rethrow …)",
        ),
        (
            r"the dice are already thrown: (?P<name>.+) plays the hand (?P<hand>.+)",
            "les dés sont déjà lancés : {name} joue la main {hand}",
        ),
        (
            r"the hand (?P<hand>.+) cannot be declined: play it, e\.g\. (?P<example>.*)",
            "la main {hand} ne peut pas être refusée : jouez-la, par ex. {example}",
        ),
        (r"the hand (?P<hand>.+?) has only (?P<figures>.+)", "la main {hand} n'a que {figures}"),
        (
            r"there is no (?P<figure>\w+) in the hand (?P<hand>.+)",
            "pas de {figure} dans la main {hand}",
        ),
        (
            r"these moves use (?P<used>\d+) aces, the hand (?P<hand>.+) has (?P<aces>\d+)",
            "ces coups utilisent {used} as, la main {hand} en a {aces}",
        ),
        (
            r"(?P<figures>.+) must move too: every figure of the hand is played",
            "{figures} doit bouger aussi : chaque figure de la main est jouée",
        ),
        (
            r"(?P<n>\d+) aces? left over: every ace is added to one figure of the hand "
            r"\((?P<list>.*)\)",
            "{n} as en trop : chaque as s'ajoute à une figure de la main ({list})",
        ),
        (
            r"(?P<figure>\w+) has already arrived: its dice are void",
            "{figure} est déjà arrivé : ses dés ne comptent pas",
        ),
        (
            r"(?P<figure>\w+) is not in the hand (?P<hand>.+): only the figures thrown move",
            "{figure} n'est pas dans la main {hand} : seules les figures lancées bougent",
        ),
        (
            r"(?P<figure>\w+) moves once, by all its dice and the aces added to it",
            "{figure} bouge une seule fois, de tous ses dés et des as ajoutés",
        ),
        (
            r"(?P<figure>\w+) has (?P<n>\d+) dic?e and the hand no ace: (?P<example>\S+)",
            "{figure} a {n} dé(s) et la main aucun as : {example}",
        ),
        (
            r"(?P<figure>\w+) has (?P<n>\d+) dic?e and the hand only (?P<aces>\d+) aces?: "
            r"(?P<low>\S+) to (?P<high>\S+)",
            "{figure} a {n} dé(s) et la main seulement {aces} as : de {low} à {high}",
        ),
        (
            r"name the dice to re-throw, e\.g\. rethrow J Q",
            "nommez les dés à relancer, par ex. rethrow J Q",
        ),
        (
            r"(?P<name>.+) reveals the order on their objective card, e\.g\. (?P<example>.*)",
            "{name} révèle l'ordre de sa carte objectif, par ex. {example}",
        ),
        (
            r"an objective names each of the five pawns once, in arrival order, "
            r"e\.g\. (?P<example>.*)",
            "un objectif nomme chacun des cinq pions une fois, dans l'ordre d'arrivée, par ex. "
            "{example}",
        ),
        (
            r"(?P<name>.+) already revealed (?P<order>.+): no two cards show the same order",
            "{name} a déjà révélé {order} : deux cartes ne montrent jamais le même ordre",
        ),
        (
            r"deal one card per player: (?P<n>\d+) card numbers, got (?P<got>\d+)",
            "une carte objectif par joueur : {n} numéros, {got} donnés",
        ),
        (r"'(?P<text>.*)' is not legal now \(\w+\)", "« {text} » n'est pas permis maintenant"),
        (
            r"(?P<n>\d+) dic?e (?:was|were) re-thrown: give (?:its|their) new faces? first: "
            r"(?P<hint>.*)",
            "{n} dé(s) relancé(s) : donnez d'abord leurs nouvelles faces ({hint})",
        ),
        (
            r"expected (?P<want>\d+) dice in the roll, got (?P<got>\d+) \((?P<n>\d+) dic?e "
            r"(?:was|were) re-thrown: give (?:its|their) new faces?\)",
            "{want} dés attendus dans le lancer, {got} donnés ({n} dé(s) relancé(s))",
        ),
        (
            r"expected (?P<want>\d+) dice in the roll, got (?P<got>\d+) \(throw the \d+ dice\)",
            "{want} dés attendus dans le lancer, {got} donnés (lancez les {want} dés)",
        ),
        (
            r"the objective cards are dealt first: (?P<hint>.*)",
            "les cartes objectif sont distribuées d'abord",
        ),
        (r"throw the (?P<n>\d+) dice first: (?P<hint>.*)", "lancez d'abord les {n} dés"),
        (
            r"'?(?P<text>.*?)'? is not a play of the hand (?P<hand>.*): each figure's pawn moves "
            r"once, by its count plus the aces attached to it",
            "« {text} » n'est pas un coup de la main {hand} : le pion de chaque figure avance une "
            "fois, de sa valeur plus les as qui lui sont attachés",
        ),
        (
            r"'(?P<text>.*)': re-throw only dice of the hand (?P<hand>.*)",
            "« {text} » : ne relancez que des dés de la main {hand}",
        ),
        (
            r"no more throws: three throws were made, play the hand",
            "plus de relance : trois lancers sont faits, jouez la main",
        ),
        (
            r"the player must choose a play or a re-throw, not a roll",
            "le joueur choisit un coup ou une relance, pas un lancer",
        ),
        (
            r"(?P<name>.+) must reveal an objective order of the five pawns not already revealed "
            r"\((?P<example>.*)\)",
            "{name} doit révéler l'ordre d'arrivée de sa carte objectif, un ordre des cinq pions "
            "pas encore révélé ({example})",
        ),
        (
            r"'(?P<text>.*)': the objective cards must be dealt first \(deal …\)",
            "« {text} » : il faut d'abord distribuer les cartes objectif",
        ),
        (
            r"'(?P<text>.*)': card numbers are whole numbers 1-20",
            "« {text} » : les cartes objectif sont numérotées de 1 à 20",
        ),
        (r"deal one card per player \((?P<n>\d+)\)", "une carte objectif par joueur ({n})"),
        (r"objective cards are numbered 1 to 20", "les cartes objectif sont numérotées de 1 à 20"),
        (
            r"each player gets a different objective card",
            "chaque joueur reçoit une carte objectif différente",
        ),
        (
            r"'(?P<text>.*)' is not legal now \(\w+: (?P<hint>.*)\)",
            "« {text} » n'est pas permis maintenant (on attend {hint})",
        ),
    ],
    "traverse": [
        (
            r"the dice are rolled \((?P<dice>.*)\): (?P<pawn>\w+) plays",
            "les dés sont lancés ({dice}) : {pawn} joue",
        ),
        (
            r"both dice must be used when a play can use them, e\.g\. (?P<example>.*)",
            "il faut utiliser les deux dés quand un coup le permet, par ex. {example}",
        ),
        (
            r"a die must be used when one can be, e\.g\. (?P<example>.*)",
            "il faut utiliser un dé quand c'est possible, par ex. {example}",
        ),
        (
            r"with dice (?P<a>\d) and (?P<b>\d) a play moves one pawn (?P<sum>\d+), or (?P<a2>\d) "
            r"and (?P<b2>\d) \(two pawns or one pawn twice\), not (?P<dice>.*)",
            "avec les dés {a} et {b}, un coup avance un pion de {sum}, ou de {a} et {b} "
            "(deux pions ou un pion deux fois), pas de {dice}",
        ),
        (
            r"'(?P<text>.*)' is not a move: write pawn, \+ or -, squares \(e\.g\. 3\+5 or 3-5\), "
            r"or pass",
            "« {text} » n'est pas un coup : pion, + ou -, cases (ex. 3+5 ou 3-5), ou pass",
        ),
        (
            r"there is no pawn (?P<pawn>\d+): pawns are numbered 1 to (?P<n>\d+)",
            "pas de pion {pawn} : les pions sont numérotés de 1 à {n}",
        ),
        (r"a move goes at least one square", "un coup avance d'au moins une case"),
        (
            r"(?P<pawn>\w+ \d+) is at its start and cannot go back (?P<n>\d+)",
            "{pawn} est à son départ et ne peut pas reculer de {n}",
        ),
        (
            r"(?P<pawn>\w+ \d+) is (?P<k>\d+) squares? from its start and cannot go back "
            r"(?P<n>\d+)",
            "{pawn} est à {k} case(s) de son départ et ne peut pas reculer de {n}",
        ),
        (
            r"(?P<pawn>\w+ \d+) needs exactly (?P<need>\d+) to enter its arrival box, not "
            r"(?P<n>\d+) \(no overshooting\)",
            "{pawn} doit faire exactement {need} pour entrer dans sa case d'arrivée, pas {n}",
        ),
        (
            r"(?P<pawn>\w+ \d+) may not pass over (?P<other>\w+ \d+) \(column (?P<c>\d+), "
            r"row (?P<r>\d+)\)",
            "{pawn} ne peut pas sauter par-dessus {other} (colonne {c}, rangée {r})",
        ),
        (
            r"(?P<pawn>\w+ \d+) leaves its arrival box only to hit an opponent pawn",
            "{pawn} ne quitte sa case d'arrivée que pour frapper un pion adverse",
        ),
    ],
    "roudalon": [
        (
            r"(?P<name>.+) holds (?P<n>\d) dic?e: throw 1 or throw 2",
            "{name} tient {n} dés : lancez-en 1 ou 2",
        ),
        (r"(?P<name>.+) holds (?P<n>\d) dic?e: throw 1", "{name} tient {n} dé : lancez-le"),
        (
            r"(?P<name>.+) holds no die and can only stake",
            "{name} n'a plus de dé et ne peut que miser",
        ),
        (
            r"'(?P<text>.*)' is not legal now \(expected: (?P<list>.*)\)",
            "« {text} » n'est pas permis maintenant (attendu : {list})",
        ),
        (
            r"(?P<name>.+) must answer the alliance offer: yes or no",
            "{name} doit répondre à l'offre d'alliance : oui ou non",
        ),
        (
            r"(?P<name>.+) threw (?P<n>\d) dic?e: roll and (?:its|their) faces?, "
            r"e\.g\. (?P<example>.*)",
            "{name} a lancé {n} dé(s) : roll et les faces, par ex. {example}",
        ),
        (
            r"(?P<name>.+), on the left, holds no die to throw",
            "{name}, à gauche, n'a pas de dé à lancer",
        ),
        (
            r"a stake is a whole number of UM from (?P<low>\d+) to (?P<high>\d+) "
            r"\(stake (?P<example>\d+)\)",
            "une mise est un nombre entier d'UM de {low} à {high} (stake {example})",
        ),
        (
            r"a stake is made at the start of one's own turn, not during a throw",
            "on mise au début de son propre tour, pas pendant un lancer",
        ),
        (
            r"no dice are awaited: (?P<name>.+) is to act \(expected: (?P<list>.*)\)",
            "aucun dé n'est attendu : c'est à {name} d'agir (attendu : {list})",
        ),
        (
            r"the alliance is closed: the throws have begun",
            "l'alliance est close : les lancers ont commencé",
        ),
        (r"the first turn of a game must be a stake", "le premier tour d'une partie est une mise"),
        (
            r"the alliance must be closed before the throws begin \(close\)",
            "l'alliance doit être close avant les lancers (close)",
        ),
        (
            r"everyone to the left is already in the alliance",
            "tous les joueurs à gauche sont déjà dans l'alliance",
        ),
    ],
    "sequence": [
        (
            r"'(?P<text>.*)' is not a Sequence move: .*",
            "« {text} » n'est pas un coup de Sequence : CARTE@CASE (7D@c3), valet borgne "
            "CARTExCASE (JHxf2), ou dead CARTE",
        ),
        (
            r"'(?P<text>.*)' is not a card \(rank 2-9, T, J, Q, K, A and suit S, H, D, C, .*\)",
            "« {text} » n'est pas une carte (valeur 2-9, T, J, Q, K, A et couleur S, H, D, C, "
            "ex. 7D)",
        ),
        (
            r"'(?P<text>.*)' is not a square \(a1 … j10: column a-j, row 1-10\)",
            "« {text} » n'est pas une case (a1 … j10 : colonne a-j, rangée 1-10)",
        ),
        (
            r"'(?P<text>.*)': (?P<name>.+) plays a card now",
            "« {text} » : c'est à {name} de jouer une carte",
        ),
        (r"(?P<name>.+) has no (?P<card>\S+) in hand", "{name} n'a pas de {card} en main"),
        (
            r"both (?P<card>\S+) have already been played since the last shuffle, so nobody can "
            r"hold one",
            "les deux {card} ont déjà été joués depuis le dernier mélange : personne n'en a",
        ),
        (
            r"(?P<card>\S+) is not dead: it can still be played",
            "{card} n'est pas une carte morte : elle peut encore être jouée",
        ),
        (
            r"(?P<card>\S+) is a one-eyed jack: it removes an opponent's chip \((?P<example>.*)\)",
            "{card} est un valet borgne : il enlève un jeton adverse ({example})",
        ),
        (
            r"(?P<square>\S+) is a corner: it counts for every team and takes no chip",
            "{square} est un coin : il compte pour toutes les équipes et ne prend pas de jeton",
        ),
        (
            r"(?P<square>\S+) shows (?P<shown>\S+), not (?P<card>\S+) \(\S+ is on (?P<where>.*)\)",
            "la case {square} montre {shown}, pas {card} ({card} est en {where})",
        ),
        (r"(?P<square>\S+) already holds a chip", "{square} porte déjà un jeton"),
        (
            r"only a one-eyed jack \(JH, JS\) removes a chip",
            "seul un valet borgne (JH, JS) enlève un jeton",
        ),
        (r"there is no chip on (?P<square>\S+)", "pas de jeton en {square}"),
        (r"(?P<square>\S+) holds your own team's chip", "{square} porte un jeton de votre équipe"),
        (
            r"(?P<square>\S+) belongs to a completed sequence, which can never be broken .*",
            "{square} fait partie d'une séquence terminée, qu'on ne peut jamais briser",
        ),
        (
            r"a dead card is entered as: dead <card>, e\.g\. dead 7D",
            "une carte morte s'entre ainsi : dead CARTE, par ex. dead 7D",
        ),
    ],
    "strategix": [
        (
            r"(?P<group>.+) is neither a pair nor a run \(a run's letters follow each other, "
            r"no repeat\)",
            "{group} n'est ni une paire ni une suite (les lettres d'une suite se suivent, sans "
            "répétition)",
        ),
        (
            r"(?P<group>.+): a single card is played alone, not in a group",
            "{group} : une carte seule se joue seule, pas dans un groupe",
        ),
        (
            r"'(?P<text>.*)' is not a Stratégix action(?:: .*)?",
            "« {text} » n'est pas une action de Stratégix : des lettres (D E F + M N O), Pétard "
            "ou Passe",
        ),
        (
            r"a formula is pairs only, or runs only: do not mix them",
            "une formule n'a que des paires ou que des suites : ne les mélangez pas",
        ),
        (
            r"every run of a formula has the same length",
            "toutes les suites d'une formule ont la même longueur",
        ),
        (
            r"a pétard is never played right after a pétard",
            "un pétard ne se joue jamais juste après un pétard",
        ),
        (r"a pétard never leads a trick", "un pétard n'ouvre jamais un pli"),
        (
            r"a trick's leader must play \(pass only when holding nothing but pétards\)",
            "qui ouvre le pli doit jouer (il ne passe que s'il n'a que des pétards)",
        ),
        (
            r"finish the formula under way \((?P<formula>.*)\) with '\+ <group>' or 'done', "
            r"or undo it",
            "finissez la formule commencée ({formula}) avec « + groupe » ou « done », ou annulez",
        ),
        (r"play what\? .*", "jouer quoi ? par ex. D E F + M N O, *=Z, G G"),
        (
            r"say which letter a star stands for: \*=X \(e\.g\. \*=Z\)",
            "dites quelle lettre l'étoile remplace : * puis la lettre (*=Z)",
        ),
        (
            r"'(?P<text>.*)' is not a card \(letters B to Z, a star as \*=X\)",
            "« {text} » n'est pas une carte (lettres B à Z, une étoile comme *=X)",
        ),
        (
            r"an empty group: groups are separated by '\+'",
            "un groupe vide : les groupes sont séparés par +",
        ),
        (
            r"that needs (?P<n>\d+) stars, you hold (?P<have>\d+)",
            "il faut {n} étoile(s), vous en avez {have}",
        ),
        (
            r"the trick is (?P<want>.+?) \((?P<top>.*)\): play the same formula, a pétard or "
            r"pass — not (?P<given>.*)",
            "le pli est {want} ({top}) : jouez la même formule, un pétard ou passez — pas {given}",
        ),
        (
            r"too weak: its lowest letter (?P<low>\S+) is below (?P<top_low>\S+), the lowest "
            r"letter of (?P<top>.*)",
            "trop faible : sa plus petite lettre {low} est sous {top_low}, la plus petite de {top}",
        ),
        (
            r"too weak: (?P<low>\S+) is below (?P<top_low>\S+)",
            "trop faible : {low} est sous {top_low}",
        ),
        (
            r"you do not hold enough (?P<letter>\S+) for that \(a star laid as \S+ is written "
            r"\*=\S+\)",
            "vous n'avez pas assez de {letter} (une étoile posée comme {letter} s'écrit "
            "*={letter})",
        ),
        (r"you hold no pétard", "vous n'avez pas de pétard"),
        (
            r"all three pétards have been played this round",
            "les trois pétards ont été joués dans cette manche",
        ),
        (
            r"in table mode lay the whole formula at once: .*",
            "à la table, posez toute la formule d'un coup : D E F + M N O",
        ),
        (
            r"in full mode a star stands only for a letter you hold no more of: play (?P<play>.*)",
            "une étoile ne remplace qu'une lettre que vous n'avez plus : {play}",
        ),
        (
            r"impossible cards: that needs (?P<n>\d+) star\(s\) but only (?P<left>\d+) remain "
            r"unseen \(each letter exists twice; already played: (?P<seen>.*)\)",
            "cartes impossibles : il faudrait {n} étoile(s), il n'en reste que {left} (chaque "
            "lettre existe en deux exemplaires ; déjà jouées : {seen})",
        ),
        (r"(?P<name>.+) holds only (?P<n>\d+) card\(s\)", "{name} n'a que {n} carte(s)"),
        (
            r"'(?P<text>.*)': the round is being played, it is (?P<name>.+)'s turn",
            "« {text} » : la manche est en cours, c'est à {name} de jouer",
        ),
        (
            r"'(?P<text>.*)': name the youngest player by seat, 0 to (?P<n>\d+)",
            "« {text} » : donnez la place du plus jeune joueur, de 0 à {n}",
        ),
        (
            r"'play <group> \+' starts a formula with one group",
            "« play groupe + » commence une formule par un seul groupe",
        ),
        (
            r"the trick is (?P<shape>.+?): its groups look like (?P<group>.*)",
            "le pli est {shape} : ses groupes ressemblent à {group}",
        ),
        (r"'(?P<text>.*)': no formula is under way .*", "« {text} » : aucune formule commencée"),
        (
            r"'(?P<text>.*)' cannot go on into a whole formula with this hand .*",
            "« {text} » ne peut pas devenir une formule complète avec cette main",
        ),
        (
            r"'star X' names one letter B to Z, e\.g\. 'star E'",
            "« star X » nomme une lettre de B à Z, par ex. « star E »",
        ),
        (
            r"you said a star stands for (?P<letters>.+): lay the group holding it .*",
            "vous avez dit qu'une étoile remplace {letters} : posez le groupe qui la contient, ou "
            "annulez",
        ),
        (
            r"in table mode lay the whole formula at once, a star written as \*=X: .*",
            "à la table, posez toute la formule d'un coup, une étoile notée *=X : D *=E F",
        ),
        (r"you have no star left for that", "il ne vous reste pas d'étoile pour cela"),
        (
            r"you hold no (?P<letter>\S+) to keep .*",
            "vous n'avez pas de {letter} à garder (une étoile pour une lettre absente se pose "
            "directement : *={letter})",
        ),
        (
            r"name the letters in order: (?P<letter>\S+) comes before (?P<other>\S+)",
            "nommez les lettres dans l'ordre : {letter} vient avant {other}",
        ),
        (
            r"no group you can lay now holds a star for (?P<letter>\S+)",
            "aucun groupe jouable maintenant ne contient d'étoile pour {letter}",
        ),
        (
            r"deal one hand per player \((?P<n>\d+)\), separated by '/'",
            "une main par joueur ({n}), séparées par /",
        ),
        (r"each hand holds (?P<n>\d+) cards", "chaque main a {n} cartes"),
        (r"(?P<word>\S+) is not allowed now", "{word} n'est pas permis maintenant"),
    ],
}

FALLBACK = {"fr": "Le jeu refuse ce coup."}
_ASIDE = re.compile(r"(?P<body>.+) \((?P<note>[^()]+)\)")
_NOTATION_HEAD = re.compile(r"(?:dead )?\S+")  # a play named before the reason it is refused
_COMPILED: dict[str, list[tuple[re.Pattern[str], str]]] = {
    game: [(re.compile(pattern), french) for pattern, french in rules]
    for game, rules in PATTERNS.items()
}


def _fill(match: re.Match[str], french: str) -> str:
    fields = {
        name: CONVERTERS.get(name, str)(value or "") for name, value in match.groupdict().items()
    }
    return french.format(**fields)


def _lookup(message: str, game: str) -> str | None:
    head, separator, reason = message.partition(": ")
    if separator and _NOTATION_HEAD.fullmatch(head):  # `7D@c3: a4 shows 8C, ...`: the reason
        translated = _match(reason, game)
        if translated is not None:
            return f"{head} : {translated}"
    found = _match(message, game)
    aside = _ASIDE.fullmatch(message)
    if found is None and aside:  # `'x' is not a face ... (throw the 5 dice)`: both parts
        body, note = _match(aside["body"], game), _match(aside["note"], game)
        if body is not None and note is not None:
            return f"{body} ({note})"
    return found


def _match(message: str, game: str) -> str | None:
    for pattern, french in _COMPILED.get(game, []) + _COMPILED[COMMON]:
        match = pattern.fullmatch(message)
        if match:
            return _fill(match, french)
    return None


def translate(message: str, game: str, language: str) -> tuple[str, str]:
    """The refusal in `language`, and the original to show small when it was not known."""
    message = message.strip()
    if language == "en" or language not in FALLBACK:
        return message, ""
    translated = _lookup(message, game)
    if translated is None:
        return FALLBACK[language], message
    return translated, ""
