package vectors

import (
	"embed"
	"io/fs"
)

//go:embed README.md all:required all:optional
var files embed.FS

// FS is the embedded conformance suite, rooted at the suite directory: it
// holds README.md, required/ and optional/. It may contain non-vector files
// such as .gitkeep; loaders consider only files ending in ".toml".
var FS fs.FS = files
