"""The songs and voice recordings of fixtures/audio (and the recorder app's clips)
match what fixtures/make_audio.py describes, and decode as audio."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("make_audio", ROOT / "fixtures" / "make_audio.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()
CLIPS = [SCRIPT.APP_DATA_DIR / f"recording.{ext}" for ext in ("m4a", "mp3", "ogg")]


def decoded_seconds(path: Path) -> float:
    """Decode every audio frame with FFmpeg (PyAV) and return the samples' length in seconds."""
    import av

    with av.open(str(path)) as container:
        stream = container.streams.audio[0]
        samples = sum(frame.samples for frame in container.decode(stream))
        return samples / stream.codec_context.sample_rate


def test_every_file_is_committed_and_small():
    songs = sorted(p.name for p in SCRIPT.MUSIC_DIR.iterdir())
    recordings = sorted(p.name for p in SCRIPT.RECORDINGS_DIR.iterdir())
    assert songs == sorted(s.filename for s in SCRIPT.SONGS), "run `python fixtures/make_audio.py` and commit"
    assert recordings == sorted(name for name, _s, _hz in SCRIPT.RECORDINGS)
    for path in [*SCRIPT.MUSIC_DIR.iterdir(), *SCRIPT.RECORDINGS_DIR.iterdir(), *CLIPS]:
        assert path.stat().st_size < 12_000, path


@pytest.mark.parametrize("song", SCRIPT.SONGS, ids=lambda s: s.filename)
def test_songs_carry_their_tags_and_decode(song):
    import mutagen

    audio = mutagen.File(io.BytesIO((SCRIPT.MUSIC_DIR / song.filename).read_bytes()), easy=True)
    tags = {key: audio.tags[key][0] for key in ("title", "artist", "album", "date", "tracknumber", "genre")}
    assert tags == {"title": song.title, "artist": song.artist, "album": song.album, "date": str(song.year),
                    "tracknumber": str(song.track), "genre": song.genre}
    assert abs(decoded_seconds(SCRIPT.MUSIC_DIR / song.filename) - song.seconds) < 0.15


def test_albums_have_different_years_in_an_order_no_title_sort_gives():
    years = {}
    for song in SCRIPT.SONGS:
        years.setdefault(song.album, set()).add(song.year)
    assert all(len(y) == 1 for y in years.values())
    by_year = sorted(years, key=lambda album: min(years[album]))
    assert by_year not in (sorted(years), sorted(years, reverse=True))


@pytest.mark.parametrize("name, seconds, _hz", SCRIPT.RECORDINGS)
def test_recordings_are_aac_in_mpeg4_and_decode(name, seconds, _hz):
    import mutagen.mp4

    path = SCRIPT.RECORDINGS_DIR / name
    audio = mutagen.mp4.MP4(io.BytesIO(path.read_bytes()))
    assert audio.info.codec == "mp4a.40.2"  # AAC LC, what the recorder writes
    assert abs(decoded_seconds(path) - seconds) < 0.15


@pytest.mark.parametrize("path", CLIPS, ids=lambda p: p.name)
def test_the_recorder_apps_clips_decode(path):
    assert abs(decoded_seconds(path) - 1.0) < 0.15


def ogg_pages(data: bytes) -> list[tuple[int, int, int, int, bytes | None]]:
    """Each Ogg page's header type, granule position, sequence number and segment count (RFC 3533
    section 6), with the payload of the two header pages (OpusHead, OpusTags: RFC 7845 section 5)."""
    pages, offset = [], 0
    while offset < len(data):
        assert data[offset:offset + 4] == b"OggS", f"no Ogg page at byte {offset}"
        header_type = data[offset + 5]
        granule = int.from_bytes(data[offset + 6:offset + 14], "little")
        sequence = int.from_bytes(data[offset + 18:offset + 22], "little")
        segments = data[offset + 26]
        body = offset + 27 + segments
        size = sum(data[offset + 27:body])
        pages.append((header_type, granule, sequence, segments, data[body:body + size] if sequence < 2 else None))
        offset = body + size
    return pages


def test_the_script_is_deterministic(tmp_path, monkeypatch):
    """Running the script again writes the same bytes (so the committed files are its output).

    Opus audio is the exception: libopus picks its float kernels by the processor it runs on
    (run-time CPU detection, celt/x86/x86_celt_map.c: SSE, SSE4.1, AVX2), so its encoded packets
    differ in their last bits between machines. For the .ogg clip the script must still give the
    same bytes twice on one machine, and the committed clip the same pages: headers, granule
    positions (its length in samples) and packet layout.
    """
    committed = {"MUSIC_DIR": ROOT / "fixtures/audio/music", "RECORDINGS_DIR": ROOT / "fixtures/audio/recordings",
                 "APP_DATA_DIR": ROOT / "pytest_mobileagent/virtual_phone/apps/data"}
    for name in committed:
        monkeypatch.setattr(SCRIPT, name, tmp_path / name)
    monkeypatch.setattr(SCRIPT, "ROOT", tmp_path)
    SCRIPT.main()
    made_files = [made for name in committed for made in sorted((tmp_path / name).iterdir())]
    assert {made.name for made in made_files} >= {"recording.ogg", "recording.mp3", "recording.m4a"}
    for made in made_files:
        reference = (committed[made.parent.name] / made.name).read_bytes()
        if made.suffix == ".ogg":
            assert SCRIPT.encode_ogg(SCRIPT.tone(200.0, 1.0, 48000)) == made.read_bytes()
            assert ogg_pages(made.read_bytes()) == ogg_pages(reference)
        else:
            assert made.read_bytes() == reference, made.name
