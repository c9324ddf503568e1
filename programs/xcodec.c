/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The xcodec command.  A first argument that names a subcommand (bench,
 * cpucap, crc32c, inet) runs it; anything else is the zstd-compatible mode,
 * so that `xcodec -d file.zst` and `xcodec < a > a.zst` work as with zstd.
 * Called by one of zstd's other names (a link named unzstd, zstdcat or
 * zstdmt), it starts with that name's defaults, as zstd does.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static enum xc_cli_persona persona_of(const char *argv0)
{
    const char *base = argv0 ? strrchr(argv0, '/') : NULL;
    base = base ? base + 1 : argv0 ? argv0 : "";
    if (strcmp(base, "unzstd") == 0) return XC_AS_UNZSTD;
    if (strcmp(base, "zstdcat") == 0) return XC_AS_ZSTDCAT;
    if (strcmp(base, "zstdmt") == 0) return XC_AS_ZSTDMT;
    return XC_AS_XCODEC;
}

int main(int argc, char **argv)
{
    enum xc_cli_persona persona = persona_of(argc > 0 ? argv[0] : NULL);
    if (argc >= 2 && persona == XC_AS_XCODEC) {
        const char *cmd = argv[1];
        if (strcmp(cmd, "bench") == 0) return xc_cli_bench(argc - 2, argv + 2);
        if (strcmp(cmd, "cpucap") == 0) return xc_cli_cpucap();
        if (strcmp(cmd, "crc32c") == 0 || strcmp(cmd, "inet") == 0)
            return xc_cli_sums(cmd, argc - 2, argv + 2);
        if (strcmp(cmd, "help") == 0) {
            xc_cli_usage(stdout);
            return XC_EXIT_OK;
        }
    }
    int rc = xc_cli_zstd(argc - 1, argv + 1, persona);
    if (fflush(stdout) != 0 && rc == XC_EXIT_OK) rc = XC_EXIT_ERROR;
    return rc;
}
