"""The words on screen, in French (the default) and English."""

from __future__ import annotations

import string

LANGUAGES = ("fr", "en")

GAME_TITLES = {
    "struggle": "Struggle",
    "traverse": "Traverse",
    "strategix": "Stratégix",
    "sequence": "Sequence",
    "roudalon": "Le Roudalon",
}

TEXT: dict[str, dict[str, str]] = {
    "fr": {
        "app": "Compagnon de jeu",
        "home": "Accueil",
        "table": "Table",
        "scores": "Scores",
        "settings": "Réglages",
        "rules": "Règles",
        "choose_game": "Choisissez un jeu",
        "resume": "Reprendre : {game}",
        "not_built": "{game} : moteur pas encore disponible",
        "setup": "{game} : joueurs",
        "players": "Joueurs : {n}",
        "fewer_players": "− joueur",
        "more_players": "+ joueur",
        "yes": "oui",
        "no": "non",
        "pick_square": "Choisissez la couleur, puis touchez la case du plateau",
        "player_n": "Joueur {n}",
        "team": "équipe\u00a0{n}",
        "teams": "Équipes : {n}",
        "start": "Commencer",
        "start_error": "Impossible de commencer : {reason}",
        "turn": "À {name} de jouer",
        "roll_wait": "Lancez {n:dé/dés}",
        "roll_seen": "Lu : {faces} — confirmez ou touchez un dé pour corriger",
        "roll_count": "{want:dé attendu/dés attendus}, {seen:vu/vus} : ajoutez, retirez ou "
        "relancez",
        "roll_unread": "Dé illisible : touchez-le et choisissez sa valeur",
        "pick_face": "Valeur du dé {n} ?",
        "confirm": "Confirmer",
        "add_die": "+ dé",
        "remove_die": "− dé",
        "undo": "Annuler",
        "undone": "Annulé : {what}",
        "nothing_undo": "Rien à annuler",
        "reroll": "Relancer",
        "rethrow_pick": "Touchez les dés à relancer, puis Relancer",
        "throw_count": "Lancer {n}/3 — gardés : {kept}",
        "kept_none": "aucun",
        "illegal": "Refusé : {reason}",
        "game_over": "Partie terminée",
        "winner": "Gagnant : {names}",
        "new_game": "Nouvelle partie",
        "next": "Suite »",
        "prev": "« Préc.",
        "entry": "Saisie : {text}",
        "enter_play": "Entrez le coup joué",
        "ok": "Valider",
        "clear": "Effacer",
        "back": "⌫",
        "pass": "Passe",
        "dead_card": "Carte morte",
        "export": "Exporter CSV",
        "exported": "{n:ligne exportée/lignes exportées} dans {path}",
        "no_scores": "Aucune partie terminée pour l'instant",
        "language": "Langue",
        "camera": "Caméra : {status}",
        "buttons": "Boutons : {status}",
        "state_dir": "Données : {path}",
        "teach": "Apprendre les dés poker",
        "teach_help": "Posez chaque face sous la caméra puis lancez « tabletop learn »",
        "teach_capture": "Capturer « {face} »",
        "teach_show": "Posez des dés montrant « {face} » sous la caméra, puis Capturer",
        "teach_got": "« {face} » appris sur {n:dé/dés} ; maintenant « {next} »",
        "teach_none": "Aucun dé vu : posez-les dans le plateau, bien éclairés",
        "teach_done": "Profil des dés poker appris : {path}",
        "cancel": "Annuler",
        "profile": "Profil dés poker : {path}",
        "profile_default": "celui fourni",
        "tray": "Zone du plateau : {roi}",
        "tray_all": "image entière",
        "name_taken": "nom vide ou déjà pris",
        "tray_edit": "Zone du plateau…",
        "tray_help": "Touchez deux coins opposés du plateau (ou glissez de l'un à l'autre)",
        "tray_touch": "Touchez un coin du plateau sur l'image",
        "tray_touch_second": "Touchez le coin opposé",
        "tray_confirm": "Valider pour enregistrer cette zone, ou touchez à nouveau",
        "tray_two": "Touchez deux coins (vous en avez touché {n})",
        "tray_small": "Zone trop petite : au moins {side} pixels de côté",
        "tray_saved": "Zone du plateau : {roi}",
        "tray_reset": "Image entière",
        "chance_auto": "Le jeu distribue : {what}",
        "no_camera_frame": "pas d'image caméra",
        "need_roll_first": "Attendez la lecture des dés",
        "no_game": "Aucune partie en cours",
        "totals": "{game} — {player} : {total} ({games:partie/parties}, {wins:victoire/victoires})",
        "player_stats": "{player} : {games:partie/parties}, {wins:victoire/victoires}",
        "player_game": "{game} : {games:partie/parties}, {wins:gagnée/gagnées}, record {best}, "
        "moy. {average}",
        "won": "gagné",
        "lost": "perdu",
    },
    "en": {
        "app": "Table companion",
        "home": "Home",
        "table": "Table",
        "scores": "Scores",
        "settings": "Settings",
        "rules": "Rules",
        "choose_game": "Choose a game",
        "resume": "Resume: {game}",
        "not_built": "{game}: engine not available yet",
        "setup": "{game}: players",
        "players": "Players: {n}",
        "fewer_players": "− player",
        "more_players": "+ player",
        "yes": "on",
        "no": "off",
        "pick_square": "Pick the suit, then touch the board square",
        "player_n": "Player {n}",
        "team": "team\u00a0{n}",
        "teams": "Teams: {n}",
        "start": "Start",
        "start_error": "Cannot start: {reason}",
        "turn": "{name} to play",
        "roll_wait": "Roll {n:die/dice}",
        "roll_seen": "Read: {faces} — confirm, or touch a die to correct it",
        "roll_count": "{want:die/dice} expected, {seen} seen: add, remove or roll again",
        "roll_unread": "Unreadable die: touch it and pick its value",
        "pick_face": "Value of die {n}?",
        "confirm": "Confirm",
        "add_die": "+ die",
        "remove_die": "− die",
        "undo": "Undo",
        "undone": "Undone: {what}",
        "nothing_undo": "Nothing to undo",
        "reroll": "Re-throw",
        "rethrow_pick": "Touch the dice to re-throw, then Re-throw",
        "throw_count": "Throw {n}/3 — kept: {kept}",
        "kept_none": "none",
        "illegal": "Refused: {reason}",
        "game_over": "Game over",
        "winner": "Winner: {names}",
        "new_game": "New game",
        "next": "Next »",
        "prev": "« Prev",
        "entry": "Entry: {text}",
        "enter_play": "Enter the play made",
        "ok": "Enter",
        "clear": "Clear",
        "back": "⌫",
        "pass": "Pass",
        "dead_card": "Dead card",
        "export": "Export CSV",
        "exported": "{n:row/rows} exported to {path}",
        "no_scores": "No finished game yet",
        "language": "Language",
        "camera": "Camera: {status}",
        "buttons": "Buttons: {status}",
        "state_dir": "Data: {path}",
        "teach": "Teach poker dice",
        "teach_help": "Show each face to the camera, then run `tabletop learn`",
        "teach_capture": "Capture “{face}”",
        "teach_show": "Put dice showing “{face}” under the camera, then Capture",
        "teach_got": "“{face}” learned from {n:die/dice}; now “{next}”",
        "teach_none": "No die seen: put them in the tray, well lit",
        "teach_done": "Poker dice profile learned: {path}",
        "cancel": "Cancel",
        "profile": "Poker dice profile: {path}",
        "profile_default": "the shipped one",
        "tray": "Tray region: {roi}",
        "tray_all": "whole frame",
        "name_taken": "name empty or taken",
        "tray_edit": "Tray region…",
        "tray_help": "Touch two opposite corners of the tray (or drag from one to the other)",
        "tray_touch": "Touch a corner of the tray on the picture",
        "tray_touch_second": "Touch the opposite corner",
        "tray_confirm": "Enter to save this region, or touch again",
        "tray_two": "Touch two corners (you touched {n})",
        "tray_small": "Region too small: at least {side} pixels a side",
        "tray_saved": "Tray region: {roi}",
        "tray_reset": "Whole frame",
        "chance_auto": "The game deals: {what}",
        "no_camera_frame": "no camera frame",
        "need_roll_first": "Wait for the dice to be read",
        "no_game": "No game in progress",
        "totals": "{game} — {player}: {total} ({games:game/games}, {wins:win/wins})",
        "player_stats": "{player}: {games:game/games}, {wins:win/wins}",
        "player_game": "{game}: {games:game/games}, {wins:win/wins}, best {best}, "
        "average {average}",
        "won": "won",
        "lost": "lost",
    },
}

