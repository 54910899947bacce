export func f(n: size, m: size, idx: i32[n] in, a: f32[n, m] in, y: f32[n] out, z: f32[n, m] out, s: f32 out):
    L_i: for i in range(n):
        var t: f32
        t = 0.0
        L_j: for j in range(m):
            t += a[i, j] * a[idx[i], j]
        y[i] = t
        L_j_1: for j in range(m):
            z[i, j] = a[idx[i], j] * 2.0
    for i in range(n):
        for j in range(m):
            s += a[i, j]

schedule f:
    parallelize(L_i, openmp)
    vectorize(L_j)
    vectorize(L_j_1)
