import Foundation

/// A step of a test that only root can take and that changes the machine while it lasts:
/// mounting a small tmpfs on a temporary folder (a full disk), or making a folder immutable
/// (`chattr +i`, the only way to refuse root a write). `make test` takes no such step, even
/// as root, so that it needs no root and leaves nothing behind if a test dies half-way (an
/// immutable folder cannot be removed, a mount outlives its process): a test that needs one
/// skips itself and says so. `make test-system`, as root, sets
/// `SNAP_POEM_TESTS_ROOT_STEPS=1` and runs those tests (ROOT_STEP_TESTS in the Makefile).
public enum RootStep {
    /// Whether this run takes root's steps: as root, and asked to by make test-system.
    public static var isAllowed: Bool { unavailable == nil }

    /// Why a test that needs root's steps skips itself here, or nil when it may take them.
    public static var unavailable: String? {
        guard ProcessInfo.processInfo.environment["SNAP_POEM_TESTS_ROOT_STEPS"] == "1" else {
            return "this test mounts a file system or makes a folder immutable, as root; make test takes no such step: "
                + "make test-system does, and runs this test"
        }
        guard getuid() == 0 else { return "SNAP_POEM_TESTS_ROOT_STEPS=1, but not root: no tmpfs can be mounted, no folder made immutable" }
        return nil
    }

    /// Whether this process runs as root, where a folder's permissions do not stop a write
    /// and only an immutable folder (a root step) does.
    public static var isRoot: Bool { getuid() == 0 }
}