RULES: dict[str, dict[str, list[str]]] = {
    "struggle": {
        "fr": [
            "5 pions (Roi, Dame, Valet, Dix, Neuf), 5 dés poker, 2-4 joueurs.",
            "Jusqu'à 3 lancers par tour : relancez les dés de votre choix (bouton Relancer).",
            "Chaque figure de la main avance son pion une fois d'autant que son nombre ;",
            "chaque As s'ajoute à une figure présente. Vous choisissez l'ordre des mouvements.",
            "Case noire ou case jaune occupée : impasse. Case rouge occupée : vous la prenez,",
            "l'occupant recule à votre case de départ. Au 4e pion arrivé, le 5e va en E.",
            "Chaque pion dans la case de votre carte objectif rapporte 10 points.",
        ],
        "en": [
            "5 pawns (King, Queen, Jack, Ten, Nine) race along a track; 5 poker dice; 2-4 players.",
            "Up to 3 throws a turn: re-throw any dice you choose (Re-throw button).",
            "Each figure in the hand moves its pawn once by its count;",
            "each Ace adds to one figure present. You choose the order of the moves.",
            "Black square, or yellow square taken: blocked. Red square taken: you take it and",
            "the occupant goes back to your start square. 4 pawns home: the 5th goes to E.",
            "Each pawn in the box your objective card names scores 10 points.",
        ],
    },
    "traverse": {
        "fr": [
            "2 joueurs, 10 pions rouges (colonnes) et 10 blancs (rangées), 2 dés.",
            "Le plus gros total aux dés commence.",
            "Jouez la somme avec un pion, ou chaque dé séparément (un ou deux pions),",
            "en avant ou en arrière le long de l'axe du pion, sans sauter un pion adverse.",
            "Arriver sur un pion adverse le renvoie à son départ.",
            "Entrer dans la case d'arrivée demande le compte exact.",
            "Le premier avec ses 10 pions arrivés gagne.",
        ],
        "en": [
            "2 players, 10 red pawns (columns) and 10 white pawns (rows), 2 dice.",
            "The highest total with two dice starts.",
            "Play the sum with one pawn, or each die on its own (one or two pawns),",
            "forward or backward along the pawn's axis, never jumping an opponent.",
            "Landing on an opponent pawn sends it back to its start.",
            "Entering the arrival box needs the exact count.",
            "The first player with all 10 pawns home wins.",
        ],
    },
    "strategix": {
        "fr": [
            "60 cartes : lettres B-Z en double, 7 étoiles (jokers), 3 pétards ; 2-4 joueurs.",
            "Formules : une carte, des suites de même longueur, ou des paires.",
            "Suivez avec la même formule au moins aussi forte (plus petite lettre), un pétard,",
            "ou passez (une fois par pli). Un Z gagne le pli aussitôt.",
            "Copier exactement la formule précédente fait sauter le joueur suivant.",
            "Premier sans cartes : Dubolix (+2 ou +4) ; dernier : Padbolix (−2).",
            "Saisie : touchez les lettres, « + » entre les groupes, puis Valider.",
        ],
        "en": [
            "60 cards: letters B-Z twice, 7 stars (wild), 3 pétards; 2-4 players.",
            "Formulas: one card, runs of the same length, or pairs.",
            "Follow with the same formula at least as strong (lowest letter), a pétard,",
            "or pass (once per trick). A Z wins the trick at once.",
            "Copying the previous formula exactly skips the next player.",
            "First out: Dubolix (+2 or +4); last: Padbolix (−2).",
            "Entry: touch the letters, '+' between groups, then Enter.",
        ],
    },
    "sequence": {
        "fr": [
            "2 à 12 joueurs en 2 ou 3 équipes alternées ; deux jeux de 52 cartes.",
            "Jouez une carte, posez un jeton sur une case libre de cette carte, piochez.",
            "Valet à deux yeux (trèfle, carreau) : n'importe quelle case libre.",
            "Valet à un œil (cœur, pique) : retire un jeton adverse hors séquence.",
            "5 jetons alignés = une séquence ; les coins comptent pour tous.",
            "2 équipes : 2 séquences pour gagner ; 3 équipes : 1 séquence.",
            "Saisie : touchez la carte jouée puis la case du plateau.",
        ],
        "en": [
            "2 to 12 players in 2 or 3 alternating teams; two 52-card decks.",
            "Play a card, put a chip on a free square showing it, draw.",
            "Two-eyed jacks (clubs, diamonds): any free square.",
            "One-eyed jacks (hearts, spades): remove an opponent chip not in a sequence.",
            "5 chips in a row = a sequence; corners count for everyone.",
            "2 teams: 2 sequences to win; 3 teams: 1 sequence.",
            "Entry: touch the card played, then the board square.",
        ],
    },
    "roudalon": {
        "fr": [
            "4 ou 6 joueurs, 2 dés chacun mais un seul en main au départ.",
            "Le plus gros total aux dés commence. Le premier tour est une mise.",
            "Miser : ajoutez 1 à 6 UM au pot ; vous récupérez un dé si vous en avez moins de 2.",
            "Lancer : si la somme égale le pot, vous le gagnez et la partie finit ;",
            "sinon vous perdez les dés lancés.",
            "Alliance : proposez-la au joueur à gauche ; les alliés se partagent le pot.",
            "Résultat : ce que vous avez pris moins ce que vous avez misé.",
        ],
        "en": [
            "4 or 6 players, 2 dice each but only one held at the start.",
            "The highest total with two dice starts. The first turn is a stake.",
            "Stake: add 1 to 6 UM to the pot; you get a die back if you hold fewer than 2.",
            "Throw: if the sum equals the pot you take it and the game ends;",
            "otherwise you lose the dice thrown.",
            "Alliance: offer it to the player on your left; allies share the pot.",
            "Result: what you took minus what you staked.",
        ],
    },
}


