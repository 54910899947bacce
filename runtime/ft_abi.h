/* ft_abi.h - the description table every library built by ftc carries.
 *
 * This header is the single source of truth for that table: the runtime
 * includes it, and the C backend pastes its text verbatim into every
 * generated file (the build embeds it into ftc).  Keep it plain C99 with no
 * includes beyond <stdint.h>.
 *
 * A built library exports one symbol, `ft_module` (FT_MODULE_SYMBOL), of
 * type ft_module_desc, describing each
 * exported function: its parameters in order, with dtype, access, memory
 * type and shape.  Shapes are expressions of the size parameters, given both
 * as text (for messages) and through `shapes`, which evaluates all of them.
 *
 * Run-time errors.  Every check the library makes at run time (a negative
 * size, an `assert`, a data-dependent index, an allocation) is an error
 * site, described in `sites`: where it is in the user's program and what
 * it checks.  A call that fails returns the site's FT_ERR_* code and
 * records the site and the values the check saw in a per-thread record
 * of the library (the first failure of the call wins, also under OpenMP),
 * which `last_error` reads and formats ("prog.ft:3:9: index out of bounds:
 * ...").  Like errno, the record describes the last failed call of the
 * calling thread: read it after a call that returned non-zero.
 */
#ifndef FT_ABI_H
#define FT_ABI_H

#include <stddef.h>
#include <stdint.h>

#define FT_ABI_VERSION 3
#define FT_MODULE_SYMBOL "ft_module"

/* Parameter kinds. */
#define FT_PARAM_SIZE 0     /* an int64_t size, passed by value */
#define FT_PARAM_TENSOR 1   /* a pointer to contiguous data: row-major, or
                               * physical under a layout (see layout) */

/* dtype codes: the same order as ft_dtype in ast/ast.h. */
#define FT_ABI_BOOL 0
#define FT_ABI_I32 1
#define FT_ABI_I64 2
#define FT_ABI_F16 3
#define FT_ABI_F32 4
#define FT_ABI_F64 5

/* access codes: the same order as ft_access in ast/ast.h. */
#define FT_ABI_IN 0
#define FT_ABI_OUT 1
#define FT_ABI_INOUT 2

/* Return codes of an exported function. */
#define FT_OK 0
#define FT_ERR_SIZE 1       /* a size parameter was negative */
#define FT_ERR_ASSERT 2     /* an `assert` failed */
#define FT_ERR_INDEX 3      /* a data-dependent index was out of bounds */
#define FT_ERR_NOMEM 4      /* a local tensor could not be allocated */
#define FT_ERR_NODEVICE 5   /* CUDA modules: no usable CUDA device */
#define FT_ERR_NULL 6       /* a tensor parameter with elements was a NULL pointer */

/* Kinds of the values an error site records (ft_site_desc.kinds). */
#define FT_VAL_NONE 0       /* unused slot */
#define FT_VAL_INT 1        /* an int64_t */
#define FT_VAL_FLOAT 2      /* an f16/f32 value as a double, its bits in the int64_t */
#define FT_VAL_DOUBLE 3     /* an f64 value, its bits in the int64_t */
#define FT_VAL_BOOL 4       /* 0 or 1 */
#define FT_VAL_UINT 5       /* a size_t (bytes), as uint64_t bits */

/* One run-time check of the library. */
typedef struct ft_site_desc {
    int code;                        /* the FT_ERR_* its failure returns */
    const char *where;               /* "prog.ft:3:9": in the user's program
                                        (for inlined code, the call site) */
    const char *msg;                 /* what failed; "%0" and "%1" stand for
                                        the recorded values, "%%" for '%' */
    int kinds[2];                    /* FT_VAL_* of the two values */
} ft_site_desc;

/* What a failed call recorded. */
typedef struct ft_error_rec {
    int code;                        /* FT_ERR_* (FT_OK: no failure yet) */
    int site;                        /* index into sites; -1 if unknown */
    int64_t v[2];                    /* the values, as kinds says */
} ft_error_rec;

typedef struct ft_param_desc {
    const char *name;
    int kind;                        /* FT_PARAM_SIZE or FT_PARAM_TENSOR */
    int dtype;                       /* FT_ABI_* (FT_ABI_I64 for sizes) */
    int access;                      /* FT_ABI_IN/OUT/INOUT (IN for sizes) */
    int mtype;                       /* 0 cpu, 1 gpu, 2 gpu/shared, 3 gpu/local */
    int ndim;                        /* 0 for sizes and scalars */
    const char *const *shape_text;   /* ndim .ft expressions of the sizes */
    /* Version 3: a parameter declared `layout "L->P"` holds its physical
     * array (runtime/layout.h): layout is that text and ndim/shape_text
     * are the physical dimensions; lndim/lshape_text are always the
     * logical ones (the physical ones when layout is NULL: row-major). */
    const char *layout;
    int lndim;
    const char *const *lshape_text;
} ft_param_desc;

typedef struct ft_func_desc {
    const char *name;
    int nparams;
    const ft_param_desc *params;
    /* Call the function: args[k] points to an int64_t for a size parameter
     * and is the data pointer for a tensor.  Returns the function's code. */
    int (*call)(void *const *args);
    /* Evaluate every tensor dimension: sizes holds the values of the size
     * parameters in parameter order; dims receives the dimensions of every
     * tensor parameter, in parameter order, flattened. */
    void (*shapes)(const int64_t *sizes, int64_t *dims);
    /* The same for the logical dimensions (lndim of each tensor). */
    void (*logical_shapes)(const int64_t *sizes, int64_t *dims);
} ft_func_desc;

typedef struct ft_module_desc {
    int abi_version;                 /* FT_ABI_VERSION */
    int nfuncs;
    const ft_func_desc *funcs;
    int nsites;                      /* the run-time checks */
    const ft_site_desc *sites;
    /* The calling thread's last failure: copies the record into rec and
     * writes "where: message" into buf[size] (both may be NULL); returns
     * its code (FT_OK when no call of this thread failed yet). */
    int (*last_error)(ft_error_rec *rec, char *buf, size_t size);
} ft_module_desc;

#endif
