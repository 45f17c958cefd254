"""Reading dice at run time: the finder, the face nets, the edge cases and the checks behind
`vision.reader.DiceReader`, and the roll tracker."""
