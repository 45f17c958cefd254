"""What the store raises: a request it cannot honour, or a state directory it cannot use."""

from __future__ import annotations


class StoreError(ValueError):
    """A request the store cannot honour (unknown game, finished game, empty log)."""


class StoreUnavailable(StoreError):
    """The state directory or its database cannot be used now (read-only, full disk, a file in
    the way); `status` is the exit status: 2 when only a configuration change can fix it."""

    def __init__(self, message: str, status: int = 3) -> None:
        super().__init__(message)
        self.status = status
