"""Shipped face profiles (learned .npz files), one per kind of dice without pips."""
