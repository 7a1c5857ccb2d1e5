"""segagree: segmentation similarity and agreement for corpus linguists.

Reads Rezonator, ELAN, Praat, SRT, plain transcripts and spreadsheets into one canonical model
(:mod:`segagree.model`), scores pairs of segmentations (:mod:`segagree.metrics`), turns
similarity into chance-corrected agreement and writes review spreadsheets and reports
(:mod:`segagree.scoring`, :mod:`segagree.outputs`).

The Python API is at the package top (see :mod:`segagree.api`)::

    import segagree
    a = segagree.read("talk.ann1.txt")
    result = segagree.compare(a, "talk.ann2.eaf", metrics="all")  # every boundary metric
    print(result.sf, result.sf_b)

Names are imported on first use (module ``__getattr__``), so ``import segagree`` stays cheap.
"""

from __future__ import annotations

# Not `from typing import TYPE_CHECKING`: importing typing alone costs more than this module.
TYPE_CHECKING = False


# public name -> module that defines it
_LAZY = {
    "__version__": "segagree.version",
    "read": "segagree.api",
    "write": "segagree.api",
    "convert": "segagree.api",
    "compare": "segagree.api",
    "agree": "segagree.api",
    "agree_time": "segagree.api",
    "read_time_units": "segagree.api",
    "review_time": "segagree.api",
    "adjudicate_time": "segagree.api",
    "is_time_review": "segagree.api",
    "run": "segagree.api",
    "metric_cards": "segagree.api",
    "degrade": "segagree.api",
    "segment": "segagree.api",
    "check_style": "segagree.api",
    "study": "segagree.api",
    "panel": "segagree.api",
    "PanelResult": "segagree.api",
    "CompareResult": "segagree.api",
    "AgreementResult": "segagree.api",
    "ConversionReport": "segagree.api",
    "RunOutcome": "segagree.api",
    "Document": "segagree.api",
    "BoundaryScheme": "segagree.api",
    "LossReport": "segagree.api",
    "SfResult": "segagree.api",
    "SfKappaResult": "segagree.api",
    "KappaEstimate": "segagree.api",
    "MetricCard": "segagree.api",
    "load_scheme": "segagree.api",
    "SegagreeError": "segagree.errors",
    "InputError": "segagree.errors",
    "MismatchError": "segagree.errors",
    "SchemeError": "segagree.errors",
    "UsageError": "segagree.errors",
}

__all__ = [*_LAZY]

if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load lazily
    from segagree.api import (  # noqa: F401
        AgreementResult,
        BoundaryScheme,
        CompareResult,
        ConversionReport,
        Document,
        KappaEstimate,
        LossReport,
        MetricCard,
        PanelResult,
        RunOutcome,
        SfKappaResult,
        SfResult,
        adjudicate_time,
        agree,
        agree_time,
        check_style,
        compare,
        convert,
        degrade,
        is_time_review,
        load_scheme,
        metric_cards,
        panel,
        read,
        read_time_units,
        review_time,
        run,
        segment,
        study,
        write,
    )
    from segagree.errors import InputError, MismatchError, SchemeError, SegagreeError, UsageError  # noqa: F401


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'segagree' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
