/* SPDX-License-Identifier: BSD-2-Clause */
/* Version and error reporting. */
#include "xc_internal.h"

#define XC_STR2(x) #x
#define XC_STR(x) XC_STR2(x)

unsigned xc_version(void) { return XC_VERSION_NUMBER; }

const char *xc_version_string(void)
{
    return XC_STR(XC_VERSION_MAJOR) "." XC_STR(XC_VERSION_MINOR) "." XC_STR(XC_VERSION_PATCH);
}

int xc_is_error(size_t result) { return xc_iserr(result); }

enum xc_error xc_error_code(size_t result)
{
    if (!xc_iserr(result)) return XC_OK;
    return (enum xc_error)((size_t)0 - result);
}

/* Indexed by enum xc_error; the strings are part of the stable interface. */
static const char *const error_names[XC_ERROR__COUNT] = {
    [XC_OK] = "no error",
    [XC_ERROR_GENERIC] = "generic error",
    [XC_ERROR_CORRUPT] = "corrupt data",
    [XC_ERROR_TRUNCATED] = "input truncated",
    [XC_ERROR_DST_TOO_SMALL] = "destination buffer too small",
    [XC_ERROR_CHECKSUM] = "checksum mismatch",
    [XC_ERROR_WINDOW_TOO_LARGE] = "frame window larger than the limit",
    [XC_ERROR_DICT_MISMATCH] = "dictionary mismatch",
    [XC_ERROR_DICT_MISSING] = "dictionary missing",
    [XC_ERROR_DICT_CORRUPT] = "dictionary corrupt",
    [XC_ERROR_UNKNOWN_MAGIC] = "unknown frame magic",
    [XC_ERROR_BAD_PARAMETER] = "bad parameter",
    [XC_ERROR_OUT_OF_MEMORY] = "out of memory",
    [XC_ERROR_UNSUPPORTED] = "unsupported feature",
    [XC_ERROR_STAGE_WRONG] = "operation not allowed at this stage",
    [XC_ERROR_SRC_SIZE_WRONG] = "source size differs from the size announced",
    [XC_ERROR_TOO_FEW_SAMPLES] = "too few samples to train a dictionary (at least 5 needed)",
    [XC_ERROR_SAMPLES_TOO_SMALL] =
        "samples too small to train a dictionary (at least 512 bytes in total needed)",
    [XC_ERROR_FRAME_HEADER] = "frame header invalid or unsupported",
    [XC_ERROR_SEEK_TABLE_MISSING] = "seek table missing",
    [XC_ERROR_SEEK_TABLE_CORRUPT] = "seek table corrupt",
    [XC_ERROR_SEEK_TABLE_MISMATCH] = "frame disagrees with its seek table entry",
    [XC_ERROR_OUT_OF_RANGE] = "offset past the end of the content",
};

const char *xc_error_string(enum xc_error code)
{
    if ((unsigned)code >= XC_ERROR__COUNT || !error_names[code]) return "unknown error";
    return error_names[code];
}

const char *xc_error_name(size_t result) { return xc_error_string(xc_error_code(result)); }
