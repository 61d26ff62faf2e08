"""Render `nbs/index.ipynb` as `README.md` without Quarto (nbdev's own `nbdev_readme` needs it).

Usage: `python tools/readme.py` writes README.md; the test suite checks README.md matches.
Markdown cells are copied with their relative links made relative to the README: a chapter linked as
`03_extraction.ipynb` (a page on the site) becomes `nbs/03_extraction.ipynb` (the notebook on GitHub). Visible
code cells become ```python blocks, their images are written to `images/readme-N.png` and linked, and their other
outputs (`text/plain`, or stream text) follow in plain ``` blocks. Cells with `#| hide` are left out.
"""
import base64, json, re
from pathlib import Path

ROOT = Path(__file__).parents[1]
_LINK = re.compile(r'(\]\()(?![a-zA-Z][\w+.-]*:|/|#)([^)\s]+\))')   # a markdown link or image to a relative path


def relink(md: str, folder: str) -> str:
    "Markdown written in `folder` with its relative links made relative to the folder above it."
    return _LINK.sub(lambda m: f'{m[1]}{folder}/{m[2]}', md)


def _hidden(src: str) -> bool: return bool(re.search(r'^#\|\s*hide\s*$', src, re.M))


def _output(o: dict, images: dict) -> str:
    if o.get('output_type') == 'stream': return '```\n' + ''.join(o['text']).rstrip() + '\n```'
    data = o.get('data', {})
    if 'image/png' in data:
        name = f'images/readme-{len(images) + 1}.png'
        images[name] = base64.b64decode(''.join(data['image/png']))
        return f'![]({name})'
    text = ''.join(data.get('text/plain', '')).rstrip()
    return f'```\n{text}\n```' if text else ''


def render(nb_path=ROOT/'nbs'/'index.ipynb') -> tuple:
    "The README text for the notebook at `nb_path`, and the images it links (path -> PNG bytes)."
    parts, images, folder = [], {}, Path(nb_path).parent.name
    for cell in json.loads(Path(nb_path).read_text(encoding='utf-8'))['cells']:
        src = ''.join(cell['source']).strip()
        if not src or _hidden(src): continue
        if cell['cell_type'] == 'markdown': parts.append(relink(src, folder)); continue
        code = '\n'.join(l for l in src.splitlines() if not l.startswith('#|'))
        parts.append(f'```python\n{code}\n```')
        parts += [t for t in (_output(o, images) for o in cell.get('outputs', [])) if t]
    return '\n\n'.join(parts) + '\n', images


if __name__ == '__main__':
    text, images = render()
    for old in (ROOT/'images').glob('readme-*.png'): old.unlink()
    for name, png in images.items(): (ROOT/name).parent.mkdir(exist_ok=True); (ROOT/name).write_bytes(png)
    (ROOT/'README.md').write_text(text, encoding='utf-8')
