"""What the program prints, held in files: tests/data/NAME.txt for each output a
learner reads, printed here at the tests' small data (tests.support's SMALL), its
measured times scripted. test_cli compares them all. After a change of wording,
write them again and read the diff before committing:

    python -m tests.expected
    git diff tests/
"""

import os
import shlex
import sys
from unittest import mock

import main
from tests.support import SMALL, run_main, scripted_samples, texts

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

# Bad commands, each shown in errors.txt with what it prints on stderr.
BAD_COMMANDS = [["--sizes", "1e3"], ["--sizes", ",".join(["5"] * 21)], ["--sizes", "0"],
                ["nosuch"], ["depth", "--reps", "3"], ["terms", "no such thing"],
                ["terms", "dph"], ["check"], ["check", "--seconds", "abc", "x.py"],
                ["check", "--template", "x.py"]]


def help_text(*argv):
    """Return what --help prints, with the heading Python 3.10 and later give the options."""
    return run_main(*argv)[1].replace("\noptional arguments:\n", "\noptions:\n")


def errors():
    """Return each bad command, as typed, above what it printed on stderr."""
    return "\n".join(f"$ python main.py {shlex.join(argv)}\n{run_main(*argv)[2]}"
                     for argv in BAD_COMMANDS)


def sections():
    """Return each section's text and each figure's words, from SMALL's data with every
    timing scripted (tests.support.scripted_samples) and training's wall time 0.5 s;
    then the end of `all`, each section's headline."""
    words, results = {}, {}
    with mock.patch.object(main, "sample_per_call", scripted_samples):
        for name, data in SMALL.items():
            result = data()
            if name == "train":                 # the one time not scripted: its wall time
                result = dict(result, wall_s=0.5)
            results[name] = result
            words[name] = main.SECTIONS[name].render(result)
            if main.SECTIONS[name].figure:      # a figure's words: title, axes, legend
                words[f"figure_{name}"] = texts(main.SECTIONS[name].figure(result))
    words["summary"] = main._summary(results)
    return words


def printed():
    """Return {file name: text} for every expected-output file, printed now."""
    return {
        "help": help_text("--help"),
        "check_help": help_text("check", "--help"),
        "terms": run_main("terms")[1],
        # check's words for each classic slip and for each wrong kind of answer
        "slips": "\n".join(f"{k}: {v}" for k, v in main.CHECK_SLIPS.items()),
        "shapes": "\n".join(f"{got} for {wanted}: {hint}"
                            for (got, wanted), hint in main.SHAPE_HINTS.items()),
        "errors": errors(),
        **sections(),
    }


def as_written(text):
    """Return text as its file holds it: ended by one newline."""
    return text.rstrip("\n") + "\n"


def written():
    """Return {file name: text} of every file in tests/data, Windows line ends read as
    Unix ones (a checkout with core.autocrlf)."""
    files = {}
    for file in sorted(os.listdir(DATA)):
        with open(os.path.join(DATA, file), encoding="utf-8") as f:
            files[file[:-len(".txt")]] = f.read()
    return files


def write():
    """Write every expected-output file again, and remove those no output has now."""
    os.makedirs(DATA, exist_ok=True)
    outputs = printed()
    for name in set(written()) - set(outputs):
        os.remove(os.path.join(DATA, f"{name}.txt"))
    for name, text in outputs.items():
        with open(os.path.join(DATA, f"{name}.txt"), "w", encoding="utf-8", newline="") as f:
            f.write(as_written(text))
    print(f"wrote {len(outputs)} files to tests/data: read the diff (git diff tests/) before "
          "committing", file=sys.stderr)


if __name__ == "__main__":
    write()
