"""The one exception type of swapzap."""

from __future__ import annotations


class SwapzapError(ValueError):
    """An error of the swapzap library.

    Attributes:
        code: the library's stable integer code (``docs/error-codes.md``: 1000-1999 math,
            2000-2999 pools, 3000-3999 requests, 4000-4999 routing, 5000-5999 zaps).
        detail: the human-readable message (the error body's ``detail``).
        retryable: whether the same request may succeed later (class ``retryable``).
        error_class: ``"validation"``, ``"no-route"`` or ``"retryable"``.
        http_status: the status the service would answer with (400, 422 or 503).
    """

    code: int
    detail: str
    retryable: bool
    error_class: str
    http_status: int

    def __init__(
        self,
        code: int,
        detail: str,
        retryable: bool = False,
        error_class: str = "validation",
        http_status: int = 400,
    ) -> None:
        super().__init__(f"[{code}] {detail}")
        self.code = code
        self.detail = detail
        self.retryable = retryable
        self.error_class = error_class
        self.http_status = http_status

    def __reduce__(self):  # keeps the attributes through pickling (multiprocessing)
        return (
            type(self),
            (self.code, self.detail, self.retryable, self.error_class, self.http_status),
        )
