# One statement reads and writes x at different places (tags keep the two
# accesses apart): x[i] = x[i + 1] gives a WAR carried by the loop; a second
# statement rewriting x[i] gives a WAW within the iteration, and the RAW
# from the first write.
domain: [n] -> { A[i] : 0 <= i < n - 1; B[i] : 0 <= i < n - 1 }
schedule: [n] -> { A[i] -> [i, 0]; B[i] -> [i, 1] }
read: [n] -> { A[i] -> x[i + 1] }
write: [n] -> { A[i] -> x[i]; B[i] -> x[i] }
RAW: { }
WAR: [n] -> { A[i] -> A[i + 1] : 0 <= i < n - 2; A[i] -> B[i + 1] : 0 <= i < n - 2 }
WAW: [n] -> { A[i] -> B[i] : 0 <= i < n - 1 }
carried 0: yes
keeps: [n] -> { A[i] -> [i, 0]; B[i] -> [i, 1] }
reverses: [n] -> { A[i] -> [0, -i]; B[i] -> [1, i] }
