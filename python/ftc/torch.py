"""ftc functions as differentiable PyTorch operations.

    f = ftc.torch.function(lib, "f", grad="g")   # `grad f wrt a, b -> g`
    y = f(x=x, a=a)                              # torch tensors in and out
    y.sum().backward()                           # a.grad from g_bwd

Forward calls the gradient's forward half g_fwd, keeping its tape;
backward calls g_bwd with the saved inputs, outputs and tape.  Without
grad mode (torch.no_grad()), or when no input requires a gradient, the
plain function f runs and nothing is kept.  Inputs that are not among the
gradient's `wrt` get no gradient (None).
"""
import torch

from . import _abi

__all__ = ["function"]


class _Spec:
    """What one wrapped function needs: the plain function, the gradient's
    halves and the names that connect them."""

    def __init__(self, lib, name, grad):
        self.f = lib[name]
        self.ins = [p.name for p in self.f.params if not p.is_size and p.access == _abi.IN]
        self.outs = [p.name for p in self.f.params if not p.is_size and p.access != _abi.IN]
        self.fwd = self.bwd = None
        self.wrt = set()
        if grad:
            g = lib[grad]
            if not hasattr(g, "fwd"):
                raise ValueError(f"'{grad}' is not a gradient of this library (no "
                                 f"{grad}_fwd and {grad}_bwd)")
            self.fwd, self.bwd = g.fwd, g.bwd
            bwd_outs = {p.name for p in g.bwd.params if not p.is_size and p.access != _abi.IN}
            self.wrt = {n for n in self.ins if "d_" + n in bwd_outs}
            self.bwd_takes = {p.name for p in g.bwd.params if p.access == _abi.IN}


def _as_tuple(r):
    return () if r is None else r if isinstance(r, tuple) else (r,)


class _Apply(torch.autograd.Function):
    @staticmethod
    def forward(ctx, spec, others, *ins):
        kw = dict(others)
        kw.update(zip(spec.ins, ins))
        res = _as_tuple(spec.fwd(**kw))
        outs, tape = res[:-1], res[-1]
        ctx.spec, ctx.others = spec, others
        ctx.save_for_backward(*ins, *outs, tape)
        ctx.mark_non_differentiable(*[o for o in outs if not o.is_floating_point()])
        return outs[0] if len(outs) == 1 else outs

    @staticmethod
    def backward(ctx, *d_outs):
        spec = ctx.spec
        saved = ctx.saved_tensors
        ins, outs, tape = saved[:len(spec.ins)], saved[len(spec.ins):-1], saved[-1]
        kw = {k: v for k, v in ctx.others.items() if k in spec.bwd_takes}
        kw.update((n, t) for n, t in zip(spec.ins, ins) if n in spec.bwd_takes)
        kw.update((n, t) for n, t in zip(spec.outs, outs) if n in spec.bwd_takes)
        for n, o, d in zip(spec.outs, outs, d_outs):
            if "d_" + n in spec.bwd_takes:
                kw["d_" + n] = torch.zeros_like(o) if d is None else d.contiguous()
        kw["tape"] = tape
        res = _as_tuple(spec.bwd(**kw))
        names = [p.name for p in spec.bwd.params if not p.is_size and p.access != _abi.IN]
        by_name = dict(zip(names, res))
        grads = [by_name.get("d_" + n) if ctx.needs_input_grad[2 + k] else None
                 for k, n in enumerate(spec.ins)]
        return (None, None, *grads)


def function(lib, name, grad=None):
    """The function name of lib (a Library of ftc) as a callable on torch
    tensors, differentiable through the gradient grad (the name after `->`
    of a `grad name wrt ... -> grad` line) when given.  Arguments as for
    ftc functions: keywords (or positional, in parameter order)."""
    spec = _Spec(lib, name, grad)

    def call(*args, **kwargs):
        got = spec.f._bind(args, kwargs)
        ins = [got.get(n) for n in spec.ins]
        needs = torch.is_grad_enabled() and any(
            isinstance(t, torch.Tensor) and t.requires_grad for t in ins)
        if not needs or spec.fwd is None:
            if needs:
                raise ValueError(f"{name}: an input requires a gradient but no gradient "
                                 f"function was given (grad=...)")
            return spec.f(**got)
        missing = [n for n, t in zip(spec.ins, ins) if t is None]
        if missing:
            raise TypeError(f"{name}(): missing argument {missing[0]}")
        others = {k: v for k, v in got.items() if k not in spec.ins}
        return _Apply.apply(spec, others, *ins)

    call.__name__ = name
    call.__doc__ = spec.f.__doc__
    return call
