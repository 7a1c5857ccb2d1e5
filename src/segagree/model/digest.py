"""Short content digests for signatures, resume keys and page keys: SHA-1 of a JSON form or of a text.

SHA-1 here names content (is this the same payload?), it is not a security measure."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any


def text_digest(text: str, length: int | None = None) -> str:
    """The SHA-1 hex digest of ``text`` (UTF-8), its first ``length`` digits (None: all 40)."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:length]


def json_digest(
    payload: Any,
    length: int | None = None,
    *,
    default: Callable[[Any], Any] | None = None,
    ensure_ascii: bool = True,
) -> str:
    """The SHA-1 hex digest of ``payload``'s JSON with sorted keys (``json.dumps``'s ``default`` and
    ``ensure_ascii`` as given), its first ``length`` digits."""
    return text_digest(json.dumps(payload, sort_keys=True, default=default, ensure_ascii=ensure_ascii), length)
