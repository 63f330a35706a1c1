import Foundation
import SnapPoemCLI

exit(await SnapPoemMain.run())
