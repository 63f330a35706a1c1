// Before any test runs, the test process installs the executable's overrides of library
// functions (Sources/CProcessOverrides), as snap-poem's main does first thing, so that the
// in-process tests read as the command reads. What a program that imports the SnapPoem
// library alone sees is checked by `make examples` (Examples/PoemTools) and its symbol test.
// Leptonica's messages are switched off too, as ProcessSettings.applyQuietDefaults() does.
#include "TestSetup.h"

#include <leptonica/allheaders.h>

#include "ProcessOverrides.h"

static int ran = 0;

__attribute__((constructor)) static void prepare_test_process(void) {
    snap_poem_overrides_install();
    setMsgSeverity(L_SEVERITY_NONE);
    ran = 1;
}

int snap_poem_test_setup_ran(void) { return ran; }
