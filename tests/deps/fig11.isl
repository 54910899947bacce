# FreeTensor Fig. 11 as access relations: (1) writes a[i, j], (2) reads
# a[i - 2, j + 1]; the one dependence runs from (1) at (i - 2, j + 1) to
# (2) at (i, j), carried by the outer loop (schedule dimension 0).
domain: [n, m] -> { S1[i, j] : 0 <= i < n and 0 <= j < m; S2[i, j] : 2 <= i < n and 0 <= j < m - 1 }
schedule: [n, m] -> { S1[i, j] -> [i, j, 0]; S2[i, j] -> [i, j, 1] }
write: [n, m] -> { S1[i, j] -> a[i, j] }
read: [n, m] -> { S2[i, j] -> a[i - 2, j + 1] }
RAW: [n, m] -> { S1[i, j] -> S2[i + 2, j - 1] : 0 <= i < n - 2 and 1 <= j < m }
WAR: { }
WAW: { }
carried 0: yes
carried 1: no
