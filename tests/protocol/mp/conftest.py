# These files run on MicroPython (scripts/mp_tests.py, called from test_micropython.py), not
# under pytest on CPython.
collect_ignore_glob = ["test_*.py"]
