#!/usr/bin/python3
"""The Python package (python/ftc, issue 20): loading and calling with NumPy
and torch, the argument checks, run-time errors, the compile cache (also
under 4 concurrent processes), torch autograd with gradcheck, and the
NumPy path without torch.

    FTC=build/ftc PYTHONPATH=python /usr/bin/python3 tests/python/test_package.py

References are computed here with NumPy in float64 (or torch's own
autograd in gradcheck), never with ftc's output.  Tests needing torch, or
nvcc for a CUDA build, skip with a message when it is missing.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.join(HERE, "..", "..", "python")
sys.path.insert(0, PYDIR)
# for the child processes: the package of this checkout
CHILD_ENV = dict(os.environ, PYTHONPATH=PYDIR)
import ftc  # noqa: E402
import ftc._compile  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

PROG = textwrap.dedent("""\
    const K = 2

    export func f(n: size, m: size, x: f32[n, m] in, b: f32[m] in, y: f32[n, m] out, s: f64[n] out):
        for i in range(n):
            s[i] = 0
            for j in range(m):
                y[i, j] = x[i, j] * K + b[j]
                s[i] += x[i, j] * x[i, j]

    export func shifted(n: size, x: f32[n + 1] in, y: f32[n] out):
        for i in range(n):
            y[i] = x[i + 1] - x[i]

    export func checked(n: size, x: f32[n] in, y: f32[n] out):
        for i in range(n):
            assert x[i] >= 0, "x must be non-negative"
            y[i] = sqrt(x[i])
    """)

# a gather, a branch and a reduction, in f64, with its gradient
GRAD_PROG = textwrap.dedent("""\
    export func h(n: size, m: size, x: f64[n] in, idx: i32[m] in, w: f64[m] in, y: f64[m] out, s: f64[1] out):
        s[0] = 0
        for j in range(m):
            var v: f64 = x[idx[j]] * w[j]
            if v > 0:
                y[j] = v * v
            else:
                y[j] = sin(v)
            s[0] += y[j] * x[j % n]
    grad h wrt x, w -> dh
    """)

GPU_PROG = textwrap.dedent("""\
    export func g(n: size, x: f32[n] in @ gpu, y: f32[n] out @ gpu):
        for i in range(n):
            y[i] = x[i] + 1
    """)


class Package(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ftc-pytest-")
        cls.cache = os.path.join(cls.tmp, "cache")
        cls.lib = ftc.compile(PROG, cache_dir=cls.cache)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def inputs(self, n=5, m=3):
        rng = np.random.default_rng(1)
        return (rng.standard_normal((n, m)).astype(np.float32),
                rng.standard_normal(m).astype(np.float32))

    def test_numpy_call(self):
        x, b = self.inputs()
        y, s = self.lib.f(x=x, b=b)          # n and m inferred, y and s allocated
        x64 = x.astype(np.float64)
        np.testing.assert_allclose(y, x64 * 2 + b, rtol=1e-6)
        np.testing.assert_allclose(s, (x64 * x64).sum(1), rtol=1e-6)
        self.assertEqual((y.dtype, s.dtype), (np.float32, np.float64))
        # positional, in the parameters' order, and a given output
        out = np.full((5, 3), 7, np.float32)
        y2, _ = self.lib.f(5, 3, x, b, out)
        self.assertIs(y2, out)
        np.testing.assert_array_equal(out, y)

    def test_prepared_call(self):
        x = np.array([1, 4, 9], np.float32)
        call = self.lib.checked.prepare(x=x)        # checked once, outputs bound
        y = call.outputs["y"]
        call()
        np.testing.assert_allclose(y, [1, 2, 3], rtol=1e-6)
        x[:] = [16, 25, 36]                         # the same arrays, new values
        call()
        np.testing.assert_allclose(y, [4, 5, 6], rtol=1e-6)
        x[1] = -1
        with self.assertRaisesRegex(ftc.RuntimeError, "x must be non-negative"):
            call()

    def test_docstring_and_names(self):
        self.assertEqual(self.lib.f.__doc__, "f(n: size, m: size, x: f32[n, m] in, b: f32[m] in, "
                         "y: f32[n, m] out, s: f64[n] out)")
        with self.assertRaisesRegex(AttributeError, "no function 'nope'"):
            self.lib.nope

    def test_torch_call(self):
        if torch is None:
            self.skipTest("PyTorch is not installed")
        x, b = self.inputs()
        y, s = self.lib.f(x=torch.from_numpy(x), b=torch.from_numpy(b))
        self.assertIsInstance(y, torch.Tensor)
        np.testing.assert_allclose(y.numpy(), x.astype(np.float64) * 2 + b, rtol=1e-6)

    def test_dlpack_call(self):
        class Wrapped:              # any object with __dlpack__ (here around NumPy)
            def __init__(self, a):
                self.a = a

            def __dlpack__(self, **kw):
                return self.a.__dlpack__(**kw)

            def __dlpack_device__(self):
                return self.a.__dlpack_device__()
        x = np.arange(6, dtype=np.float32)
        y = self.lib.shifted(x=Wrapped(x), n=5)
        np.testing.assert_array_equal(y, np.ones(5, np.float32))

    def check_raises(self, exc, pattern, **kw):
        with self.assertRaisesRegex(exc, pattern):
            self.lib.f(**kw)

    def test_wrong_arguments(self):
        x, b = self.inputs()
        self.check_raises(TypeError, r"parameter x: f32\[n, m\] in: expected dtype float32, "
                          r"given float64", x=x.astype(np.float64), b=b)
        self.check_raises(ValueError, r"parameter x: .*expected 2 dimensions, given 1",
                          x=x[0], b=b)
        self.check_raises(ValueError, r"size 'm' is 3 from 'x' but 4 from 'b'",
                          x=x, b=np.zeros(4, np.float32))
        with self.assertRaisesRegex(ValueError, r"parameter x: f32\[n \+ 1\] in: expected "
                                    r"shape \[6\] \(n=5\), given \[5\]"):
            self.lib.shifted(x=np.zeros(5, np.float32), n=5)
        self.check_raises(ValueError, r"parameter x: .*contiguous", x=x.T.copy().T, b=b)
        self.check_raises(TypeError, r"missing argument b: f32\[m\] in", x=x)
        self.check_raises(TypeError, r"has no parameter 'z'", x=x, b=b, z=1)
        self.check_raises(TypeError, r"size 'n' takes an int", x=x, b=b, n=5.0)
        self.check_raises(TypeError, r"parameter x: .*takes an array", x=[1.0], b=b)
        with self.assertRaisesRegex(TypeError, r"size 'n' was not given and no given tensor "
                                    r"has a dimension that is exactly 'n'"):
            self.lib.shifted(x=np.zeros(4, np.float32))
        if torch is not None and torch.cuda.is_available():
            self.check_raises(ValueError, r"CPU memory: given a CUDA tensor",
                              x=torch.from_numpy(x).cuda(), b=torch.from_numpy(b).cuda())

    def test_gpu_parameter_refuses_cpu_memory(self):
        if ftc.find_ftc() and not (shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc")):
            self.skipTest("no nvcc: the CUDA build cannot be made")
        lib = ftc.compile(GPU_PROG, target="cuda", cache_dir=self.cache)
        with self.assertRaisesRegex(ValueError, r"parameter x: f32\[n\] in @ gpu: is in GPU "
                                    r"memory: expected a CUDA tensor, given a NumPy array"):
            lib.g(x=np.zeros(4, np.float32))
        if torch is not None:
            with self.assertRaisesRegex(ValueError, "given a CPU tensor"):
                lib.g(x=torch.zeros(4))

    def test_failing_assert_raises(self):
        x = np.array([1, 4, -1], np.float32)
        with self.assertRaises(ftc.RuntimeError) as cm:
            self.lib.checked(x=x)
        e = cm.exception
        self.assertEqual(e.code, 2)
        self.assertRegex(str(e), r"checked: .*prog\.ft:\d+:\d+: .*x must be non-negative")
        self.assertRegex(e.where, r"prog\.ft:\d+:\d+")
        np.testing.assert_allclose(self.lib.checked(x=np.abs(x)), np.sqrt([1, 4, 1]), rtol=1e-6)

    def test_compile_cache(self):
        src = PROG + "\n# cache test\n"
        before = ftc._compile.builds
        ftc.compile(src, cache_dir=self.cache)
        self.assertEqual(ftc._compile.builds, before + 1)
        lib = ftc.compile(src, cache_dir=self.cache)
        self.assertEqual(ftc._compile.builds, before + 1, "a cached program was built again")
        k3 = ftc.compile(src, cache_dir=self.cache, defines={"K": 3})
        self.assertEqual(ftc._compile.builds, before + 2, "other defines must rebuild")
        ftc.compile(src, cache_dir=self.cache, flags=["--no-auto"])
        self.assertEqual(ftc._compile.builds, before + 3, "other flags must rebuild")
        x, b = self.inputs()
        np.testing.assert_allclose(k3.f(x=x, b=b)[0], x.astype(np.float64) * 3 + b, rtol=1e-6)
        self.assertTrue(callable(lib.f))

    def test_compile_error(self):
        with self.assertRaises(ftc.CompileError) as cm:
            ftc.compile("export func bad(x: f32 in):\n    y = z\n", cache_dir=self.cache)
        self.assertRegex(cm.exception.diagnostics, r"prog\.ft:2:5: error: unknown variable 'y'")

    def test_concurrent_compiles_build_once(self):
        cache = os.path.join(self.tmp, "concurrent")
        src = PROG + "\n# concurrent\n"
        code = ("import sys, ftc, ftc._compile; lib = ftc.compile(sys.argv[1], cache_dir=sys.argv[2]);"
                "import numpy as np; y = lib.shifted(x=np.arange(4, dtype=np.float32), n=3);"
                "print(ftc._compile.builds, float(y.sum()))")
        procs = [subprocess.Popen([sys.executable, "-c", code, src, cache], env=CHILD_ENV,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(4)]
        results = [p.communicate(timeout=300) for p in procs]
        for p, (out, err) in zip(procs, results):
            self.assertEqual(p.returncode, 0, err)
        builds = [int(out.split()[0]) for out, _ in results]
        self.assertEqual(sum(builds), 1, f"builds per process: {builds}")
        self.assertEqual({out.split()[1] for out, _ in results}, {"3.0"})

    def test_numpy_path_without_torch(self):
        code = ("import sys; sys.modules['torch'] = None; import ftc, numpy as np;"
                "lib = ftc.compile(sys.argv[1], cache_dir=sys.argv[2]);"
                "print(lib.shifted(x=np.arange(3, dtype=np.float32), n=2))")
        r = subprocess.run([sys.executable, "-c", code, PROG, self.cache], env=CHILD_ENV,
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("[1. 1.]", r.stdout)


LAYOUT_PROG = textwrap.dedent("""\
    const XL = "NCHW->NCHW8c"

    export func g(n: size, x: f32[n, 12, 3, 5] in layout XL, y: f32[n, 12, 3, 5] out layout "NCHW->NHWC"):
        y = x * 2
    """)


class Layouts(unittest.TestCase):
    """ftc.pack / ftc.unpack (issue 22) and calls of laid-out parameters."""

    def test_pack_matches_reshape(self):
        # NCHW8c by padding, reshaping and transposing (not ftc's mapping)
        x = np.random.default_rng(2).standard_normal((2, 12, 3, 5)).astype(np.float32)
        padded = np.zeros((2, 16, 3, 5), np.float32)
        padded[:, :12] = x
        want = padded.reshape(2, 2, 8, 3, 5).transpose(0, 1, 3, 4, 2)
        p = ftc.pack(x, "NCHW->NCHW8c")
        self.assertEqual(p.shape, (2, 2, 3, 5, 8))
        np.testing.assert_array_equal(p, want)
        np.testing.assert_array_equal(ftc.unpack(p, "NCHW->NCHW8c", x.shape), x)
        np.testing.assert_array_equal(ftc.pack(x, "NCHW->NHWC"), x.transpose(0, 2, 3, 1))
        self.assertEqual(ftc.physical_shape("OIHW->OIHW4i4o", (6, 6, 3, 3)), (2, 2, 3, 3, 4, 4))

    def test_aligned(self):
        # pack, zeros and aligned give 64-byte aligned C-order arrays
        x = np.arange(2 * 12 * 3 * 5, dtype=np.float32).reshape(2, 12, 3, 5)
        for a in (ftc.pack(x, "NCHW->NCHW8c"), ftc.zeros((3, 5), np.float64),
                  ftc.aligned(x[:, 1:]), ftc.aligned(np.zeros(1000, np.int8)[1:])):
            self.assertEqual(a.ctypes.data % 64, 0)
            self.assertTrue(a.flags.c_contiguous)
        np.testing.assert_array_equal(ftc.aligned(x[:, 1:]), x[:, 1:])
        self.assertFalse(ftc.zeros((3, 5), np.float64).any())
        a = ftc.zeros((7,), np.float32)
        self.assertIs(ftc.aligned(a), a)

    def test_bad_layouts(self):
        x = np.zeros((2, 3))
        for bad in ("NC", "NN->NN", "NC->NC1c", "NC->N", "NC->NC8k", "NCH->NCH"):
            with self.assertRaises(ValueError, msg=bad):
                ftc.pack(x, bad)
        with self.assertRaises(ValueError):
            ftc.unpack(np.zeros((2, 3)), "NC->NC2c", (2, 3))

    def test_call(self):
        with tempfile.TemporaryDirectory() as tmp:
            lib = ftc.compile(LAYOUT_PROG, cache_dir=tmp)
            self.assertIn("layout NCHW->NCHW8c of [n, 12, 3, 5]", lib.g.__doc__)
            x = np.random.default_rng(3).standard_normal((2, 12, 3, 5)).astype(np.float32)
            y = lib.g(x=ftc.pack(x, "NCHW->NCHW8c"))
            self.assertEqual(y.shape, (2, 3, 5, 12))
            self.assertEqual(y.ctypes.data % 64, 0)       # outputs on a cache line
            np.testing.assert_array_equal(ftc.unpack(y, "NCHW->NHWC", x.shape), x * 2)
            with self.assertRaises(ValueError):          # the logical array is not the ABI's
                lib.g(x=x)


class TorchAutograd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if torch is None:
            raise unittest.SkipTest("PyTorch is not installed: the torch tests skip")
        import ftc.torch
        cls.tmp = tempfile.mkdtemp(prefix="ftc-pytest-")
        lib = ftc.compile(GRAD_PROG, cache_dir=cls.tmp)
        cls.h = staticmethod(ftc.torch.function(lib, "h", grad="dh"))
        g = torch.Generator().manual_seed(0)
        cls.x = torch.randn(7, dtype=torch.float64, generator=g)
        cls.w = torch.randn(11, dtype=torch.float64, generator=g)
        cls.idx = torch.randint(0, 7, (11,), dtype=torch.int32, generator=g)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def reference(self, x, w):
        """h written with torch operations (its autograd is the reference)."""
        v = x[self.idx.long()] * w
        y = torch.where(v > 0, v * v, torch.sin(v))
        s = (y * x[torch.arange(11) % 7]).sum().reshape(1)
        return y, s

    def test_gradcheck(self):
        x = self.x.clone().requires_grad_()
        w = self.w.clone().requires_grad_()
        # reductions of parallel iterations are reassociated by thread timing:
        # backward repeats to within 1e-12, not bit for bit
        self.assertTrue(torch.autograd.gradcheck(
            lambda x, w: self.h(x=x, idx=self.idx, w=w), (x, w), nondet_tol=1e-12))

    def test_matches_torch_autograd(self):
        x = self.x.clone().requires_grad_()
        w = self.w.clone().requires_grad_()
        y, s = self.h(x=x, idx=self.idx, w=w)
        (y.sum() * 0.5 + s.sum()).backward()
        xr = self.x.clone().requires_grad_()
        wr = self.w.clone().requires_grad_()
        yr, sr = self.reference(xr, wr)
        (yr.sum() * 0.5 + sr.sum()).backward()
        torch.testing.assert_close(y, yr)
        torch.testing.assert_close(x.grad, xr.grad)
        torch.testing.assert_close(w.grad, wr.grad)

    def test_some_inputs_without_grad_and_no_grad_mode(self):
        w = self.w.clone().requires_grad_()
        y, s = self.h(x=self.x, idx=self.idx, w=w)
        s.sum().backward()
        self.assertIsNotNone(w.grad)
        self.assertIsNone(self.x.grad)
        with torch.no_grad():
            y2, _ = self.h(x=self.x, idx=self.idx, w=w)
        self.assertFalse(y2.requires_grad)
        torch.testing.assert_close(y2, y.detach())


if __name__ == "__main__":
    unittest.main(verbosity=2)
