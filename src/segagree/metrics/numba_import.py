"""numba, imported for segagree's compiled kernels without numba's BLAS probe.

numba's first compile or cache load imports ``numba.np.arraymath``, which at import probes for a
BLAS by importing ``scipy.linalg`` (about 0.2 s of CPU, a tenth of a subtitle comparison's
fixed cost). segagree's kernels (:mod:`segagree.metrics.chance.kernels`, :mod:`segagree.metrics.subtitles.ter_kernel`)
use no BLAS, so that module is imported here with the probe failing: numba then uses its own
loops for the BLAS-backed NumPy functions, which no kernel of segagree calls. The probe is left
alone when ``scipy.linalg`` is already imported (nothing to save) or ``arraymath`` already is.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

_PROBE = "scipy.linalg.cython_blas"


def njit_or_none() -> Callable[..., Any] | None:
    """numba's ``njit`` (arraymath loaded without the BLAS probe), or None without numba."""
    try:
        from numba import njit
    except ImportError:  # pragma: no cover - exercised where numba is absent
        return None
    if "numba.np.arraymath" not in sys.modules and _PROBE not in sys.modules:
        sys.modules[_PROBE] = None  # type: ignore[assignment]  # makes the probe's import fail at once
        try:
            import numba.np.arraymath  # noqa: F401
        finally:
            del sys.modules[_PROBE]
    return njit


def require_njit() -> Callable[..., Any]:
    """:func:`njit_or_none`, or the ImportError ``from numba import njit`` would raise."""
    njit = njit_or_none()
    if njit is None:  # pragma: no cover - exercised where numba is absent
        raise ImportError("numba is needed for this compiled kernel (pip install numba)")
    return njit
