"""Steps shared by the compiled TER kernels (:mod:`segagree.metrics.subtitles.ter_kernel`, sacrebleu's
TER, and :mod:`segagree.metrics.subtitles.suber_kernel`, suber's SubER): both search shifts as
sacrebleu's ``lib_ter`` does.

numba's on-disk cache of a kernel does not notice a change to a function it calls from another
module: after editing this module, delete the kernels' cache files (``__pycache__/*.nbi``, ``*.nbc``
beside them) or bump their sources."""

from __future__ import annotations

from segagree.metrics.numba_import import require_njit

njit = require_njit()  # numba without its BLAS probe (segagree.metrics.numba_import)

__all__ = ["copy_into", "perform_shift"]


@njit(cache=True, nogil=True)
def copy_into(src, dst):
    """``dst[:] = src`` for two arrays of one length, as a loop: numba's slice assignment compiles
    its shape-mismatch message (string formatting), seconds of compile time for no use here."""
    for x in range(src.shape[0]):
        dst[x] = src[x]


@njit(cache=True, nogil=True)
def perform_shift(w, start, length, target, out):
    """sacrebleu's (and suber's) ``_perform_shift`` (Python slice semantics) into ``out``."""
    n = w.shape[0]
    if target < start:
        bounds = ((0, target), (start, start + length), (target, start), (start + length, n))
    elif target > start + length:
        bounds = ((0, start), (start + length, target), (start, start + length), (target, n))
    else:
        bounds = ((0, start), (start + length, length + target), (start, start + length), (length + target, n))
    k = 0
    for a, b in bounds:
        b = min(b, n)
        for x in range(a, b):
            out[k] = w[x]
            k += 1
