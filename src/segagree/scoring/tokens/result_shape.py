"""The shape of a comparison's result where S_f was not computed: the tokens could not be aligned, or
only official scorers were asked for (they score the files as their scripts do, alone).

Light on purpose (no numpy): the official scorers' own reading of two files
(:mod:`segagree.scoring.tokens.disrpt_files`) builds its result here too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from segagree.metrics.registry import MEASURES

__all__ = ["SF_KEYS", "SF_NOT_ASKED", "without_sf"]

#: The keys of S_f and S_f^B in a result: the registry's names of S_f's module
#: (:data:`segagree.metrics.boundary.sf.SF_NAMES`, read without loading that module).
SF_KEYS = tuple(name for name, module in MEASURES.items() if module == "segagree.metrics.boundary.sf")
#: Why S_f is absent where only official scorers were named.
SF_NOT_ASKED = (
    "S_f not computed: only official scorers were named, and they score the files as their scripts do "
    "(name sf too to have it)"
)


def without_sf(
    layer: str,
    *,
    not_applicable: str = "",
    not_asked: str = "",
    scheme: Mapping[str, Any] | None = None,
    speakers: Sequence[str] = (),
    metrics: Mapping[str, Any] | None = None,
    notes: Sequence[str] = (),
    unpaired: Mapping[str, Sequence[str]] | None = None,
    n_tokens: int | None = None,
) -> dict[str, Any]:
    """A result whose S_f keys are None, with the reason: ``not_applicable`` (the tokens do not align)
    or ``not_asked`` (only official scorers were named); the other measures' results in ``metrics``;
    ``n_tokens``: the tokens paired (the words of both files), where they were."""
    out: dict[str, Any] = {
        **dict.fromkeys(SF_KEYS),
        "cost": None,
        "edits": None,
        "n_tokens": n_tokens,
        "per_speaker": {},
        "operations": [],
        "speakers": list(speakers),
        "layer": layer,
        "scheme": dict(scheme) if scheme else None,
        "mismatches": [],
        "unpaired_speakers": {k: list(v) for k, v in (unpaired or {"a": [], "b": []}).items()},
        "metrics": dict(metrics or {}),
        "notes": list(notes),
        "signature": "",
        "operation_rows": [],
    }
    if not_applicable:
        out["aligned"] = False
        out["sf_not_applicable"] = not_applicable
    if not_asked:
        out["sf_not_asked"] = not_asked
    return out
