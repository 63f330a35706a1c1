// The test process is set up as the snap-poem executable sets itself up (TestSetup.c).
#ifndef SNAP_POEM_TEST_SETUP_H
#define SNAP_POEM_TEST_SETUP_H
/// 1 once the set-up ran (at load, before any test).
int snap_poem_test_setup_ran(void);
#endif
