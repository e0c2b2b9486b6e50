# Runs every test_* function of the given modules under whichever interpreter runs this file
# (MicroPython unix port or CPython) and prints one line per test: "PASS name" or "FAIL name: why".
import sys


def run(mod):
    names = sorted(n for n in dir(mod) if n.startswith("test_"))
    failed = 0
    for n in names:
        try:
            getattr(mod, n)()
            print("PASS", n)
        except Exception as e:  # report and go on: one line per test
            failed += 1
            print("FAIL", n + ":", repr(e))
    return failed


def main():
    root = sys.argv[1]
    sys.path.insert(0, root + "/firmware")
    sys.path.insert(0, root)
    sys.path.insert(0, root + "/tests/firmware/mp")
    failed = 0
    for name in sys.argv[2:]:
        mod = __import__(name)
        failed += run(mod)
    sys.exit(1 if failed else 0)


main()
