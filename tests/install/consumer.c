/* SPDX-License-Identifier: BSD-2-Clause */
/* A program outside the project that uses the installed xcodec. */
#include <stdio.h>
#include <string.h>

#include <xcodec.h>

int main(void)
{
    if (xc_version() != XC_VERSION_NUMBER) {
        printf("version mismatch: header %d, library %u\n", XC_VERSION_NUMBER, xc_version());
        return 1;
    }
    uint32_t c = xc_crc32c(0, "123456789", 9);
    if (c != 0xE3069283u) {
        printf("crc32c check value wrong: %08x\n", (unsigned)c);
        return 1;
    }
    printf("xcodec %s: %s, crc32c by %s\n", xc_version_string(), xc_cpucap_describe(),
           xc_impl_name("crc32c"));
    return 0;
}
