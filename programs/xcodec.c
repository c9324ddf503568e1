/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The xcodec command.  A first argument that names a subcommand (bench,
 * cpucap, crc32c, inet) runs it; anything else is the zstd-compatible mode,
 * so that `xcodec -d file.zst` and `xcodec < a > a.zst` work as with zstd.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
    if (argc >= 2) {
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
    int rc = xc_cli_zstd(argc - 1, argv + 1);
    if (fflush(stdout) != 0 && rc == XC_EXIT_OK) rc = XC_EXIT_ERROR;
    return rc;
}
