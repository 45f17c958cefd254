"""Face profiles (learning a dice set without pips from photos, run on the Pi by `tabletop learn`
and the kiosk's teaching screen) and adapting the reader to a table's confirmed dice; the shipped
profiles (`poker-default.npz`) sit here as data."""
