import SnapPoemCLI

SnapPoemMain.main()
