"""The benchmarks behind `tabletop bench TARGET`: speed, accuracy and strength of the product,
each measured from outside the app it drives (one module per target)."""
