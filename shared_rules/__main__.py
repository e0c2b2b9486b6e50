"""`python -m shared_rules COMMAND ...`: the TD's command-line tools.

Each command lives in its own module with a `main(argv) -> int`; this file only dispatches.
"""
import importlib
import sys

COMMANDS = {
    "replay": ("shared_rules.replay_cli", "replay a table log and print the resulting state as JSON"),
    "score": ("shared_rules.score_cli", "score one result (Law 77) from North-South's side"),
}


def usage() -> str:
    lines = ["usage: python -m shared_rules COMMAND [ARGS]", "", "commands:"]
    lines += [f"  {name:8} {help_}" for name, (_, help_) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"error: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    return int(module.main(rest))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
