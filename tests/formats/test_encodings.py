"""Text encodings: detection, damaged UTF-8, the --encoding override, the notices.

The CJK cases are real NCCU tables re-encoded (GB2312 keeps the rows it can encode: NCCU is
Traditional Chinese, which GBK and Big5 encode whole); the Japanese and Korean samples are
written here. The expected text is always the UTF-8 original, so a wrong guess fails.
"""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from segagree.errors import InputError, SegagreeError, UsageError
from segagree.files.encoding import decode, plausibility
from segagree.formats import read_document, write_document
from segagree.model import builtin_scheme

from conftest import REPO, shared_path

NCCU = sorted(p.name for p in (REPO.parent / "shared" / "corpora" / "nccu").glob("*.csv"))
SINGLE_BYTE = {"cp1252", "latin-1", "iso8859-1", "cp1250", "cp1251", "cp1253", "koi8-r", "mac-roman"}

SRT_FR = (
    "1\n00:00:01,000 --> 00:00:02,000\nTrès bien, où est le café ?\n\n"
    "2\n00:00:03,000 --> 00:00:04,500\nÀ côté de l'église, Noël déjà.\n"
)
TEXT_FR = "MARIE:\tà l'école ,\n\tc'était très gênant .\nJULES:\toù ça ?\n"
TEXTGRID_FR = """File type = "ooTextFile"
Object class = "TextGrid"

xmin = 0
xmax = 3
tiers? <exists>
size = 1
item []:
    item [1]:
        class = "IntervalTier"
        name = "Élise"
        xmin = 0
        xmax = 3
        intervals: size = 2
        intervals [1]:
            xmin = 0
            xmax = 1.5
            text = "déjà fini ."
        intervals [2]:
            xmin = 1.5
            xmax = 3
            text = "ça va ?"
"""
SRT_JA = (
    "1\n00:00:01,000 --> 00:00:02,000\n今日はいい天気ですね。\n\n"
    "2\n00:00:03,000 --> 00:00:04,000\nそうですね、散歩に行きましょう。\n\n"
    "3\n00:00:04,500 --> 00:00:06,000\n駅の近くに新しい喫茶店ができました。\n"
)
TEXT_KO = "민수:\t안녕하세요 ,\n\t오늘 날씨가 정말 좋네요 .\n지영:\t네 , 산책하러 갈까요 ?\n"


def nccu_text(name: str, codec: str) -> str:
    """An NCCU table's text, keeping the rows ``codec`` can encode."""
    text = shared_path("corpora", "nccu", name).read_text(encoding="utf-8")
    keep = []
    for line in text.splitlines(keepends=True):
        try:
            line.encode(codec)
        except UnicodeEncodeError:
            continue
        keep.append(line)
    return "".join(keep)


def same_tokens(a, b) -> None:
    assert a.differences(b) == []
    assert a.tokens["text"].tolist() == b.tokens["text"].tolist()


@pytest.mark.parametrize("codec", ["gb2312", "gbk", "big5"])
@pytest.mark.parametrize("name", NCCU[::4] or ["absent"])  # 4 of the 14 tables: enough, and quick
def test_nccu_tables_in_chinese_encodings(name: str, codec: str, tmp_path: Path, caplog) -> None:
    text = nccu_text(name, codec)
    utf8 = tmp_path / "u.csv"
    utf8.write_text(text, encoding="utf-8")
    legacy = tmp_path / "l.csv"
    legacy.write_bytes(text.encode(codec))
    with caplog.at_level(logging.WARNING, logger="segagree.files.encoding"):  # whatever other tests set
        doc = read_document(legacy)
    same_tokens(read_document(utf8), doc)
    want = "big5" if codec == "big5" else "gb18030"  # GB18030 decodes GB2312 and GBK alike
    assert [(loss.kind, loss.side) for loss in doc.losses] == [("encoding", "read")]
    assert f"decoded as {want} (detected; no BOM, not UTF-8)" in doc.losses.lines()[0]
    assert any(f"decoded as {want}" in r.getMessage() and str(legacy) in r.getMessage() for r in caplog.records)


