"""Hypothesis profiles for the property tests of every reader.

``ci`` (the default, 100 examples a test) is what ``.ci/run`` and a plain ``pytest`` use: a
bounded number of examples, drawn from a fixed seed (``derandomize``), so a
run is reproducible and the whole property suite stays near a minute; no
example database is written into the checkout.  ``thorough`` draws many more
random examples, for hunting: ``HYPOTHESIS_PROFILE=thorough pytest tests/property``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

PROFILE_VARIABLE = "HYPOTHESIS_PROFILE"

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get(PROFILE_VARIABLE, "ci"))
