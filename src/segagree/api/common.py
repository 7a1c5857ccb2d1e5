"""What every API function shares: the argument types, reading a path or taking a Document, the
annotator labels and the checks of shared options."""

from __future__ import annotations

import functools
import inspect
import os
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, Union

from segagree.errors import UsageError
from segagree.files.atomic import output_plan
from segagree.formats import read_document

if TYPE_CHECKING:
    from segagree.model import BoundaryScheme, Document

PathLike = str | os.PathLike[str]
# The model (numpy) loads with the first Document, not with the API: a name, not the class, here.
DocumentLike = Union["Document", str, os.PathLike[str]]  # noqa: UP007
_F = TypeVar("_F", bound=Callable[..., Any])


def writes_outputs(folder: str | None = None) -> Callable[[_F], _F]:
    """Run the API function inside a command's output plan
    (:func:`segagree.files.atomic.output_plan`): nothing it writes lands over a file it read, and
    with ``folder`` (the name of its output-folder argument; None there: no folder) nothing lands
    outside that folder, links followed."""

    def wrap(fn: _F) -> _F:
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def planned(*args: Any, **kwargs: Any) -> Any:
            root = signature.bind_partial(*args, **kwargs).arguments.get(folder) if folder else None
            with output_plan(root):
                return fn(*args, **kwargs)

        return planned  # type: ignore[return-value]

    return wrap


F = TypeVar("F", bound=Callable[..., Any])


def renamed_keywords(**old_to_new: str) -> Callable[[F], F]:
    """Accept a keyword's former spelling (``from_format=`` for ``format=``) for one more release,
    with a DeprecationWarning naming the new one; giving both is a :class:`UsageError`."""

    def wrap(f: F) -> F:
        @functools.wraps(f)
        def call(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise UsageError(f"{f.__name__}: give {new}= only ({old}= is its former name)")
                    warnings.warn(
                        f"{f.__name__}({old}=...) is deprecated, use {new}= (as the command line's option)",
                        DeprecationWarning,
                        stacklevel=2,
                    )
                    kwargs[new] = kwargs.pop(old)
            return f(*args, **kwargs)

        return call  # type: ignore[return-value]

    return wrap


def renamed_value(function: str, keyword: str, value: str, old_to_new: Mapping[str, str]) -> str:
    """A keyword's value in its current spelling; a former one (``undecided="a"``) is accepted
    with a DeprecationWarning for one more release."""
    if value in old_to_new:
        new = old_to_new[value]
        warnings.warn(
            f"{function}({keyword}={value!r}) is deprecated, use {keyword}={new!r} (as the command line)",
            DeprecationWarning,
            stacklevel=3,
        )
        return new
    return value


def as_document(
    item: DocumentLike,
    fmt: str | None = None,
    scheme: BoundaryScheme | None = None,
    options: Mapping[str, Any] | None = None,
) -> Document:
    """A Document as given, or read from a path (format ``fmt`` or by extension, the scheme, reader options)."""
    from segagree.model import Document

    if isinstance(item, Document):
        return item
    return read_document(Path(item), fmt, scheme=scheme, **dict(options or {}))


def annotator_label(item: DocumentLike, i: int) -> str:
    """An annotator's label: the file name, else the Document's annotator or name."""
    from segagree.model import Document

    if not isinstance(item, Document):
        return Path(item).name
    return Path(item.source_path).name if item.source_path else (item.annotator or item.name or f"annotator{i + 1}")


def pairing(
    layer: str | None,
    scheme: BoundaryScheme | None,
    align: bool,
    max_mismatch: float,
    normalise_speakers: bool,
    common_speakers: bool,
    speaker_map: Mapping[str, str] | None,
    /,
) -> dict[str, Any]:
    """How annotations are paired into boundary arrays (the layer and scheme compared, speakers,
    token alignment), checked, as the pipeline's keywords."""
    if not 0.0 <= max_mismatch <= 1.0:
        raise UsageError(f"max_mismatch must be a fraction between 0 and 1, not {max_mismatch!r}")
    return {
        "layer": layer,
        "scheme": scheme,
        "align": align,
        "max_mismatch": max_mismatch,
        "normalise_speakers": normalise_speakers,
        "common_speakers": common_speakers,
        "speaker_map": speaker_map,
    }


def check_margin(margin: float) -> None:
    if not (isinstance(margin, int | float) and 0 <= margin < float("inf")):
        raise UsageError(f"the margin must be a number of seconds >= 0, not {margin!r}")


#: The seeds every random draw takes (numpy's generators take no negative seed).
SEED_RANGE = (0, 2**63 - 1)


def check_seed(seed: object, name: str = "seed") -> None:
    """Refuse a seed that is not a whole number from 0 to 2^63 - 1 (None: the default seed)."""
    if seed is None:
        return
    low, high = SEED_RANGE
    if isinstance(seed, bool) or not isinstance(seed, int) or not low <= seed <= high:
        raise UsageError(f"{name} must be a whole number from 0 to 2^63 - 1, not {seed!r}")
