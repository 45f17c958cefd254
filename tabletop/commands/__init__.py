"""Sub-commands of `tabletop`: each module has add_parser(subparsers) setting `handler`."""
