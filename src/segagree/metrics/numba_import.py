"""numba, imported for segagree's compiled kernels without numba's BLAS probe.

numba's first compile or cache load imports ``numba.np.arraymath``, which at import probes for a
BLAS by importing ``scipy.linalg`` (about 0.2 s of CPU, a tenth of a subtitle comparison's
fixed cost). segagree's kernels (:mod:`segagree.metrics.chance.kernels`, :mod:`segagree.metrics.subtitles.ter_kernel`)
use no BLAS, so that module is imported here with the probe failing: numba then uses its own
loops for the BLAS-backed NumPy functions, which no kernel of segagree calls. The probe is left
alone when ``scipy.linalg`` is already imported (nothing to save) or ``arraymath`` already is.

The first process that needs a kernel compiles it into numba's on-disk cache beside its module
(seconds to a minute for all of them); later processes load it. numba announces each real
compilation (a cache miss) as a ``numba:compile`` event: the first one calls :data:`first_compile`
once per process tree, which the command line sets to say why it waits (the Python API is silent).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

_PROBE = "scipy.linalg.cython_blas"
# Set in the environment once the wait was announced, so that a run's worker processes stay quiet.
_ANNOUNCED = "SEGAGREE_COMPILE_ANNOUNCED"
FIRST_COMPILE_MESSAGE = (
    "segagree: compiling the fast kernels on first use (up to a minute, once); later runs load them from the cache"
)

# Called with FIRST_COMPILE_MESSAGE at the first compilation of a kernel (the CLI prints it); None: silent.
first_compile: Callable[[str], None] | None = None
_listening = False


def _listen_for_compilation() -> None:
    """Register (once) a numba listener that calls :data:`first_compile` at the first compilation."""
    from numba.core import event

    class FirstCompile(event.Listener):
        def on_start(self, _event: Any) -> None:
            if first_compile is not None and not os.environ.get(_ANNOUNCED):
                os.environ[_ANNOUNCED] = "1"
                first_compile(FIRST_COMPILE_MESSAGE)

        def on_end(self, _event: Any) -> None:
            pass

    global _listening
    if not _listening:
        event.register("numba:compile", FirstCompile())
        _listening = True


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
    _listen_for_compilation()
    return njit


def require_njit() -> Callable[..., Any]:
    """:func:`njit_or_none`, or the ImportError ``from numba import njit`` would raise."""
    njit = njit_or_none()
    if njit is None:  # pragma: no cover - exercised where numba is absent
        raise ImportError("numba is needed for this compiled kernel (pip install numba)")
    return njit
