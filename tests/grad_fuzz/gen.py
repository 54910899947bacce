"""Random small .ft programs with gradients, for the gradient fuzzer
(tests/grad_fuzz/fuzz.py).

Every program is one exported function with the same parameters (sizes
steps, n, m, k; float inputs x[n], w[m], a[1] (a scalar coefficient in a
1-element tensor), g2[k, k]; an index tensor idx[n] with values in [0, m),
so that gathers and scatters through it repeat indices; outputs y[n], z[m],
s[1], a 0-D q and o2[k, k]; an inout v[n]) and a body of random statements
drawn from templates: element loops with symbolic bounds, time loops around
loops (`for t in range(steps): y = y + a[0] * sin(y)`), branches on data
and on indices, gathers, scatters with repeated indices, reductions into
scalar and tensor accumulators, 0-D locals accumulated across loops, 1-D
and 2-D stencils, triangular loops.  Local tensors are initialised where
they are declared, so that no statement removal of the shrinker makes a
program read undefined memory.  Its `grad` line takes x, w, a (and g2
when the body reads it) with a random tape mode.

A program is a list of Stmt trees, so that the shrinker can remove
statements (fuzz.py); `render` gives its text.  Values stay moderate (sums
over n are scaled by 0.001, exponentials take a tanh) so that central
differences in f64 are accurate.
"""
import random

PARAMS = ("steps: size, n: size, m: size, k: size, x: f32[n] in, w: f32[m] in, "
          "a: f32[1] in, idx: i32[n] in, g2: f32[k, k] in, y: f32[n] out, z: f32[m] out, "
          "s: f32[1] out, q: f32 out, o2: f32[k, k] out, v: f32[n] inout")
WRT = ("x", "w", "a")


class Stmt:
    """A statement: its first line, and the statements of its block (None
    for a simple statement)."""

    def __init__(self, head, body=None):
        self.head, self.body = head, body

    def lines(self, indent):
        """Its text as lines indented by INDENT levels."""
        out = ["    " * indent + self.head]
        for s in self.body or ():
            out += s.lines(indent + 1)
        if self.body is not None and not self.body:
            out.append("    " * (indent + 1) + "pass")
        return out

    def size(self):
        """The number of statements in it."""
        return 1 + sum(s.size() for s in self.body or ())


class Program:
    """One function: its name, body (list of Stmt), wrt names, tape mode."""

    def __init__(self, name, body, wrt, tape):
        self.name, self.body, self.wrt, self.tape = name, body, list(wrt), tape

    def render(self, name=None):
        """The function and its grad line (function named NAME if given)."""
        name = name or self.name
        lines = [f"export func {name}({PARAMS}):"]
        for s in self.body:
            lines += s.lines(1)
        if not self.body:
            lines.append("    pass")
        tape = "" if self.tape == "auto" else f" tape {self.tape}"
        lines.append(f"grad {name} wrt {', '.join(self.wrt)}{tape} -> {name}_grad")
        return "\n".join(lines) + "\n"

    def size(self):
        return sum(s.size() for s in self.body)


