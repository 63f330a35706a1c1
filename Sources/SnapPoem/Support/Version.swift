/// The version of snap-poem: the library, the `snap-poem` command (`snap-poem --version`)
/// and the `generator` fields of its outputs all report this one value.
///
/// Write it qualified, `SnapPoem.version`. It follows Semantic Versioning and names the
/// latest release in `CHANGELOG.md`; changes made since then are listed there under
/// "Unreleased" until the next release raises it.
///
/// The module has no type called `SnapPoem`, on purpose: a type named like its module hides
/// the module's name, so a client could no longer write `SnapPoem.PoemScanner` to tell
/// snap-poem's types from its own.
public let version = "0.1.0"
