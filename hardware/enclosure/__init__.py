"""The box's printed enclosure as parametric CAD (build123d), one job per module:

- `parts.py`: the bought parts' figures and where each comes from (pure data);
- `design.py`: the enclosure's dimensions derived from them and the PCB's layout (pure arithmetic);
- `model.py`: the solids: the lid, the base and everything placed in them;
- `check.py`: the fit on the solids (interference, clearances, the USB socket out of reach);
- `legends.py`: the key-legend sheets in sv/da/en (SVG and PDF);
- `render.py`: the views for docs/; `__main__.py`: `make enclosure`.

hardware/enclosure.md says what was chosen and why.
"""
