"""AndroidLab's pixel test for ROR, and which source the episode's ROR used."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from pytest_mobileagent.metrics import StepRecord, TaskRecord, aggregate
from pytest_mobileagent.screen_similarity import SAME_SCREEN, screen_changed, similarity


def png(draw=None, size=(200, 400), background=(255, 255, 255)) -> bytes:
    image = Image.new("RGB", size, background)
    if draw:
        draw(ImageDraw.Draw(image))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_identical_screens_are_unchanged_and_white_is_not_counted():
    screen = png(lambda d: d.rectangle((10, 10, 60, 30), fill=(0, 0, 0)))
    assert similarity(screen, screen) == 1.0 and not screen_changed(screen, screen)
    assert similarity(png(), png()) == 1.0  # two blank screens


def test_a_small_change_on_a_mostly_white_screen_counts():
    """A checklist tick: 1% of the screen, but most of what is not white."""
    before = png(lambda d: d.rectangle((10, 10, 30, 30), outline=(60, 60, 60)))
    after = png(lambda d: (d.rectangle((10, 10, 30, 30), outline=(60, 60, 60)),
                           d.line((12, 20, 28, 28), fill=(0, 150, 0), width=3)))
    assert similarity(before, after) < SAME_SCREEN and screen_changed(before, after)


def test_a_change_below_the_threshold_on_a_busy_screen_does_not_count():
    before = png(background=(30, 30, 30), size=(400, 800))
    after = png(lambda d: d.point((5, 5), fill=(31, 30, 30)), background=(30, 30, 30), size=(400, 800))
    assert SAME_SCREEN < similarity(before, after) < 1.0
    assert not screen_changed(before, after)
    assert similarity(before, png(size=(10, 10))) == 0.0  # another size is another screen


def test_the_aggregate_counts_actions_by_ror_source():
    steps = [StepRecord(1, {"type": "tap"}, screen_changed=True, screen_change_source="screenshot"),
             StepRecord(2, {"type": "tap"}, screen_changed=False, screen_change_source="hierarchy")]
    record = TaskRecord("n", "t", "notes", "p", "easy", 1, 2, "replay", steps=steps)
    assert record.ror_sources == {"screenshot": 1, "hierarchy": 1}
    assert record.summary()["ror_sources"] == {"screenshot": 1, "hierarchy": 1}
    agg = aggregate([record])
    assert agg.reasonable_operation_ratio == 0.5
    assert agg.to_dict()["ror_sources"] == {"screenshot": 1, "hierarchy": 1}
    assert TaskRecord.from_dict(record.to_dict()).steps[0].screen_change_source == "screenshot"
