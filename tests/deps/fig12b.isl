# FreeTensor Fig. 12(b): distance (1, -1); interchanging the loops would run
# a sink before its source.
domain: [n, m] -> { S[i, j] : 1 <= i < n and 0 <= j < m - 1 }
schedule: [n, m] -> { S[i, j] -> [i, j] }
read: [n, m] -> { S[i, j] -> a[i - 1, j + 1] }
write: [n, m] -> { S[i, j] -> a[i, j] }
RAW: [n, m] -> { S[i, j] -> S[i + 1, j - 1] : 1 <= i < n - 1 and 1 <= j < m - 1 }
WAR: { }
WAW: { }
reverses: [n, m] -> { S[i, j] -> [j, i] }
keeps: [n, m] -> { S[i, j] -> [i, -j] }
