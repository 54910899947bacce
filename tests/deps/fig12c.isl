# FreeTensor Fig. 12(c): reductions with one operator into one element do not
# order each other; a reduction with another operator does.
domain: [n, m] -> { S[i, j] : 0 <= i < n and 0 <= j < m; T[i] : 0 <= i < n }
schedule: [n, m] -> { S[i, j] -> [0, i, j]; T[i] -> [1, i, 0] }
reduce+: [n, m] -> { S[i, j] -> s[] }
reduce*: [n, m] -> { T[i] -> s[] }
RAW: [n, m] -> { S[i, j] -> T[k] : 0 <= i < n and 0 <= j < m and 0 <= k < n }
WAR: [n, m] -> { S[i, j] -> T[k] : 0 <= i < n and 0 <= j < m and 0 <= k < n }
WAW: [n, m] -> { S[i, j] -> T[k] : 0 <= i < n and 0 <= j < m and 0 <= k < n }
RED: [n, m] -> { S[i, j] -> S[i', j'] : 0 <= i < n and 0 <= j < m and 0 <= i' < n and 0 <= j' < m and (i' > i or (i' = i and j' > j)); T[i] -> T[i'] : 0 <= i < i' < n }
carried 1: no
reverses: [n, m] -> { S[i, j] -> [1, j, i]; T[i] -> [0, i, 0] }
keeps: [n, m] -> { S[i, j] -> [0, j, i]; T[i] -> [1, i, 0] }
