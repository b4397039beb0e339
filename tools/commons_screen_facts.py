"""Extract the texts of Simple-Commons' Compose screens (About, FAQ, Contributors) for the ten apps.

For each app at its release tag: the third-party licences (its ``licenses``
mask plus Kotlin's, in LicenseActivity's order) and the FAQ items its
``startAboutActivity`` call passes (``FAQItem(R.string.x_title, R.string.x_text)`` in the function around
that call; items added only when ``hide_google_relations`` is false are left
out, as the F-Droid builds set it true), and its version name.  For each
Simple-Commons commit the releases pin: the English strings the About and
Contributors screens show, and the translators list of ContributorsActivity.
Strings are resolved as Android does (app strings first, then Commons'),
``Html.fromHtml`` style markup is reduced to its text, as the screens show it.

Usage::

    python tools/commons_screen_facts.py --repos /path/to/mirrors [--out FILE]
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from menu_facts import COMMONS, RELEASES, commons_commit, git, git_dir, repos_arguments  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "pytest_mobileagent/virtual_phone/apps/data/commons_screens.json"
ABOUT_KEYS = ("about", "support", "frequently_asked_questions", "my_email", "help_us", "contributors", "donate",
              "social", "facebook", "github", "reddit", "telegram", "other", "privacy_policy",
              "third_party_licences", "version_placeholder", "about_footer", "development",
              "contributors_developers", "translation", "contributors_label", "back", "pro")  # noqa: E501


def raw_strings(repo: Path, rev: str, path: str) -> dict[str, str]:
    """name -> the string's text as the app shows it (markup reduced to text, escapes applied)."""
    source = git(repo, "show", f"{rev}:{path}")
    out = {}
    for match in re.finditer(r'<string name="([^"]+)"[^>]*>(.*?)</string>', source, re.S):
        name, body = match.groups()
        body = re.sub(r"<!\[CDATA\[(.*?)\]\]>", r"\1", body, flags=re.S)
        if len(body) >= 2 and body[0] == body[-1] == '"':
            body = body[1:-1]
        else:  # aapt2 collapses runs of white space in unquoted strings
            body = re.sub(r"\s+", " ", body).strip()
        body = re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), body)
        body = html.unescape(body)
        if "<" in body:  # Html.fromHtml: <br> breaks lines, other tags leave their text
            body = re.sub(r"<br\s*/?>", "\n", body)
            body = html.unescape(re.sub(r"<[^>]+>", "", body))
        out[name] = body
    return out


def faq_items(source: str, names: list[dict[str, str]]) -> list[list[str]]:
    """FAQItem(title, text) pairs of the function that calls startAboutActivity, F-Droid build."""
    call = source.index("startAboutActivity(")
    start = source.rfind("fun ", 0, call)
    body = source[start:call]
    # Drop `if (!resources.getBoolean(...hide_google_relations)) { ... }` blocks.
    while True:
        match = re.search(r"if \(!resources\.getBoolean\([\w.]*R\.bool\.hide_google_relations\)\)\s*\{", body)
        if not match:
            break
        depth, index = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(body[index], 0)
            index += 1
        body = body[:match.start()] + body[index:]
    items = []
    for title, text in re.findall(r"FAQItem\(\s*(?:[\w.]*\.)?R\.string\.(\w+)\s*,\s*(?:[\w.]*\.)?R\.string\.(\w+)", body):
        items.append([lookup(title, names), lookup(text, names)])
    return items


def licences(source: str, commons: Path, pin: str, strings: dict[str, str]) -> list[list[str]]:
    """(title, text) of the licences LicenseActivity lists: the app's mask or LICENSE_KOTLIN."""
    call = source.index("startAboutActivity(")
    body = source[source.rfind("fun ", 0, call):call]
    # `val licenses = A or B or` may continue on the next lines; it ends at a blank line
    match = re.search(r"val licenses =(.*?)\n\s*\n", body, re.S)
    names = set(re.findall(r"LICENSE_\w+", match.group(1))) if match else set()
    names.add("LICENSE_KOTLIN")
    activity = git(commons, "show", f"{pin}:commons/src/main/kotlin/com/simplemobiletools/commons/activities/"
                                    "LicenseActivity.kt")
    found = re.findall(r"License\(\s*(LICENSE_\w+),\s*R\.string\.(\w+),\s*R\.string\.(\w+)", activity)
    return [[strings[title], strings[text]] for name, title, text in found if name in names]


def lookup(key: str, names: list[dict[str, str]]) -> str:
    for table in names:
        if key in table:
            return table[key]
    raise KeyError(key)


def contributors(commons: Path, pin: str, strings: dict[str, str]) -> list[list[str]]:
    source = git(commons, "show", f"{pin}:commons/src/main/kotlin/com/simplemobiletools/commons/activities/"
                                  "ContributorsActivity.kt")
    pairs = re.findall(r"LanguageContributor\(R\.drawable\.\w+, R\.string\.(\w+), R\.string\.(\w+)\)", source)
    return [[strings[label], strings[names]] for label, names in pairs]


def main(argv: list[str] | None = None) -> None:
    args = repos_arguments(__doc__.splitlines()[0], OUT, argv)
    commons = git_dir(args.repos, COMMONS)
    facts: dict = {"apps": {}, "commons": {}}
    for app, (name, tag) in sorted(RELEASES.items()):
        repo = git_dir(args.repos, name)
        pin = commons_commit(repo, tag)
        commons_strings = {**raw_strings(commons, pin, "commons/src/main/res/values/donottranslate.xml"),
                           **raw_strings(commons, pin, "commons/src/main/res/values/strings.xml")}
        app_strings = raw_strings(repo, tag, "app/src/main/res/values/strings.xml")
        caller = next(line.split(":", 2)[1] for line in
                      git(repo, "grep", "-n", "startAboutActivity(", tag, "--", "app/src/main").splitlines())
        source = git(repo, "show", f"{tag}:{caller}")
        facts["apps"][app] = {"release": tag, "commons": pin,
                              "faq": faq_items(source, [app_strings, commons_strings]),
                              "licences": licences(source, commons, pin, commons_strings)}
        if pin not in facts["commons"]:
            facts["commons"][pin] = {
                "strings": {key: commons_strings[key] for key in ABOUT_KEYS},
                "translators": contributors(commons, pin, commons_strings),
            }
    args.out.write_text(json.dumps(facts, indent=1, ensure_ascii=False) + "\n")
    print(f"commons_screen_facts: {len(facts['apps'])} apps, {len(facts['commons'])} Commons commits -> {args.out}")


if __name__ == "__main__":
    main()
