"""Regenerate sample_corpora/recording/: a short recording we make ourselves and two ELAN annotations of it.

The recording is synthetic speech (espeak-ng, two voices for two speakers): every intonation unit
below is spoken to its own WAV, the pieces are joined with sox with 0.35 s of silence between them,
and the whole is written as a mono 16 kHz Ogg Vorbis file (``talk.ogg``, some 50 KB). Because each
unit is synthesised on its own, its start and end in the recording are known exactly (sample
counts), so annotator ``kim``'s units have true times. Annotator ``lee`` hears the same words
differently: one boundary fewer (units 1 and 2 as one), one more (unit 4 split, at a time
proportional to its words), one endnote type changed. Both ELAN files name the recording in a
``MEDIA_DESCRIPTOR`` (``RELATIVE_MEDIA_URL`` ``./talk.ogg``). Everything here is ours: no
third-party file is used.

    PYTHONPATH=src python sample_corpora/tools/make_recording.py   # needs espeak-ng and sox on PATH
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import wave
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "recording"
RATE = 16000
GAP = 0.35
VOICES = {"ROSA": "en-us+f3", "BEN": "en-us+m3"}
# (speaker, words, endnote) as annotator kim hears them
UNITS = [
    ("ROSA", "so I went out to the garden", ","),
    ("ROSA", "this morning", ","),
    ("ROSA", "and the tomatoes were all gone", "."),
    ("BEN", "gone like eaten by something in the night", "?"),
    ("ROSA", "eaten", ","),
    ("ROSA", "pulled up", "."),
]


def _speak(text: str, voice: str, path: Path) -> float:
    subprocess.run(["espeak-ng", "-v", voice, "-s", "150", "-w", str(path), text], check=True)
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


def _pieces(tmp: Path) -> tuple[list[Path], list[tuple[float, float]]]:
    pieces, times, t = [], [], 0.0
    silence = tmp / "gap.wav"
    subprocess.run(["sox", "-n", "-r", str(RATE), "-c", "1", str(silence), "trim", "0", str(GAP)], check=True)
    for i, (speaker, words, _) in enumerate(UNITS):
        raw, res = tmp / f"u{i}.raw.wav", tmp / f"u{i}.wav"
        _speak(words, VOICES[speaker], raw)
        subprocess.run(["sox", str(raw), "-r", str(RATE), "-c", "1", str(res)], check=True)
        with wave.open(str(res)) as w:
            duration = w.getnframes() / RATE
        pieces += [silence, res]
        times.append((round(t + GAP, 3), round(t + GAP + duration, 3)))
        t += GAP + duration
    pieces.append(silence)
    return pieces, times


def _lee(kim: list[dict[str, Any]], scheme: Any) -> list[dict[str, Any]]:
    """Annotator lee: units 1+2 as one, unit 4 split after its second word, unit 6 ends in '?'."""
    u = [dict(x) for x in kim]
    merged = {**u[0], "tokens": u[0]["tokens"] + u[1]["tokens"], "end": u[1]["end"], "boundary": u[1]["boundary"]}
    four = u[3]
    cut = four["start"] + (four["end"] - four["start"]) * 2 / len(four["tokens"])
    first = {**four, "tokens": four["tokens"][:2], "end": round(cut, 3), "boundary": scheme.find_code(",")}
    second = {**four, "tokens": four["tokens"][2:], "start": round(cut, 3)}
    last = {**u[5], "boundary": scheme.find_code("?")}
    return [merged, u[2], first, second, u[4], last]


def main() -> None:
    from segagree.formats import write_document
    from segagree.model import builtin_scheme, from_units

    for tool in ("espeak-ng", "sox"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is not on PATH (apt-get install {tool})")
    OUT.mkdir(exist_ok=True)
    scheme = builtin_scheme("dubois")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        pieces, times = _pieces(tmp)
        subprocess.run(["sox", *map(str, pieces), "-C", "3", str(OUT / "talk.ogg")], check=True)
    kim = [
        {"speaker": s, "tokens": words.split(), "boundary": scheme.find_code(end), "start": a, "end": b}
        for (s, words, end), (a, b) in zip(UNITS, times, strict=True)
    ]
    media = [{"MEDIA_URL": "file:///talk.ogg", "MIME_TYPE": "audio/ogg", "RELATIVE_MEDIA_URL": "./talk.ogg"}]
    for name, units in (("kim", kim), ("lee", _lee(kim, scheme))):
        doc = from_units(
            "talk", units, layer="iu", scheme=scheme, speakers=list(VOICES), meta={"media_descriptors": media}
        )
        write_document(doc, OUT / f"talk.{name}.eaf")
    print(f"wrote {OUT}: talk.ogg ({(OUT / 'talk.ogg').stat().st_size} bytes), talk.kim.eaf, talk.lee.eaf")


if __name__ == "__main__":
    main()
