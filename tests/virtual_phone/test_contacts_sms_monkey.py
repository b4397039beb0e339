"""Odd input cannot break Contacts or SMS Messenger: a seeded monkey taps, long-presses, types,
swipes, presses BACK and clears the providers under the apps; no app callback may fail."""

from __future__ import annotations

import logging
import random
import re
import xml.etree.ElementTree as ET

import pytest

from pytest_mobileagent.virtual_phone.phone import VirtualPhone

SEEDS = (
    "content insert --uri content://com.android.contacts/raw_contacts --bind account_name:n:",
    ("content insert --uri content://com.android.contacts/data --bind raw_contact_id:i:1 "
     "--bind mimetype:s:vnd.android.cursor.item/name --bind data1:s:Yuzai"),
    ("content insert --uri content://com.android.contacts/data --bind raw_contact_id:i:1 "
     "--bind mimetype:s:vnd.android.cursor.item/phone_v2 --bind data1:s:123456789"),
    "content insert --uri content://sms/inbox --bind address:s:123456789 --bind 'body:s:i luv u'",
)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("package", ["com.simplemobiletools.contacts.pro", "com.simplemobiletools.smsmessenger"])
def test_random_input_never_fails_an_app(package, seed, caplog):
    phone = VirtualPhone(seed=seed)
    system = phone.system
    rng = random.Random(seed)
    if seed != 3:  # seed 3: the SMS app is not the default one and asks for the role
        phone.run_shell("cmd role add-role-holder android.app.role.SMS com.simplemobiletools.smsmessenger")
    for line in SEEDS:
        phone.run_shell(line)
    launch = f"monkey -p {package} -c android.intent.category.LAUNCHER 1"
    phone.run_shell(launch)
    with caplog.at_level(logging.ERROR):
        for _ in range(250):
            actionable = [n.attrib for n in ET.fromstring(system.dump_xml().encode()).iter("node")
                          if "true" in (n.get("clickable"), n.get("long-clickable"))]
            roll = rng.random()
            if roll < 0.6 and actionable:
                x1, y1, x2, y2 = map(int, re.findall(r"-?\d+", rng.choice(actionable)["bounds"]))
                (system.long_press if rng.random() < 0.2 else system.tap)((x1 + x2) // 2, (y1 + y2) // 2)
            elif roll < 0.75:
                system.input_text(rng.choice(["abc", "123456789", " ", "ü😀", "'\"; rm -rf"]))
            elif roll < 0.85:
                system.key("BACK")
            elif roll < 0.9:
                system.swipe(540, 1800, 540, 600, 300)
            elif roll < 0.93:
                phone.run_shell(launch)
            elif roll < 0.96:
                phone.run_shell(rng.choice(["pm clear com.android.providers.contacts",
                                            "pm clear com.android.providers.telephony"]))
            else:
                system.key("ENTER")
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert system.screenshot_png()[:8] == b"\x89PNG\r\n\x1a\n"