def test_cjk_never_comes_out_single_byte() -> None:
    """Seeded random NCCU excerpts of 1 to 30 rows: always a CJK codec (or valid UTF-8, which a
    file of one or two GB2312 characters can be by chance), and exact from 3 rows of Big5/GBK."""
    rows: list[str] = []
    for name in NCCU:
        rows += shared_path("corpora", "nccu", name).read_text(encoding="utf-8").splitlines(keepends=True)[1:]
    if not rows:
        pytest.skip("no NCCU tables")
    rng = random.Random(11)
    wrong = 0
    for case in range(240):
        codec = ("gb2312", "gbk", "big5")[case % 3]
        sample = [r for r in rng.sample(rows, rng.choice([1, 2, 3, 5, 10, 30])) if _encodable(r, codec)]
        text = "Turn,Speaker,Utterance,row_id\n" + "".join(sample)
        got = decode(text.encode(codec), "x.csv")
        assert got.encoding not in SINGLE_BYTE, (codec, got.encoding, sample)
        wrong += got.text != text
    assert wrong <= 24  # one- or two-character excerpts are ambiguous between CJK codecs


def _encodable(text: str, codec: str) -> bool:
    try:
        text.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


@pytest.mark.parametrize("codec", ["shift_jis", "euc_jp"])
def test_japanese_subtitles(codec: str, tmp_path: Path) -> None:
    (tmp_path / "u.srt").write_text(SRT_JA, encoding="utf-8")
    (tmp_path / "l.srt").write_bytes(SRT_JA.encode(codec))
    doc = read_document(tmp_path / "l.srt")
    same_tokens(read_document(tmp_path / "u.srt"), doc)
    assert doc.meta["encoding"] in ("cp932", "euc_jp")
    assert doc.losses.kinds() == {"encoding"}


def test_korean_transcript_in_euc_kr(tmp_path: Path) -> None:
    (tmp_path / "u.txt").write_text(TEXT_KO, encoding="utf-8")
    (tmp_path / "l.txt").write_bytes(TEXT_KO.encode("euc_kr"))
    doc = read_document(tmp_path / "l.txt")
    same_tokens(read_document(tmp_path / "u.txt"), doc)
    assert doc.speakers == ["민수", "지영"]
    assert "decoded as cp949" in doc.losses.lines()[0]


@pytest.mark.parametrize("codec", ["cp1252", "latin-1"])
@pytest.mark.parametrize(("name", "content"), [("f.srt", SRT_FR), ("f.txt", TEXT_FR), ("f.TextGrid", TEXTGRID_FR)])
def test_french_in_western_encodings(codec: str, name: str, content: str, tmp_path: Path) -> None:
    (tmp_path / "u").mkdir()
    (tmp_path / "u" / name).write_text(content, encoding="utf-8")
    (tmp_path / name).write_bytes(content.encode(codec))
    doc = read_document(tmp_path / name)
    same_tokens(read_document(tmp_path / "u" / name), doc)
    assert [loss.kind for loss in doc.losses] == ["encoding"]
    assert "decoded as cp1252" in doc.losses.lines()[0]  # cp1252 is latin-1's superset for text


def test_one_stray_byte_keeps_utf8(tmp_path: Path) -> None:
    src = shared_path("corpora", "nccu", "nccu_t001.a1.csv")
    raw = src.read_bytes()
    cut = raw.index(b"\n", 5000) + 1  # a stray byte at the start of a line, inside no character
    path = tmp_path / "stray.csv"
    path.write_bytes(raw[:cut] + b"\xff" + raw[cut:])
    doc = read_document(path)
    good = read_document(src)
    assert doc.n_tokens == good.n_tokens
    differ = [i for i, (a, b) in enumerate(zip(doc.tokens["text"], good.tokens["text"], strict=True)) if a != b]
    assert len(differ) <= 1  # the token (or cell) the byte landed in holds U+FFFD
    repairs = [loss for loss in doc.losses if loss.kind == "repaired"]
    line = raw.count(b"\n", 0, cut) + 1
    assert len(repairs) == 1 and repairs[0].count == 1
    assert repairs[0].where == f"byte {cut}, line {line}"
    assert not any(loss.kind == "encoding" for loss in doc.losses)


def test_stray_bytes_in_a_short_french_utf8_file(tmp_path: Path) -> None:
    raw = SRT_FR.encode("utf-8")
    at = raw.index(b"bien")
    path = tmp_path / "s.srt"
    path.write_bytes(raw[:at] + b"\xe9" + raw[at:])
    doc = read_document(path)
    assert "\ufffdbien," in doc.tokens["text"].tolist()
    assert "café" in doc.tokens["text"].tolist() and "Très" in doc.tokens["text"].tolist()
    assert doc.losses.kinds() == {"repaired"}


