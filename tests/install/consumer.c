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
    const uint8_t rfc1071[8] = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
    if (xc_inet_checksum(rfc1071, 8) != (uint16_t)~0xddf2) {
        printf("inet checksum of the RFC 1071 example wrong\n");
        return 1;
    }
    printf("xcodec %s: %s, crc32c by %s, inet by %s\n", xc_version_string(),
           xc_cpucap_describe(), xc_impl_name("crc32c"), xc_impl_name("inet"));
    return 0;
}
