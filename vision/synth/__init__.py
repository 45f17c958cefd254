"""Synthetic dice: the renderers the simulated camera, the tests, the benchmarks and training
draw trays with. Never imported on the Pi's reading path."""
