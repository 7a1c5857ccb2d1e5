"""Segmentation similarity and agreement measures: pure functions on boundary arrays, masses,
cues and units in time (no files, no Documents).

* :mod:`.boundary`: S_f and S_f^B (Lai, Li & Zhang 2023; :func:`sf`, :func:`sf_speaker`, and the
  R reference's restricted search), Fournier's boundary edit distance, S and B, Pk, WindowDiff
  and WinPR, the alignment-based A, GHD, on masses, gap sets or per-token codes; additive
  statistics and pooling.
* :mod:`.chance`: chance-corrected agreement (S_f's simulated kappa, Fleiss' multi-pi and
  multi-kappa, bootstrap intervals).
* :mod:`.subtitles`: SubER's and EvalSubtitle's families, break-aware BLEU/TER and the rest.
* :mod:`.unitizing`: time-based unitizing agreement (gamma, alpha-U, uα, ELAN's kappa, boundary F1).
* The measure contract (:mod:`.contract`: card, statistics, add, score) and the one registry of
  measures (:mod:`.registry`), whose cards ``segagree metrics`` prints.
"""

from importlib import import_module

# module -> its public names (space-separated), imported on first use, so that importing one
# metric module (S_f for `compare`) does not load every other one (module __getattr__ below).
_MODULES = {
    "boundary.sf": "MODES Operation SfResult SfStats sf sf_speaker",
    "boundary.a_similarity": "AlignedPair AlignmentResult alignment_similarity",
    "boundary.boundary_edit": "Addition BoundaryEditResult Match SimilarityResult Substitution Transposition "
    "boundary_edit_distance boundary_similarity segmentation_similarity",
    "contract": "MetricCard",
    "boundary.masses": "Segmentation as_segmentation boundary_string codes_from_masses masses_from_codes "
    "masses_from_positions positions_from_masses sets_from_codes sets_from_masses validate_masses",
    "boundary.stats": "AlignmentStats EditCounts SimilarityStats WinPRStats WindowStats pooled",
    "boundary.windows": "K_RULES WinPRResult WindowResult pk window_size windowdiff winpr",
}
_LAZY = {name: f"{__name__}.{module}" for module, names in _MODULES.items() for name in names.split()}


def __getattr__(name: str) -> object:
    """A public name's value, its module imported on first use."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value = getattr(import_module(_LAZY[name]), name)
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = sorted(_LAZY)
