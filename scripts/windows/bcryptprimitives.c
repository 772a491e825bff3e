/*
 * bcryptprimitives.dll for Wine 8.0, which lacks it: Rust's standard library
 * (1.78 and later) takes its random bytes from ProcessPrng there, and a
 * program that cannot import it exits 53 before main. This one forwards to
 * advapi32's RtlGenRandom (exported as SystemFunction036), which Wine has.
 * Real Windows 10 and later have the real DLL; scripts/test-windows.sh
 * builds this with mingw gcc and puts it in the Wine prefix's system32.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
