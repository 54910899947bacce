/* stdlib_doc.h - the standard library's documentation, `ftc stdlib`.
 *
 * The doc of a public function of a stdlib .ft file (a `func NAME` at column 0
 * whose NAME does not start with `_`) is the block of `#` lines at column 0
 * directly above its `func` line; a line of that block starting with
 * `# like:` names its PyTorch/NumPy equivalents.  An `op_` without a block
 * of its own is the in-place form of `op`.  The intrinsics and builtins,
 * which are not written in .ft, come from a table in stdlib_doc.c.  The
 * convention is stdlib/README.md's "Documentation".
 */
#ifndef FT_STDLIB_DOC_H
#define FT_STDLIB_DOC_H

#include <stdio.h>

/* One operator.  Every string is malloc-owned except file. */
typedef struct fe_doc {
    char *name;
    char *sig;          /* the parameter list, "(x, axis=None, keepdims=False)" */
    char *doc;          /* the comment block less `# ` and its like lines, each
                         * line ending in '\n'; "" when there is none */
    char *like;         /* the `# like:` text ("torch.sum, np.sum"); NULL if none */
    const char *file;   /* as given to fe_doc_parse (not owned); NULL for the
                         * compiler's intrinsics and builtins */
    const char *kind;   /* file == NULL: "intrinsic" or "builtin"; else NULL */
    int line;           /* the `func` line, 1-based; 0 for the intrinsics */
} fe_doc;

/* Operators in the order they were added. */
typedef struct fe_doc_list {
    fe_doc *v;          /* malloc-owned */
    int n, cap;
} fe_doc_list;

/* Append the public functions of one .ft text to l, in source order;
 * file names them (kept by pointer).  Returns 0, or -1 out of memory. */
int fe_doc_parse(fe_doc_list *l, const char *file, const char *text);

/* Append the compiler's intrinsics and builtins.  Returns 0 or -1. */
int fe_doc_add_intrinsics(fe_doc_list *l);

/* Free what l owns and empty it. */
void fe_doc_list_free(fe_doc_list *l);

/* The operator named name, or NULL. */
const fe_doc *fe_doc_find(const fe_doc_list *l, const char *name);

/* When d is an `op_` without a doc block of its own and `op` is listed,
 * `op`; else NULL. */
const fe_doc *fe_doc_inplace_of(const fe_doc_list *l, const fe_doc *d);

/* The operator whose name is closest to name (edit distance at most 2 and
 * at most half of name's length), for "did you mean"; NULL if none. */
const fe_doc *fe_doc_closest(const fe_doc_list *l, const char *name);

/* `ftc stdlib [NAME] [--markdown]`: the listing of the embedded stdlib
 * and the intrinsics, one operator's whole doc, or the listing as the
 * Markdown section of lang/reference.md.  Returns the exit status: 0, 1
 * for an unknown NAME (with a suggestion on err), 2 for NAME with
 * --markdown. */
int fe_stdlib_cmd(const char *name, int markdown, FILE *out, FILE *err);

#endif
