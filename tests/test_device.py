"""The model's paths keep every tensor where the model is, checked without a GPU.

A run on CUDA fails where an operation mixes a tensor on the GPU with one made on the host (other than a single
number), where a GPU tensor goes to NumPy without `.cpu()`, and where a host random generator draws on the GPU; a
draw from the GPU's own generator runs, but unlike the CPU's, so the same seed would give other weights there.
`DeviceAudit` finds these on the CPU: it tags every tensor made on the model's device (the network's weights, a
factory given `device=`, `.to(device)`), follows the tags through every torch operation, and records each
operation that would fail there. The library's paths that touch the model then run under it. The model's device is
a `torch.device`; a tensor the library keeps on the host on purpose (the rows, the random masks and their generator)
names the host as the text `'cpu'`, and stays untagged."""
import os, traceback

import pytest
import torch
from torch.overrides import TorchFunctionMode

import aerial_nb
from aerial_nb import RuleClassifier, load_model, mine, mine_itemsets, save_model, verify_rule, weather_beverage

LIKE = {torch.zeros_like, torch.ones_like, torch.empty_like, torch.full_like, torch.rand_like, torch.randn_like}
FACTORIES = {torch.zeros, torch.ones, torch.empty, torch.full, torch.arange, torch.tensor, torch.as_tensor, torch.eye,
             torch.rand, torch.randn, torch.randint, torch.randperm, torch.linspace, torch.from_numpy} | LIKE
RANDOM = {'rand', 'randn', 'randint', 'randperm', 'rand_like', 'randn_like', 'bernoulli', 'bernoulli_', 'dropout',
          'normal_', 'uniform_', 'multinomial', 'exponential_', 'random_'}
MOVES = {'__getitem__', '__setitem__', 'to', 'cpu', 'cuda', 'copy_', '__get__', 'detach'}   # a host index or copy is fine
LIBRARY = os.path.dirname(aerial_nb.__file__)
HOST, DEVICE = 'cpu', torch.device('cpu')   # the host, named as text; the model's device (the CPU here, as an object)


def _tensors(x, out):
    if isinstance(x, torch.Tensor): out.append(x)
    elif isinstance(x, (list, tuple)):
        for y in x: _tensors(y, out)
    elif isinstance(x, dict):
        for y in x.values(): _tensors(y, out)
    return out


def _on(t) -> bool: return getattr(t, '_on_device', False)


class DeviceAudit(TorchFunctionMode):
    "Tag tensors on the model's device, follow the tags, and record (what, library line) for each operation CUDA refuses."
    def __init__(self):
        super().__init__()
        self.found, self.ops, self.on_device = [], 0, 0

    def _record(self, what: str):
        lines = [f for f in traceback.extract_stack() if f.filename.startswith(LIBRARY)]
        self.found.append((what, f'{os.path.basename(lines[-1].filename)}:{lines[-1].lineno}' if lines else 'outside the library'))

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs, name = kwargs or {}, getattr(func, '__name__', str(func))
        ins = _tensors(args, []) + _tensors(kwargs, [])
        tags = {_on(t) for t in ins if t.dim() > 0}            # a single number moves to the GPU by itself
        on = any(_on(t) for t in ins)
        if tags == {True, False} and name not in MOVES: self._record(f'{name} of a device tensor and a host tensor')
        if name in ('numpy', '__array__') and ins and _on(ins[0]): self._record(f'{name} of a device tensor')
        made_there = func in FACTORIES and kwargs.get('device') not in (None, HOST)
        if (on or made_there) and name in RANDOM:
            g = kwargs.get('generator')
            if g is None: self._record(f"{name} on the device from the device's own generator (draws unlike the CPU's)")
            elif g.device.type == 'cpu': self._record(f'{name} on the device with a host generator')
        out = func(*args, **kwargs)
        self.ops, self.on_device = self.ops + 1, self.on_device + on
        if name == 'cpu':                                       # on the CPU `.cpu()` returns the tensor itself
            out, on = out.view_as(out), False
        elif name in ('to', 'cuda'):
            on = on or any(isinstance(a, torch.device) or (isinstance(a, str) and a != HOST) for a in (*args[1:], kwargs.get('device')))
        elif func in FACTORIES: on = made_there or (func in LIKE and on and kwargs.get('device') is None)
        elif name == '__getitem__': on = _on(ins[0])
        for t in _tensors(out, []):
            if on: t._on_device = True
        return out


@pytest.fixture
def audit(monkeypatch):
    "A `DeviceAudit`, with every module's weights tagged when it is moved to its device."
    move = torch.nn.Module.to
    def to(self, *args, **kwargs):
        m = move(self, *args, **kwargs)
        for p in [*m.parameters(), *m.buffers()]: p._on_device = True
        return m
    monkeypatch.setattr(torch.nn.Module, 'to', to)
    return DeviceAudit()


def test_audit_finds_what_cuda_refuses(audit):
    "It can fail: each mistake is found, and correct code is not."
    with audit:
        dev = torch.zeros(3, device=DEVICE)
        dev + torch.ones(3)                                     # made on the host
        dev.numpy()                                             # to NumPy without .cpu()
        torch.rand(3, device=DEVICE, generator=torch.Generator())
        torch.randn_like(dev)                                   # the device's own generator: unlike the CPU's draws
        dev + torch.ones(3, device=HOST)                        # named as the host: still the host
        dev + torch.ones(3).to(DEVICE); dev.cpu().numpy(); dev * 2; dev[torch.arange(2)]
        torch.rand(3, device=HOST, generator=torch.Generator()).to(DEVICE)   # drawn on the host, then moved
    assert [w.split(' ')[0] for w, _ in audit.found] == ['add', 'numpy', 'rand', 'randn_like', 'add']


def test_model_paths_keep_tensors_on_the_device(audit, tmp_path):
    df = weather_beverage()
    df.to_csv(tmp_path/'t.csv', index=False)
    with audit:
        rules = mine(df, method='model', max_antecedents=3, seed=0, keep_model=True)
        mine(tmp_path/'t.csv', method='model', target='beverage', seed=0, models=2, sample_rows=400)
        mine(df, paper=True, seed=0)
        mine_itemsets(df, method='model', seed=0)
        mine_itemsets(df, paper=True, seed=0)
        save_model(rules.attrs['model'], tmp_path/'m')
        verify_rule(tmp_path/'m', ['weather=cold'], 'season=winter', df)
        load_model(tmp_path/'m')
        clf = RuleClassifier(method='model', random_state=0).fit(df.drop(columns='beverage'), df.beverage)
        clf.predict_proba(df.drop(columns='beverage'))
    assert len(rules) and audit.on_device > audit.ops / 2, 'the model ran elsewhere: the audit saw too little'
    assert audit.found == [], f'operations a CUDA run would refuse: {sorted(set(audit.found))}'
