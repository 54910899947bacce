/* layout.h - physical layouts of tensors: "NCHW->NCHW8c".
 *
 * A layout string names each logical dimension with one capital letter
 * ("NCHW"), then the physical order: each capital once (that dimension's
 * outer part) plus blocks "<int><lower-case letter>", innermost last, as
 * oneDNN names its formats.  A blocked dimension of extent n is stored as
 * ceil(n / B) outer elements (B the product of its blocks) and one
 * dimension per block; the elements past n are padding.
 *
 * The compiler (the layout pass, transforms/layout.c) and the runtime
 * (ftc run's packing, rt_layout_pack) share this parser, so it is plain C
 * with no compiler context: errors come back as text and a column.
 */
#ifndef FT_RT_LAYOUT_H
#define FT_RT_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#define RT_LAYOUT_MAX_DIMS 32   /* logical dimensions, physical dimensions */

typedef struct rt_layout {
    int ndim;                          /* logical dimensions */
    int nphys;                         /* physical dimensions */
    char letter[RT_LAYOUT_MAX_DIMS];   /* logical dimension d's capital */
    int dim[RT_LAYOUT_MAX_DIMS];       /* physical dimension k: its logical one */
    int64_t block[RT_LAYOUT_MAX_DIMS]; /* physical dimension k: 0 for the outer
                                          part, else the block's size */
    int64_t inner[RT_LAYOUT_MAX_DIMS]; /* physical dimension k: the product of
                                          its dimension's blocks after it (the
                                          divisor of the logical index) */
    int64_t blocks[RT_LAYOUT_MAX_DIMS];/* logical dimension d: the product of
                                          its blocks (1 when unblocked) */
} rt_layout;

/* Parse text for a tensor of ndim dimensions (ndim < 0: any).  Returns 0
 * and fills *out, or 1 with a message in err[errsize] and *col the
 * 0-based offset into text of the fault. */
int rt_layout_parse(const char *text, int ndim, rt_layout *out, char *err, size_t errsize,
                    int *col);

/* Whether l stores the tensor row-major (no block, logical order). */
int rt_layout_is_identity(const rt_layout *l);

/* Whether a and b store a tensor the same way (the letters aside:
 * "NCHW->NHWC" and "ABCD->ACDB" are the same layout). */
int rt_layout_same(const rt_layout *a, const rt_layout *b);

/* The physical dimensions of logical shape lshape[l->ndim] into
 * pshape[l->nphys]; -1 where one overflows. */
void rt_layout_phys_shape(const rt_layout *l, const int64_t *lshape, int64_t *pshape);

/* The physical offset (in elements) of every logical element, in
 * row-major logical order, into out (as many entries as the logical
 * shape has elements); returns that count. */
size_t rt_layout_offsets(const rt_layout *l, const int64_t *lshape, size_t *out);

/* Copy between a row-major logical array and its physical array of esize
 * bytes per element (pack: logical to physical, pad elements set to 0;
 * unpack: physical to logical, pads ignored). */
void rt_layout_pack(const rt_layout *l, const int64_t *lshape, size_t esize, const void *logical,
                    void *physical);
void rt_layout_unpack(const rt_layout *l, const int64_t *lshape, size_t esize,
                      const void *physical, void *logical);

#endif
