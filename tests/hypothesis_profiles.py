"""The property tests' two budgets, as hypothesis settings profiles.

`suite` (`make test`, and any plain pytest run) gives every property test its full number of
examples; `fast` (`make test-fast`, `--hypothesis-profile=fast`) a tenth of it, so the edit-test
loop still runs each property on a few generated cases. Neither has a wall clock: no deadline per
example and no "too slow" health check (a busy machine is not a failing test).

A test that wants other than the profile's number of examples asks for `examples(full)`: `full` in
the suite, the same share of it as the profile's in the fast loop.
"""
from hypothesis import HealthCheck, settings

SUITE_EXAMPLES = 100  # hypothesis's own default: what a property test without a number runs
FAST_EXAMPLES = 10

settings.register_profile("suite", max_examples=SUITE_EXAMPLES, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fast", settings.get_profile("suite"), max_examples=FAST_EXAMPLES)


def examples(full: int) -> int:
    """`full` examples under the suite profile; under another its share of `full` (at least 2), as
    its max_examples is of the suite's. Called where a test's @settings is made, which is after
    pytest has loaded the profile (the hypothesis plugin loads `--hypothesis-profile` at configure,
    before any test module is imported)."""
    return max(2, full * settings().max_examples // SUITE_EXAMPLES)  # settings(): the loaded profile's
