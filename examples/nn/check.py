#!/usr/bin/python3
"""examples/nn: the MLP with a cross-entropy loss, the transformer encoder
block and the ResNet basic block, each against the torch.nn modules it
reimplements, with the same weights: forward and every gradient, in f32,
relative error at most 1e-5 (of the largest magnitude of each tensor).

    FTC=build/ftc /usr/bin/python3 examples/nn/check.py

Builds through the Python package (python/ftc), runs the .ft gradient as a
torch.autograd function (ftc.torch.function) and torch's modules on the
same tensors.  Prints one line per check; exits 1 when one fails.
"""
import os
import sys
import tempfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import ftc  # noqa: E402
import ftc.torch  # noqa: E402

TOL = 1e-5
torch.set_num_threads(2)


def rel_err(got, want):
    want = want.detach().double()
    return float((got.detach().double() - want).abs().max() / max(float(want.abs().max()), 1e-30))


def compare(name, ours, ref, params):
    """Forward outputs and the gradients of params (name -> (our leaf,
    torch's leaf)) after backward of the same weighted sum."""
    bad = []
    w = torch.randn(ref.shape, generator=torch.Generator().manual_seed(1))
    (ours * w).sum().backward()
    (ref * w).sum().backward()
    errs = {"forward": rel_err(ours, ref)}
    for p, (a, b) in params.items():
        errs["d_" + p] = rel_err(a.grad, b.grad)
    for what, e in errs.items():
        ok = e <= TOL
        bad += [] if ok else [what]
        print(f"{'ok  ' if ok else 'FAIL'} {name} {what}: relative error {e:.1e}")
    return bad


def leaf(t):
    return t.detach().clone().requires_grad_(True)


def lib(name, cache):
    return ftc.compile(os.path.join(HERE, name + ".ft"), cache_dir=cache)


def mlp(cache):
    torch.manual_seed(0)
    n, d, h, c = 16, 10, 32, 5
    net = torch.nn.Sequential(torch.nn.Linear(d, h), torch.nn.ReLU(), torch.nn.Linear(h, c))
    x, target = torch.randn(n, d), torch.randint(0, c, (n,))
    xr = leaf(x)
    ref = torch.nn.CrossEntropyLoss()(net(xr), target)
    f = ftc.torch.function(lib("mlp", cache), "mlp", grad="mlp_grad")
    mine = {"w1": leaf(net[0].weight), "b1": leaf(net[0].bias),
            "w2": leaf(net[2].weight), "b2": leaf(net[2].bias)}
    xo = leaf(x)
    ours = f(x=xo, target=target, **mine)
    params = {"x": (xo, xr), "w1": (mine["w1"], net[0].weight), "b1": (mine["b1"], net[0].bias),
              "w2": (mine["w2"], net[2].weight), "b2": (mine["b2"], net[2].bias)}
    return compare("mlp", ours, ref, params)


def encoder(cache):
    torch.manual_seed(0)
    s, d, f = 12, 16, 32
    layer = torch.nn.TransformerEncoderLayer(d, 1, dim_feedforward=f, dropout=0.0,
                                             activation="gelu", batch_first=True)
    x = torch.randn(s, d)
    xr = leaf(x)
    ref = layer(xr[None])[0]
    at = layer.self_attn
    wq, wk, wv = at.in_proj_weight.split(d)
    bq, bk, bv = at.in_proj_bias.split(d)
    torch_leaves = {"wq": wq, "bq": bq, "wk": wk, "bk": bk, "wv": wv, "bv": bv}
    mine = {k: leaf(v) for k, v in torch_leaves.items()}
    mods = {"wo": at.out_proj.weight, "bo": at.out_proj.bias, "g1": layer.norm1.weight,
            "be1": layer.norm1.bias, "w1": layer.linear1.weight, "b1": layer.linear1.bias,
            "w2": layer.linear2.weight, "b2": layer.linear2.bias, "g2": layer.norm2.weight,
            "be2": layer.norm2.bias}
    mine.update({k: leaf(v) for k, v in mods.items()})
    xo = leaf(x)
    fn = ftc.torch.function(lib("transformer_block", cache), "encoder", grad="encoder_grad")
    ours = fn(x=xo, **mine)
    ours_params = {"x": (xo, xr)}
    ours_params.update({k: (mine[k], mods[k]) for k in mods})
    bad = compare("transformer_block", ours, ref, ours_params)
    # q, k, v are slices of one torch parameter: compare those gradients slice by slice
    for k, (i, kind) in {"wq": (0, "w"), "wk": (1, "w"), "wv": (2, "w"),
                         "bq": (0, "b"), "bk": (1, "b"), "bv": (2, "b")}.items():
        full = at.in_proj_weight.grad if kind == "w" else at.in_proj_bias.grad
        # d_bk is 0 in exact arithmetic (softmax ignores a row's constant
        # shift): rounding noise on both sides, measured against all of d_b
        e = rel_err(mine[k].grad, full.split(d)[i]) if k != "bk" else \
            float((mine[k].grad.double() - full.split(d)[i].double()).abs().max()
                  / full.abs().max())
        print(f"{'ok  ' if e <= TOL else 'FAIL'} transformer_block d_{k}: relative error {e:.1e}")
        bad += [] if e <= TOL else ["d_" + k]
    return bad


def resnet(cache):
    torch.manual_seed(0)
    n, c, h, w = 4, 8, 6, 6
    conv1 = torch.nn.Conv2d(c, c, 3, padding=1, bias=False)
    conv2 = torch.nn.Conv2d(c, c, 3, padding=1, bias=False)
    bn1, bn2 = torch.nn.BatchNorm2d(c), torch.nn.BatchNorm2d(c)
    for bn in (bn1, bn2):
        torch.nn.init.uniform_(bn.weight, 0.5, 1.5)
        torch.nn.init.uniform_(bn.bias, -0.5, 0.5)
    x = torch.randn(n, c, h, w)
    xr = leaf(x)
    ref = torch.relu(bn2(conv2(torch.relu(bn1(conv1(xr))))) + xr)
    mods = {"w1": conv1.weight, "g1": bn1.weight, "b1": bn1.bias,
            "w2": conv2.weight, "g2": bn2.weight, "b2": bn2.bias}
    mine = {k: leaf(v) for k, v in mods.items()}
    xo = leaf(x)
    fn = ftc.torch.function(lib("resnet_block", cache), "resnet_block", grad="resnet_block_grad")
    ours = fn(x=xo, rm=torch.zeros(c), rv=torch.ones(c), **mine)
    params = {"x": (xo, xr)}
    params.update({k: (mine[k], mods[k]) for k in mods})
    return compare("resnet_block", ours, ref, params)


def main():
    bad = []
    with tempfile.TemporaryDirectory(prefix="ftc-nn-") as cache:
        for check in (mlp, encoder, resnet):
            bad += [f"{check.__name__}: {b}" for b in check(cache)]
    print("all passed" if not bad else "FAILED: " + ", ".join(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
