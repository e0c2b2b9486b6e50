"""scripts/fold_constants.py: the constant folding the box image is compiled through. What it
writes must mean what the source means, line for line; what it cannot fold safely it refuses."""
import ast
import sys

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import fold_constants as F  # noqa: E402


def _names(text):
    return {n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name)}


def test_attribute_own_and_from_imported_constants_become_literals_and_definitions_go():
    out = F.fold({
        "pkg": "",
        "pkg.lay": "A = 6\nB = A + 2  # derived\nC = 1 << 4\nname = 'x'\n\ndef f():\n    return A\n",
        "keys": "OK = 16\n",
        "user": "import keys\nfrom pkg import lay as L\nfrom pkg.lay import B, f\n\n"
                "def g(x):\n    return x[L.A] + B + keys.OK + L.C + len(L.name)\n",
    })
    assert out["user"].splitlines() == [
        "", "from pkg import lay as L", "from pkg.lay import f", "",  # keys: nothing left to use
        "def g(x):", "    return x[6] + 8 + 16 + 16 + len(L.name)"]
    lay = out["pkg.lay"].splitlines()
    assert lay[:4] == ["", "  # derived", "", "name = 'x'"]  # the lines stay, empty
    assert lay[-1] == "    return 6"
    assert out["keys"] == "\n"


def test_an_import_left_without_use_goes_and_one_still_used_stays():
    out = F.fold({"keys": "OK = 16\ndef f():\n    pass\n", "view": "A = 1\n",
                  "u": "import keys, view as V\nimport os\nv = V.A + keys.OK\n",
                  "w": "import keys\nimport view\nv = keys.OK + view.A\nkeys.f()\n"})
    assert out["u"].splitlines() == ["", "import os", "v = 1 + 16"]
    assert out["w"].splitlines() == ["import keys", "", "v = 16 + 1", "keys.f()"]


def test_every_line_keeps_its_number_even_when_a_statement_spans_several():
    src = ("from pkg.lay import (A,\n    B, g)\nX = (A +\n     B)\n\ndef h():\n"
           "    return X  # line 7\n")
    out = F.fold({"pkg": "", "pkg.lay": "A = 1\nB = 2\ndef g():\n    pass\n", "m": src})
    lines = out["m"].splitlines()
    assert len(lines) == len(src.splitlines())
    assert lines[0] == "from pkg.lay import g"
    assert lines[6] == "    return 3  # line 7"
    compile(out["m"], "m", "exec")


def test_re_exported_constants_fold_through_the_module_that_re_exports_them():
    out = F.fold({"user": "import mid\nimport star\nv = mid.K + star.K\n",
                  "mid": "from base import K, f\n", "star": "from base import *\n",
                  "base": "K = 3\n_P = 4\ndef f():\n    pass\n"})
    assert out["user"].splitlines()[-1] == "v = 3 + 3"
    assert out["mid"].strip() == "from base import f"
    assert out["star"].strip() == "from base import *"  # functions still come through it


def test_what_is_not_an_int_constant_is_left_alone():
    src = ("T = True\nS = 'NESW'\nN = None\nlow = 3\nTWICE = 1\nTWICE = 2\nTUP = (1, 2)\n"
           "DIV = 1 // 0\n")
    out = F.fold({"m": src, "u": "import m\nv = (m.T, m.S, m.N, m.low, m.TWICE, m.TUP, m.DIV)\n"})
    assert out["m"] == src
    assert "m.T, m.S, m.N, m.low, m.TWICE, m.TUP, m.DIV" in out["u"]


def test_a_constant_name_bound_anywhere_else_is_refused():
    for body in ("def f(MAX):\n    return MAX\n", "def f():\n    MAX = 2\n    return MAX\n",
                 "for MAX in range(3):\n    pass\n", "def f():\n    global MAX\n"):
        with pytest.raises(F.FoldError, match="MAX"):
            F.fold({"m": "MAX = 1\n" + body})


def test_a_shadowed_module_alias_or_an_assigned_constant_is_refused():
    with pytest.raises(F.FoldError, match="keys"):
        F.fold({"keys": "OK = 16\n", "u": "import keys\ndef f(keys):\n    return keys.OK\n"})
    with pytest.raises(F.FoldError, match="assigns"):
        F.fold({"keys": "OK = 16\n", "u": "import keys\nkeys.OK = 3\n"})


def test_the_box_modules_fold_to_code_that_names_no_folded_constant():
    import box_image

    files = box_image.sources(with_tablet=True)
    texts = {m: f.read_text() for m, f in files.items()}
    out = F.fold(texts)
    consts = F._constants(list(texts), {m: ast.parse(t) for m, t in texts.items()})
    for mod, text in out.items():
        assert text.count("\n") == texts[mod].count("\n"), mod
        compile(text, mod, "exec")
        left = _names(text) & set(consts[mod])
        assert not left, (mod, left)
    # the box's key codes and STATE offsets are among what went
    assert {"OK", "NONE", "L1"} <= set(consts["keys"])
    assert {"S_TURN", "S_AUCTION", "HEADER", "MAX_BODY"} <= set(consts["protocol.layout"])
