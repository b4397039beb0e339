"""The background Allure file logger: same files as allure-commons', written off the test's path."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from allure_commons.logger import AllureFileLogger
from allure_commons import model2
from PIL import Image, ImageDraw

from pytest_mobileagent.png import encode_png, split_pieces
from pytest_mobileagent.reporting.allure_files import AllureWriteError, BackgroundFileLogger
from pytest_mobileagent.reporting.thumbnails import THUMBNAIL_WIDTH, Thumbnailer


def sample_result() -> model2.TestResult:
    step = model2.TestStepResult(
        name="1. tap id=btn_7", status=model2.Status.PASSED, start=1, stop=2,
        parameters=[model2.Parameter(name="tokens", value="0")],
        attachments=[model2.Attachment(name="screenshot", source="x-attachment.png", type="image/png")])
    return model2.TestResult(
        uuid="u1", name="Calculate the result of '7 × 6' — ünïcode", fullName="t#test_mul",
        status=model2.Status.PASSED, labels=[model2.Label(name="feature", value="calculator")], steps=[step],
        start=1, stop=3)


def read_results(directory: Path) -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*-result.json"))]


@pytest.mark.parametrize("indent", ["", "1"])
def test_results_equal_allure_commons_own(tmp_path, monkeypatch, indent):
    monkeypatch.setenv("ALLURE_INDENT_OUTPUT", indent)
    ours = BackgroundFileLogger(tmp_path / "ours")
    ours.report_result(sample_result())
    ours.close()
    theirs = AllureFileLogger(tmp_path / "theirs")
    theirs.report_result(sample_result())
    assert read_results(tmp_path / "ours") == read_results(tmp_path / "theirs") != []
    text = next((tmp_path / "ours").glob("*-result.json")).read_text(encoding="utf-8")
    assert ("\n" in text) == bool(indent)
    assert not list((tmp_path / "ours").glob("*.tmp"))


def test_attached_files_and_data_are_written(tmp_path):
    logger = BackgroundFileLogger(tmp_path / "out")
    source = tmp_path / "shot.png"
    source.write_bytes(b"\x89PNG fake")
    logger.report_attached_file(source=str(source), file_name="a-attachment.png")
    source.unlink()  # callers may delete their file as soon as attach_file returns
    logger.report_attached_data(body="tëxt", file_name="b-attachment.txt")
    logger.report_attached_data(body=b"\x00\x01", file_name="c-attachment.bin")
    logger.flush()
    out = tmp_path / "out"
    assert (out / "a-attachment.png").read_bytes() == b"\x89PNG fake"
    assert (out / "b-attachment.txt").read_text(encoding="utf-8") == "tëxt"
    assert (out / "c-attachment.bin").read_bytes() == b"\x00\x01"
    logger.close()


def test_a_failed_write_is_raised_by_flush_and_later_files_still_land(tmp_path):
    out = tmp_path / "out"
    logger = BackgroundFileLogger(out)
    (out / "blocker-attachment.txt").mkdir()  # the final name is taken by a directory
    logger.report_attached_data(body="lost", file_name="blocker-attachment.txt")
    logger.report_attached_data(body="kept", file_name="next-attachment.txt")
    with pytest.raises(AllureWriteError, match="could not write Allure results to .*out"):
        logger.flush()
    assert (out / "next-attachment.txt").read_text() == "kept"
    logger.flush()  # the error was reported once
    logger.close()


def test_a_writer_job_that_fails_otherwise_is_reported_and_the_writer_goes_on(tmp_path, monkeypatch):
    # Not a disk error (a bug, MemoryError): the writer thread must not die with it, or every
    # file queued after it would be dropped without a word at the session's end.
    from pytest_mobileagent.reporting import allure_files

    real = allure_files.write_atomically

    def failing_once(destination, body):
        if destination.name == "first-attachment.txt":
            raise RuntimeError("boom")
        real(destination, body)

    monkeypatch.setattr(allure_files, "write_atomically", failing_once)
    out = tmp_path / "out"
    logger = BackgroundFileLogger(out)
    logger.report_attached_data(body="lost", file_name="first-attachment.txt")
    logger.report_attached_data(body="kept", file_name="next-attachment.txt")
    with pytest.raises(AllureWriteError, match=r"RuntimeError: boom \(1 file not written\)"):
        logger.flush()
    assert (out / "next-attachment.txt").read_text() == "kept"
    logger.close()


def test_saved_attachments_are_named_by_content_and_written_once(tmp_path):
    out = tmp_path / "out"
    logger = BackgroundFileLogger(out)
    first = logger.save_attachment(b"\x89PNG screen A", "png")
    again = logger.save_attachment(bytearray(b"\x89PNG screen A"), "png")
    other = logger.save_attachment(b"\x89PNG screen B", "png")
    as_json = logger.save_attachment(b"\x89PNG screen A", "json")
    logger.flush()
    first.unlink()
    logger.save_attachment(b"\x89PNG screen A", "png")  # queued once already: not written again
    logger.close()
    assert not first.exists()
    first.write_bytes(b"\x89PNG screen A")
    assert first == again and len({first, other, as_json}) == 3
    assert first.parent == out and first.name.endswith("-attachment.png")
    assert first.read_bytes() == b"\x89PNG screen A" and other.read_bytes() == b"\x89PNG screen B"
    assert sorted(p.name for p in out.iterdir()) == sorted([first.name, other.name, as_json.name])
    # The same content saved by another process (another xdist worker) gets the same name.
    second = BackgroundFileLogger(out)
    assert second.save_attachment(b"\x89PNG screen B", "png") == other
    second.close()
    assert other.read_bytes() == b"\x89PNG screen B" and not list(out.glob("*.tmp"))


def fixtures_by_test(directory: Path) -> dict[str, tuple[list[str], list[str]]]:
    """What Allure shows per test from the containers: its set-up and tear-down names."""
    shown: dict[str, tuple[list[str], list[str]]] = {}
    for path in directory.glob("*-container.json"):
        container = json.loads(path.read_text(encoding="utf-8"))
        for child in container.get("children", []):
            befores, afters = shown.setdefault(child, ([], []))
            befores += [b["name"] for b in container.get("befores", [])]
            afters += [a["name"] for a in container.get("afters", [])]
    return {child: (sorted(b), sorted(a)) for child, (b, a) in shown.items()}


def report_a_session(logger) -> None:
    """Containers and results in allure-pytest's order: fixtures end before their test's result."""
    def container(children, before, after=None, start=10):
        return model2.TestResultContainer(
            uuid=f"c-{before}", children=list(children), start=start, stop=start + 5,
            befores=[model2.TestBeforeResult(name=before, status="passed", start=start, stop=start + 1)],
            afters=[model2.TestAfterResult(name=after, status="passed")] if after else [])

    for test in ("t1", "t2"):
        logger.report_container(container([test], f"screen-{test}", start=20))
        logger.report_container(container([test], f"episode-{test}", f"episode-{test}::0", start=10))
        logger.report_result(model2.TestResult(uuid=test, name=test, status=model2.Status.PASSED))
    logger.report_container(container(["t1", "t2"], "device", "device::close"))  # session-scoped
    logger.report_container(container(["t2"], "late", "late::close"))  # reported after its test's result
    logger.report_container(container(["t3"], "orphan"))  # a test that never reported a result


def test_one_tests_fixture_containers_are_written_as_one_showing_the_same(tmp_path):
    ours = BackgroundFileLogger(tmp_path / "ours")
    report_a_session(ours)
    ours.close()
    theirs = AllureFileLogger(tmp_path / "theirs")
    report_a_session(theirs)
    assert fixtures_by_test(tmp_path / "ours") == fixtures_by_test(tmp_path / "theirs")
    assert fixtures_by_test(tmp_path / "ours")["t1"] == (["device", "episode-t1", "screen-t1"], ["device::close", "episode-t1::0"])
    assert len(list((tmp_path / "ours").glob("*-container.json"))) == 5  # t1, t2, device, late, orphan
    assert len(list((tmp_path / "theirs").glob("*-container.json"))) == 7
    merged = [json.loads(p.read_text()) for p in (tmp_path / "ours").glob("*-container.json")]
    t1 = next(c for c in merged if c["children"] == ["t1"])
    assert (t1["start"], t1["stop"]) == (10, 25)


PROJECT = '''
import allure_commons
from pytest_mobileagent.reporting.allure_files import BackgroundFileLogger

def test_logger_swapped():
    loggers = [p for p in allure_commons.plugin_manager.get_plugins() if isinstance(p, BackgroundFileLogger)]
    assert len(loggers) == 1
'''


@pytest.mark.parametrize("workers", [[], ["-n", "2"]])
def test_a_run_with_alluredir_uses_it_and_cleans_up(pytester, workers):
    pytester.makepyfile(test_swap=PROJECT + "\ndef test_other():\n    pass\n")
    result = pytester.runpytest_subprocess("--alluredir", "allure", "-p", "no:cacheprovider", *workers)
    result.assert_outcomes(passed=2)
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    assert len(list((pytester.path / "allure").glob("*-result.json"))) == 2


@pytest.mark.parametrize("workers", [[], ["-n", "2"]])
def test_a_results_directory_removed_mid_run_is_reported(pytester, workers):
    pytester.makepyfile(test_gone='''
import os, shutil
def test_remove(request):
    path = request.config.option.allure_report_dir
    for _ in range(100):  # under -n 2 the other worker may be writing into it meanwhile
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.exists(path):
            break
    assert not os.path.exists(path)
def test_after():
    pass
''')
    args = ["--alluredir", "allure", "-p", "no:cacheprovider", *workers]
    if workers:
        args += ["--dist", "load"]
    result = pytester.runpytest_subprocess(*args)
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*warning: could not write Allure results to *allure*"])


# -- screenshots: thumbnails, and the full PNG where asked ----------------------

def screen(width: int = 1080, height: int = 2340) -> Image.Image:
    """A phone-sized screen with text, lines and flat colour, as a UI draws them."""
    image = Image.new("RGB", (width, height), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, 120), fill=(205, 66, 26))
    for row in range(12):
        draw.text((40, 200 + row * 150), f"row {row}: the quick brown fox", fill=(30, 30, 30), font_size=48)
        draw.line((0, 300 + row * 150, width, 300 + row * 150), fill=(200, 200, 200), width=2)
    return image


def pillow_png(image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")  # filtered rows, one zlib stream: Pillow's decoder reads it
    return out.getvalue()


def test_a_thumbnail_from_the_phones_bands_equals_one_from_the_whole_decoded_png():
    image = screen()
    banded, whole = Thumbnailer(), Thumbnailer()
    png = encode_png(image)  # the virtual phone's layout: bands of 60 rows compressed one by one
    thumb = banded(png)
    bands = set(split_pieces(png)[2])
    assert banded.bands_kept == len(bands) > 1  # equal bands (blank ones) once
    assert thumb == whole(pillow_png(image)) and whole.bands_kept == 0
    with Image.open(io.BytesIO(thumb)) as shown:
        assert (shown.format, shown.size) == ("JPEG", (THUMBNAIL_WIDTH, 780))
    # A second screen that differs in one band: only that band is inflated and reduced.
    changed = image.copy()
    changed.paste((0, 0, 0), (0, 1200, 1080, 1260))
    png = encode_png(changed)
    assert len(set(split_pieces(png)[2]) - bands) == 1
    assert banded(png) == whole(pillow_png(changed)) and banded.bands_kept == len(bands) + 1


def test_other_screens_are_scaled_to_the_thumbnail_width_and_never_enlarged():
    thumbnailer = Thumbnailer()
    for size, expected in [((1000, 2000), (THUMBNAIL_WIDTH, 720)), ((1440, 3120), (THUMBNAIL_WIDTH, 780)),
                           ((200, 400), (200, 400))]:
        for png in (encode_png(screen(*size)), pillow_png(screen(*size).convert("RGBA"))):
            with Image.open(io.BytesIO(thumbnailer(png))) as shown:
                assert shown.size == expected


def test_a_damaged_or_foreign_screenshot_is_kept_as_it_is(tmp_path):
    png = bytearray(encode_png(screen()))
    png[len(png) // 2] ^= 0xFF  # inside a band's compressed rows
    out = tmp_path / "out"
    logger = BackgroundFileLogger(out)
    damaged = logger.save_screenshot(bytes(png))
    foreign = logger.save_screenshot(b"GIF89a not a PNG")
    logger.close()
    assert damaged.name.endswith("-attachment.jpg")
    assert damaged.read_bytes() == bytes(png) and foreign.read_bytes() == b"GIF89a not a PNG"


def test_the_full_png_of_a_screenshot_is_saved_on_request_until_forgotten(tmp_path):
    out = tmp_path / "out"
    logger = BackgroundFileLogger(out)
    first, second = encode_png(screen()), encode_png(screen(1080, 1200))
    thumb = logger.save_screenshot(first)
    assert logger.save_screenshot(first) == thumb != logger.save_screenshot(second)
    full = logger.full_size(str(thumb))
    assert full is not None and full.name.endswith("-attachment.png") and full.parent == out
    assert logger.full_size(out / "unknown-attachment.jpg") is None
    logger.forget_screens()
    assert logger.full_size(thumb) is None
    logger.close()
    assert full.read_bytes() == first and thumb.read_bytes().startswith(b"\xff\xd8")
    assert sorted(p.suffix for p in out.iterdir()) == [".jpg", ".jpg", ".png"]  # the second's thumbnail, no PNG
