"""The settings of the acoustic cues, with Praat's defaults.

* pitch: ``Sound: To Pitch...`` (autocorrelation, Boersma 1993) with time step 0 (auto), pitch floor
  75 Hz, ceiling 600 Hz (Praat's defaults);
* intensity: ``Sound: To Intensity...`` with minimum pitch 100 Hz, time step 0 (auto), mean subtracted;
* silences: ``Sound: To TextGrid (silences)...`` with minimum pitch 100 Hz, time step 0, silence
  threshold -25 dB (below the maximum intensity), minimum silent and sounding intervals 0.1 s;
* syllable nuclei: de Jong & Wempe (2009)'s script (version 2, 2010): intensity with minimum pitch
  50 Hz, peaks above the 0.99 quantile - 25 dB, a dip of more than 2 dB to the next peak, voiced
  (``To Pitch (ac)... 0.02 30 4 no 0.03 0.25 0.01 0.35 0.25 450``) and inside a sounding interval
  (pauses of at least 0.3 s);

and segagree's own windows around a boundary (not Praat's: no Praat default exists for them).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from segagree.errors import UsageError

__all__ = ["CueSettings"]


@dataclass(frozen=True)
class CueSettings:
    """What the cues are computed with (see the module docstring for where each default comes from)."""

    pitch_floor: float = 75.0
    pitch_ceiling: float = 600.0
    silence_threshold: float = -25.0
    min_silence: float = 0.1
    min_sounding: float = 0.1
    intensity_min_pitch: float = 100.0
    nuclei_silence_db: float = -25.0
    nuclei_min_dip: float = 2.0
    nuclei_min_pause: float = 0.3
    window: float = 0.2  # seconds of speech on each side for F0 and intensity
    rate_window: float = 1.0  # seconds on each side for the speech rate
    pause_tolerance: float = 0.05  # a silent interval this close to the annotated gap belongs to it

    def __post_init__(self) -> None:
        if not 0 < self.pitch_floor < self.pitch_ceiling:
            raise UsageError(
                f"the pitch floor ({self.pitch_floor:g} Hz) must be above 0 and below the ceiling "
                f"({self.pitch_ceiling:g} Hz)"
            )
        if self.silence_threshold >= 0:
            raise UsageError(f"the silence threshold is dB below the maximum: negative, not {self.silence_threshold:g}")
        for name in ("min_silence", "min_sounding", "window", "rate_window", "intensity_min_pitch"):
            if not getattr(self, name) > 0:
                raise UsageError(f"the cue setting {name} must be above 0, not {getattr(self, name)!r}")
        if self.pause_tolerance < 0:
            raise UsageError(f"the pause tolerance must be 0 or more, not {self.pause_tolerance:g}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def tracks_part(self) -> dict[str, Any]:
        """The settings the recording's tracks depend on (the cache key): not the windows."""
        return {k: v for k, v in asdict(self).items() if k not in ("window", "rate_window", "pause_tolerance")}
