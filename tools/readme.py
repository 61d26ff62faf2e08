"""Render `nbs/index.ipynb` as `README.md` without Quarto (nbdev's own `nbdev_readme` needs it).

Usage: `python tools/readme.py` writes README.md; the test suite checks README.md matches.
Markdown cells are copied, visible code cells become ```python blocks, and their text outputs
(`text/plain`, or stream text) follow in plain ``` blocks. Cells with `#| hide` are left out.
"""
import json, re
from pathlib import Path

ROOT = Path(__file__).parents[1]


def _hidden(src: str) -> bool: return bool(re.search(r'^#\|\s*hide\s*$', src, re.M))


def _output(o: dict) -> str:
    if o.get('output_type') == 'stream': return ''.join(o['text'])
    return ''.join(o.get('data', {}).get('text/plain', ''))


def render(nb_path=ROOT/'nbs'/'index.ipynb') -> str:
    "The README text for the notebook at `nb_path`."
    parts = []
    for cell in json.loads(Path(nb_path).read_text(encoding='utf-8'))['cells']:
        src = ''.join(cell['source']).strip()
        if not src or _hidden(src): continue
        if cell['cell_type'] == 'markdown': parts.append(src); continue
        code = '\n'.join(l for l in src.splitlines() if not l.startswith('#|'))
        parts.append(f'```python\n{code}\n```')
        outs = [_output(o).rstrip() for o in cell.get('outputs', [])]
        parts += [f'```\n{t}\n```' for t in outs if t]
    return '\n\n'.join(parts) + '\n'


if __name__ == '__main__': (ROOT/'README.md').write_text(render(), encoding='utf-8')
