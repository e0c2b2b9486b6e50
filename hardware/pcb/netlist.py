"""Read a KiCad netlist (the one hardware/schematic.py writes through SKiDL): components with
their footprint, and nets with their pins. A small S-expression reader, no KiCad needed."""
from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+')


def parse(text: str) -> list:
    stack: list[list] = [[]]
    for tok in _TOKEN.findall(text):
        if tok == "(":
            stack.append([])
        elif tok == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok[1:-1].replace('\\"', '"') if tok.startswith('"') else tok)
    if len(stack) != 1 or len(stack[0]) != 1:
        raise ValueError("unbalanced netlist")
    return stack[0][0]


def _field(node: list, key: str):
    for item in node[1:]:
        if isinstance(item, list) and item and item[0] == key:
            return item
    return None


@dataclass(frozen=True)
class Netlist:
    components: dict[str, tuple[str, str]]         # ref -> (value, footprint)
    nets: dict[str, list[tuple[str, str]]]         # net name -> [(ref, pin)]

    def pin_net(self) -> dict[tuple[str, str], str]:
        return {member: name for name, members in self.nets.items() for member in members}


def read(text: str) -> Netlist:
    tree = parse(text)
    if tree[0] != "export":
        raise ValueError("not a KiCad netlist")
    comps: dict[str, tuple[str, str]] = {}
    for comp in _field(tree, "components")[1:]:
        ref = _field(comp, "ref")[1]
        value = _field(comp, "value")[1]
        fp = _field(comp, "footprint")
        comps[ref] = (value, fp[1] if fp else "")
    nets: dict[str, list[tuple[str, str]]] = {}
    for net in _field(tree, "nets")[1:]:
        name = _field(net, "name")[1]
        nets[name] = [(_field(n, "ref")[1], _field(n, "pin")[1]) for n in net[1:]
                      if isinstance(n, list) and n[0] == "node"]
    return Netlist(comps, nets)
