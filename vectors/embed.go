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

//go:embed requirements
var requirements embed.FS

// RequirementsFS is the catalogue of the spec's requirements, rooted at
// vectors/requirements: one file per spec chapter and rulings.toml
// (package runner/requirement reads it). It is not part of FS: its files
// are not vectors.
var RequirementsFS fs.FS = mustSub(requirements, "requirements")

func mustSub(fsys fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // dir is a valid path
	}
	return sub
}
