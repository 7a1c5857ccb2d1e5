"""Segmentation similarity metrics.

S_f and S_f^B (Lai, Li & Zhang 2023): :func:`sf` and :func:`sf_speaker` in
:mod:`segagree.metrics.sf`; the R reference's search is in :mod:`segagree.metrics.sf_segsimflex`.
"""

from segagree.metrics.sf import MODES, Operation, SfResult, SfStats, sf, sf_speaker

__all__ = ["MODES", "Operation", "SfResult", "SfStats", "sf", "sf_speaker"]