@pytest.mark.parametrize(("name", "content"), [("e.srt", SRT_FR), ("e.txt", TEXT_FR), ("e.TextGrid", TEXTGRID_FR)])
def test_encoding_override(name: str, content: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes(content.encode("cp1252"))
    doc = read_document(path, encoding="cp1252")
    assert not doc.losses  # the user said so: nothing to report
    assert {"déjà", "Très", "très"} & set(doc.tokens["text"])
    with pytest.raises(InputError) as err:
        read_document(path, encoding="utf-8")
    msg = str(err.value)
    first_bad = next(i for i, b in enumerate(content.encode("cp1252")) if b >= 0x80)
    assert msg.startswith(f"{path}: byte {first_bad}, line ") and "not utf-8 text" in msg and "\n" not in msg
    with pytest.raises(UsageError, match="unknown encoding 'klingon'"):
        read_document(path, encoding="klingon")
    # mojibake on purpose, but the user asked for it
    assert "Ã" not in " ".join(read_document(path, encoding="latin-1").tokens["text"])


def test_encoding_override_for_tables(tmp_path: Path) -> None:
    text = nccu_text("nccu_t016.a1.csv", "big5")
    path = tmp_path / "t.csv"
    path.write_bytes(text.encode("big5"))
    doc = read_document(path, encoding="big5")
    assert not doc.losses and "在" in "".join(doc.tokens["text"])
    with pytest.raises(InputError, match="not gb2312 text"):
        read_document(path, encoding="gb2312")
    for other in ("x.eaf", "x.rez", "x.segagree.json"):  # formats that take no encoding are not upset
        with pytest.raises(SegagreeError, match="no such file"):
            read_document(tmp_path / other, encoding=None)


def test_utf16_and_bom_files_report_nothing(tmp_path: Path) -> None:
    for i, (codec, bom) in enumerate([("utf-8", b"\xef\xbb\xbf"), ("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"")]):
        path = tmp_path / f"b{i}.txt"
        path.write_bytes(bom + TEXT_FR.encode(codec))
        doc = read_document(path)
        assert not doc.losses and doc.token_texts()["MARIE"][0] == "à"


def test_undecodable_bytes_are_a_clean_error(tmp_path: Path) -> None:
    path = tmp_path / "bin.txt"
    path.write_bytes(bytes(range(0x80, 0x100)) * 4)
    try:
        doc = read_document(path)
    except SegagreeError as err:
        assert "\n" not in str(err)
    else:  # a detector may find a code page that maps every byte: then it must say so
        assert "encoding" in doc.losses.kinds()


def test_convert_is_not_lossless_after_detection(tmp_path: Path) -> None:
    path = tmp_path / "fr.srt"
    path.write_bytes(SRT_FR.encode("cp1252"))
    doc = read_document(path)
    losses = write_document(doc, tmp_path / "out.srt")
    assert not losses and doc.losses  # the write is faithful, the read reported the guess
    back = read_document(tmp_path / "out.srt")
    assert not back.losses and back.differences(doc) == []


def test_plausibility_ranks_real_text_above_mojibake() -> None:
    fr = "À côté de l'église, très bien."
    assert plausibility(fr) == pytest.approx(plausibility(fr, "cp1252"))
    assert plausibility(fr) > plausibility(fr.encode("utf-8").decode("cp1252"))
    zh = "我們 在 美容院 上班 ."
    assert plausibility(zh, "gb18030") > plausibility(zh.encode("gbk").decode("cp1252", errors="replace"))
    assert plausibility("T\u8517s bien", "big5") < plausibility("Très bien", "cp1252")
    assert plausibility("plain ASCII") == 1.0


def test_dubois_scheme_is_untouched_by_decoding(tmp_path: Path) -> None:
    path = tmp_path / "k.txt"
    path.write_bytes(TEXT_KO.encode("euc_kr"))
    doc = read_document(path, scheme="dubois")
    assert doc.layer().scheme == builtin_scheme("dubois")
    assert [doc.layer().scheme.symbol(c) for c in doc.layer().boundaries if c] == [",", ".", "?"]