class _Counted(string.Formatter):
    """`{n:partie/parties}` -> `1 partie`, `3 parties` (French: 0 and 1 are singular)."""

    def __init__(self, language: str) -> None:
        self.language = language

    def format_field(self, value: object, format_spec: str) -> str:
        if "/" not in format_spec or not isinstance(value, int):
            return super().format_field(value, format_spec)
        singular, plural = format_spec.split("/", 1)
        one = value in (0, 1) if self.language == "fr" else value == 1
        return f"{value} {singular if one else plural}"


def text(language: str, key: str, **values: object) -> str:
    table = TEXT.get(language, TEXT["fr"])
    template = table.get(key) or TEXT["fr"].get(key) or key
    return _Counted(language).format(template, **values) if values else template


OPTION_TITLES = {  # on/off rule options, as the set-up screen names them
    "niveau_superieur": {"fr": "Niveau supérieur", "en": "Next level (break sequences)"},
    "compulsory_dice": {"fr": "Dés obligatoires", "en": "Compulsory dice"},
}


def option_title(name: str, language: str) -> str:
    titles = OPTION_TITLES.get(name, {})
    return titles.get(language) or name.replace("_", " ").capitalize()


def game_title(name: str) -> str:
    return GAME_TITLES.get(name, name.capitalize())
