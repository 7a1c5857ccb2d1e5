"""The settings of a corpus run: the config file (or a :class:`RunConfig`) with the caller's keywords applied,
for the token track and the time track, and the settings of one reviewed pair."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from segagree.corpus.config import READ_OPTIONS, RunConfig, load_config
from segagree.errors import UsageError

if TYPE_CHECKING:
    from segagree.corpus.time_track import TimeConfig


def token_settings(
    corpus: Path,
    config: str | os.PathLike[str] | RunConfig | None,
    sims: int | None,
    seed: int | None,
    kappa: bool | None,
    reference: str | None,
    common_speakers: bool | None,
    scheme: str | None,
    review_pages: bool | None = None,
) -> RunConfig:
    """The token track's settings: ``config`` (or CORPUS/segagree.toml) with the keywords applied."""
    if isinstance(config, RunConfig):
        settings = config
    else:
        settings = load_config(Path(config) if config is not None else None, corpus)
    if sims is not None:
        if sims < 1:
            raise UsageError("sims must be at least 1")
        settings.kappa.sims = sims
    if seed is not None:
        settings.kappa.seed = seed
    if kappa is not None:
        settings.kappa.enabled = kappa
    if not settings.kappa.enabled and sims is not None:  # (the seed also seeds the report's bootstrap)
        raise UsageError("sims sets the simulated kappa, which is off (kappa=False or segagree.toml's [kappa])")
    if reference is not None:
        settings.reference = reference
    if common_speakers is not None:
        settings.common_speakers = common_speakers
    if review_pages is not None:
        settings.review_pages = review_pages
    if scheme is not None:
        # A scheme file given here is relative to the working folder, not the config's.
        settings.scheme = str(Path(scheme).resolve()) if Path(scheme).is_file() else scheme
        settings.load_scheme()  # fail early on a bad scheme
    return settings


def time_settings(
    corpus: Path,
    config: str | os.PathLike[str] | RunConfig | None,
    seed: int | None,
    scheme: str | None,
    format: str | None,
    read_options: Mapping[str, Any] | None,
    measures: Sequence[str] | None,
    params: Mapping[str, Any] | None,
    category: str,
) -> TimeConfig:
    """The time track's settings: ``[time]`` of ``config`` (or CORPUS/segagree.toml: ``measures``,
    ``category`` and the measures' parameters), its ``format``, ``encoding`` and ``[read]``, with the
    keywords applied."""
    from segagree.corpus.time_track import TimeConfig
    from segagree.scoring.time.units import UnitReading

    base = config if isinstance(config, RunConfig) else load_config(Path(config) if config else None, corpus)
    table = dict(base.time)
    reading_keys = ("measures", "category", "time_unit", "window")  # not measure parameters
    given = {**{k: v for k, v in table.items() if k not in reading_keys}, **(params or {})}
    if seed is not None:
        given["seed"] = seed
    options = {**base.reader_options(), **(read_options or {})}
    how = UnitReading(
        category=category if category != "label" else str(table.get("category", category)),
        fmt=format or base.format or None,
        scheme=scheme,
        options=options,
        time_unit=str(table.get("time_unit", "s")),
        window=_window(table.get("window")),
    )
    return TimeConfig(list(measures or table.get("measures") or []), given, how)


def _window(value: Any) -> tuple[float, float] | None:
    """``[time] window = [START, END]`` of segagree.toml (seconds), checked."""
    if value is None:
        return None
    from segagree.scoring.time.units import check_window

    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise UsageError(f"segagree.toml: [time] window takes [START, END] in seconds, not {value!r}")
    return check_window((value[0], value[1]))


def review_settings(
    *,
    scheme: str | None,
    mode: str,
    matches: bool,
    kappa: bool,
    sims: int,
    seed: int,
    max_mismatch: float,
    normalise_speakers: bool,
    speaker_map: Mapping[str, str] | None,
    format: str | None,
    read_options: Mapping[str, Any] | None,
    common_speakers: bool,
) -> RunConfig:
    """The settings of one reviewed pair (``segagree review``): a run's settings with these values, the
    reader options split into the encoding and the options the readers take."""
    opts = dict(read_options or {})
    config = RunConfig(
        scheme=scheme or "dubois",
        mode=mode,
        review_matches=matches,
        max_mismatch=max_mismatch,
        normalise_speakers=normalise_speakers,
        common_speakers=common_speakers,
        speakers=dict(speaker_map or {}),
        format=format or "",
        encoding=opts.pop("encoding", ""),
        read={k: v for k, v in opts.items() if k in READ_OPTIONS},
    )
    config.kappa.enabled, config.kappa.sims, config.kappa.seed = kappa, sims, seed
    return config


def choose_metrics(settings: RunConfig, metrics: str | Sequence[str]) -> None:
    """``run(metrics=...)`` and ``review(metrics=...)``: the measures computed besides S_f and S_f^B
    (names or groups, as ``compare --metric``); the subtitle measures among them are the only ones a
    subtitle text gets (none when none is named)."""
    from segagree.metrics.boundary.sf import SF_NAMES
    from segagree.scoring.metric_runner import GROUPS, resolve_metric_names

    names = resolve_metric_names(metrics)
    subtitle = set(GROUPS["subtitles"])
    # S and B are boundary measures of every text as well as subtitle measures (over both break types)
    other = {m for group, members in GROUPS.items() if group != "subtitles" for m in members}
    token = [m for m in names if m not in SF_NAMES and (m not in subtitle or m in other)]
    settings.metrics = [*SF_NAMES, *token]
    settings.subtitle_metrics = [m for m in names if m in subtitle]
