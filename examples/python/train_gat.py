#!/usr/bin/python3
"""Train a graph attention layer written in .ft (gat_layer.ft) inside a
PyTorch model, on one process or data-parallel on several (gloo).

    PYTHONPATH=python /usr/bin/python3 examples/python/train_gat.py [--steps 300]
        [--world 2] [--threshold 0.01] [--log losses.txt]

The data: a random graph of 256 nodes (8 neighbours each), random node
features, and targets made by a "teacher" layer with fixed random
parameters.  The model: a layer of the same shape with its own parameters
(an nn.Module whose forward is the ftc function, differentiable through
the gradient the program declares), trained with Adam on the mean squared
error over the target nodes.  The run fails (exit 1) unless the last loss
is below --threshold times the first.

With --world W > 1, W processes (torch.multiprocessing, gloo) each take an
equal share of the target nodes; DistributedDataParallel averages the
gradients that the ftc kernels computed, so every rank takes the same
steps as one process with the whole batch.  Rank 0 writes the loss curve
(the global mean, one line a step) to --log; every rank writes its final
parameters to LOG.rankN.pt.
"""
import argparse
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import ftc  # noqa: E402
import ftc.torch  # noqa: E402

N, DEGREE, FEAT, TARGETS = 256, 8, 16, 128


def graph(seed=0):
    """A random CSR graph (each node DEGREE neighbours), node features,
    the target nodes."""
    g = torch.Generator().manual_seed(seed)
    ptr = torch.arange(0, N * DEGREE + 1, DEGREE, dtype=torch.int32)
    idx = torch.randint(0, N, (N * DEGREE,), dtype=torch.int32, generator=g)
    x = torch.randn(N, FEAT, generator=g)
    targets = torch.randperm(N, generator=g)[:TARGETS]
    return ptr, idx, x, targets


class GATLayer(torch.nn.Module):
    """One GAT layer whose forward is the ftc function `gat`."""

    def __init__(self, lib, seed):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.weight = torch.nn.Parameter(torch.randn(FEAT, FEAT, generator=g) / FEAT ** 0.5)
        self.attn_l = torch.nn.Parameter(torch.randn(FEAT, generator=g) * 0.1)
        self.attn_r = torch.nn.Parameter(torch.randn(FEAT, generator=g) * 0.1)
        self.gat = ftc.torch.function(lib, "gat", grad="gat_grad")

    def forward(self, ptr, idx, x):
        return self.gat(ptr=ptr, idx=idx, x=x, weight=self.weight, attn_l=self.attn_l,
                        attn_r=self.attn_r)


def train(rank, world, args, lib_path):
    """One rank's training; returns the loss curve (global means)."""
    torch.set_num_threads(1)
    if world > 1:
        dist.init_process_group("gloo", init_method=f"file://{args.log}.rendezvous",
                                rank=rank, world_size=world)
    lib = ftc.load(lib_path)
    ptr, idx, x, targets = graph()
    with torch.no_grad():
        want = GATLayer(lib, seed=1)(ptr, idx, x)
    model = GATLayer(lib, seed=2)                      # the same start on every rank
    mine = targets.chunk(world)[rank]
    net = torch.nn.parallel.DistributedDataParallel(model) if world > 1 else model
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    losses = []
    for _ in range(args.steps):
        opt.zero_grad()
        y = net(ptr, idx, x)
        loss = ((y[mine] - want[mine]) ** 2).mean()
        loss.backward()                               # DDP averages the ranks' gradients
        opt.step()
        total = loss.detach().clone()
        if world > 1:
            dist.all_reduce(total)
            total /= world
        losses.append(float(total))
    torch.save({k: v.detach() for k, v in model.state_dict().items()},
               f"{args.log}.rank{rank}.pt")
    if rank == 0:
        with open(args.log, "w") as f:
            f.write("".join(f"{v:.9g}\n" for v in losses))
    if world > 1:
        dist.destroy_process_group()
    return losses


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--world", type=int, default=1)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--threshold", type=float, default=0.01,
                    help="the last loss must be below this fraction of the first")
    ap.add_argument("--log", default="gat_losses.txt")
    args = ap.parse_args()
    args.log = os.path.abspath(args.log)
    lib = ftc.compile(os.path.join(HERE, "gat_layer.ft"))
    if args.world > 1:
        if os.path.exists(args.log + ".rendezvous"):
            os.remove(args.log + ".rendezvous")
        mp.spawn(train, args=(args.world, args, lib.path), nprocs=args.world, join=True)
    else:
        train(0, 1, args, lib.path)
    with open(args.log) as f:
        losses = [float(v) for v in f.read().split()]
    print(f"loss: first {losses[0]:.6g}, last {losses[-1]:.6g} after {len(losses)} steps "
          f"on {args.world} process{'es' if args.world > 1 else ''}")
    if losses[-1] >= args.threshold * losses[0]:
        print(f"FAIL: the loss did not fall below {args.threshold} x the first")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