class Gen:
    """The generator of one program: RNG and the names it has used."""

    def __init__(self, rng):
        self.r = rng
        self.count = 0
        self.scalars = []          # 0-D locals in scope at top level (readable)

    def fresh(self, base):
        """A name not used before in this program."""
        self.count += 1
        return f"{base}{self.count}"

    def chance(self, p):
        return self.r.random() < p

    # --- expressions -------------------------------------------------------

    def leaf(self, terms):
        """A term of TERMS, or a constant."""
        if self.chance(0.15):
            return self.r.choice(["0.5", "1.5", "0.25", "2"])
        return self.r.choice(terms)

    def expr(self, terms, depth=2):
        """A random float expression over TERMS (strings readable where it
        is used), differentiable except rarely (abs, max, if-expressions on
        inputs)."""
        if depth <= 0 or self.chance(0.25):
            return self.leaf(terms)
        k = self.r.random()
        a = self.expr(terms, depth - 1)
        if k < 0.35:
            f = self.r.choice(["sin", "cos", "tanh", "sigmoid", "square", "sin", "tanh"])
            return f"{f}({a})"
        if k < 0.42:
            return self.r.choice([f"exp(tanh({a}))", f"sqrt(1 + square({a}))",
                                  f"ln(2 + sin({a}))", f"{a} / (2 + cos({a}))"])
        if k < 0.45:
            return self.r.choice([f"abs({a})", f"max({a}, 0.1)", f"min({a}, {self.leaf(terms)})"])
        b = self.expr(terms, depth - 1)
        if k < 0.5:
            c = self.r.choice(["x[i] > 0.1", "i % 3 == 0", "a[0] > 0"] if "x[i]" in terms
                              else ["w[j] < 0", "a[0] > 0"] if "w[j]" in terms else ["a[0] > 0"])
            return f"({a} if {c} else {b})"
        op = self.r.choice([" + ", " - ", " * ", " * "])
        return f"({a}{op}{b})"

    def i_terms(self, i="i"):
        """Terms readable in a loop `for i in range(n)`."""
        t = [f"x[{i}]", f"w[idx[{i}]]", "a[0]", f"y[{i}]", f"w[{i} % m]", f"x[n - 1 - {i}]",
             f"v[{i}]"]
        return t + [f"0.01 * {s}" for s in self.scalars]

    def j_terms(self, j="j"):
        """Terms readable in a loop `for j in range(m)`."""
        return [f"w[{j}]", f"z[{j}]", f"x[{j}]", "a[0]", f"w[m - 1 - {j}]"] + \
            [f"0.01 * {s}" for s in self.scalars]

    # --- statement templates ----------------------------------------------

    def t_init_y(self):
        if self.chance(0.5):
            return [Stmt(self.r.choice(["y = x", "y = sin(x) * a[0]", "y = x * w[0]",
                                        "y = x + a[0]"]))]
        return [Stmt("for i in range(n):", [Stmt(f"y[i] = {self.expr(self.i_terms())}")])]

    def t_time_tensor(self):
        f = self.r.choice(["sin", "tanh", "cos", "sigmoid"])
        upd = self.r.choice([f"y = y + a[0] * {f}(y)", f"y = y + 0.5 * a[0] * {f}(y) * x",
                             f"y = y * (1 + 0.1 * a[0] * {f}(y))",
                             f"z = z + a[0] * {f}(z + w)"])
        return [Stmt("for t in range(steps):", [Stmt(upd)])]

    def t_time_elem(self):
        e = self.expr(["y[i]", "x[i]", "w[idx[i]]", "a[0]"], 2)
        inner = Stmt("for i in range(n):", [Stmt(f"y[i] = y[i] + 0.5 * a[0] * sin({e})")])
        return [Stmt("for t in range(steps):", [inner])]

    def t_scatter(self):
        tgt = "z[idx[i]]"
        op = self.r.choice(["+=", "+=", "-="])
        return [Stmt("for i in range(n):", [Stmt(f"{tgt} {op} {self.expr(self.i_terms())}")])]

    def t_gather(self):
        e = self.expr(self.i_terms())
        return [Stmt("for i in range(n):", [Stmt(f"y[i] = y[i] + w[idx[i]] * {e}")])]

    def t_scalar_red(self):
        tgt = self.r.choice(["s[0]", "q", "s[0]"])
        e = self.expr(self.i_terms())
        if self.chance(0.3):
            inner = Stmt("for j in range(m):", [Stmt(f"{tgt} += 0.001 * x[i] * w[j] * {e}")])
            return [Stmt("for i in range(n):", [inner])]
        if self.chance(0.15):
            return [Stmt("for i in range(n):", [Stmt(f"{tgt} = max({tgt}, {e})")])]
        return [Stmt("for i in range(n):", [Stmt(f"{tgt} += 0.001 * {e}")])]

    def t_local_acc(self):
        c = self.fresh("c")
        out = [Stmt(f"var {c}: f32 = 0"),
               Stmt("for i in range(n):", [Stmt(f"{c} += 0.001 * {self.expr(self.i_terms())}")])]
        if self.chance(0.5):
            out.append(Stmt("for j in range(m):",
                            [Stmt(f"{c} += 0.01 * {self.expr(self.j_terms())}")]))
        self.scalars.append(c)
        use = self.r.choice([f"y[i] = y[i] + {c} * {self.expr(self.i_terms(), 1)}",
                             f"v[i] = v[i] * (1 + 0.1 * sin({c}))",
                             f"y[i] = y[i] + tanh({c}) * x[i]"])
        out.append(Stmt("for i in range(n):", [Stmt(use)]))
        return out

    def t_time_local(self):
        """A 0-D local of every time step, accumulated over a loop and read
        by the next one (loops around loops)."""
        c = self.fresh("c")
        e = self.expr(["y[i]", "x[i]", "w[idx[i]]", "a[0]"], 1)
        body = [Stmt(f"var {c}: f32 = 0"),
                Stmt("for i in range(n):", [Stmt(f"{c} += 0.001 * {e}")]),
                Stmt("for i in range(n):",
                     [Stmt(f"y[i] = y[i] + 0.1 * {self.r.choice(['tanh', 'sin'])}({c}) * "
                           f"{self.r.choice(['x[i]', 'a[0]', 'sin(y[i])'])}")])]
        return [Stmt("for t in range(steps):", body)]

    def t_stencil1(self):
        tmp = self.fresh("tmp")
        upd = Stmt(f"y[i] = {tmp}[i] + 0.2 * a[0] * ({tmp}[i - 1] - 2 * {tmp}[i] + {tmp}[i + 1])")
        body = [Stmt(f"var {tmp}: f32[n] = y"), Stmt("for i in range(1, n - 1):", [upd])]
        return [Stmt("for t in range(steps):", body)]

    def t_stencil2(self):
        tmp = self.fresh("tmp")
        lap = (f"{tmp}[i - 1, j] + {tmp}[i + 1, j] + {tmp}[i, j - 1] + {tmp}[i, j + 1] "
               f"- 4 * {tmp}[i, j]")
        coef = self.r.choice(["0.2 * a[0]", "0.1 * a[0] * w[0]", "0.2 * a[0]"])
        body = [Stmt(f"var {tmp}: f32[k, k] = o2"),
                Stmt("for i in range(1, k - 1):",
                     [Stmt("for j in range(1, k - 1):",
                           [Stmt(f"o2[i, j] = {tmp}[i, j] + {coef} * ({lap})")])])]
        return [Stmt(self.r.choice(["o2 = g2", "o2 = g2 * a[0]"])),
                Stmt("for t in range(steps):", body)]

    def t_branch(self):
        cond = self.r.choice(["x[i] > 0.1", "i % 3 == 0", "idx[i] < m // 2", "w[idx[i]] < 0"])
        then = Stmt(f"y[i] = y[i] + {self.expr(self.i_terms())}")
        other = Stmt(f"z[idx[i]] += {self.expr(self.i_terms())}") if self.chance(0.5) else \
            Stmt(f"y[i] = y[i] - {self.expr(self.i_terms())}")
        return [Stmt("for i in range(n):",
                     [Stmt(f"if {cond}:", [then]), Stmt("else:", [other])])]

    def t_tensor_acc(self):
        t = self.fresh("t")
        return [Stmt(f"var {t}: f32[m] = 0"),
                Stmt("for i in range(n):", [Stmt(f"{t}[idx[i]] += {self.expr(self.i_terms())}")]),
                Stmt("for i in range(n):",
                     [Stmt(f"y[i] = y[i] + {t}[idx[i]] * {self.r.choice(['x[i]', 'a[0]', '0.5'])}")])]

    def t_triangular(self):
        e = self.expr(["w[j]", "w[l]", "a[0]", "x[l]"], 1)
        lo = self.r.choice(["j", "0", "j + 1"])
        return [Stmt("for j in range(m):",
                     [Stmt(f"for l in range({lo}, m):", [Stmt(f"z[j] += 0.1 * {e}")])])]

    def t_mv(self):
        e = self.expr(["x[i]", "w[j]", "a[0]"], 1)
        if self.chance(0.5):
            return [Stmt("for j in range(m):",
                         [Stmt("for i in range(n):", [Stmt(f"z[j] += 0.001 * {e} * x[i]")])])]
        return [Stmt("for i in range(n):",
                     [Stmt("for j in range(m):", [Stmt(f"y[i] = y[i] + 0.1 * {e} * w[j]")])])]

    def t_range_sym(self):
        lo, hi = self.r.choice([("m", "n"), ("0", "n // 2"), ("n // 2", "n"), ("1", "n - 1")])
        return [Stmt(f"for i in range({lo}, {hi}):",
                     [Stmt(f"y[i] = y[i] + {self.expr(self.i_terms())}")])]

    def t_inout(self):
        return [Stmt("for i in range(n):",
                     [Stmt(f"v[i] = v[i] + {self.expr(self.i_terms(), 1)}")])]

    def t_stdlib(self):
        """Stdlib reductions and operators on whole tensors."""
        f = self.r.choice(["sin", "tanh", "square"])
        return [Stmt(self.r.choice([f"q = q + sum({f}(x)) * a[0]",
                                    "s[0] = s[0] + prod(1 + 0.1 * w) * a[0]",
                                    "z = z + softmax(w * a[0])",
                                    "q = q + reduce_max(w * a[0])",
                                    f"y = y + a[0] * {f}(x) * sum(w)"]))]

    def t_stepped(self):
        """Loops with constant steps other than 1."""
        if self.chance(0.5):
            return [Stmt("for t in range(0, steps, 2):", [Stmt("y = y + a[0] * sin(y)")])]
        return [Stmt(f"for i in range({self.r.choice(['0', '1'])}, n, 3):",
                     [Stmt(f"y[i] = y[i] + {self.expr(self.i_terms())}")])]

    def t_time_branch(self):
        """A time loop whose body branches on the step."""
        return [Stmt("for t in range(steps):",
                     [Stmt("if t % 2 == 0:", [Stmt("y = y + a[0] * sin(y)")]),
                      Stmt("else:", [Stmt(self.r.choice(["y = y * (1 + 0.1 * a[0])",
                                                         "y = y + x * w[0]"]))])])]

    TEMPLATES = ("t_init_y", "t_time_tensor", "t_time_elem", "t_scatter", "t_gather",
                 "t_scalar_red", "t_local_acc", "t_time_local", "t_stencil1", "t_stencil2",
                 "t_branch", "t_tensor_acc", "t_triangular", "t_mv", "t_range_sym", "t_inout",
                 "t_stdlib", "t_stepped", "t_time_branch")

    def program(self, name):
        """A random program named NAME."""
        body = []
        for _ in range(self.r.randint(2, 5)):
            body += getattr(self, self.r.choice(self.TEMPLATES))()
        wrt = [w for w in WRT if self.chance(0.8)] or ["a"]
        if any("g2" in line for s in body for line in s.lines(0)) and self.chance(0.5):
            wrt.append("g2")
        tape = self.r.choice(["auto", "auto", "auto", "all", "none"])
        return Program(name, body, wrt, tape)


def sizes(rng):
    """Sizes for one program: n large enough that 4 threads split its loops
    into chunks of hundreds of iterations, m small (repeated scatter
    indices), k a 2-D grid side."""
    return {"steps": rng.randint(1, 6), "n": rng.choice([300, 700, 1500, 3000, 5000]),
            "m": rng.randint(3, 40), "k": rng.randint(8, 48)}


def program(seed, name):
    """The program of SEED, named NAME, and its sizes."""
    r = random.Random(seed)
    return Gen(r).program(name), sizes(r)
