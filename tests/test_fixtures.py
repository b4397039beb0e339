"""The committed media fixtures are valid and match what fixtures/make_fixtures.py describes."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _script():
    spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()
ALL = [*SCRIPT.IMAGES, *SCRIPT.VIDEOS, *SCRIPT.AUDIO, *SCRIPT.DOCUMENTS, *SCRIPT.TEXTS]


def test_every_fixture_is_committed_and_small():
    committed = sorted(p.name for p in FIXTURES.iterdir() if p.suffix != ".py" and p.is_file())
    assert committed == sorted(ALL), "run `python fixtures/make_fixtures.py` and commit the result"
    for name in ALL:
        assert (FIXTURES / name).stat().st_size < 20_000, name


@pytest.mark.parametrize("name", list(SCRIPT.IMAGES))
def test_images_have_their_size_and_exif_date(name):
    from PIL import Image

    color, size, taken = SCRIPT.IMAGES[name]
    with Image.open(FIXTURES / name) as image:
        assert image.size == size
        assert image.format == ("PNG" if name.endswith(".png") else "JPEG")
        assert image.getexif().get_ifd(0x8769)[0x9003] == taken


@pytest.mark.parametrize("name", list(SCRIPT.VIDEOS))
def test_videos_are_playable_mp4(name):
    import av

    seconds, _color, size = SCRIPT.VIDEOS[name]
    with av.open(str(FIXTURES / name)) as container:
        stream = container.streams.video[0]
        assert (stream.codec_context.width, stream.codec_context.height) == size
        frames = sum(1 for _ in container.decode(stream))
    assert frames == seconds * 10  # every frame decodes


@pytest.mark.parametrize("name", list(SCRIPT.AUDIO))
def test_audio_has_its_tags_and_length(name):
    import mutagen

    seconds, tags = SCRIPT.AUDIO[name]
    audio = mutagen.File(io.BytesIO((FIXTURES / name).read_bytes()), easy=True)
    for key, value in tags.items():
        assert audio[key] == [value]
    assert abs(audio.info.length - seconds) < 0.2


@pytest.mark.parametrize("name", list(SCRIPT.TEXTS))
def test_text_files_are_what_the_script_writes(name):
    assert (FIXTURES / name).read_text() == SCRIPT.TEXTS[name]


def test_the_script_rebuilds_images_and_texts_identically():
    """Pillow and plain text are byte-stable; encoded media are checked by content above."""
    built = SCRIPT.build()
    for name in [*SCRIPT.TEXTS, "beach.png"]:
        assert built[name] == (FIXTURES / name).read_bytes(), name
