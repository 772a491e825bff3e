/*
 * A Windows process whose id the tests know: prints its own process id,
 * then sleeps the seconds its argument says (0: exits at once). The Wine
 * tests (tests/windows) use it as a live or a gone Claude Code for the
 * process checks. Built by scripts/test-windows.sh with mingw gcc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>

int main(int argc, char **argv)
{
    printf("%lu\n", (unsigned long)GetCurrentProcessId());
    fflush(stdout);
    if (argc > 1)
        Sleep((DWORD)atoi(argv[1]) * 1000);
    return 0;
}
