"""Item keys are written and read only by shared_rules/records (docs/interfaces.md section 3): the
tablet never formats or splits one by hand, so a key's grammar changes in one place."""
import pathlib
import re

TABLET = pathlib.Path(__file__).parents[2] / "tablet_app"
# a key cut at its slashes, or two values joined by a slash in an f-string ("{event}/{section}")
BY_HAND = re.compile(r"""rsplit\(\s*["']/|\.split\(\s*["']/["']|\.partition\(\s*["']/|f["'][^"'\n]*\}/\{""")


def test_no_item_key_is_formatted_or_parsed_by_hand_in_the_tablet():
    found = [f"{p.relative_to(TABLET.parent)}:{n}: {line.strip()}"
             for p in sorted(TABLET.rglob("*.py"))
             for n, line in enumerate(p.read_text().splitlines(), 1) if BY_HAND.search(line)]
    assert found == []


def test_the_check_finds_a_key_made_by_hand():
    assert BY_HAND.search('key = f"{event}/{section}/{table}"')
    assert BY_HAND.search('int(key.rsplit("/", 1)[1])') and BY_HAND.search("key.split('/')")
    assert not BY_HAND.search('TableId(event, section, table).format()')
